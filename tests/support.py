"""Test helpers: an HTTP-ish client over the Chalice app and ready-made companies."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import pytest
from chalice.test import Client, HTTPResponse, TestHTTPClient

from chalicelib import jsoncodec
from chalicelib.services.identity import accounts, api_keys
from chalicelib.settings import get_settings
from infra.devstack.gateway import MISSING_ROUTE, gateway_response
from tests.setup_snapshots import remembered

# A test that races writers against one another keeps the emulator: its transactions in flight conflict,
# where the in-memory engine (infra/devstack/memory_dynamodb.py) answers one call at a time.
RACES = pytest.mark.emulator("races writers: on the emulator, transactions in flight conflict")

ORIGIN = "http://localhost:8000"
PASSWORD = "correct horse battery"


@dataclass
class Reply:
    status: int
    headers: dict[str, str]
    text: str

    @property
    def json(self) -> Any:
        return jsoncodec.loads(self.text) if self.text else None

    def header(self, name: str) -> str | None:
        return next((v for k, v in self.headers.items() if k.lower() == name.lower()), None)


class GatewayHTTPClient(TestHTTPClient):
    """chalice.test's HTTP client, answering an unknown path as the deployed gateway does."""

    def _error_response(self, e: Any) -> HTTPResponse:
        return HTTPResponse.create_from_dict(gateway_response(MISSING_ROUTE))


class ApiClient:
    def __init__(self, app: Any) -> None:
        self.http = GatewayHTTPClient(app, Client(app)._chalice_config)

    def request(self, method: str, path: str, *, body: Any = None, raw: bytes | None = None,
                key: str | None = None, cookie: str | None = None, origin: str | None = None,
                headers: dict[str, str] | None = None, bearer: bool = True) -> Reply:
        sent = {"content-type": "application/json"}
        if key:
            sent["authorization" if bearer else "x-api-key"] = f"Bearer {key}" if bearer else key
        if cookie:
            sent["cookie"] = f"accessToken={cookie}"
        if origin:
            sent["origin"] = origin
        sent.update(headers or {})
        payload = raw if raw is not None else (jsoncodec.dumps(body).encode() if body is not None else b"")
        response = self.http.request(method, path, headers=sent, body=payload)
        return Reply(response.status_code, dict(response.headers), response.body.decode())

    def get(self, path: str, **kwargs: Any) -> Reply:
        return self.request("GET", path, **kwargs)

    def post(self, path: str, body: Any = None, **kwargs: Any) -> Reply:
        return self.request("POST", path, body=body, **kwargs)

    def put(self, path: str, body: Any = None, **kwargs: Any) -> Reply:
        return self.request("PUT", path, body=body, **kwargs)

    def delete(self, path: str, **kwargs: Any) -> Reply:
        return self.request("DELETE", path, **kwargs)

    def login(self, email: str, password: str = PASSWORD) -> str:
        reply = self.post("/auth/login", {"email": email, "password": password}, origin=ORIGIN)
        assert reply.status == 200, reply.text
        cookie = reply.header("Set-Cookie") or ""
        return cookie.split(";")[0].split("=", 1)[1]


@dataclass
class CompanyFixture:
    company_id: int
    user_id: int
    email: str
    api_key: str


def make_company(table: Any, name: str, email: str, password: str = PASSWORD) -> CompanyFixture:
    """A Honduran company, its owner and an API key (restored when this process made the same one on
    the same table before: tests/setup_snapshots.py)."""
    def build() -> CompanyFixture:
        user = accounts.create_user(table, email, password, name=f"Owner of {name}")
        company = accounts.create_company(table, user["id"], {"name": name, "country": "HN"})
        item, secret, transaction = api_keys.issue_key(table, company["id"], user["id"], "test key")
        transaction.commit()
        return CompanyFixture(company["id"], user["id"], email, f"{item['id']}:{secret}")

    return remembered(table.name, ("company", name, email, password), build)


# A few accounts of the standard chart: enough for most tests, cheaper than the full import.
SMALL_CHART = (("110101", "Caja general", "asset"), ("110103", "Bancos", "asset"),
               ("210101", "Proveedores locales", "liability"), ("3101", "Capital social", "equity"),
               ("410101", "Ventas gravadas", "income"), ("6199", "Otros gastos", "expense"))
# ... and the equity a bank account's opening balance posts against (its ledger is a control account)
OPENING_CHART = SMALL_CHART + (("3401", "Patrimonio de apertura", "equity"),)
OPENING_RULES = (("opening_balance_equity", None, "3401"),)


# The accounts and determination rules documents and payments post to, with the standard chart's
# codes: a small chart keeps set-up and trial balances cheap.
DOCUMENT_CHART = (("110101", "Caja general", "asset"), ("110103", "Bancos", "asset"),
                  ("110402", "Retenciones a favor", "asset"), ("210202", "Retenciones por pagar", "liability"),
                  ("110201", "Clientes", "asset"), ("110401", "ISV crédito fiscal", "asset"),
                  ("110501", "Inventario de mercadería", "asset"), ("210101", "Proveedores locales", "liability"),
                  ("210102", "Proveedores del exterior", "liability"), ("210201", "ISV por pagar", "liability"),
                  ("410101", "Ventas gravadas", "income"), ("4102", "Devoluciones sobre ventas", "income"),
                  ("5101", "Costo de mercadería vendida", "cost"), ("5102", "Compras", "cost"),
                  ("5104", "Devoluciones sobre compras", "cost"), ("6199", "Otros gastos", "expense"),
                  ("210401", "Anticipos de clientes", "liability"), ("110301", "Anticipos a proveedores", "asset"),
                  ("3401", "Patrimonio de apertura", "equity"))
DOCUMENT_RULES = (("receivable", None, "110201"), ("payable", None, "210101"), ("payable", "104", "210102"),
                  ("revenue", None, "410101"), ("revenue", "06", "4102"), ("expense", None, "5102"),
                  ("expense", "11", "6199"), ("expense", "105", "5104"), ("tax_sales", None, "210201"),
                  ("tax_purchases", None, "110401"), ("inventory", None, "110501"), ("cost_of_sales", None, "5101"),
                  ("cash", None, "110101"), ("bank", None, "110103"), ("withholding", None, "110402"),
                  ("withholding", "103", "210202"), ("customer_advance", None, "210401"),
                  ("supplier_advance", None, "110301")) + OPENING_RULES
# ... and what inventory adjustments post to
INVENTORY_CHART = DOCUMENT_CHART + (("4204", "Sobrantes de inventario", "income"),
                                    ("5106", "Mermas y faltantes de inventario", "cost"))
INVENTORY_RULES = DOCUMENT_RULES + (("inventory_adjustment_gain", None, "4204"),
                                    ("inventory_adjustment_loss", None, "5106"))


class Books:
    """A company's books through the API, accounts by code: the standard chart imported, or
    (full=False) the given accounts (SMALL_CHART by default) and determination rules."""

    def __init__(self, api: ApiClient, company: CompanyFixture, full: bool = True,
                 chart: tuple[tuple[str, str, str], ...] = SMALL_CHART,
                 rules: tuple[tuple[str, str | None, str], ...] = ()) -> None:
        self.api, self.key = api, company.api_key
        self.accounts: dict[str, int] = remembered(get_settings().table_name, (
            "books", company.company_id, company.api_key, full, chart if not full else None, rules), lambda: self._build(full, chart, rules))

    @classmethod
    def of(cls, api: ApiClient, company: CompanyFixture, accounts: dict[str, int]) -> Books:
        """The books of a company whose chart is already made (its accounts' ids by code)."""
        books = cls.__new__(cls)
        books.api, books.key, books.accounts = api, company.api_key, dict(accounts)
        return books

    def _build(self, full: bool, chart: tuple[tuple[str, str, str], ...],
               rules: tuple[tuple[str, str | None, str], ...]) -> dict[str, int]:
        api = self.api
        if full:
            reply = api.post("/chart-of-accounts/import-default", key=self.key)
            assert reply.status in (200, 201), reply.text
        else:
            created = {}
            for code, name, account_type in chart:
                reply = api.post("/chart-of-accounts", {"code": code, "name": name, "type": account_type},
                                 key=self.key)
                assert reply.status == 201, reply.text
                created[code] = reply.json["id"]
            for operation, document_type, code in rules:
                reply = api.post("/account-determination-rules", {"operationType": operation, "documentType": document_type,
                                                                  "chartOfAccountId": created[code]}, key=self.key)
                assert reply.status == 201, reply.text
        accounts: dict[str, int] = {}
        page = 1
        while True:
            listed = api.get(f"/chart-of-accounts?limit=100&page={page}", key=self.key).json
            accounts.update({a["code"]: a["id"] for a in listed["accounts"]})
            if page * 100 >= listed["total"]:
                break
            page += 1
        return accounts

    def __getitem__(self, code: str) -> int:
        return self.accounts[code]

    def entry(self, date: str, *lines: tuple[str, Any, Any], status: str = "posted", expect: int = 201,
              **fields: Any) -> Any:
        """lines: (account code, debit, credit)."""
        body = {"date": date, "status": status, **fields,
                "lines": [{"chartOfAccountId": self.accounts[code], "debit": debit, "credit": credit}
                          for code, debit, credit in lines]}
        reply = self.api.post("/journal-entries", body, key=self.key)
        assert reply.status == expect, reply.text
        return reply.json

    def ledger(self, code: str, start: str = "2000-01-01", end: str = "2099-12-31", **params: Any) -> Any:
        query = "&".join(f"{k}={v}" for k, v in params.items())
        reply = self.api.get(f"/journal-entries/ledger?chartOfAccountId={self.accounts[code]}"
                             f"&startDate={start}&endDate={end}" + (f"&{query}" if query else ""), key=self.key)
        assert reply.status == 200, reply.text
        return reply.json

    def trial_balance(self, date: str = "2099-12-31") -> Any:
        reply = self.api.get(f"/journal-entries/trial-balance?date={date}", key=self.key)
        assert reply.status == 200, reply.text
        return reply.json


def walk_cursor(fetch: Any, field: str) -> list[Any]:
    """Every item of a list followed page by page through `nextCursor`; `fetch(cursor)` reads
    one page (cursor None for the first)."""
    seen, cursor = [], None
    while True:
        page = fetch(cursor)
        seen += page[field]
        cursor = page["nextCursor"]
        if not cursor:
            return seen
