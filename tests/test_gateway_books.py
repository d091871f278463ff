"""A card payment's fee in the books and its refund (issue 43, point 3): the issue's hand-worked
sale of 1,000.00 + ISV 15 % = 1,150.00 paid by card at 3.5 % + 5.00 with ISV on the fee, then
paid out to the bank; every balance by hand, the trial balance balanced and each bank account's
balance equal to its ledger account after every step (tests/bank_matching_support.check_books).
A cancelled gateway payment is refunded at the provider first (PixelPay: a void through its
API; Wompi: recorded as made in its panel), and its fee withdrawal is reversed with it."""
from __future__ import annotations

import pytest

from chalicelib.errors import ServiceUnavailable
from chalicelib.services import commands
from chalicelib.services.integrations import gateway_books
from chalicelib.services.integrations.providers import ProviderError, ProviderUnavailable
from tests.bank_matching_support import balance_of, check_books, transactions
from tests.documents_support import Shop
from tests.gateway_books_support import (
    CLEARING,
    FEES,
    D,
    ScriptedAdapter,
    book_gateway_payment,
    card_shop,
    scripted,
)

PAID_ON = "2026-11-03"


@pytest.fixture
def shop(api, company_a) -> Shop:
    return Shop(api, company_a)


def sale_paid_by_card(shop: Shop, table, **terms: str):
    card = card_shop(shop, table, **terms)
    # 10 x 100.00 = 1,000.00 + ISV 15 % 150.00 = 1,150.00
    invoice = shop.document("01", [(shop.service, 10, 100)])
    assert D(str(invoice["total"])) == D("1150.00")
    payment = book_gateway_payment(table, shop.company.company_id, card.gateway, invoice["id"], "1150.00", "pp-0001",
                                   PAID_ON)
    return card, invoice, payment


def payment_of(shop: Shop, invoice: dict, payment_id: int) -> dict:
    reply = shop.api.get(f"/payments/documents/{invoice['id']}/payments", key=shop.key)
    return next(p for p in reply.json["payments"] if p["id"] == payment_id)


def test_a_card_sale_books_its_fee_with_the_tax_and_the_payout_empties_the_clearing_account(shop, table):
    card, invoice, payment = sale_paid_by_card(shop, table)
    # the fee: 1,150.00 x 3.5 % = 40.25, + 5.00 = 45.25; its ISV 45.25 x 15 % = 6.7875 -> 6.79; fee + tax 52.04
    assert (payment["gatewayFee"], payment["gatewayFeeTax"]) == (D("45.25"), D("6.79"))
    answered = payment_of(shop, invoice, payment["id"])
    assert (D(str(answered["gatewayFee"])), D(str(answered["gatewayFeeTax"])), answered["gatewayId"]) == (
        D("45.25"), D("6.79"), card.gateway["id"])
    assert answered["feeTransactionId"] == payment["feeTransactionId"]
    # the fee's entry: Dr 6105 fee 45.25, Dr 110401 ISV crédito fiscal 6.79, Cr 110105 clearing 52.04
    assert shop.entry_lines(payment["feeJournalEntryId"]) == {
        FEES: (D("45.25"), D("0")), "110401": (D("6.79"), D("0")), CLEARING: (D("0"), D("52.04"))}
    # the clearing account: the payment 1,150.00 in, the fee 52.04 out, on the payment's day
    listed = transactions(shop, card.clearing["id"])
    fee_tx = listed[payment["feeTransactionId"]]
    assert (fee_tx["type"], D(str(fee_tx["amount"])), fee_tx["transactionDate"], fee_tx["reference"]) == (
        "withdrawal", D("52.04"), PAID_ON, "pp-0001")
    # receivable 1,150.00 - 1,150.00 = 0; clearing 0 + 1,150.00 - 52.04 = 1,097.96; bank untouched 1,000.00;
    # fee expense 45.25; purchase tax (input ISV) 6.79; sales tax (ISV por pagar, its credit balance) 150.00
    assert shop.balance("110201") == 0
    assert balance_of(shop, card.clearing["id"]) == D("1097.96") == shop.balance(CLEARING)
    assert balance_of(shop, card.bank["id"]) == D("1000.00") == shop.balance("110103")
    assert (shop.balance(FEES), shop.balance("110401"), shop.balance("210201")) == (D("45.25"), D("6.79"),
                                                                                   D("150.00"))
    check_books(shop, card.banks)

    # the payout: the clearing balance 1,097.96 to the bank
    reply = shop.api.post(f"/payments/gateways/{card.gateway['id']}/payouts",
                          {"bankAccountId": card.bank["id"], "amount": "1097.96", "payoutDate": "2026-11-06",
                           "reference": "LIQ-8812"}, key=shop.key)
    assert reply.status == 201, reply.text
    payout = reply.json
    assert (payout["gatewayId"], payout["fromAccountId"], payout["toAccountId"], D(str(payout["amount"])),
            payout["payoutDate"], payout["reference"]) == (card.gateway["id"], card.clearing["id"], card.bank["id"],
                                                           D("1097.96"), "2026-11-06", "LIQ-8812")
    # Dr 110103 bank 1,097.96, Cr 110105 clearing 1,097.96
    assert shop.entry_lines(payout["journalEntryId"]) == {"110103": (D("1097.96"), D("0")),
                                                          CLEARING: (D("0"), D("1097.96"))}
    # clearing 1,097.96 - 1,097.96 = 0.00; bank 1,000.00 + 1,097.96 = 2,097.96; the rest as before
    assert balance_of(shop, card.clearing["id"]) == 0 == shop.balance(CLEARING)
    assert balance_of(shop, card.bank["id"]) == D("2097.96") == shop.balance("110103")
    assert (shop.balance("110201"), shop.balance(FEES), shop.balance("110401"), shop.balance("210201")) == (
        0, D("45.25"), D("6.79"), D("150.00"))
    check_books(shop, card.banks)


def test_the_fee_and_its_tax_are_split_as_the_terms_say(shop, table):
    # other terms, each rounding half up at the cent: 2.9 % + 0.30, tax 15 %
    card = card_shop(shop, table, percent="2.9", fixed="0.30")
    invoice = shop.document("01", [(shop.service, 2, D("86.96"))])  # 2 x 86.96 = 173.92 + 26.088 -> 26.09 = 200.01
    amount = "200.01"
    assert D(str(invoice["total"])) == D(amount)
    # 200.01 x 2.9 % = 5.80029 + 0.30 = 6.10029 -> 6.10; 6.10 x 15 % = 0.915 -> 0.92; fee + tax 7.02
    payment = book_gateway_payment(table, shop.company.company_id, card.gateway, invoice["id"], amount, "pp-7", PAID_ON)
    assert shop.entry_lines(payment["feeJournalEntryId"]) == {
        FEES: (D("6.10"), D("0")), "110401": (D("0.92"), D("0")), CLEARING: (D("0"), D("7.02"))}
    # clearing 200.01 - 7.02 = 192.99
    assert balance_of(shop, card.clearing["id"]) == D("192.99") == shop.balance(CLEARING)
    check_books(shop, card.banks)


def test_a_gateway_that_charges_nothing_books_the_payment_alone(shop, table):
    card, invoice, payment = sale_paid_by_card(shop, table, percent="0", fixed="0", tax_rate="0")
    assert "gatewayFee" not in payment and "feeTransactionId" not in payment
    # the whole 1,150.00 waits in the clearing account; no fee, no input tax
    assert balance_of(shop, card.clearing["id"]) == D("1150.00") == shop.balance(CLEARING)
    assert (shop.balance(FEES), shop.balance("110401")) == (0, 0)
    check_books(shop, card.banks)


def cancel(shop: Shop, invoice: dict, payment: dict, expect: int, **body: str) -> dict:
    reply = shop.api.post(f"/payments/documents/{invoice['id']}/payments/{payment['id']}/cancel",
                          {"reason": "Cliente devolvió el producto", "date": "2026-11-05", **body}, key=shop.key)
    assert reply.status == expect, reply.text
    return reply.json


def test_cancelling_a_pixelpay_payment_voids_it_first_and_reverses_the_payment_and_its_fee(shop, table, monkeypatch):
    card, invoice, payment = sale_paid_by_card(shop, table)
    provider = scripted(monkeypatch, ScriptedAdapter("pixelpay"))
    cancelled = cancel(shop, invoice, payment, 200)
    # the void asked of PixelPay: its transaction, the whole amount, the reason
    assert provider.refunds == [("pp-0001", D("1150.00"), "Cliente devolvió el producto")]
    assert (cancelled["status"], cancelled["refundedThrough"]) == ("cancelled", "api")
    assert payment_of(shop, invoice, payment["id"])["refundedThrough"] == "api"
    # everything back: receivable 1,150.00 owed again; clearing 1,097.96 - 1,097.96 (payment 1,150.00 out,
    # fee 52.04 back in) = 0; fee expense 45.25 - 45.25 = 0; input tax 6.79 - 6.79 = 0; sales tax still 150.00
    assert D(str(shop.get(invoice["id"])["pending"])) == D("1150.00") == shop.balance("110201")
    assert balance_of(shop, card.clearing["id"]) == 0 == shop.balance(CLEARING)
    assert (shop.balance(FEES), shop.balance("110401"), shop.balance("210201")) == (0, 0, D("150.00"))
    listed = transactions(shop, card.clearing["id"])
    fee_back = listed[cancelled["feeReversalTransactionId"]]
    assert (fee_back["type"], D(str(fee_back["amount"])), fee_back["reverses"]) == (
        "deposit", D("52.04"), payment["feeTransactionId"])
    assert listed[payment["feeTransactionId"]]["reversedBy"] == fee_back["id"]
    check_books(shop, card.banks)


@pytest.mark.parametrize(("failure", "status", "code"), [
    (ProviderUnavailable("timeout"), 503, "GATEWAY_UNAVAILABLE"),
    (ProviderError("PixelPay: the transaction cannot be voided"), 502, "GATEWAY_PROVIDER_ERROR")])
def test_a_void_the_provider_refuses_or_never_answers_changes_nothing(shop, table, monkeypatch, failure, status,
                                                                      code):
    card, invoice, payment = sale_paid_by_card(shop, table)
    # the status call still says approved: it was not voided
    scripted(monkeypatch, ScriptedAdapter("pixelpay", refund_answers=[failure], approved_now=True))
    assert cancel(shop, invoice, payment, status)["code"] == code
    kept = payment_of(shop, invoice, payment["id"])
    assert (kept["status"], kept.get("refundedThrough"), kept["version"]) == ("confirmed", None, 1)
    # as before: receivable 0, clearing 1,097.96
    assert shop.balance("110201") == 0
    assert balance_of(shop, card.clearing["id"]) == D("1097.96") == shop.balance(CLEARING)
    check_books(shop, card.banks)


def test_a_cancel_retried_after_the_void_went_through_is_never_voided_twice(shop, table, monkeypatch):
    card, invoice, payment = sale_paid_by_card(shop, table)
    # a second void would be refused by PixelPay, and its status call would not help: still approved
    provider = scripted(monkeypatch, ScriptedAdapter("pixelpay", refund_answers=[
        gateway_books.Refund(through_api=True), ProviderError("already voided")], approved_now=True))
    real_commit = commands.Command.commit
    failures = iter([ServiceUnavailable()])

    def failing_once(self, transaction, result, replay=None):
        failure = next(failures, None)
        if failure is not None:
            raise failure
        return real_commit(self, transaction, result, replay)

    monkeypatch.setattr(commands.Command, "commit", failing_once)
    assert cancel(shop, invoice, payment, 503)["code"] == "SERVICE_UNAVAILABLE"
    # voided at PixelPay, noted on the payment; the books not changed yet
    noted = payment_of(shop, invoice, payment["id"])
    assert (noted["status"], noted["refundedThrough"]) == ("confirmed", "api")
    assert balance_of(shop, card.clearing["id"]) == D("1097.96")
    cancelled = cancel(shop, invoice, payment, 200)
    assert len(provider.refunds) == 1 and (cancelled["status"], cancelled["refundedThrough"]) == ("cancelled", "api")
    assert balance_of(shop, card.clearing["id"]) == 0 == shop.balance(CLEARING)
    check_books(shop, card.banks)


def test_a_void_lost_before_it_was_noted_is_taken_as_done_when_the_provider_no_longer_approves_it(
        shop, table, monkeypatch):
    card, invoice, payment = sale_paid_by_card(shop, table)
    # PixelPay refuses the second void; its status call says the transaction is no longer approved
    provider = scripted(monkeypatch, ScriptedAdapter("pixelpay", refund_answers=[ProviderError("already voided")],
                                                     approved_now=False))
    cancelled = cancel(shop, invoice, payment, 200)
    assert (provider.confirms, cancelled["status"], cancelled["refundedThrough"]) == (1, "cancelled", "api")
    assert balance_of(shop, card.clearing["id"]) == 0 == shop.balance(CLEARING)
    check_books(shop, card.banks)


def test_cancelling_a_wompi_payment_records_the_refund_as_made_in_its_panel(shop, table, monkeypatch):
    card, invoice, payment = sale_paid_by_card(shop, table, provider="wompi")
    provider = scripted(monkeypatch, ScriptedAdapter("wompi"))
    cancelled = cancel(shop, invoice, payment, 200)
    assert (len(provider.refunds), cancelled["refundedThrough"]) == (1, "panel")
    assert D(str(shop.get(invoice["id"])["pending"])) == D("1150.00") == shop.balance("110201")
    assert balance_of(shop, card.clearing["id"]) == 0 == shop.balance(CLEARING)
    assert (shop.balance(FEES), shop.balance("110401")) == (0, 0)
    check_books(shop, card.banks)


def test_a_cancellation_the_books_refuse_calls_no_provider(shop, table, monkeypatch):
    card, invoice, payment = sale_paid_by_card(shop, table)
    provider = scripted(monkeypatch, ScriptedAdapter("pixelpay"))
    # dated before the payment: refused before any money moves back at PixelPay
    assert cancel(shop, invoice, payment, 400, date="2026-11-02")["details"][0]["field"] == "date"
    assert provider.refunds == []
    assert payment_of(shop, invoice, payment["id"])["status"] == "confirmed"
