"""Statement lines matched under races (issue 42, point 3): one request held at its commit while
another runs whole (tests/race_support.py), so the race surely happens: one line matched twice,
one document paid by two lines, one transaction claimed by two lines. Exactly one wins each
time; the books stay whole."""
from __future__ import annotations

import pytest

from tests.bank_matching_support import D, act, balance_of, bank_account, check_books, lines, path, pending
from tests.documents_support import Shop
from tests.race_support import hold_at_commit

pytestmark = pytest.mark.emulator("races writers: on the emulator, transactions in flight conflict")


@pytest.fixture
def shop(api, company_a) -> Shop:
    return Shop(api, company_a)


def _deposit(shop: Shop, account_id: int, amount: str) -> int:
    return shop.created(f"/bank-accounts/{account_id}/transactions", {
        "type": "deposit", "amount": amount, "transactionDate": "2026-11-03",
        "chartOfAccountId": shop.books["3401"]})["id"]


def _match(shop: Shop, account_id: int, line_id: int, body: dict):
    return lambda: shop.api.post(path(account_id, line_id, "match"), body, key=shop.key)


def test_one_line_matched_twice_at_once_only_one_match_lands(shop, table, monkeypatch):
    account = bank_account(shop)
    first, second = _deposit(shop, account["id"], "100.00"), _deposit(shop, account["id"], "100.00")
    line_id, = lines(shop, table, account["id"], ("2026-11-05", "100.00", "DEPOSITO", None))
    race = hold_at_commit(monkeypatch, _match(shop, account["id"], line_id, {"transactionId": first}),
                          _match(shop, account["id"], line_id, {"transactionId": second}))
    assert race.other.status == 200 and race.other.json["match"]["transactionIds"] == [second]
    assert race.lost == 1
    assert (race.held.status, race.held.json["code"]) == (409, "STATEMENT_LINE_NOT_UNMATCHED")
    listed = shop.api.get(f"/bank-accounts/{account['id']}/transactions", key=shop.key).json["transactions"]
    assert {t["id"]: t.get("statementLineId") for t in listed} == {first: None, second: line_id}
    check_books(shop, {"110103": account["id"]})


def test_one_document_matched_by_two_lines_at_once_is_paid_once(shop, table, monkeypatch):
    account = bank_account(shop)
    shop.created("/payments/methods", {"name": "Transferencia BAC", "bankAccountId": account["id"]})
    invoice = shop.document("01", [(shop.service, 10, 100)])  # 1,000.00 + 150.00 = 1,150.00
    one, two = lines(shop, table, account["id"], ("2026-11-05", "1150.00", "DEPOSITO", None),
                     ("2026-11-06", "1150.00", "DEPOSITO", None))
    body = {"documents": [{"documentId": invoice["id"], "amount": "1150.00"}]}
    race = hold_at_commit(monkeypatch, _match(shop, account["id"], one, body), _match(shop, account["id"], two, body))
    assert race.other.status == 200
    assert race.lost == 1  # the document's version moved under the held request, which ran again...
    # ...and found it paid: nothing left of it to take
    assert (race.held.status, race.held.json["code"], race.held.json["details"]) == (
        400, "AMOUNT_EXCEEDS_PENDING", [{"field": "documents[0].amount", "message": "at most 0.00"}])
    payments = shop.api.get(f"/payments/documents/{invoice['id']}/payments", key=shop.key).json["payments"]
    assert len(payments) == 1 and pending(shop, invoice["id"]) == 0
    # the bank: 1,000.00 + 1,150.00 once = 2,150.00; the customer owes 0
    assert balance_of(shop, account["id"]) == D("2150.00")
    assert act(shop, account["id"], one, "ignore")["status"] == "ignored"  # the held line is still unmatched
    check_books(shop, {"110103": account["id"]})


def test_one_transaction_matched_by_two_lines_at_once_goes_to_one(shop, table, monkeypatch):
    account = bank_account(shop)
    deposit = _deposit(shop, account["id"], "100.00")
    one, two = lines(shop, table, account["id"], ("2026-11-05", "100.00", "DEPOSITO", None),
                     ("2026-11-06", "100.00", "DEPOSITO", None))
    body = {"transactionId": deposit}
    race = hold_at_commit(monkeypatch, _match(shop, account["id"], one, body), _match(shop, account["id"], two, body))
    assert race.other.status == 200
    assert (race.held.status, race.held.json["code"]) == (409, "BANK_TRANSACTION_ALREADY_MATCHED")
    listed = shop.api.get(f"/bank-accounts/{account['id']}/transactions", key=shop.key).json["transactions"]
    assert [t.get("statementLineId") for t in listed] == [two]
    # the held line stayed unmatched: it can still be matched (here, to a new transaction)
    act(shop, account["id"], one, "match", {"create": {"chartOfAccountId": shop.books["3401"],
                                                       "description": "Aporte"}})
    assert balance_of(shop, account["id"]) == D("1200.00")  # 1,000.00 + 100.00 + 100.00
    check_books(shop, {"110103": account["id"]})
