"""A company ready for documents: the accounts and rules documents post to (standard codes), a
customer, a supplier, a stocked product, a service and a CAI range for each series SAR numbers at
the default branch (an El Salvador shop, `country="SV"`, has no CAI: its invoices are DTEs)."""
from __future__ import annotations

import os
from decimal import Decimal
from typing import Any

from chalicelib import clock
from chalicelib.countries.sv.services.dte_authority import forget_authority_tokens
from chalicelib.settings import get_settings
from infra.devstack.dte_authority import register_taxpayer
from tests.dte_keys import SIGNING_KEY
from tests.setup_snapshots import remembered
from tests.support import (
    DOCUMENT_CHART,
    DOCUMENT_RULES,
    INVENTORY_CHART,
    INVENTORY_RULES,
    ApiClient,
    Books,
    CompanyFixture,
)

CAI = "35A4E1-6C8E5B-2F49A3-0C6F26-2C3E5A-0A"
# the types SAR numbers, one series each (113 shares the invoices'): Factura, Comprobante de
# Retención, Notas de Crédito and Débito, Guía de Remisión
CAI_SERIES = ("01", "05", "06", "07", "112")
SV_COMPANY_NIT = "0614-010190-101-3"
# what El Salvador's DTE formats ask of the issuer (CAT-019 46510: wholesale of computers)
# in the legacy formats (a company setting its issuer without formats2026From issues in the 2026 ones at
# once): the tests of the 2026 formats set the date themselves
SV_ISSUER = {"nrc": "123456-7", "economicActivityCode": "46510",
             "economicActivity": "Venta al por mayor de computadoras", "department": "06", "municipality": "14",
             "formats2026From": None}


AUTHORITY_PASSWORD = "clave-api-de-prueba"


def register_at_authority(api: ApiClient, company: CompanyFixture, public_key: str) -> None:
    """What an SV company does once at the tax authority (its certificate and API password, at the
    tests' stand-in) and here (the same password)."""
    register_taxpayer(os.environ["DTE_AUTHORITY_URL"], SV_COMPANY_NIT.replace("-", ""), AUTHORITY_PASSWORD,
                      public_key)
    reply = api.put(f"/companies/{company.company_id}/dte-authority-credentials", {"password": AUTHORITY_PASSWORD},
                    key=company.api_key)
    assert reply.status == 200, reply.text


class Shop:
    def __init__(self, api: ApiClient, company: CompanyFixture, *, range_size: int = 1000,
                 deadline: str = "2099-12-31", country: str = "HN", inventory: bool = False,
                 standard_chart: bool = False) -> None:
        """`inventory`: with the accounts and rules inventory adjustments post to;
        `standard_chart`: the country's standard chart imported instead of a small one."""
        self.api, self.key, self.company = api, company.api_key, company
        # a shop is requests on the table: restored when this process built the same one on the
        # same table before (tests/setup_snapshots.py)
        fields, accounts = remembered(get_settings().table_name, (
            "shop", company.company_id, company.api_key, range_size, deadline, country, inventory, standard_chart),
            lambda: self._build_kept(api, company, range_size, deadline, country, inventory, standard_chart))
        vars(self).update(fields)
        self.books = Books.of(api, company, accounts)
        if country == "SV":  # and outside the table, as when built: the stand-in authority knows its key and
            # password (registered again: idempotent), this process keeps no log-in token of an earlier password
            register_taxpayer(os.environ["DTE_AUTHORITY_URL"], SV_COMPANY_NIT.replace("-", ""), AUTHORITY_PASSWORD,
                              self.public_key)
            forget_authority_tokens(company.company_id)

    def _build_kept(self, api: ApiClient, company: CompanyFixture, range_size: int, deadline: str, country: str,
                    inventory: bool, standard_chart: bool) -> tuple[dict[str, Any], dict[str, int]]:
        """What a restored shop needs: its fields but the client's, and the chart's ids."""
        self._build(api, company, range_size, deadline, country, inventory, standard_chart)
        return ({name: value for name, value in vars(self).items() if name not in ("api", "books", "company")},
                self.books.accounts)

    def _build(self, api: ApiClient, company: CompanyFixture, range_size: int, deadline: str, country: str,
               inventory: bool, standard_chart: bool) -> None:
        # an SV invoice is a DTE, dated the day it is issued
        self.default_date = clock.today_in("SV") if country == "SV" else "2026-11-02"
        if country == "SV":  # El Salvador: US dollars, the company's NIT, no CAI
            reply = api.put(f"/companies/{company.company_id}", {
                "country": "SV", "currency": "USD", "taxId": SV_COMPANY_NIT, "address": "Calle Arce 123, San Salvador",
                "phone": "2222-3333", "email": "facturas@alpha.example", "dteIssuer": SV_ISSUER}, key=self.key)
            assert reply.status == 200, reply.text
            reply = api.put(f"/companies/{company.company_id}/dte-signing-key", {"privateKey": SIGNING_KEY},
                            key=self.key)
            assert reply.status == 200, reply.text
            self.public_key = reply.json["publicKey"]
            register_at_authority(api, company, self.public_key)
        self.books = Books(api, company) if standard_chart else Books(
            api, company, full=False, chart=INVENTORY_CHART if inventory else DOCUMENT_CHART,
            rules=INVENTORY_RULES if inventory else DOCUMENT_RULES)
        self.customer = self.created("/business-partners", {"name": "Cliente Uno", "type": "customer"})["id"]
        self.supplier = self.created("/business-partners", {"name": "Proveedor Uno", "type": "supplier"})["id"]
        self.rate = 0.13 if country == "SV" else 0.15  # El Salvador's IVA, Honduras' ISV
        self.product = self.created("/products", {"code": "P-1", "name": "Silla", "unitPrice": 100, "cost": 60,
                                                  "taxRate": self.rate})["id"]
        self.service = self.created("/products", {"code": "S-1", "name": "Instalación", "type": "service",
                                                  "unitPrice": 50, "taxRate": self.rate})["id"]
        # a Honduran company issues every document SAR numbers under a CAI: one range per series
        self.cai_ranges = {} if country == "SV" else {document_type: self.created(
            "/cai", {"cai": CAI, "branchId": 1, "emissionPoint": "001", "documentType": document_type, "rangeStart": 1,
                     "rangeEnd": range_size, "deadline": deadline}) for document_type in CAI_SERIES}
        self.cai_range = self.cai_ranges.get("01")

    def created(self, path: str, body: Any) -> Any:
        reply = self.api.post(path, body, key=self.key)
        assert reply.status == 201, reply.text
        return reply.json

    def document(self, doc_type: str, lines: list[tuple[int | None, Any, Any]] | None = None, *, expect: int = 201,
                 partner: int | None = None, **fields: Any) -> Any:
        """lines: (product id or None, quantity, unit price)."""
        if partner is None:
            partner = self.supplier if doc_type in ("103", "104", "105", "106", "102", "11") else self.customer
        body = {"type": doc_type, "businessPartnerId": partner, "date": fields.pop("date", self.default_date),
                "lines": [{"productId": p, "quantity": q, "unitPrice": u, **({} if p else {"description": "Varios"})}
                          for p, q, u in (lines or [(self.product, 1, 100)])], **fields}
        reply = self.api.post("/documents", body, key=self.key)
        assert reply.status == expect, reply.text
        return reply.json

    def action(self, document_id: int, action: str, body: Any = None, expect: int = 200) -> Any:
        reply = self.api.post(f"/documents/{document_id}/{action}", body or {}, key=self.key)
        assert reply.status == expect, reply.text
        return reply.json

    def get(self, document_id: int) -> Any:
        reply = self.api.get(f"/documents/{document_id}", key=self.key)
        assert reply.status == 200, reply.text
        return reply.json

    def stock(self, product: int | None = None, warehouse: int = 1) -> Decimal:
        reply = self.api.get(f"/inventory/stock?productId={product or self.product}&warehouseId={warehouse}",
                             key=self.key)
        assert reply.status == 200, reply.text
        return sum((Decimal(str(s["quantity"])) for s in reply.json["stock"]), Decimal(0))

    def partner(self, partner_id: int) -> Any:
        return self.api.get(f"/business-partners/{partner_id}", key=self.key).json

    def balance(self, code: str) -> Decimal:
        rows = {row["code"]: row for row in self.books.trial_balance()["accounts"]}
        return Decimal(str(rows[code]["balance"])) if code in rows else Decimal(0)

    def entry_lines(self, entry_id: int) -> dict[str, tuple[Decimal, Decimal]]:
        """code -> (debit, credit) of one journal entry."""
        entry = self.api.get(f"/journal-entries/{entry_id}", key=self.key).json
        codes = {account_id: code for code, account_id in self.books.accounts.items()}
        return {codes[line["chartOfAccountId"]]: (Decimal(str(line["debit"])), Decimal(str(line["credit"])))
                for line in entry["lines"]}


def dollar_shop(api: ApiClient, company: CompanyFixture) -> "Shop":
    """A shop that trades in dollars too: the exchange gain and loss accounts with their rules, and
    110104, the ledger a dollar bank account takes (empty: a bank's ledger starts with nothing)."""
    shop = Shop(api, company)

    def dollar_accounts() -> dict[str, int]:
        made = {}
        for code, name, kind, operation in (("4202", "Diferencial cambiario a favor", "income", "fx_gain"),
                                            ("6303", "Diferencial cambiario en contra", "expense", "fx_loss"),
                                            ("110104", "Banco dólares", "asset", None)):
            made[code] = shop.created("/chart-of-accounts", {"code": code, "name": name, "type": kind})["id"]
            if operation:
                shop.created("/account-determination-rules", {"operationType": operation,
                                                              "chartOfAccountId": made[code]})
        return made

    # restored like the shop when this process made them on the same table before
    shop.books.accounts.update(remembered(get_settings().table_name, ("dollar accounts", company.company_id),
                                          dollar_accounts))
    return shop


def outbox_payloads(table: Any, company_id: int) -> list[dict]:
    """Every event a company's commands wrote, oldest first."""
    items, _ = table.query(partition=("PK", f"C#{company_id}#EVT"), consistent=True)
    return [item["payload"] for item in items]
