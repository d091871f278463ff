"""Advances: money received on a quote or sales order (100, 101) or paid on a purchase order
(102), held on the advance accounts, and applied to the invoices of the same partner."""
from __future__ import annotations

from decimal import Decimal

import pytest

from tests.documents_support import Shop

D = Decimal


@pytest.fixture
def shop(api, company_a) -> Shop:
    return Shop(api, company_a)


def post(shop: Shop, path: str, body: dict, expect: int):
    reply = shop.api.post(path, body, key=shop.key)
    assert reply.status == expect, reply.text
    return reply.json


def pay(shop: Shop, document_id: int, expect: int = 201, **body):
    return post(shop, f"/payments/documents/{document_id}/payments", body, expect)


def apply(shop: Shop, document_id: int, expect: int = 201, **body):
    return post(shop, f"/payments/documents/{document_id}/apply-advances-from-source", body, expect)


def availability(shop: Shop, source_id: int) -> dict:
    reply = shop.api.get(f"/payments/source-documents/{source_id}/advance-availability", key=shop.key)
    assert reply.status == 200, reply.text
    return {name: D(str(value)) if name != "sourceDocumentId" else value for name, value in reply.json.items()}


def bank_account(shop: Shop) -> dict:
    return shop.created("/bank-accounts", {"name": "Cuenta corriente", "openingBalance": 1000,
                                           "openingBalanceDate": "2026-11-01",
                                           "chartOfAccountId": shop.books["110103"]})


def transactions(shop: Shop, account_id: int) -> list[tuple[str, str, Decimal]]:
    listed = shop.api.get(f"/bank-accounts/{account_id}/transactions", key=shop.key).json["transactions"]
    return [(t["type"], t["direction"], D(str(t["amount"]))) for t in listed]


def receivable(shop: Shop) -> Decimal:
    return D(str(shop.partner(shop.customer)["receivableBalance"]))


def test_a_customer_advance_on_an_order_is_held_then_applied_to_its_invoice(shop):
    account = bank_account(shop)
    transfer = shop.created("/payments/methods", {"name": "Transferencia", "bankAccountId": account["id"]})
    order = shop.document("101", [(shop.service, 4, 100)])  # 460.00, a draft
    assert order["status"] == "draft"
    advance = pay(shop, order["id"], paymentMethodId=transfer["id"], amount=200, paymentDate="2026-11-03")
    assert (advance["kind"], advance["status"]) == ("advance", "confirmed")
    # bank debited, customer advance (a liability) credited; the receivable does not move
    assert shop.entry_lines(advance["journalEntryId"]) == {"110103": (D("200.00"), 0), "210401": (0, D("200.00"))}
    assert transactions(shop, account["id"]) == [("payment_doc", "credit", D("200.00"))]
    assert receivable(shop) == 0 and shop.balance("210401") == D("200.00")
    assert availability(shop, order["id"]) == {"sourceDocumentId": order["id"], "advancesTotal": D("200.00"),
                                               "applied": 0, "available": D("200.00")}
    stored = shop.get(order["id"])
    assert (D(str(stored["advancesTotal"])), D(str(stored["pending"])), stored["status"]) == (D("200.00"), 0, "draft")

    invoice = shop.document("01", [(shop.service, 4, 100)], sourceDocumentId=order["id"])  # 460.00
    assert receivable(shop) == D("460.00")
    applied = apply(shop, invoice["id"])  # defaults: the invoice's own source, all that is available
    assert (applied["kind"], D(str(applied["amount"])), applied["sourceDocumentId"]) == ("advance", D("200.00"),
                                                                                        order["id"])
    assert shop.entry_lines(applied["journalEntryId"]) == {"210401": (D("200.00"), 0), "110201": (0, D("200.00"))}
    assert availability(shop, order["id"])["available"] == 0
    document = shop.get(invoice["id"])
    assert (D(str(document["pending"])), D(str(document["paidTotal"]))) == (D("260.00"), D("200.00"))
    assert receivable(shop) == D("260.00") and shop.balance("210401") == 0 and shop.balance("110201") == D("260.00")
    nothing_left = apply(shop, invoice["id"], 400)
    assert nothing_left["code"] == "ADVANCE_NOT_AVAILABLE"

    # the received advance cannot be cancelled while an invoice holds it
    held = post(shop, f"/payments/documents/{order['id']}/payments/{advance['id']}/cancel", {"reason": "x"}, 400)
    assert held["code"] == "ADVANCE_ALREADY_APPLIED"
    undone = post(shop, f"/payments/documents/{invoice['id']}/payments/{applied['id']}/cancel",
                  {"reason": "aplicado por error"}, 200)
    assert shop.entry_lines(undone["reversalEntryId"]) == {"110201": (D("200.00"), 0), "210401": (0, D("200.00"))}
    assert availability(shop, order["id"])["available"] == D("200.00")
    assert D(str(shop.get(invoice["id"])["pending"])) == D("460.00") and receivable(shop) == D("460.00")
    refunded = post(shop, f"/payments/documents/{order['id']}/payments/{advance['id']}/cancel",
                    {"reason": "pedido anulado"}, 200)
    assert refunded["status"] == "cancelled"
    assert transactions(shop, account["id"]) == [("payment_doc", "debit", D("200.00")),
                                                 ("payment_doc", "credit", D("200.00"))]
    assert availability(shop, order["id"]) == {"sourceDocumentId": order["id"], "advancesTotal": 0, "applied": 0,
                                               "available": 0}
    # the advance in and back out: 200 - 200 = 0 on the advances; the bank's ledger keeps the 1,000.00
    # opening balance posted with the bank account (1000 + 200 - 200 = 1000.00, the bank's balance)
    assert shop.balance("210401") == 0 and shop.balance("110103") == D("1000.00")


def test_a_supplier_advance_on_a_purchase_order_goes_out_of_the_bank_and_reduces_the_payable(shop):
    account = bank_account(shop)
    cheque = shop.created("/payments/methods", {"name": "Cheque", "bankAccountId": account["id"]})
    order = shop.document("102", [(shop.service, 2, 100)])  # 230.00
    advance = pay(shop, order["id"], paymentMethodId=cheque["id"], amount=100)
    assert shop.entry_lines(advance["journalEntryId"]) == {"110301": (D("100.00"), 0), "110103": (0, D("100.00"))}
    assert transactions(shop, account["id"]) == [("payment_doc", "debit", D("100.00"))]
    assert D(str(shop.api.get(f"/bank-accounts/{account['id']}", key=shop.key).json["balance"])) == D("900.00")

    purchase = shop.document("103", [(shop.service, 2, 100)], sourceDocumentId=order["id"])  # 230.00 owed
    part = apply(shop, purchase["id"], amount=60)
    assert shop.entry_lines(part["journalEntryId"]) == {"210101": (D("60.00"), 0), "110301": (0, D("60.00"))}
    assert D(str(shop.partner(shop.supplier)["payableBalance"])) == D("170.00")
    assert availability(shop, order["id"]) == {"sourceDocumentId": order["id"], "advancesTotal": D("100.00"),
                                               "applied": D("60.00"), "available": D("40.00")}
    assert apply(shop, purchase["id"], 400, amount=40.01)["code"] == "ADVANCE_NOT_AVAILABLE"
    rest = apply(shop, purchase["id"], sourceDocumentId=order["id"])
    assert D(str(rest["amount"])) == D("40.00") and shop.balance("110301") == 0
    assert D(str(shop.get(purchase["id"])["pending"])) == D("130.00")
    # a paid-against purchase keeps its confirmation
    assert shop.action(purchase["id"], "unconfirm", expect=400)["code"] == "DOCUMENT_HAS_PAYMENTS"


def test_a_cash_method_takes_advances_to_cash_and_a_pending_method_can_be_confirmed(shop):
    cash = shop.created("/payments/methods", {"name": "Efectivo", "isCashMethod": True, "requiresConfirmation": True})
    quote = shop.document("100", [(shop.service, 1, 100)])  # 115.00
    advance = pay(shop, quote["id"], paymentMethodId=cash["id"], amount=15)
    assert advance["status"] == "pending" and advance.get("bankTransactionId") is None
    assert shop.entry_lines(advance["journalEntryId"]) == {"110101": (D("15.00"), 0), "210401": (0, D("15.00"))}
    confirmed = post(shop, f"/payments/documents/{quote['id']}/payments/{advance['id']}/confirm", {}, 200)
    assert confirmed["status"] == "confirmed"
    # an invoice from a delivery note names the quote explicitly
    invoice = shop.document("01", [(shop.service, 1, 100)])
    assert D(str(apply(shop, invoice["id"], sourceDocumentId=quote["id"])["amount"])) == D("15.00")


def test_advance_refusals_change_nothing(shop):
    cash = shop.created("/payments/methods", {"name": "Efectivo", "isCashMethod": True})
    order = shop.document("101", [(shop.service, 1, 100)])  # 115.00
    other_customer = shop.created("/business-partners", {"name": "Cliente Dos", "type": "customer"})["id"]
    pay(shop, order["id"], paymentMethodId=cash["id"], amount=100)
    def snapshot():  # what a refusal would have touched: the order, cash and the advance account
        return shop.get(order["id"]), shop.balance("110101"), shop.balance("210401")

    before = snapshot()

    over = pay(shop, order["id"], 400, paymentMethodId=cash["id"], amount=15.01)
    assert over["code"] == "AMOUNT_EXCEEDS_PENDING" and over["details"][0]["field"] == "amount"
    assert pay(shop, order["id"], 400, amount=1)["details"][0]["field"] == "paymentMethodId"
    note = pay(shop, order["id"], 400, creditNoteId=order["id"], amount=1)
    assert note["details"][0]["field"] == "creditNoteId"
    assert pay(shop, order["id"], 400, paymentMethodId=cash["id"], amount=0)["details"][0]["field"] == "amount"

    no_source = shop.document("01", [(shop.service, 1, 100)])
    assert apply(shop, no_source["id"], 400)["details"][0]["field"] == "sourceDocumentId"
    assert apply(shop, no_source["id"], 400, sourceDocumentId=no_source["id"])["details"][0]["field"] == "sourceDocumentId"
    strangers = shop.document("01", [(shop.service, 1, 100)], partner=other_customer)
    wrong_partner = apply(shop, strangers["id"], 400, sourceDocumentId=order["id"])
    assert "another business partner" in wrong_partner["details"][0]["message"]
    purchase = shop.document("103", [(shop.service, 1, 100)])
    assert apply(shop, purchase["id"], 400, sourceDocumentId=order["id"])["details"][0]["field"] == "sourceDocumentId"
    small = shop.document("01", [(shop.service, 1, 50)], sourceDocumentId=order["id"])  # 57.50 pending
    too_much = apply(shop, small["id"], 400, amount=60)
    assert too_much["code"] == "AMOUNT_EXCEEDS_PENDING"
    draft = shop.document("01", [(shop.service, 1, 100)], sourceDocumentId=order["id"], status="draft")
    assert apply(shop, draft["id"], 400)["code"] == "DOCUMENT_NOT_PAYABLE"
    missing = shop.api.get("/payments/source-documents/999999/advance-availability", key=shop.key)
    assert missing.status == 404 and missing.json["code"] == "NOT_FOUND"
    not_an_order = shop.api.get(f"/payments/source-documents/{small['id']}/advance-availability", key=shop.key)
    assert not_an_order.status == 400

    # the order holding advances keeps its partner and a total that covers them
    moved = shop.api.put(f"/documents/{order['id']}", {"businessPartnerId": other_customer}, key=shop.key)
    assert moved.status == 400 and moved.json["code"] == "DOCUMENT_HAS_PAYMENTS"
    shrunk = shop.api.put(f"/documents/{order['id']}", {"lines": [{"productId": shop.service, "quantity": 1,
                                                                   "unitPrice": 50}]}, key=shop.key)
    assert shrunk.status == 400 and shrunk.json["details"][0]["field"] == "lines"
    assert snapshot() == before
    assert availability(shop, order["id"])["available"] == D("100.00")


def test_the_default_applies_the_smaller_of_available_and_pending(shop):
    cash = shop.created("/payments/methods", {"name": "Efectivo", "isCashMethod": True})
    order = shop.document("101", [(shop.service, 2, 100)])  # 230.00
    pay(shop, order["id"], paymentMethodId=cash["id"], amount=230)
    first = shop.document("01", [(shop.service, 1, 100)], sourceDocumentId=order["id"])  # 115.00
    second = shop.document("01", [(shop.service, 1, 50)], sourceDocumentId=order["id"])  # 57.50
    assert D(str(apply(shop, first["id"])["amount"])) == D("115.00")
    assert D(str(apply(shop, second["id"])["amount"])) == D("57.50")
    assert availability(shop, order["id"]) == {"sourceDocumentId": order["id"], "advancesTotal": D("230.00"),
                                               "applied": D("172.50"), "available": D("57.50")}
    assert D(str(shop.get(first["id"])["pending"])) == 0 and receivable(shop) == 0
    assert shop.balance("210401") == D("57.50")
    paid = apply(shop, first["id"], 400)
    assert paid["code"] == "AMOUNT_EXCEEDS_PENDING"


def test_other_companies_cannot_see_or_use_advances(shop, api, company_b):
    cash = shop.created("/payments/methods", {"name": "Efectivo", "isCashMethod": True})
    order = shop.document("101", [(shop.service, 1, 100)])
    pay(shop, order["id"], paymentMethodId=cash["id"], amount=50)
    seen = api.get(f"/payments/source-documents/{order['id']}/advance-availability", key=company_b.api_key)
    assert seen.status == 404
    applied = api.post(f"/payments/documents/{order['id']}/apply-advances-from-source", {}, key=company_b.api_key)
    assert applied.status == 404
    assert availability(shop, order["id"])["available"] == D("50.00")


def test_a_cash_document_takes_its_whole_pending_from_an_advance_or_nothing(shop):
    cash = shop.created("/payments/methods", {"name": "Efectivo", "isCashMethod": True})
    terms = shop.created("/payment-conditions", {"name": "Contado", "type": "cash"})
    order = shop.document("101", [(shop.service, 2, 100)])  # 230.00
    pay(shop, order["id"], paymentMethodId=cash["id"], amount=100)
    invoice = shop.document("01", [(shop.service, 2, 100)], sourceDocumentId=order["id"],
                            paymentConditionId=terms["id"])
    part = apply(shop, invoice["id"], 400)
    assert part["code"] == "CASH_CONDITION_UNMET" and availability(shop, order["id"])["available"] == D("100.00")
    # paid in one payment instead; the advance stays available (to refund or apply elsewhere)
    pay(shop, invoice["id"], paymentMethodId=cash["id"], amount=230)
    assert D(str(shop.get(invoice["id"])["pending"])) == 0
