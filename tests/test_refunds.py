"""Refunds: a credit note issued after its invoice was paid is settled in money, out to the
customer (06) or in from the supplier (105), in the spec's bank direction; a delivery note (112)
paid on delivery holds the money as the customer's advance until its invoice takes it. Figures
worked by hand in the comments."""
from __future__ import annotations

from decimal import Decimal

import pytest

from tests.documents_support import Shop

D = Decimal


@pytest.fixture
def shop(api, company_a) -> Shop:
    return Shop(api, company_a)


def pay(shop: Shop, document_id: int, expect: int = 201, **body):
    reply = shop.api.post(f"/payments/documents/{document_id}/payments", body, key=shop.key)
    assert reply.status == expect, reply.text
    return reply.json


def bank(shop: Shop) -> tuple[dict, dict]:
    account = shop.created("/bank-accounts", {"name": "Cuenta corriente", "openingBalance": 1000,
                                              "openingBalanceDate": "2026-11-01",
                                              "chartOfAccountId": shop.books["110103"]})
    method = shop.created("/payments/methods", {"name": "Transferencia", "bankAccountId": account["id"]})
    return account, method


def transactions(shop: Shop, account_id: int) -> list[tuple[str, Decimal]]:
    listed = shop.api.get(f"/bank-accounts/{account_id}/transactions?limit=100", key=shop.key).json["transactions"]
    return sorted((t["direction"], D(str(t["amount"]))) for t in listed)


def test_a_paid_invoice_and_its_credit_note_refunded_leave_every_balance_at_zero(shop):
    account, transfer = bank(shop)
    invoice = shop.document("01", [(shop.service, 2, 100)])      # 200 + 15 % = 230.00
    pay(shop, invoice["id"], paymentMethodId=transfer["id"], amount=230)
    note = shop.document("06", [(shop.service, 1, 100)], sourceDocumentId=invoice["id"])   # 100 + 15 = 115.00
    # the customer is owed 115.00: its balance is -115.00 until the money goes back
    assert D(str(shop.partner(shop.customer)["receivableBalance"])) == D("-115.00")
    aged = shop.api.get("/reports/aged-receivables?date=2026-11-30", key=shop.key).json
    assert [(d["documentId"], D(str(d["open"]))) for row in aged["partners"] for d in row["documents"]] == \
           [(note["id"], D("-115.00"))]

    # a refund of more than the note leaves is refused and changes nothing
    assert pay(shop, note["id"], 400, paymentMethodId=transfer["id"], amount="115.01")["code"] == \
           "AMOUNT_EXCEEDS_PENDING"
    assert pay(shop, note["id"], 400, creditNoteId=note["id"], amount=1)["details"][0]["field"] == "creditNoteId"
    part = pay(shop, note["id"], paymentMethodId=transfer["id"], amount=15, paymentDate="2026-11-05")
    assert part["kind"] == "refund"
    # money out: receivable debited back, bank credited
    assert shop.entry_lines(part["journalEntryId"]) == {"110201": (D("15.00"), 0), "110103": (0, D("15.00"))}
    rest = pay(shop, note["id"], paymentMethodId=transfer["id"], amount=100, paymentDate="2026-11-06")
    assert (D(str(shop.get(note["id"])["pending"])), D(str(shop.get(note["id"])["paidTotal"]))) == (0, D("115.00"))

    # customer: +230 invoice -230 paid -115 note +15 +100 refunded = 0
    assert D(str(shop.partner(shop.customer)["receivableBalance"])) == 0
    assert shop.balance("110201") == 0
    # bank: 1000 opening +230 in -15 -100 out = 1115.00; its ledger account says the same (the
    # opening balance posted with the bank account, 1000.00, then 230 - 15 - 100 = 115.00 moved)
    assert D(str(shop.api.get(f"/bank-accounts/{account['id']}", key=shop.key).json["balance"])) == D("1115.00")
    assert shop.balance("110103") == D("1115.00")
    assert transactions(shop, account["id"]) == [("credit", D("230.00")), ("debit", D("15.00")),
                                                 ("debit", D("100.00"))]
    aged = shop.api.get("/reports/aged-receivables?date=2026-11-30", key=shop.key).json
    assert D(str(aged["totals"]["total"])) == 0 and not [row for row in aged["partners"] if row["documents"]]
    statement = shop.api.get(f"/credits/client/{shop.customer}/statement?startDate=2026-11-01&endDate=2026-11-30",
                             key=shop.key).json
    # charges 230 + 15 + 100 = 345; credits 230 + 115 = 345
    assert (D(str(statement["totalCharges"])), D(str(statement["totalCredits"])),
            D(str(statement["closingBalance"]))) == (D("345.00"), D("345.00"), 0)

    # the refund cancelled: the money comes back in, the customer is owed 100.00 again
    cancelled = shop.api.post(f"/payments/documents/{note['id']}/payments/{rest['id']}/cancel",
                              {"reason": "transferencia rechazada"}, key=shop.key)
    assert cancelled.status == 200, cancelled.text
    assert shop.entry_lines(cancelled.json["reversalEntryId"]) == {"110103": (D("100.00"), 0),
                                                                   "110201": (0, D("100.00"))}
    assert D(str(shop.partner(shop.customer)["receivableBalance"])) == D("-100.00")
    assert D(str(shop.get(note["id"])["pending"])) == D("100.00")
    assert D(str(shop.api.get(f"/bank-accounts/{account['id']}", key=shop.key).json["balance"])) == D("1215.00")
    # a refunded note can no longer be cancelled
    assert shop.action(note["id"], "cancel", expect=400)["code"] == "DOCUMENT_HAS_PAYMENTS"


def test_a_supplier_refunds_a_purchase_credit_note_in_money(shop):
    account, transfer = bank(shop)
    purchase = shop.document("103", [(shop.service, 4, 50)])     # 200 + 15 % = 230.00
    pay(shop, purchase["id"], paymentMethodId=transfer["id"], amount=230)
    note = shop.document("105", [(shop.service, 2, 50)], sourceDocumentId=purchase["id"])   # 100 + 15 = 115.00
    # the supplier owes us 115.00
    assert D(str(shop.partner(shop.supplier)["payableBalance"])) == D("-115.00")
    refund = pay(shop, note["id"], paymentMethodId=transfer["id"], amount=115)
    # money in: bank debited, payable credited back
    assert shop.entry_lines(refund["journalEntryId"]) == {"110103": (D("115.00"), 0), "210101": (0, D("115.00"))}
    assert D(str(shop.partner(shop.supplier)["payableBalance"])) == 0 and shop.balance("210101") == 0
    # bank: 1000 - 230 + 115 = 885.00
    assert D(str(shop.api.get(f"/bank-accounts/{account['id']}", key=shop.key).json["balance"])) == D("885.00")
    assert transactions(shop, account["id"]) == [("credit", D("115.00")), ("debit", D("230.00"))]
    aged = shop.api.get("/reports/aged-payables?date=2026-11-30", key=shop.key).json
    assert D(str(aged["totals"]["total"])) == 0


def test_cash_refund_and_a_note_applied_then_refunded_never_give_back_more_than_it_credits(shop):
    cash = shop.created("/payments/methods", {"name": "Efectivo"})
    invoice = shop.document("01", [(shop.service, 2, 100)])      # 230.00
    other = shop.document("01", [(shop.service, 1, 40)])         # 40 + 6 = 46.00
    pay(shop, invoice["id"], paymentMethodId=cash["id"], amount=230)
    note = shop.document("06", [(shop.service, 1, 100)], sourceDocumentId=invoice["id"])   # 115.00
    # 46.00 of the note pays the other invoice, 69.00 is left to refund
    pay(shop, other["id"], creditNoteId=note["id"], amount=46)
    assert pay(shop, note["id"], 400, paymentMethodId=cash["id"], amount="69.01")["code"] == "AMOUNT_EXCEEDS_PENDING"
    refund = pay(shop, note["id"], paymentMethodId=cash["id"], amount=69)
    assert shop.entry_lines(refund["journalEntryId"]) == {"110201": (D("69.00"), 0), "110101": (0, D("69.00"))}
    # cash: +230 - 69 = 161.00; the customer: 230 + 46 - 230 - 115 + 69 = 0
    assert shop.balance("110101") == D("161.00")
    assert D(str(shop.partner(shop.customer)["receivableBalance"])) == 0 == shop.balance("110201")


def test_a_delivery_paid_on_delivery_holds_an_advance_its_invoice_takes(shop):
    cash = shop.created("/payments/methods", {"name": "Efectivo"})
    delivery = shop.document("112", [(shop.service, 1, 100)])     # 115.00
    advance = pay(shop, delivery["id"], paymentMethodId=cash["id"], amount=115)
    # money in, held as the customer's advance: the receivable does not move yet
    assert advance["kind"] == "advance"
    assert shop.entry_lines(advance["journalEntryId"]) == {"110101": (D("115.00"), 0), "210401": (0, D("115.00"))}
    assert pay(shop, delivery["id"], 400, paymentMethodId=cash["id"], amount="0.01")["code"] == "AMOUNT_EXCEEDS_PENDING"
    invoice = shop.document("01", [(shop.service, 1, 100)], sourceDocumentId=delivery["id"])
    applied = shop.api.post(f"/payments/documents/{invoice['id']}/apply-advances-from-source", {}, key=shop.key)
    assert applied.status == 201, applied.text
    assert shop.entry_lines(applied.json["journalEntryId"]) == {"210401": (D("115.00"), 0), "110201": (0, D("115.00"))}
    assert D(str(shop.get(invoice["id"])["pending"])) == 0
    assert shop.balance("210401") == 0 and shop.balance("110201") == 0
