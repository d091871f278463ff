"""A card gateway's payout (issue 43, point 3): the clearing account's money moved to the bank,
entered (POST /payments/gateways/{id}/payouts) or matched from the bank's statement line as a
transfer from the clearing account, which the suggestions propose. The issue's figures: the sale
of 1,150.00 paid by card at 3.5 % + 5.00 with ISV 15 % on the fee leaves 1,097.96 in clearing
(tests/test_gateway_books.py works it out); every balance by hand, the invariants after each
step (tests/bank_matching_support.check_books)."""
from __future__ import annotations

import datetime as dt

import pytest

from chalicelib import clock
from tests.bank_matching_support import act, balance_of, check_books, lines, transactions
from tests.documents_support import Shop
from tests.gateway_books_support import CLEARING, D, card_shop, paid_by_card, put_gateway

NET = D("1097.96")   # 1,150.00 - fee 45.25 - ISV 6.79


@pytest.fixture
def shop(api, company_a) -> Shop:
    return Shop(api, company_a)


@pytest.fixture
def card(api, shop, pixelpay):
    """The issue's sale paid by card on the PixelPay stand-in: 1,097.96 waits in clearing."""
    card = card_shop(shop)
    invoice = shop.document("01", [(shop.service, 10, 100)])   # 1,000.00 + 15 % = 1,150.00
    paid_by_card(api, shop, pixelpay, card, invoice["id"])
    assert balance_of(shop, card.clearing["id"]) == NET == shop.balance(CLEARING)
    return card


def days_on(count: int) -> str:
    return (dt.date.fromisoformat(clock.today_in("HN")) + dt.timedelta(days=count)).isoformat()


def payout(shop: Shop, gateway_id: int, body: dict, expect: int = 201, key: str | None = None) -> dict:
    reply = shop.api.post(f"/payments/gateways/{gateway_id}/payouts", body, key=key or shop.key)
    assert reply.status == expect, reply.text
    return reply.json


def test_a_payout_above_the_clearing_balance_is_refused_naming_the_amount_and_changes_nothing(shop, card):
    refused = payout(shop, card.gateway["id"], {"bankAccountId": card.bank["id"], "amount": "1097.97",
                                                "payoutDate": days_on(2)}, expect=400)
    assert [detail["field"] for detail in refused["details"]] == ["amount"]
    assert "1097.96" in refused["details"][0]["message"]
    assert balance_of(shop, card.clearing["id"]) == NET and balance_of(shop, card.bank["id"]) == D("1000.00")
    check_books(shop, card.banks)


def test_a_late_payout_leaves_the_clearing_balance_until_it_arrives_and_a_partial_one_leaves_the_rest(shop, card):
    # two weeks on, nothing paid out yet: the 1,097.96 is still in clearing, not in the bank
    assert balance_of(shop, card.clearing["id"]) == NET == shop.balance(CLEARING)
    assert balance_of(shop, card.bank["id"]) == D("1000.00") == shop.balance("110103")
    first = payout(shop, card.gateway["id"], {"bankAccountId": card.bank["id"], "amount": "600.00",
                                              "payoutDate": days_on(14), "reference": "LIQ-1"})
    # clearing 1,097.96 - 600.00 = 497.96; bank 1,000.00 + 600.00 = 1,600.00
    assert balance_of(shop, card.clearing["id"]) == D("497.96") == shop.balance(CLEARING)
    assert balance_of(shop, card.bank["id"]) == D("1600.00") == shop.balance("110103")
    listed = transactions(shop, card.bank["id"])
    arrived = listed[first["incomingTransactionId"]]
    assert (arrived["type"], D(str(arrived["amount"])), arrived["transactionDate"]) == ("transfer_in", D("600.00"),
                                                                                       days_on(14))
    payout(shop, card.gateway["id"], {"bankAccountId": card.bank["id"], "amount": "497.96",
                                      "payoutDate": days_on(17)})
    # clearing 497.96 - 497.96 = 0; bank 1,600.00 + 497.96 = 2,097.96
    assert balance_of(shop, card.clearing["id"]) == 0 == shop.balance(CLEARING)
    assert balance_of(shop, card.bank["id"]) == D("2097.96") == shop.balance("110103")
    check_books(shop, card.banks)


def test_an_inactive_gateway_still_pays_out_what_it_collected(shop, card):
    reply = shop.api.put(f"/payments/gateways/{card.gateway['id']}", {"isActive": False}, key=shop.key)
    assert reply.status == 200 and reply.json["isActive"] is False, reply.text
    paid = payout(shop, card.gateway["id"], {"bankAccountId": card.bank["id"], "amount": str(NET),
                                             "payoutDate": days_on(2)})
    assert D(str(paid["amount"])) == NET
    assert balance_of(shop, card.clearing["id"]) == 0 and balance_of(shop, card.bank["id"]) == D("2097.96")
    check_books(shop, card.banks)


def test_another_companys_gateway_or_bank_account_is_not_found(api, shop, table, card, company_b):
    other = Shop(api, company_b)
    card_shop(other)
    # ids are the company's own: company B's second gateway and third bank account have no twin in A
    other_gateway = put_gateway(table, company_b.company_id, provider="wompi", method_id=1, fee_account_id=1,
                                percent="0", fixed="0", tax_rate="0")
    ledger = other.created("/chart-of-accounts", {"code": "110106", "name": "Banco ahorro", "type": "asset"})
    other_bank = other.created("/bank-accounts", {"name": "Ahorro B", "openingBalance": 0,
                                                  "openingBalanceDate": "2026-11-01", "chartOfAccountId": ledger["id"]})
    assert (other_gateway["id"], other_bank["id"]) == (2, 3)
    body = {"bankAccountId": card.bank["id"], "amount": "10.00", "payoutDate": days_on(2)}
    # company B's gateway, asked by company A; company A's gateway to company B's bank account
    assert payout(shop, other_gateway["id"], body, expect=404)["code"] == "NOT_FOUND"
    assert payout(shop, card.gateway["id"], {**body, "bankAccountId": other_bank["id"]},
                  expect=404)["code"] == "NOT_FOUND"
    # and the clearing account itself is no payout's target
    assert payout(shop, card.gateway["id"], {**body, "bankAccountId": card.clearing["id"]},
                  expect=400)["details"][0]["field"] == "bankAccountId"
    assert balance_of(shop, card.clearing["id"]) == NET
    check_books(shop, card.banks)


def suggestions_of(shop: Shop, account_id: int) -> dict[int, list[dict]]:
    reply = shop.api.get(f"/bank-accounts/{account_id}/statement-lines?status=unmatched", key=shop.key)
    assert reply.status == 200, reply.text
    return {line["id"]: [{name: value for name, value in each.items() if value is not None}
                         for each in line["suggestions"]] for line in reply.json["statementLines"]}


def test_a_payout_on_the_banks_statement_is_suggested_and_matched_as_a_transfer_from_clearing(shop, table, card):
    named, exact, neither, too_much = lines(
        shop, table, card.bank["id"],
        (days_on(2), "600.00", "ABONO PÍXELPAY LIQ", "8812"),        # names the provider (accent and case off)
        (days_on(2), "1097.96", "TRANSFERENCIA RECIBIDA", None),      # the clearing balance exactly
        (days_on(2), "300.00", "DEPOSITO", None),                     # neither: no payout proposed
        (days_on(2), "1097.97", "PIXELPAY", None))                    # more than clearing holds
    found = suggestions_of(shop, card.bank["id"])
    proposal = {"kind": "payout", "transferToAccountId": card.clearing["id"], "gatewayId": card.gateway["id"]}
    # named: partner 50; exact: amount 50
    assert found[named] == [{**proposal, "score": 50, "reasons": ["partner"]}]
    assert found[exact] == [{**proposal, "score": 50, "reasons": ["amount"]}]
    assert found[neither] == [] and found[too_much] == []

    matched = act(shop, card.bank["id"], exact, "match", {"transferToAccountId": card.clearing["id"]})
    assert (matched["status"], matched["match"]["kind"]) == ("matched", "transfer")
    # Dr bank 1,097.96, Cr clearing 1,097.96: clearing 0, bank 1,000.00 + 1,097.96 = 2,097.96
    assert balance_of(shop, card.clearing["id"]) == 0 == shop.balance(CLEARING)
    assert balance_of(shop, card.bank["id"]) == D("2097.96") == shop.balance("110103")
    assert shop.entry_lines(matched["match"]["journalEntryId"]) == {"110103": (NET, D("0")),
                                                                    CLEARING: (D("0"), NET)}
    # nothing left in clearing: no more payouts proposed
    assert found[named] and suggestions_of(shop, card.bank["id"])[named] == []
    check_books(shop, card.banks)


def test_a_line_naming_the_provider_for_the_whole_balance_scores_both(shop, table, card):
    line, = lines(shop, table, card.bank["id"], (days_on(3), "1097.96", "Liquidacion PixelPay", None))
    assert suggestions_of(shop, card.bank["id"])[line] == [{
        "kind": "payout", "transferToAccountId": card.clearing["id"], "gatewayId": card.gateway["id"], "score": 80,
        "reasons": ["amount", "partner"]}]


def test_a_line_naming_another_provider_is_no_payout_of_this_one(shop, table, card):
    # PixelPay's clearing account holds 1,097.96; a line naming Wompi for less is not its payout
    line, = lines(shop, table, card.bank["id"], (days_on(1), "500.00", "ABONO WOMPI", None))
    assert suggestions_of(shop, card.bank["id"])[line] == []


def test_the_clearing_balance_is_checked_again_in_the_payouts_transaction(shop, card, monkeypatch):
    # another payout took 600.00 between this one's read and its write: it read 1,097.96, 497.96 is left
    from chalicelib.services.integrations import gateway_payouts

    first = payout(shop, card.gateway["id"], {"bankAccountId": card.bank["id"], "amount": "600.00",
                                              "payoutDate": days_on(2)})
    real = gateway_payouts.banking.get_bank_account

    def as_read_before(table, company_id, account_id):
        account = real(table, company_id, account_id)
        return {**account, "balance": NET} if account_id == first["fromAccountId"] else account

    monkeypatch.setattr(gateway_payouts.banking, "get_bank_account", as_read_before)
    refused = payout(shop, card.gateway["id"], {"bankAccountId": card.bank["id"], "amount": "1097.96",
                                                "payoutDate": days_on(2)}, expect=400)
    assert [detail["field"] for detail in refused["details"]] == ["amount"]
    monkeypatch.undo()
    # clearing 1,097.96 - 600.00 = 497.96, never below; bank 1,000.00 + 600.00 = 1,600.00
    assert balance_of(shop, card.clearing["id"]) == D("497.96") == shop.balance(CLEARING)
    assert balance_of(shop, card.bank["id"]) == D("1600.00")
    check_books(shop, card.banks)


# --- issue 43, fixbooks: a payout matched from the bank's line never overdraws clearing ----------

def test_a_bank_line_matched_as_a_payout_above_the_clearing_balance_is_refused_naming_the_field(shop, table, card):
    # a 5,000.00 deposit naming PixelPay, matched as a transfer from clearing, which holds 1,097.96
    line, = lines(shop, table, card.bank["id"], (days_on(2), "5000.00", "PIXELPAY", None))
    refused = act(shop, card.bank["id"], line, "match", {"transferToAccountId": card.clearing["id"]}, expect=400)
    assert [detail["field"] for detail in refused["details"]] == ["transferToAccountId"]
    assert "1097.96" in refused["details"][0]["message"]
    # nothing moved: clearing 1,097.96, bank 1,000.00, the line still unmatched
    assert balance_of(shop, card.clearing["id"]) == NET == shop.balance(CLEARING)
    assert balance_of(shop, card.bank["id"]) == D("1000.00") == shop.balance("110103")
    assert suggestions_of(shop, card.bank["id"]).keys() == {line}
    check_books(shop, card.banks)


def test_the_clearing_balance_is_checked_again_in_the_matchs_transaction(shop, table, card, monkeypatch):
    from chalicelib.services.statements import match_kinds

    # a payout of 600.00 entered meanwhile: the match read 1,097.96, 497.96 is left
    payout(shop, card.gateway["id"], {"bankAccountId": card.bank["id"], "amount": "600.00", "payoutDate": days_on(2)})
    line, = lines(shop, table, card.bank["id"], (days_on(40), "1097.96", "PIXELPAY", None))
    real = match_kinds.banking.get_bank_account

    def as_read_before(table_, company_id, account_id):
        account = real(table_, company_id, account_id)
        return {**account, "balance": NET} if account_id == card.clearing["id"] else account

    monkeypatch.setattr(match_kinds.banking, "get_bank_account", as_read_before)
    refused = act(shop, card.bank["id"], line, "match", {"transferToAccountId": card.clearing["id"]}, expect=400)
    monkeypatch.undo()
    assert [detail["field"] for detail in refused["details"]] == ["transferToAccountId"]
    # clearing 1,097.96 - 600.00 = 497.96, never below; bank 1,000.00 + 600.00 = 1,600.00
    assert balance_of(shop, card.clearing["id"]) == D("497.96") == shop.balance(CLEARING)
    assert balance_of(shop, card.bank["id"]) == D("1600.00") == shop.balance("110103")
    check_books(shop, card.banks)


def test_a_payout_entered_by_hand_is_matched_by_its_bank_line_arriving_twelve_days_later(shop, table, card):
    entered = payout(shop, card.gateway["id"], {"bankAccountId": card.bank["id"], "amount": "600.00",
                                                "payoutDate": days_on(2), "reference": "LIQ-1"})
    # clearing 1,097.96 - 600.00 = 497.96; bank 1,000.00 + 600.00 = 1,600.00
    line, = lines(shop, table, card.bank["id"], (days_on(14), "600.00", "ABONO PIXELPAY LIQ-1", None))
    matched = act(shop, card.bank["id"], line, "match", {"transferToAccountId": card.clearing["id"]})
    # the line takes the payout's own side on the bank: no second transfer
    assert (matched["match"]["transactionIds"], matched["match"]["otherTransactionId"],
            matched["match"].get("existingTransfer")) == ([entered["incomingTransactionId"]],
                                                          entered["outgoingTransactionId"], True)
    assert matched["match"]["journalEntryId"] == entered["journalEntryId"]
    # still clearing 497.96 and bank 1,600.00 (a second transfer: clearing 497.96 - 600.00 = -102.04)
    assert balance_of(shop, card.clearing["id"]) == D("497.96") == shop.balance(CLEARING)
    assert balance_of(shop, card.bank["id"]) == D("1600.00") == shop.balance("110103")
    check_books(shop, card.banks)
