"""Issue 38 point 9: a record that points at a document (a bank transaction, a gateway's
notification, a scheduled invoice's last run, a DTE's replacement) answers the document's number
beside its id, so that a person reads "001-001-01-00000001", not "#1". Stored when the link is
written; records written before that are completed from one BatchGetItem per page."""
from __future__ import annotations

from decimal import Decimal

import pytest

from chalicelib.events.handlers import run_scheduled_invoices
from chalicelib.services import document_names
from chalicelib.store import keys
from tests.documents_support import Shop
from tests.dte_support import invoice, sv_shop, taxpayer_of
from tests.gateway_support import generate, new_pixelpay_gateway
from tests.test_dte_invalidation import PEOPLE
from tests.test_scheduled_invoices import at, schedule  # noqa: F401 (at: the fixture that moves the clock)

D = Decimal
# the company's first sales invoice under its CAI range (tests/documents_support.py: 001-001-01, from 1)
FIRST_INVOICE = "001-001-01-00000001"
SECOND_INVOICE = "001-001-01-00000002"


@pytest.fixture
def shop(api, company_a) -> Shop:
    return Shop(api, company_a)


def forget_names(table, key: dict, *names: str) -> None:
    """The item as it was stored before issue 38: no number beside the id."""
    table.client.update_item(TableName=table.name, Key={"PK": {"S": key["PK"]}, "SK": {"S": key["SK"]}},
                             UpdateExpression="REMOVE " + ", ".join(names))


def test_a_payments_bank_transactions_name_the_document_by_its_number(shop, table):
    account = shop.created("/bank-accounts", {"name": "Cuenta corriente", "openingBalance": 1000,
                                              "openingBalanceDate": "2026-11-01",
                                              "chartOfAccountId": shop.books["110103"]})
    transfer = shop.created("/payments/methods", {"name": "Transferencia", "bankAccountId": account["id"]})
    sale = shop.document("01", [(shop.service, 1, 100)])  # 100 + 15 % ISV = 115.00
    assert sale["number"] == FIRST_INVOICE
    paid = shop.api.post(f"/payments/documents/{sale['id']}/payments",
                         {"paymentMethodId": transfer["id"], "amount": 115}, key=shop.key)
    assert paid.status == 201, paid.text
    cancelled = shop.api.post(f"/payments/documents/{sale['id']}/payments/{paid.json['id']}/cancel",
                              {"reason": "cheque rebotado"}, key=shop.key)
    assert cancelled.status == 200, cancelled.text
    path = f"/bank-accounts/{account['id']}/transactions"
    listed = shop.api.get(path, key=shop.key).json["transactions"]
    # newest first: the reversal (money out), then the payment (money in: credit); both name the invoice
    # (Honduras: no número de control)
    assert [(t["direction"], t["documentId"], t["documentNumber"], t["documentNumeroControl"]) for t in listed] == [
        ("debit", sale["id"], FIRST_INVOICE, None), ("credit", sale["id"], FIRST_INVOICE, None)]

    # a transaction stored before the link carried the number: completed when read
    payment_tx = listed[1]
    forget_names(table, keys.bank_transaction(shop.company.company_id, account["id"], payment_tx["transactionDate"],
                                              payment_tx["id"]), "documentNumber")
    stored = table.get(keys.bank_transaction(shop.company.company_id, account["id"], payment_tx["transactionDate"],
                                             payment_tx["id"]))
    assert "documentNumber" not in stored
    again = shop.api.get(path, key=shop.key).json["transactions"]
    assert [t["documentNumber"] for t in again] == [FIRST_INVOICE, FIRST_INVOICE]


def test_gateway_notifications_name_the_document_by_its_number(api, shop, table, pixelpay):
    gateway = new_pixelpay_gateway(shop)
    shop.document("01", [(shop.service, 1, 100)])  # the first invoice, not collected here
    sale = shop.document("01", [(shop.service, 1, 100)])  # 115.00
    assert sale["number"] == SECOND_INVOICE
    link = generate(shop, sale["id"], gateway["id"])
    # paid, then paid again: the second is refused (the link asks for nothing more)
    deliveries = [pixelpay.pay(link["url"])[0] for _ in range(2)]
    answers = [api.request("POST", "/webhooks/gateway-a", raw=d.body, headers=dict(d.headers)) for d in deliveries]
    assert [a.json["status"] for a in answers] == ["accepted", "refused"]
    first, second = (a.json["transactionId"] for a in answers)
    path = f"/payments/gateways/{gateway['id']}/notifications"
    listed = api.get(path, key=shop.key).json["notifications"]
    assert [(n["transactionId"], n["status"], n["documentId"], n["documentNumber"], n["documentNumeroControl"])
            for n in listed] == [(second, "refused", sale["id"], SECOND_INVOICE, None),
                                 (first, "accepted", sale["id"], SECOND_INVOICE, None)]
    # decisions recorded before the link named its document: read back in one batch for the page
    for transaction_id in (first, second):
        forget_names(table, keys.gateway_callback(shop.company.company_id, "pixelpay", transaction_id),
                     "documentNumber")
    assert [n["documentNumber"] for n in api.get(path, key=shop.key).json["notifications"]] == [SECOND_INVOICE] * 2


def test_a_scheduled_invoice_names_its_last_invoice_by_its_number(shop, table, at):  # noqa: F811
    at("2026-01-15T18:00")
    created = schedule(shop)  # monthly from 31 January
    assert (created["lastDocumentId"], created["lastDocumentNumber"], created["lastDocumentNumeroControl"]) == (
        None, None, None)
    at("2026-01-31T18:00")
    assert run_scheduled_invoices({})["scheduledInvoices"]["created"] == 1
    after = shop.api.get(f"/scheduled-invoices/{created['id']}", key=shop.key).json
    assert (after["lastDocumentNumber"], after["lastDocumentNumeroControl"]) == (FIRST_INVOICE, None)
    assert shop.get(after["lastDocumentId"])["number"] == FIRST_INVOICE
    # a schedule whose last run was before issue 38: its list and its page name the invoice all the same
    forget_names(table, keys.small_record(shop.company.company_id, keys.SCHEDULED_INVOICE, created["id"]),
                 "lastDocumentNumber")
    listed = shop.api.get("/scheduled-invoices", key=shop.key).json["scheduledInvoices"]
    assert [s["lastDocumentNumber"] for s in listed] == [FIRST_INVOICE]
    got = shop.api.get(f"/scheduled-invoices/{created['id']}", key=shop.key).json
    assert got["lastDocumentNumber"] == FIRST_INVOICE


def test_a_replaced_dte_names_its_replacement_by_its_numero_de_control(api, company_a):
    shop = sv_shop(api, company_a)
    taxpayer = taxpayer_of(shop)
    sale, replacement = invoice(shop, taxpayer), invoice(shop, taxpayer)
    replacing = shop.get(replacement["id"])
    replaced = shop.api.post(f"/documents/{sale['id']}/invalidate",
                             {"invalidationType": 1, "replacementDocumentId": replacement["id"], **PEOPLE}, key=shop.key)
    assert replaced.status == 200, replaced.text
    record = shop.get(sale["id"])["dte"]["invalidation"]
    # a crédito fiscal's número de control: DTE-03-<establishment and point>-<15 digits>
    assert replacing["dte"]["numeroControl"].startswith("DTE-03-")
    assert (record["replacementDocumentId"], record["replacementNumeroControl"], record["replacementDocumentNumber"]) == (
        replacement["id"], replacing["dte"]["numeroControl"], replacing["number"])


def test_the_names_of_a_document_by_country():
    honduran = {"id": 7, "type": "01", "number": FIRST_INVOICE, "dte": None}
    salvadoran = {"id": 8, "type": "01", "number": FIRST_INVOICE,
                  "dte": {"status": "accepted", "numeroControl": "DTE-01-M001P001-000000000000001"}}
    assert document_names.names(honduran) == {"documentNumber": FIRST_INVOICE, "documentNumeroControl": None}
    assert document_names.names(salvadoran, "lastDocument") == {
        "lastDocumentNumber": FIRST_INVOICE, "lastDocumentNumeroControl": "DTE-01-M001P001-000000000000001"}
    assert document_names.names({"id": 9, "type": "01", "number": None}) == {
        "documentNumber": None, "documentNumeroControl": None}


def test_el_salvador_bank_transactions_name_the_dte_by_its_numero_de_control(api, company_a):
    shop = sv_shop(api, company_a)
    sale = invoice(shop, taxpayer_of(shop))  # 2 x 50.00 + IVA 13 % = 113.00, a crédito fiscal (03)
    numero = shop.get(sale["id"])["dte"]["numeroControl"]
    assert numero.startswith("DTE-03-")
    account = shop.created("/bank-accounts", {"name": "Cuenta corriente", "openingBalanceDate": "2026-01-01",
                                              "currency": "USD", "chartOfAccountId": shop.books["110103"]})
    transfer = shop.created("/payments/methods", {"name": "Transferencia", "bankAccountId": account["id"]})
    paid = shop.api.post(f"/payments/documents/{sale['id']}/payments",
                         {"paymentMethodId": transfer["id"], "amount": 113}, key=shop.key)
    assert paid.status == 201, paid.text
    [movement] = shop.api.get(f"/bank-accounts/{account['id']}/transactions", key=shop.key).json["transactions"]
    assert (D(str(movement["amount"])), movement["documentNumber"], movement["documentNumeroControl"]) == (
        D("113.00"), sale["number"], numero)
