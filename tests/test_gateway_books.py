"""A card payment's fee in the books and its refund (issue 43, point 3): the issue's hand-worked
sale of 1,000.00 + ISV 15 % = 1,150.00 paid by card on the PixelPay stand-in at 3.5 % + 5.00 with
ISV on the fee (the notification pipeline books payment and fee), then paid out to the bank;
every balance by hand, the trial balance balanced and each bank account's balance equal to its
ledger account after every step (tests/bank_matching_support.check_books). A cancelled gateway
payment is refunded at the provider first (PixelPay: a void through its API; Wompi: recorded as
made in its panel), and its fee withdrawal is reversed with it."""
from __future__ import annotations

import datetime as dt

import pytest

from chalicelib import clock
from chalicelib.errors import ServiceUnavailable
from chalicelib.services import commands
from chalicelib.services.integrations.providers import ProviderError, ProviderUnavailable
from tests.bank_matching_support import balance_of, check_books, transactions
from tests.documents_support import Shop
from tests.gateway_books_support import (
    CLEARING,
    FEES,
    D,
    ScriptedAdapter,
    card_shop,
    paid_by_card,
    scripted,
)
from tests.gateway_support import generate, new_wompi_gateway, payments_of, post


@pytest.fixture
def shop(api, company_a) -> Shop:
    return Shop(api, company_a)


def sale_paid_by_card(api, shop: Shop, pixelpay, **terms: str):
    card = card_shop(shop, **terms)
    # 10 x 100.00 = 1,000.00 + ISV 15 % 150.00 = 1,150.00
    invoice = shop.document("01", [(shop.service, 10, 100)])
    assert D(str(invoice["total"])) == D("1150.00")
    return card, invoice, paid_by_card(api, shop, pixelpay, card, invoice["id"])


def voids_of(pixelpay, payment: dict) -> list:
    """What the stand-in (shared by the session's tests) voided of this payment's transaction."""
    return [void for void in pixelpay.voids if void.payment_uuid == payment["gatewayTransactionId"]]


def today() -> str:
    return clock.today_in("HN")


def days_on(count: int) -> str:
    return (dt.date.fromisoformat(today()) + dt.timedelta(days=count)).isoformat()


def payment_of(shop: Shop, invoice: dict, payment_id: int) -> dict:
    reply = shop.api.get(f"/payments/documents/{invoice['id']}/payments", key=shop.key)
    return next(p for p in reply.json["payments"] if p["id"] == payment_id)


def test_a_card_sale_books_its_fee_with_the_tax_and_the_payout_empties_the_clearing_account(api, shop, pixelpay):
    card, invoice, payment = sale_paid_by_card(api, shop, pixelpay)
    # the fee: 1,150.00 x 3.5 % = 40.25, + 5.00 = 45.25; its ISV 45.25 x 15 % = 6.7875 -> 6.79; fee + tax 52.04
    assert (D(str(payment["gatewayFee"])), D(str(payment["gatewayFeeTax"])), payment["gatewayId"]) == (
        D("45.25"), D("6.79"), card.gateway["id"])
    # the fee's entry: Dr 6105 fee 45.25, Dr 110401 ISV crédito fiscal 6.79, Cr 110105 clearing 52.04
    assert shop.entry_lines(payment["feeJournalEntryId"]) == {
        FEES: (D("45.25"), D("0")), "110401": (D("6.79"), D("0")), CLEARING: (D("0"), D("52.04"))}
    # the clearing account: the payment 1,150.00 in, the fee 52.04 out, on the payment's day
    listed = transactions(shop, card.clearing["id"])
    fee_tx = listed[payment["feeTransactionId"]]
    assert (fee_tx["type"], D(str(fee_tx["amount"])), fee_tx["transactionDate"], fee_tx["reference"]) == (
        "withdrawal", D("52.04"), payment["paymentDate"], payment["gatewayTransactionId"])
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
                          {"bankAccountId": card.bank["id"], "amount": "1097.96", "payoutDate": days_on(2),
                           "reference": "LIQ-8812"}, key=shop.key)
    assert reply.status == 201, reply.text
    payout = reply.json
    assert (payout["gatewayId"], payout["fromAccountId"], payout["toAccountId"], D(str(payout["amount"])),
            payout["payoutDate"], payout["reference"]) == (card.gateway["id"], card.clearing["id"], card.bank["id"],
                                                           D("1097.96"), days_on(2), "LIQ-8812")
    # Dr 110103 bank 1,097.96, Cr 110105 clearing 1,097.96
    assert shop.entry_lines(payout["journalEntryId"]) == {"110103": (D("1097.96"), D("0")),
                                                          CLEARING: (D("0"), D("1097.96"))}
    # clearing 1,097.96 - 1,097.96 = 0.00; bank 1,000.00 + 1,097.96 = 2,097.96; the rest as before
    assert balance_of(shop, card.clearing["id"]) == 0 == shop.balance(CLEARING)
    assert balance_of(shop, card.bank["id"]) == D("2097.96") == shop.balance("110103")
    assert (shop.balance("110201"), shop.balance(FEES), shop.balance("110401"), shop.balance("210201")) == (
        0, D("45.25"), D("6.79"), D("150.00"))
    check_books(shop, card.banks)


def test_the_fee_and_its_tax_are_split_as_the_terms_say(api, shop, pixelpay):
    # other terms, each rounding half up at the cent: 2.9 % + 0.30, tax 15 %
    card = card_shop(shop, percent="2.9", fixed="0.30")
    invoice = shop.document("01", [(shop.service, 2, D("86.96"))])  # 2 x 86.96 = 173.92 + 26.088 -> 26.09 = 200.01
    amount = "200.01"
    assert D(str(invoice["total"])) == D(amount)
    # 200.01 x 2.9 % = 5.80029 + 0.30 = 6.10029 -> 6.10; 6.10 x 15 % = 0.915 -> 0.92; fee + tax 7.02
    payment = paid_by_card(api, shop, pixelpay, card, invoice["id"])
    assert shop.entry_lines(payment["feeJournalEntryId"]) == {
        FEES: (D("6.10"), D("0")), "110401": (D("0.92"), D("0")), CLEARING: (D("0"), D("7.02"))}
    # clearing 200.01 - 7.02 = 192.99
    assert balance_of(shop, card.clearing["id"]) == D("192.99") == shop.balance(CLEARING)
    check_books(shop, card.banks)


def test_a_gateway_that_charges_nothing_books_the_payment_alone(api, shop, pixelpay):
    card, invoice, payment = sale_paid_by_card(api, shop, pixelpay, percent="0", fixed="0", tax_rate="0")
    assert (payment.get("gatewayFee"), payment.get("feeTransactionId")) == (None, None)
    # the whole 1,150.00 waits in the clearing account; no fee, no input tax
    assert balance_of(shop, card.clearing["id"]) == D("1150.00") == shop.balance(CLEARING)
    assert (shop.balance(FEES), shop.balance("110401")) == (0, 0)
    check_books(shop, card.banks)


def cancel(shop: Shop, invoice: dict, payment: dict, expect: int, **body: str) -> dict:
    reply = shop.api.post(f"/payments/documents/{invoice['id']}/payments/{payment['id']}/cancel",
                          {"reason": "Cliente devolvió el producto", **body}, key=shop.key)
    assert reply.status == expect, reply.text
    return reply.json


def test_cancelling_a_pixelpay_payment_voids_it_first_and_reverses_the_payment_and_its_fee(api, shop, pixelpay):
    card, invoice, payment = sale_paid_by_card(api, shop, pixelpay)
    cancelled = cancel(shop, invoice, payment, 200)
    # PixelPay voided its transaction, for the reason given
    assert [void.reason for void in voids_of(pixelpay, payment)] == ["Cliente devolvió el producto"]
    assert (cancelled["status"], cancelled["refundedThrough"]) == ("cancelled", "api")
    assert payment_of(shop, invoice, payment["id"])["refundedThrough"] == "api"
    # everything back: receivable 1,150.00 owed again; clearing 1,097.96 - 1,150.00 (the payment out) + 52.04
    # (the fee back in) = 0; fee expense 45.25 - 45.25 = 0; input tax 6.79 - 6.79 = 0; sales tax still 150.00
    assert D(str(shop.get(invoice["id"])["pending"])) == D("1150.00") == shop.balance("110201")
    assert balance_of(shop, card.clearing["id"]) == 0 == shop.balance(CLEARING)
    assert (shop.balance(FEES), shop.balance("110401"), shop.balance("210201")) == (0, 0, D("150.00"))
    listed = transactions(shop, card.clearing["id"])
    fee_back = listed[cancelled["feeReversalTransactionId"]]
    assert (fee_back["type"], D(str(fee_back["amount"])), fee_back["reverses"]) == (
        "deposit", D("52.04"), payment["feeTransactionId"])
    assert listed[payment["feeTransactionId"]]["reversedBy"] == fee_back["id"]
    check_books(shop, card.banks)


@pytest.mark.parametrize(("fault", "status", "code"), [
    ("void_unavailable", 503, "GATEWAY_UNAVAILABLE"), ("void_refused", 502, "GATEWAY_PROVIDER_ERROR")])
def test_a_void_the_provider_refuses_or_never_answers_changes_nothing(api, shop, pixelpay, fault, status, code):
    card, invoice, payment = sale_paid_by_card(api, shop, pixelpay)
    pixelpay.fault(**{fault: True})
    assert cancel(shop, invoice, payment, status)["code"] == code
    kept = payment_of(shop, invoice, payment["id"])
    assert (kept["status"], kept.get("refundedThrough"), kept["version"]) == ("confirmed", None, 1)
    assert voids_of(pixelpay, payment) == []
    # as before: receivable 0, clearing 1,097.96, fee 45.25
    assert shop.balance("110201") == 0 and shop.balance(FEES) == D("45.25")
    assert balance_of(shop, card.clearing["id"]) == D("1097.96") == shop.balance(CLEARING)
    check_books(shop, card.banks)
    # the provider back: the cancellation goes through
    pixelpay.reset_faults()
    assert cancel(shop, invoice, payment, 200)["refundedThrough"] == "api"
    assert balance_of(shop, card.clearing["id"]) == 0


def test_a_cancel_retried_after_the_void_went_through_is_never_voided_twice(api, shop, pixelpay, monkeypatch):
    card, invoice, payment = sale_paid_by_card(api, shop, pixelpay)
    real_commit = commands.Command.commit
    failures = iter([ServiceUnavailable()])

    def failing_once(self, transaction, result, replay=None):
        failure = next(failures, None)
        if failure is not None:
            raise failure
        return real_commit(self, transaction, result, replay)

    monkeypatch.setattr(commands.Command, "commit", failing_once)
    assert cancel(shop, invoice, payment, 503)["code"] == "SERVICE_UNAVAILABLE"
    # voided at PixelPay and noted on the payment; the books not changed yet
    noted = payment_of(shop, invoice, payment["id"])
    assert (len(voids_of(pixelpay, payment)), noted["status"], noted["refundedThrough"]) == (1, "confirmed", "api")
    assert balance_of(shop, card.clearing["id"]) == D("1097.96")
    # sent again: no second void (PixelPay would refuse it: 412), the books catch up
    cancelled = cancel(shop, invoice, payment, 200)
    assert (len(voids_of(pixelpay, payment)), cancelled["status"], cancelled["refundedThrough"]) == (
        1, "cancelled", "api")
    assert balance_of(shop, card.clearing["id"]) == 0 == shop.balance(CLEARING)
    check_books(shop, card.banks)


def test_a_void_lost_before_it_was_noted_is_taken_as_done_when_the_provider_no_longer_approves_it(
        api, shop, pixelpay, monkeypatch):
    card, invoice, payment = sale_paid_by_card(api, shop, pixelpay)
    # PixelPay refuses the void; its status call says the transaction is no longer approved (voided by the
    # attempt whose answer was lost): taken as done. Still approved: the refusal stands (502).
    provider = scripted(monkeypatch, ScriptedAdapter("pixelpay", refund_answers=[
        ProviderError("La transacción no puede ser anulada")] * 2, approved_now=True))
    assert cancel(shop, invoice, payment, 502)["code"] == "GATEWAY_PROVIDER_ERROR"
    provider.approved_now = False
    cancelled = cancel(shop, invoice, payment, 200)
    assert (provider.confirms, cancelled["status"], cancelled["refundedThrough"]) == (2, "cancelled", "api")
    assert balance_of(shop, card.clearing["id"]) == 0 == shop.balance(CLEARING)
    check_books(shop, card.banks)


def test_a_status_call_unanswered_after_a_refused_void_leaves_the_refusal(api, shop, pixelpay, monkeypatch):
    card, invoice, payment = sale_paid_by_card(api, shop, pixelpay)

    class Silent(ScriptedAdapter):
        def confirm(self, access, notification):
            raise ProviderUnavailable("timeout")

    scripted(monkeypatch, Silent("pixelpay", refund_answers=[ProviderError("refused")]))
    assert cancel(shop, invoice, payment, 502)["code"] == "GATEWAY_PROVIDER_ERROR"
    assert payment_of(shop, invoice, payment["id"])["status"] == "confirmed"


def test_cancelling_a_wompi_payment_records_the_refund_as_made_in_its_panel_and_keeps_the_fee(api, shop, wompi):
    # Wompi clears in dollars; this Honduran shop keeps its books in lempiras at 25.00 the dollar
    for date in {shop.default_date, today()}:
        assert shop.api.post("/exchange-rates", {"currency": "USD", "date": date, "rate": "25.00"},
                             key=shop.key).status == 201
    books = shop.books
    if FEES not in books.accounts:
        books.accounts[FEES] = shop.created("/chart-of-accounts", {"code": FEES, "name": "Comisiones de pasarela",
                                                                   "type": "expense"})["id"]
    gateway = new_wompi_gateway(shop, feePercent="3.5", feeFixed="5.00", feeTaxRate="0.15",
                                feeAccountId=books[FEES])
    invoice = shop.document("01", [(shop.service, 10, 100)], currency="USD")   # USD 1,000.00 + 15 % = 1,150.00
    link = generate(shop, invoice["id"], gateway["id"])
    assert {reply.json["status"] for reply in [post(api, each) for each in wompi.pay(link["url"])]} == {"accepted"}
    [payment] = payments_of(shop, invoice["id"])
    # USD 1,150.00 at 3.5 % = 40.25, + 5.00 = 45.25; ISV 45.25 x 15 % = 6.7875 -> 6.79; clearing 1,150.00 - 52.04
    assert (D(str(payment["gatewayFee"])), D(str(payment["gatewayFeeTax"]))) == (D("45.25"), D("6.79"))
    clearing = gateway["clearingBankAccountId"]
    assert balance_of(shop, clearing) == D("1097.96")
    cancelled = cancel(shop, invoice, payment, 200)
    assert (cancelled["status"], cancelled["refundedThrough"], cancelled.get("feeReversalTransactionId")) == (
        "cancelled", "panel", None)
    # Wompi keeps its fee on a refund made in its panel: the payment's USD 1,150.00 goes out of clearing, the
    # fee stays: 1,097.96 - 1,150.00 = -52.04, what Wompi deducts from its next payout
    assert balance_of(shop, clearing) == D("-52.04")
    # in lempiras at 25.00: fee 45.25 x 25 = 1,131.25, its ISV 6.79 x 25 = 169.75 stay booked; the receivable
    # owes the invoice again, 1,150.00 x 25 = 28,750.00
    assert (shop.balance(FEES), shop.balance("110401"), shop.balance("110201")) == (
        D("1131.25"), D("169.75"), D("28750.00"))
    trial = shop.books.trial_balance()
    assert D(str(trial["totalDebit"])) == D(str(trial["totalCredit"]))


def test_a_cancellation_the_books_refuse_calls_no_provider(api, shop, pixelpay):
    card, invoice, payment = sale_paid_by_card(api, shop, pixelpay)
    # dated before the payment: refused before any money goes back at PixelPay
    refused = cancel(shop, invoice, payment, 400, date=days_on(-40))
    assert refused["details"][0]["field"] == "date"
    assert voids_of(pixelpay, payment) == [] and payment_of(shop, invoice, payment["id"])["status"] == "confirmed"


# --- issue 43, fixbooks: every refusal of the books before the provider ---------------------------

def fee_line_matched(shop: Shop, table, card, payment: dict) -> int:
    """The clearing account's statement shows the provider's fee 52.04 out, matched to the fee
    withdrawal: the line's id."""
    from tests.bank_matching_support import act, lines
    line, = lines(shop, table, card.clearing["id"], (payment["paymentDate"], "-52.04", "COMISION PIXELPAY", None))
    act(shop, card.clearing["id"], line, "match", {"transactionId": payment["feeTransactionId"]})
    return line


def test_a_fee_withdrawal_matched_to_a_statement_line_refuses_the_cancel_before_any_void(api, shop, table, pixelpay):
    card, invoice, payment = sale_paid_by_card(api, shop, pixelpay)
    fee_line_matched(shop, table, card, payment)
    refused = cancel(shop, invoice, payment, 409)
    assert refused["code"] == "BANK_TRANSACTION_ALREADY_MATCHED"
    # nothing voided at PixelPay, nothing noted: the customer still paid, the invoice still paid
    kept = payment_of(shop, invoice, payment["id"])
    assert voids_of(pixelpay, payment) == [] and (kept["status"], kept.get("refundedThrough")) == ("confirmed", None)
    # clearing 1,150.00 - 52.04 = 1,097.96, as before
    assert balance_of(shop, card.clearing["id"]) == D("1097.96") == shop.balance(CLEARING)
    check_books(shop, card.banks)


def test_a_cancellation_dated_in_a_closed_period_calls_no_provider(api, shop, pixelpay):
    card, invoice, payment = sale_paid_by_card(api, shop, pixelpay)
    # a period after the payment's day, closed: the cancellation dated inside it is refused before PixelPay
    period = shop.created("/accounting-periods", {"name": "Cerrado", "startDate": days_on(5), "endDate": days_on(6)})
    assert shop.api.post(f"/accounting-periods/{period['id']}/close", key=shop.key).status == 200
    refused = cancel(shop, invoice, payment, 400, date=days_on(5))
    assert refused["code"] == "PERIOD_CLOSED"
    kept = payment_of(shop, invoice, payment["id"])
    assert voids_of(pixelpay, payment) == [] and (kept["status"], kept.get("refundedThrough")) == ("confirmed", None)
    assert balance_of(shop, card.clearing["id"]) == D("1097.96") == shop.balance(CLEARING)


def test_a_void_the_commit_then_refuses_is_kept_on_the_payment_and_the_retry_completes_the_books_alone(
        api, shop, table, pixelpay, monkeypatch):
    from chalicelib.services.integrations import gateway_books
    from chalicelib.store import keys
    from chalicelib.store.transaction import Transaction

    card, invoice, payment = sale_paid_by_card(api, shop, pixelpay)
    company_id, clearing_id, fee_id = shop.company.company_id, card.clearing["id"], payment["feeTransactionId"]
    pointer = table.get(keys.bank_transaction_pointer(company_id, clearing_id, fee_id))
    fee_key = keys.bank_transaction(company_id, clearing_id, pointer["transactionDate"], fee_id)
    real_adapter_for = gateway_books.adapter_for

    class MatchedMeanwhile:
        """PixelPay voids; meanwhile (after the checks, before the commit) a statement line takes the fee."""
        def __init__(self, real):
            self.real = real
            self.refunds_through_api = real.refunds_through_api

        def refund(self, *args):
            refund = self.real.refund(*args)
            Transaction(table).update(fee_key, "SET statementLineId = :line", values={":line": 999}).commit()
            return refund

    monkeypatch.setattr(gateway_books, "adapter_for", lambda provider: MatchedMeanwhile(real_adapter_for(provider)))
    assert cancel(shop, invoice, payment, 409)["code"] == "BANK_TRANSACTION_ALREADY_MATCHED"
    monkeypatch.undo()
    # voided at PixelPay, books pending: the payment carries the void, still confirmed; the books unchanged
    noted = payment_of(shop, invoice, payment["id"])
    assert (len(voids_of(pixelpay, payment)), noted["status"], noted["refundedThrough"]) == (1, "confirmed", "api")
    assert noted["refundReference"] == payment["gatewayTransactionId"] and noted["refundedAt"]
    assert balance_of(shop, clearing_id) == D("1097.96") == shop.balance(CLEARING)
    # sent again while the line still holds the fee: refused again, no second void
    assert cancel(shop, invoice, payment, 409)["code"] == "BANK_TRANSACTION_ALREADY_MATCHED"
    assert len(voids_of(pixelpay, payment)) == 1
    # the line let go of the fee: the retry completes the books without calling PixelPay
    Transaction(table).update(fee_key, "REMOVE statementLineId").commit()
    cancelled = cancel(shop, invoice, payment, 200)
    assert (len(voids_of(pixelpay, payment)), cancelled["status"], cancelled["refundedThrough"]) == (
        1, "cancelled", "api")
    # clearing 1,097.96 - 1,150.00 + 52.04 = 0; receivable 1,150.00 owed again
    assert balance_of(shop, clearing_id) == 0 == shop.balance(CLEARING)
    assert shop.balance("110201") == D("1150.00")
    check_books(shop, card.banks)


def test_a_card_payment_is_cancelled_by_who_manages_the_gateways_not_by_a_seller(api, shop, table, pixelpay):
    from tests.support import ORIGIN
    from tests.users_support import member

    card, invoice, payment = sale_paid_by_card(api, shop, pixelpay)
    _, seller = member(api, table, shop.company, "vendedor@alpha.example", "seller")
    _, accountant = member(api, table, shop.company, "contador@alpha.example", "accountant")
    path = f"/payments/documents/{invoice['id']}/payments/{payment['id']}/cancel"
    for cookie in (seller, accountant):
        refused = api.post(path, {"reason": "Devolución"}, cookie=cookie, origin=ORIGIN,
                           headers={"Accept-Language": "es"})
        assert (refused.status, refused.json["code"]) == (403, "PERMISSION_DENIED"), refused.text
        assert refused.json["message"] == ("Solo un propietario o un administrador puede anular un pago con tarjeta: "
                                           "anularlo devuelve el dinero en la pasarela de pago.")
    assert voids_of(pixelpay, payment) == [] and payment_of(shop, invoice, payment["id"])["status"] == "confirmed"
    # a payment in cash the seller still cancels
    cash = shop.created("/payments/methods", {"name": "Efectivo", "isCashMethod": True})
    other = shop.document("01", [(shop.service, 1, 100)])   # 100.00 + 15 % = 115.00
    paid = shop.created(f"/payments/documents/{other['id']}/payments",
                        {"paymentMethodId": cash["id"], "amount": "115.00", "paymentDate": today()})
    by_seller = api.post(f"/payments/documents/{other['id']}/payments/{paid['id']}/cancel", {"reason": "Error"},
                         cookie=seller, origin=ORIGIN)
    assert (by_seller.status, by_seller.json["status"]) == (200, "cancelled"), by_seller.text
    # the owner's key (an administrator's) cancels the card payment: voided at PixelPay
    assert cancel(shop, invoice, payment, 200)["refundedThrough"] == "api"
    assert len(voids_of(pixelpay, payment)) == 1
