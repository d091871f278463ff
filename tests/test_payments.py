"""Payments: by method (cash, bank, cash through a bank account), by credit note and by
withholding certificate; their entries, bank transactions, balances, events and refusals."""
from __future__ import annotations

import threading
from decimal import Decimal

import pytest

from tests.documents_support import Shop, outbox_payloads
from tests.support import ORIGIN, RACES

D = Decimal


@pytest.fixture
def shop(api, company_a) -> Shop:
    return Shop(api, company_a)


def pay(shop: Shop, document_id: int, expect: int = 201, **body):
    reply = shop.api.post(f"/payments/documents/{document_id}/payments", body, key=shop.key)
    assert reply.status == expect, reply.text
    return reply.json


def outbox(table, company_id: int, event: str) -> list[dict]:
    return [payload for payload in outbox_payloads(table, company_id) if payload["event"] == event]


def bank_account(shop: Shop) -> dict:
    return shop.created("/bank-accounts", {"name": "Cuenta corriente", "openingBalance": 1000,
                                           "openingBalanceDate": "2026-11-01",
                                           "chartOfAccountId": shop.books["110103"]})


def test_cash_payments_reduce_pending_receivable_and_post_cash_against_receivable(shop, table):
    cash = shop.created("/payments/methods", {"name": "Efectivo", "isCashMethod": True})
    invoice = shop.document("01", [(shop.service, 1, 100)])  # 115.00
    first = pay(shop, invoice["id"], paymentMethodId=cash["id"], amount=50, paymentDate="2026-11-03", reference="R-1")
    assert (first["kind"], first["status"], first["bankTransactionId"]) == ("method", "confirmed", None)
    assert shop.entry_lines(first["journalEntryId"]) == {"110101": (D("50.00"), 0), "110201": (0, D("50.00"))}
    document = shop.get(invoice["id"])
    assert (D(str(document["pending"])), D(str(document["paidTotal"]))) == (D("65.00"), D("50.00"))
    assert D(str(shop.partner(shop.customer)["receivableBalance"])) == D("65.00")
    assert [p["data"]["id"] for p in outbox(table, shop.company.company_id, "payment.created")] == [first["id"]]

    too_much = pay(shop, invoice["id"], 400, paymentMethodId=cash["id"], amount=65.01)
    assert too_much["code"] == "AMOUNT_EXCEEDS_PENDING"
    pay(shop, invoice["id"], paymentMethodId=cash["id"], amount=65)
    assert D(str(shop.get(invoice["id"])["pending"])) == 0
    listed = shop.api.get(f"/payments/documents/{invoice['id']}/payments", key=shop.key).json
    assert listed["total"] == 2 and [p["amount"] for p in listed["payments"]] == [50, 65]

    cancelled = shop.api.post(f"/payments/documents/{invoice['id']}/payments/{first['id']}/cancel",
                              {"reason": "cheque rebotado"}, key=shop.key)
    assert cancelled.status == 200, cancelled.text
    assert cancelled.json["status"] == "cancelled" and cancelled.json["cancelReason"] == "cheque rebotado"
    assert shop.entry_lines(cancelled.json["reversalEntryId"]) == {"110201": (D("50.00"), 0), "110101": (0, D("50.00"))}
    assert D(str(shop.get(invoice["id"])["pending"])) == D("50.00")
    assert D(str(shop.partner(shop.customer)["receivableBalance"])) == D("50.00")
    again = shop.api.post(f"/payments/documents/{invoice['id']}/payments/{first['id']}/cancel", {"reason": "x"},
                          key=shop.key)
    assert again.status == 400 and again.json["code"] == "INVALID_PAYMENT_STATUS"
    assert shop.balance("110201") == D("50.00") and shop.balance("110101") == D("65.00")


def test_bank_payments_that_need_confirmation_and_their_bank_transactions(shop, table):
    account = bank_account(shop)
    transfer = shop.created("/payments/methods", {"name": "Transferencia", "bankAccountId": account["id"],
                                                  "requiresConfirmation": True})
    purchase = shop.document("103", [(shop.service, 2, 100)])  # 230.00 owed
    payment = pay(shop, purchase["id"], paymentMethodId=transfer["id"], amount=230)
    assert payment["status"] == "pending" and payment["bankTransactionId"] is not None
    assert shop.entry_lines(payment["journalEntryId"]) == {"210101": (D("230.00"), 0), "110103": (0, D("230.00"))}
    transactions = shop.api.get(f"/bank-accounts/{account['id']}/transactions", key=shop.key).json["transactions"]
    assert [(t["type"], t["direction"], t["paymentId"]) for t in transactions] == [("payment_doc", "debit", payment["id"])]
    assert D(str(shop.api.get(f"/bank-accounts/{account['id']}", key=shop.key).json["balance"])) == D("770.00")
    assert D(str(shop.partner(shop.supplier)["payableBalance"])) == 0
    # a paid purchase cannot be unconfirmed
    assert shop.action(purchase["id"], "unconfirm", expect=400)["code"] == "DOCUMENT_HAS_PAYMENTS"

    confirmed = shop.api.post(f"/payments/documents/{purchase['id']}/payments/{payment['id']}/confirm", key=shop.key)
    assert confirmed.status == 200 and confirmed.json["status"] == "confirmed"
    assert len(outbox(table, shop.company.company_id, "payment.confirmed")) == 1
    twice = shop.api.post(f"/payments/documents/{purchase['id']}/payments/{payment['id']}/confirm", key=shop.key)
    assert twice.status == 400 and twice.json["code"] == "INVALID_PAYMENT_STATUS"

    cancelled = shop.api.post(f"/payments/documents/{purchase['id']}/payments/{payment['id']}/cancel",
                              {"reason": "devuelta por el banco"}, key=shop.key).json
    transactions = shop.api.get(f"/bank-accounts/{account['id']}/transactions", key=shop.key).json["transactions"]
    assert [(t["type"], t["direction"]) for t in transactions] == [("payment_doc", "credit"), ("payment_doc", "debit")]
    assert transactions[0]["id"] == cancelled["reversalBankTransactionId"]
    assert D(str(shop.api.get(f"/bank-accounts/{account['id']}", key=shop.key).json["balance"])) == D("1000.00")
    assert D(str(shop.partner(shop.supplier)["payableBalance"])) == D("230.00")
    assert shop.action(purchase["id"], "unconfirm")["status"] == "draft"


def test_a_cash_method_with_a_bank_account_deposits_collections(shop):
    account = bank_account(shop)
    cash = shop.created("/payments/methods", {"name": "Caja chica", "isCashMethod": True, "bankAccountId": account["id"]})
    invoice = shop.document("01", [(shop.service, 1, 100)])
    payment = pay(shop, invoice["id"], paymentMethodId=cash["id"], amount=115)
    transactions = shop.api.get(f"/bank-accounts/{account['id']}/transactions", key=shop.key).json["transactions"]
    assert [(t["type"], t["direction"], D(str(t["amount"]))) for t in transactions] == [("transfer_in", "credit", D("115.00"))]
    assert payment["bankAccountId"] == account["id"]


def test_a_credit_note_is_applied_without_moving_money(shop):
    invoice = shop.document("01", [(shop.service, 1, 100)])  # 115.00
    note = shop.document("06", [(shop.service, 1, 50)], sourceDocumentId=invoice["id"])  # 57.50
    before = (shop.balance("110201"), D(str(shop.partner(shop.customer)["receivableBalance"])))
    assert before == (D("57.50"), D("57.50"))
    applied = pay(shop, invoice["id"], creditNoteId=note["id"], amount=57.5)
    assert (applied["kind"], applied["journalEntryId"]) == ("credit_note", None)
    assert D(str(shop.get(invoice["id"])["pending"])) == D("57.50") and D(str(shop.get(note["id"])["pending"])) == 0
    assert (shop.balance("110201"), D(str(shop.partner(shop.customer)["receivableBalance"]))) == before
    spent = pay(shop, invoice["id"], 400, creditNoteId=note["id"], amount=1)
    assert spent["details"][0]["field"] == "creditNoteId"
    not_a_note = pay(shop, invoice["id"], 400, creditNoteId=invoice["id"], amount=1)
    assert not_a_note["details"][0]["field"] == "creditNoteId"
    # an applied note cannot be cancelled until the application is
    assert shop.action(note["id"], "cancel", expect=400)["code"] == "DOCUMENT_HAS_PAYMENTS"
    shop.api.post(f"/payments/documents/{invoice['id']}/payments/{applied['id']}/cancel", {"reason": "error"},
                  key=shop.key)
    assert D(str(shop.get(note["id"])["pending"])) == D("57.50")
    assert shop.action(note["id"], "cancel")["status"] == "cancelled"


def test_a_withholding_certificate_posts_to_the_withholding_account(shop):
    purchase = shop.document("103", [(shop.service, 1, 100)])  # 115.00 owed
    certificate = shop.document("05", [(None, 1, 15)], partner=shop.supplier)
    applied = pay(shop, purchase["id"], withholdingDocumentId=certificate["id"], amount=15)
    assert applied["kind"] == "withholding"
    assert shop.entry_lines(applied["journalEntryId"]) == {"210101": (D("15.00"), 0), "210202": (0, D("15.00"))}
    assert D(str(shop.get(certificate["id"])["pending"])) == 0
    assert D(str(shop.partner(shop.supplier)["payableBalance"])) == D("100.00")


def test_payment_rules(api, shop):
    cash = shop.created("/payments/methods", {"name": "Efectivo"})
    inactive = shop.created("/payments/methods", {"name": "Vieja", "isActive": False})
    counted = shop.created("/payment-conditions", {"name": "Contado", "type": "cash"})
    invoice = shop.document("01", [(shop.service, 1, 100)], paymentConditionId=counted["id"])
    assert pay(shop, invoice["id"], 400, paymentMethodId=inactive["id"], amount=115)["code"] == "PAYMENT_METHOD_INACTIVE"
    assert pay(shop, invoice["id"], 400, paymentMethodId=cash["id"], amount=100)["code"] == "CASH_CONDITION_UNMET"
    assert pay(shop, invoice["id"], 400, paymentMethodId=cash["id"], amount=0)["details"][0]["field"] == "amount"
    both = pay(shop, invoice["id"], 400, paymentMethodId=cash["id"], creditNoteId=9, amount=1)
    assert both["code"] == "VALIDATION_ERROR"
    assert pay(shop, invoice["id"], 400, amount=1)["details"][0]["field"] == "paymentMethodId"
    assert pay(shop, invoice["id"], 400, paymentMethodId=99, amount=1)["details"][0]["field"] == "paymentMethodId"
    pay(shop, invoice["id"], paymentMethodId=cash["id"], amount=115)
    certificate = shop.document("05", [(None, 1, 10)])   # applied to a document, never paid
    assert pay(shop, certificate["id"], 400, paymentMethodId=cash["id"], amount=1)["code"] == "DOCUMENT_NOT_PAYABLE"
    draft = shop.document("01", [(shop.service, 1, 100)], status="draft")
    assert pay(shop, draft["id"], 400, paymentMethodId=cash["id"], amount=1)["code"] == "DOCUMENT_NOT_PAYABLE"
    assert api.post("/payments/documents/999/payments", {"paymentMethodId": cash["id"], "amount": 1},
                    key=shop.key).status == 404
    missing_reason = api.post(f"/payments/documents/{invoice['id']}/payments/1/cancel", {"reason": ""}, key=shop.key)
    assert missing_reason.status == 400 and missing_reason.json["details"][0]["field"] == "reason"


@RACES
def test_concurrent_payments_never_overpay(shop):
    cash = shop.created("/payments/methods", {"name": "Efectivo"})
    invoice = shop.document("01", [(shop.service, 4, 100)])  # 460.00
    start, replies = threading.Barrier(20), []

    def quarter() -> None:
        start.wait()
        replies.append(shop.api.post(f"/payments/documents/{invoice['id']}/payments",
                                     {"paymentMethodId": cash["id"], "amount": 115}, key=shop.key))

    threads = [threading.Thread(target=quarter) for _ in range(20)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(reply.status for reply in replies) == [201] * 4 + [400] * 16
    assert {reply.json["code"] for reply in replies if reply.status == 400} == {"AMOUNT_EXCEEDS_PENDING"}
    document = shop.get(invoice["id"])
    assert (D(str(document["pending"])), D(str(document["paidTotal"]))) == (0, D("460.00"))
    assert D(str(shop.partner(shop.customer)["receivableBalance"])) == 0 and shop.balance("110101") == D("460.00")


def test_another_companys_payments_are_404(api, shop, company_b):
    cash = shop.created("/payments/methods", {"name": "Efectivo"})
    invoice = shop.document("01", [(shop.service, 1, 100)])
    payment = pay(shop, invoice["id"], paymentMethodId=cash["id"], amount=10)
    base = f"/payments/documents/{invoice['id']}/payments"
    assert api.get(base, key=company_b.api_key).status == 404
    assert api.post(base, {"paymentMethodId": cash["id"], "amount": 1}, key=company_b.api_key).status == 404
    assert api.post(f"{base}/{payment['id']}/cancel", {"reason": "x"}, key=company_b.api_key).status == 404
    assert api.post(f"{base}/{payment['id']}/confirm", key=company_b.api_key).status == 404
    assert D(str(shop.get(invoice["id"])["pending"])) == D("105.00")
    cookie = api.login(company_b.email)
    assert api.get(base, cookie=cookie, origin=ORIGIN).status == 404


def test_currencies_never_mix_and_payments_are_not_dated_before_their_document(shop):
    account = bank_account(shop)  # HNL
    transfer = shop.created("/payments/methods", {"name": "Transferencia", "bankAccountId": account["id"]})
    dollars = shop.document("01", [(shop.service, 1, 100)], currency="USD", exchangeRate="24.5")
    refused = pay(shop, dollars["id"], 400, paymentMethodId=transfer["id"], amount=115)
    assert refused["details"][0]["field"] == "paymentMethodId"
    invoice = shop.document("01", [(shop.service, 1, 100)])
    dollar_note = shop.document("06", [(shop.service, 1, 10)], sourceDocumentId=dollars["id"], currency="USD",
                               exchangeRate="24.5")
    assert pay(shop, invoice["id"], 400, creditNoteId=dollar_note["id"], amount=1)["details"][0]["field"] == "creditNoteId"
    early = pay(shop, invoice["id"], 400, paymentMethodId=transfer["id"], amount=1, paymentDate="2026-11-01")
    assert early["details"][0]["field"] == "paymentDate"
    assert D(str(shop.api.get(f"/bank-accounts/{account['id']}", key=shop.key).json["balance"])) == D("1000.00")


def test_a_payment_through_a_bank_account_deactivated_since_can_still_be_cancelled(shop):
    account = bank_account(shop)
    cash = shop.created("/payments/methods", {"name": "Caja", "isCashMethod": True, "bankAccountId": account["id"]})
    invoice = shop.document("01", [(shop.service, 1, 100)])
    payment = pay(shop, invoice["id"], paymentMethodId=cash["id"], amount=115)
    assert shop.api.put(f"/bank-accounts/{account['id']}", {"isActive": False}, key=shop.key).status == 200
    cancelled = shop.api.post(f"/payments/documents/{invoice['id']}/payments/{payment['id']}/cancel",
                              {"reason": "error de caja"}, key=shop.key)
    assert cancelled.status == 200, cancelled.text
    transactions = shop.api.get(f"/bank-accounts/{account['id']}/transactions", key=shop.key).json["transactions"]
    assert [(t["type"], t["direction"]) for t in transactions] == [("transfer_out", "debit"), ("transfer_in", "credit")]
    assert D(str(shop.get(invoice["id"])["pending"])) == D("115.00")


def test_a_method_deactivated_while_paying_refuses_the_payment(shop, monkeypatch):
    from chalicelib.services.payments import payment_setup

    account = bank_account(shop)
    method = shop.created("/payments/methods", {"name": "Transferencia", "bankAccountId": account["id"]})
    invoice = shop.document("01", [(shop.service, 1, 100)])
    assert shop.api.put(f"/payments/methods/{method['id']}", {"isActive": False}, key=shop.key).status == 200
    read = payment_setup.get_method
    monkeypatch.setattr(payment_setup, "get_method", lambda *args: {**read(*args), "isActive": True})  # a stale read
    refused = pay(shop, invoice["id"], 400, paymentMethodId=method["id"], amount=115)
    assert refused["code"] == "PAYMENT_METHOD_INACTIVE"
    assert D(str(shop.get(invoice["id"])["pending"])) == D("115.00")
