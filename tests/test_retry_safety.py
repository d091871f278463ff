"""Every creating route is safe to retry (issue 15, item 2): each POST route of the route table
that takes an Idempotency-Key is sent twice with the same key and body. The first answer is a
success; the second replays it (same status, same body, `Idempotent-Replayed: true`) and changes
nothing in the table: exactly one effect. A route that shows a secret once replays the
documented answer instead (the secret as null).

One example per route, keyed by the route's path: a new idempotent POST route without one fails
`test_every_idempotent_post_route_has_an_example`. The world (a company ready for documents) is
built once for the module; each example makes what it acts on, so examples do not depend on each
other."""
from __future__ import annotations

import base64
import datetime
import itertools
import os
from dataclasses import dataclass, field
from typing import Any, Callable

import boto3
import pytest
from moto import mock_aws

import app  # noqa: F401  (registers every route in ROUTES)
from chalicelib.api.routing import ROUTES
from chalicelib.events import mail
from chalicelib.services.integrations import webhooks
from chalicelib.settings import get_settings, reset_settings
from chalicelib.store.table import get_table, reset_table
from infra.deploy.resources import create_attachments_bucket, create_bucket, create_table, verify_mail_sender
from tests.conftest import table_engine
from tests.documents_support import CAI, Shop
from tests.dynamodb_local import on_dynamodb_local
from tests.support import ORIGIN, ApiClient, Reply, make_company
from tests.users_support import scan

IDEMPOTENT_POSTS = [r for r in ROUTES if r.method == "POST" and r.idempotent]
WEB_ONLY = ("WEB_SESSION", "KEY_MANAGEMENT")
HOOK_URL = "https://hooks.example.com/receiver"


@dataclass
class World:
    api: ApiClient
    table: Any
    shop: Shop
    cookie: str
    sent_mail: list[Any]
    serial: Callable[[], int] = field(default_factory=lambda: itertools.count(1).__next__)

    @property
    def key(self) -> str:
        return self.shop.key

    def account(self, code: str) -> int:
        return self.shop.books[code]

    def created(self, path: str, body: Any = None, *, web: bool = False, expect: int = 201) -> Any:
        """A prerequisite, made without an Idempotency-Key."""
        reply = (self.api.post(path, body or {}, cookie=self.cookie, origin=ORIGIN) if web
                 else self.api.post(path, body or {}, key=self.key))
        assert reply.status == expect, f"{path}: {reply.text}"
        return reply.json

    def invoice(self, **fields: Any) -> Any:
        return self.shop.document("01", [(self.shop.service, 1, 100)], **fields)

    def bank_account(self) -> Any:
        """Each on a ledger account of its own, as every bank account is (a control account)."""
        serial = self.serial()
        ledger = self.created("/chart-of-accounts", {"code": f"1101{50 + serial}", "name": f"Banco {serial}",
                                                     "type": "asset"})
        return self.created("/bank-accounts", {"name": f"Cuenta {serial}", "openingBalance": 1000,
                                               "openingBalanceDate": "2026-11-01", "chartOfAccountId": ledger["id"]})

    def method(self, **fields: Any) -> Any:
        return self.created("/payments/methods", {"name": f"Método {self.serial()}", **fields})

    def period(self, month: int, close: bool = False) -> Any:
        period = self.created("/accounting-periods", {"name": f"2025-{month:02}", "startDate": f"2025-{month:02}-01",
                                                      "endDate": f"2025-{month:02}-28"})
        if close:
            self.created(f"/accounting-periods/{period['id']}/close", expect=200)
        return period

    def closed_year(self) -> int:
        year = 1950 + self.serial()
        self.created(f"/fiscal-years/{year}/close", expect=200)
        return year

    def entry(self, status: str) -> Any:
        return self.created("/journal-entries", entry_body(self, status))


def entry_body(w: World, status: str) -> dict[str, Any]:
    return {"date": "2026-11-02", "status": status, "description": "Venta de contado",
            "lines": [{"chartOfAccountId": w.account("110101"), "debit": 10, "credit": 0},
                      {"chartOfAccountId": w.account("410101"), "debit": 0, "credit": 10}]}


def gateway_body(w: World) -> dict[str, Any]:
    from tests.gateway_support import PIXELPAY_KEY_ID, clearing_method

    return {"name": f"Cobros {w.serial()}", "provider": "pixelpay", "keyId": PIXELPAY_KEY_ID,
            "paymentMethodId": clearing_method(w.shop)["id"], "secret": "gwa_secret_0123456789abcdefXYZ1"}


def pending_payment(w: World) -> tuple[int, int]:
    invoice = w.invoice()
    method = w.method(requiresConfirmation=True)
    payment = w.created(f"/payments/documents/{invoice['id']}/payments",
                        {"paymentMethodId": method["id"], "amount": 10, "paymentDate": "2026-11-03"})
    assert payment["status"] == "pending", payment
    return invoice["id"], payment["id"]


def confirmed_payment(w: World) -> tuple[int, int]:
    invoice = w.invoice()
    payment = w.created(f"/payments/documents/{invoice['id']}/payments",
                        {"paymentMethodId": w.method()["id"], "amount": 10, "paymentDate": "2026-11-03"})
    return invoice["id"], payment["id"]


def advance_and_invoice(w: World) -> int:
    order = w.shop.document("101", [(w.shop.service, 1, 100)])
    w.created(f"/payments/documents/{order['id']}/payments",
              {"paymentMethodId": w.method()["id"], "amount": 50, "paymentDate": "2026-11-03"})
    return w.invoice(sourceDocumentId=order["id"])["id"]


def reconciliation(w: World) -> tuple[int, int]:
    account = w.bank_account()["id"]
    draft = w.created(f"/bank-accounts/{account}/reconciliations",
                      {"statementDate": "2026-11-30", "statementBalance": 1000, "clearedTransactionIds": []})
    return account, draft["id"]


def salvadoran_dte(w: World) -> tuple[str, dict[str, Any], str]:
    """An invalidation is El Salvador's: a company of its own (the world's is Honduran), an accepted
    DTE, and that company's key to send with."""
    company = make_company(w.table, f"Beta {w.serial()} S.A. de C.V.", f"owner{w.serial()}@beta.sv")
    shop = Shop(w.api, company, country="SV")
    # the invalidation event names the receiver: a consumer with a DUI and an e-mail
    w.api.put(f"/business-partners/{shop.customer}", {"taxId": "01234567-8", "email": "ana@example.com"},
              key=company.api_key)
    invoice = shop.document("01", [(shop.service, 1, 50)])
    assert invoice["dte"]["status"] == "accepted", invoice["dte"]
    person = {"name": "Marta Ruiz", "documentType": "13", "documentNumber": "01234567-8"}
    return (f"/documents/{invoice['id']}/invalidate",
            {"invalidationType": 2, "responsible": person, "requester": person}, company.api_key)


def invited(w: World) -> int:
    return w.created("/settings/users", {"email": f"invitada{w.serial()}@alpha.hn", "name": "Ana López",
                                         "role": "seller"}, web=True)["id"]


def statement_line(w: World, amount: str = "-10.00", then: str | None = None) -> str:
    """A line put into a new account's statement, matched (to a new withdrawal) or ignored
    first when `then` says so: the path of the line."""
    from tests.statement_lines_support import put_lines

    account = w.bank_account()["id"]
    line, = put_lines(w.table, w.shop.company.company_id, account, [("2026-11-05", amount, "COMISION", None)])
    line_path = f"/bank-accounts/{account}/statement-lines/{line}"
    if then == "match":
        w.created(line_path + "/match", {"create": {"chartOfAccountId": w.account("6199"), "description": "Comisión"}},
                  expect=200)
    elif then == "ignore":
        w.created(line_path + "/ignore", expect=200)
    return line_path


Example = Callable[[World], "tuple[str, Any] | tuple[str, Any, str]"]

# route path -> the concrete path and a valid body, given the world
EXAMPLES: dict[str, Example] = {
    "/chart-of-accounts": lambda w: (
        "/chart-of-accounts", {"code": f"6198{w.serial():02}", "name": "Gastos varios", "type": "expense"}),
    "/chart-of-accounts/import-default": lambda w: ("/chart-of-accounts/import-default", {}),
    "/journal-entries": lambda w: ("/journal-entries", entry_body(w, "posted")),
    "/journal-entries/{id}/post": lambda w: (f"/journal-entries/{w.entry('draft')['id']}/post", {}),
    "/journal-entries/{id}/reverse": lambda w: (
        f"/journal-entries/{w.entry('posted')['id']}/reverse", {"date": "2026-11-04", "description": "Error"}),
    "/accounting-periods": lambda w: (
        "/accounting-periods", {"name": "2025-01", "startDate": "2025-01-01", "endDate": "2025-01-31"}),
    "/accounting-periods/{id}/close": lambda w: (f"/accounting-periods/{w.period(2)['id']}/close", {}),
    "/accounting-periods/{id}/reopen": lambda w: (f"/accounting-periods/{w.period(3, close=True)['id']}/reopen", {}),
    # years with nothing in them: each example its own
    "/fiscal-years/{year}/close": lambda w: (f"/fiscal-years/{1950 + w.serial()}/close", {}),
    "/fiscal-years/{year}/reopen": lambda w: (f"/fiscal-years/{w.closed_year()}/reopen", {}),
    "/exchange-rates": lambda w: ("/exchange-rates", {
        "currency": "USD", "date": (datetime.date(2020, 1, 1) + datetime.timedelta(days=w.serial())).isoformat(),
        "rate": "24.6512"}),
    # issue 44: reval (a date with nothing open: the record alone, its date its own)
    "/revaluations": lambda w: ("/revaluations", {
        "date": (datetime.date(2019, 1, 1) + datetime.timedelta(days=w.serial())).isoformat()}),
    # fix-reval2: an empty revaluation of a date of its own, voided (the record moved off its date)
    "/revaluations/{id}/void": lambda w: ("/revaluations/%d/void" % w.created("/revaluations", {
        "date": (datetime.date(2018, 1, 1) + datetime.timedelta(days=w.serial())).isoformat()})["id"], {}),
    "/business-partners/{id}/opening-balance": lambda w: (
        f"/business-partners/{w.shop.customer}/opening-balance", {"date": "2026-10-31", "amount": "1500.00",
                                                                  "dueDate": "2026-10-15", "reference": "FAC-0991"}),
    "/account-determination-rules": lambda w: (
        "/account-determination-rules", {"operationType": "expense", "documentType": "112",
                                         "chartOfAccountId": w.account("6199")}),
    "/settings/api-keys": lambda w: ("/settings/api-keys", {"name": "ERP"}),
    "/settings/api-keys/{id}/revoke": lambda w: (
        f"/settings/api-keys/{w.created('/settings/api-keys', {'name': 'Vieja'}, web=True)['id']}/revoke", {}),
    "/bank-accounts": lambda w: (
        "/bank-accounts", {"name": "Ahorros", "bankName": "Banco Atlántida", "openingBalance": 500,
                           "openingBalanceDate": "2026-11-01", "chartOfAccountId": w.account("110103")}),
    "/bank-accounts/{accountId}/transactions": lambda w: (
        f"/bank-accounts/{w.bank_account()['id']}/transactions",
        {"type": "deposit", "amount": 25, "transactionDate": "2026-11-05", "reference": "DEP-1",
         "chartOfAccountId": w.account("410101")}),
    # issue 39: settle (an invoice's 15.00 of ISV owed, paid from a bank account)
    "/tax-settlements": lambda w: (
        "/tax-settlements", {"date": "2026-12-05", "periodEnd": "2026-11-30", "bankAccountId": w.bank_account()["id"]}
        if w.invoice() else None),
    "/bank-transactions/transfer": lambda w: (
        "/bank-transactions/transfer", {"fromAccountId": w.bank_account()["id"], "toAccountId": w.bank_account()["id"],
                                        "amount": 200, "transactionDate": "2026-11-07", "reference": "TR-1"}),
    "/bank-accounts/{accountId}/reconciliations": lambda w: (
        f"/bank-accounts/{w.bank_account()['id']}/reconciliations",
        {"statementDate": "2026-11-30", "statementBalance": 1000, "clearedTransactionIds": []}),
    "/bank-accounts/{accountId}/reconciliations/{reconciliationId}/complete": lambda w: (
        "/bank-accounts/{}/reconciliations/{}/complete".format(*reconciliation(w)), {}),
    "/companies": lambda w: ("/companies", {"name": "Gamma S.A.", "country": "HN"}),
    "/documents": lambda w: (
        "/documents", {"type": "01", "businessPartnerId": w.shop.customer, "date": "2026-11-02",
                       "lines": [{"productId": w.shop.service, "quantity": 1, "unitPrice": 100}]}),
    "/documents/{id}/confirm": lambda w: (
        f"/documents/{w.invoice(status='draft')['id']}/confirm", {}),
    "/documents/{id}/unconfirm": lambda w: (
        f"/documents/{w.shop.document('103', [(w.shop.product, 2, 50)])['id']}/unconfirm", {}),
    "/documents/{id}/invalidate": salvadoran_dte,
    "/documents/{id}/cancel": lambda w: (
        f"/documents/{w.shop.document('104', [(w.shop.product, 1, 40)])['id']}/cancel", {"reason": "Error"}),
    "/payments/gateways": lambda w: ("/payments/gateways", gateway_body(w)),
    "/payments/generate-link": lambda w: (
        "/payments/generate-link", {"documentId": w.invoice()["id"],
                                    "gatewayId": w.created("/payments/gateways", gateway_body(w))["id"]}),
    "/branch": lambda w: ("/branch", {"name": "Sucursal Norte", "code": "002"}),
    "/cai": lambda w: (
        "/cai", {"cai": CAI, "branchId": 1, "emissionPoint": "002", "documentType": "01", "rangeStart": 1,
                 "rangeEnd": 100, "deadline": "2099-12-31"}),
    "/warehouses": lambda w: ("/warehouses", {"name": "Bodega Sur"}),
    "/business-partners": lambda w: ("/business-partners", {"name": "Cliente Dos", "type": "customer"}),
    "/payment-conditions": lambda w: ("/payment-conditions", {"name": "Crédito 30", "type": "credit",
                                                              "creditDays": 30}),
    "/payments/methods": lambda w: ("/payments/methods", {"name": "Efectivo", "isCashMethod": True}),
    "/payments/documents/{documentId}/payments": lambda w: (
        f"/payments/documents/{w.invoice()['id']}/payments",
        {"paymentMethodId": w.method()["id"], "amount": 40, "paymentDate": "2026-11-03", "reference": "R-1"}),
    "/payments/documents/{documentId}/payments/{paymentId}/confirm": lambda w: (
        "/payments/documents/{}/payments/{}/confirm".format(*pending_payment(w)), {}),
    "/payments/documents/{documentId}/payments/{paymentId}/cancel": lambda w: (
        "/payments/documents/{}/payments/{}/cancel".format(*confirmed_payment(w)), {"reason": "Cheque rebotado"}),
    "/payments/documents/{documentId}/apply-advances-from-source": lambda w: (
        f"/payments/documents/{advance_and_invoice(w)}/apply-advances-from-source", {}),
    "/send-document": lambda w: (
        "/send-document", {"documentId": w.invoice()["id"], "email": "cliente@example.com", "sendFrom": "email"}),
    "/products": lambda w: ("/products", {"code": "P-2", "name": "Mesa", "unitPrice": 300, "cost": 200}),
    "/inventory/adjustments": lambda w: (
        "/inventory/adjustments", {"warehouseId": 1, "date": "2026-11-03", "reason": "count",
                                   "lines": [{"productId": w.shop.product, "countedQuantity": 7, "unitCost": 55}]}),
    "/inventory/transfers": lambda w: (
        "/inventory/transfers", {"fromWarehouseId": 1, "toWarehouseId": w.created("/warehouses", {"name": "Tránsito"})["id"],
                                 "date": "2026-11-03",
                                 "lines": [{"productId": w.shop.document("103", [(w.shop.product, 3, 50)])["lines"][0]["productId"],
                                            "quantity": 2}]}),
    "/scheduled-invoices": lambda w: (
        "/scheduled-invoices", {"businessPartnerId": w.shop.customer, "frequency": "monthly",
                                "startDate": "2026-12-01",
                                "lines": [{"productId": w.shop.service, "quantity": 1, "unitPrice": 50}]}),
    "/settings/users": lambda w: ("/settings/users", {"email": "ana@alpha.hn", "name": "Ana López", "role": "seller"}),
    "/settings/users/{id}/resend-invitation": lambda w: (f"/settings/users/{invited(w)}/resend-invitation", {}),
    "/settings/webhooks": lambda w: (
        "/settings/webhooks", {"name": "ERP", "url": HOOK_URL, "events": ["document.confirmed"]}),
    "/imports": lambda w: ("/imports", {"kind": "products", "fileName": "productos.csv", "content": base64.b64encode(
        f"code,name\nRET-{w.serial()},Producto importado\n".encode()).decode()}),
    "/exports/company": lambda w: ("/exports/company", {}),
    # issue 42: imports (an OFX statement of one line, its own FITID each time)
    "/bank-accounts/{accountId}/statements": lambda w: (
        f"/bank-accounts/{w.bank_account()['id']}/statements", {"fileName": "estado.ofx", "content": base64.b64encode(
            statement_ofx(f"RET-{w.serial()}")).decode()}),
    # issue 44: attachments (a draft entry's receipt)
    "/attachments": lambda w: ("/attachments", {"recordType": "journalEntry", "recordId": w.entry("draft")["id"],
                                                "fileName": "recibo.pdf", "contentType": "application/pdf", "size": 1024}),
    # issue 42: rules
    "/bank-rules": lambda w: ("/bank-rules", {"name": "Comisiones", "conditions": [
        {"field": "description", "operator": "contains", "value": "comisión"}],
        "action": {"chartOfAccountId": w.account("6199"), "taxRate": 0.15}}),
    # issue 42: match
    "/bank-accounts/{accountId}/statement-lines/{lineId}/match": lambda w: (
        statement_line(w) + "/match", {"create": {"chartOfAccountId": w.account("6199"), "description": "Comisión",
                                                  "taxRate": "0.15"}}),
    "/bank-accounts/{accountId}/statement-lines/{lineId}/unmatch": lambda w: (
        statement_line(w, then="match") + "/unmatch", {}),
    "/bank-accounts/{accountId}/statement-lines/{lineId}/ignore": lambda w: (statement_line(w) + "/ignore", {}),
    "/bank-accounts/{accountId}/statement-lines/{lineId}/unignore": lambda w: (
        statement_line(w, then="ignore") + "/unignore", {}),
    # issue 43: books
    "/payments/gateways/{id}/payouts": lambda w: gateway_payout(w),
    # issue 44: dims (the world's company makes two dimensions of its five here)
    "/dimensions": lambda w: ("/dimensions", {"name": f"Sucursal {w.serial()}", "values": [{"name": "Centro"}]}),
    "/dimensions/{dimensionId}/values": lambda w: (
        f"/dimensions/{w.created('/dimensions', {'name': f'Proyecto {w.serial()}'})['id']}/values",
        {"code": "A", "name": "Edificio A"}),
    # issue 44: budgets (its own name each time: names are unique within a year)
    "/budgets": lambda w: ("/budgets", {"name": f"Presupuesto {w.serial()}", "year": 2026, "lines": [
        {"chartOfAccountId": w.account("6199"), "month": 3, "amount": "125.50"}]}),
}


def gateway_payout(w: World) -> tuple[str, dict[str, Any]]:
    """A gateway whose clearing account holds 1,000.00 (its opening balance), paying 10.00 out."""
    from tests.gateway_books_support import put_gateway

    clearing = w.bank_account()
    gateway = put_gateway(w.table, w.shop.company.company_id, provider="pixelpay",
                          method_id=w.method(bankAccountId=clearing["id"])["id"], fee_account_id=w.account("6199"),
                          percent="0", fixed="0", tax_rate="0")
    return (f"/payments/gateways/{gateway['id']}/payouts",
            {"bankAccountId": w.bank_account()["id"], "amount": "10.00", "payoutDate": "2026-11-06"})


def statement_ofx(fitid: str) -> bytes:
    """An OFX 1.02 statement of one deposit (HNL) with the bank's id `fitid`."""
    return ("OFXHEADER:100\nDATA:OFXSGML\nVERSION:102\nSECURITY:NONE\nENCODING:USASCII\nCHARSET:1252\n"
            "COMPRESSION:NONE\nOLDFILEUID:NONE\nNEWFILEUID:NONE\n\n<OFX><SIGNONMSGSRSV1><SONRS><STATUS><CODE>0"
            "<SEVERITY>INFO</STATUS><DTSERVER>20261130<LANGUAGE>SPA</SONRS></SIGNONMSGSRSV1><BANKMSGSRSV1><STMTTRNRS>"
            "<TRNUID>1<STATUS><CODE>0<SEVERITY>INFO</STATUS><STMTRS><CURDEF>HNL<BANKACCTFROM><BANKID>BACHN"
            "<ACCTID>200012345<ACCTTYPE>CHECKING</BANKACCTFROM><BANKTRANLIST><DTSTART>20261101<DTEND>20261130"
            f"<STMTTRN><TRNTYPE>CREDIT<DTPOSTED>20261102<TRNAMT>150.00<FITID>{fitid}<NAME>Deposito</STMTTRN>"
            "</BANKTRANLIST><LEDGERBAL><BALAMT>150.00<DTASOF>20261130</LEDGERBAL></STMTRS></STMTTRNRS>"
            "</BANKMSGSRSV1></OFX>\n").encode()


# The documented replay where the first answer differs from what is stored: a secret shown
# once, or what happened after the commit (whether the invitation e-mail went out: unknown to a
# replay). The first answer has these fields set; the replay shows them as null.
SHOWN_ONCE: dict[str, tuple[str, ...]] = {
    "/settings/api-keys": ("secret", "key"),
    "/settings/webhooks": ("secret",),
    "/settings/users": ("invitationEmailSent",),
    "/settings/users/{id}/resend-invitation": ("invitationEmailSent",),
    "/attachments": ("uploadUrl", "uploadExpiresAt"),  # a replay may come after the link expired
}
# A job run after the commit that created it, inside the request when no queue is configured (the
# tests; deployed, the queue runs it and the first answer is the created job too): the replay answers
# the job as created (its first status), the same job as the first answer.
RUN_AFTER_COMMIT: dict[str, tuple[tuple[str, ...], str]] = {
    "/imports": (("id", "kind", "fileName", "dryRun", "createdAt"), "validating"),
    "/exports/company": (("id", "createdAt"), "pending"),
}
# Secrets that must never be answered, not even by the first answer.
NEVER_SHOWN = {"/payments/gateways": "gwa_secret_0123456789abcdefXYZ1"}


@pytest.fixture(scope="module")
def world(request):
    """conftest's `aws`, `api`, `company_a` and `ses`, once for the module."""
    reset_settings()
    reset_table()
    mail.reset_mailer()
    with pytest.MonkeyPatch.context() as patch, \
            table_engine(request.node, patch, on_dynamodb_local=on_dynamodb_local(request.config)), mock_aws():
        # webhook URLs resolve from a fixed table: never the machine's DNS
        patch.setattr(webhooks, "resolve_host", lambda host, port, **_: [(2, 1, 6, "", ("93.184.216.34", port))])
        create_table(boto3.client("dynamodb"), os.environ["TABLE_NAME"])
        create_bucket(boto3.client("s3"), os.environ["FILES_BUCKET"])
        create_attachments_bucket(boto3.client("s3"), os.environ["ATTACHMENTS_BUCKET"], [ORIGIN])
        region = os.environ["AWS_REGION"]
        verify_mail_sender(boto3.client("ses", region_name=region), get_settings().mail_from)
        from moto.core import DEFAULT_ACCOUNT_ID
        from moto.ses.models import ses_backends

        from app import app as chalice_app
        api, table = ApiClient(chalice_app), get_table()
        company = make_company(table, "Alpha S. de R.L.", "owner@alpha.hn")
        shop = Shop(api, company, inventory=True)
        yield World(api, table, shop, api.login(company.email),
                    ses_backends[DEFAULT_ACCOUNT_ID][region].sent_messages)
    mail.reset_mailer()
    reset_settings()
    reset_table()


def send(w: World, route: Any, path: str, body: Any, key: str, api_key: str | None = None) -> Reply:
    headers = {"idempotency-key": key}
    if route.access.name in WEB_ONLY:
        return w.api.post(path, body, cookie=w.cookie, origin=ORIGIN, headers=headers)
    return w.api.post(path, body, key=api_key or w.key, headers=headers)


def snapshot(w: World) -> dict[tuple[str, str], dict[str, Any]]:
    return {(item["PK"], item["SK"]): item for item in scan(w.table)}


def test_every_idempotent_post_route_has_an_example():
    paths = {route.path for route in IDEMPOTENT_POSTS}
    assert len(paths) == len(IDEMPOTENT_POSTS), "two idempotent POST routes share a path"
    assert sorted(paths - EXAMPLES.keys()) == [], "idempotent POST routes without a retry example"
    assert sorted(EXAMPLES.keys() - paths) == [], "examples of routes that are gone or not idempotent"


@pytest.mark.parametrize("route", IDEMPOTENT_POSTS, ids=[r.path for r in IDEMPOTENT_POSTS])
def test_a_retry_with_the_same_key_replays_the_first_answer_and_changes_nothing(world, route):
    example = EXAMPLES.get(route.path)
    if example is None:
        pytest.fail(f"no retry example for POST {route.path}")
    path, body, *company_key = example(world)  # an example may send as another company
    key = f"retry:{route.path}"
    first = send(world, route, path, body, key, *company_key)
    assert 200 <= first.status < 300, f"POST {path}: {first.status} {first.text}"
    assert first.header("Idempotent-Replayed") is None
    before, mails = snapshot(world), len(world.sent_mail)

    again = send(world, route, path, body, key, *company_key)

    assert again.status == first.status, again.text
    assert again.header("Idempotent-Replayed") == "true", again.text
    if route.path in SHOWN_ONCE:
        fields = SHOWN_ONCE[route.path]
        assert all(first.json[name] is not None for name in fields), first.text
        assert again.json == {**first.json, **dict.fromkeys(fields)}
    elif route.path in RUN_AFTER_COMMIT:
        same, created = RUN_AFTER_COMMIT[route.path]
        assert {name: again.json[name] for name in same} == {name: first.json[name] for name in same}
        assert (first.json["status"], again.json["status"]) == ("done", created)
    else:
        assert again.text == first.text
    if route.path in NEVER_SHOWN:
        assert NEVER_SHOWN[route.path] not in first.text + again.text
    assert snapshot(world) == before, "the replay changed the table"
    assert len(world.sent_mail) == mails, "the replay sent mail"
