"""The items every write of a company touches (month balances, day counts, the year's lock) go to
a shard of their own when another transaction has them in flight (keys.shard): the books, the
list totals and the closed periods read the same whatever shards were written."""
from __future__ import annotations

import threading
from decimal import Decimal

from chalicelib.store import keys
from infra.devstack import faithful_dynamodb
from tests.documents_support import Shop
from tests.support import Books


def shard_sort_keys(table, partition):
    items, _ = table.query(partition=("PK", partition), consistent=True, limit=1000)
    return sorted(item["SK"] for item in items)


def test_entries_in_flight_together_spread_to_shards_and_add_up_exactly(api, table, company_a):
    books = Books(api, company_a, full=False)
    books.entry("2026-11-02", ("110101", 1, 0), ("410101", 0, 1))  # the accounts' first postings
    answers = []

    def post(amount):
        answers.append(books.api.post("/journal-entries", {
            "date": "2026-11-05", "status": "posted",
            "lines": [{"chartOfAccountId": books["110101"], "debit": amount, "credit": 0},
                      {"chartOfAccountId": books["410101"], "debit": 0, "credit": amount}]}, key=books.key).status)

    # each transaction holds its items 150 ms: the six overlap on both balances, the day count
    # and the year's lock
    with faithful_dynamodb.behaving(transaction_hold_s=0.15):
        threads = [threading.Thread(target=post, args=(amount,)) for amount in (10, 20, 30, 40, 50, 60)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
    assert answers == [201] * 6
    assert faithful_dynamodb.conflicts_seen() > 0
    balances = shard_sort_keys(table, keys.balances_partition(company_a.company_id))
    assert any(sort_key.count("#") == 2 for sort_key in balances), balances  # "{account}#{month}#{shard}"
    days = shard_sort_keys(table, keys.day_counts(company_a.company_id, "")["PK"])
    assert any(sort_key.startswith("2026-11-05#") for sort_key in days), days
    # cash: 1 + 10 + 20 + 30 + 40 + 50 + 60 = 211 debited, sales the same credited
    trial = books.trial_balance("2026-11-30")
    assert Decimal(str(trial["totalDebit"])) == Decimal(str(trial["totalCredit"])) == Decimal("211")
    assert Decimal(str(books.ledger("110101")["closingBalance"])) == Decimal("211")
    # the ledger of the 5th alone: 210, opening with the 2nd's 1
    fifth = books.ledger("110101", "2026-11-05", "2026-11-05")
    assert (Decimal(str(fifth["openingBalance"])), Decimal(str(fifth["closingBalance"]))) == (1, 211)
    # 1 entry on the 2nd and 6 on the 5th, counted on the day items and their shards
    assert api.get("/journal-entries", key=company_a.api_key).json["total"] == 7
    assert api.get("/journal-entries?startDate=2026-11-05&endDate=2026-11-05",
                   key=company_a.api_key).json["total"] == 6


def test_a_check_that_lands_on_a_shard_of_the_year_s_lock_sees_the_closed_period(api, company_a):
    books = Books(api, company_a, full=False)
    november = api.post("/accounting-periods", {"name": "Nov", "startDate": "2026-11-01", "endDate": "2026-11-30"},
                        key=company_a.api_key).json
    assert api.post(f"/accounting-periods/{november['id']}/close", key=company_a.api_key).status == 200
    # the first submission meets a conflict on every item, so the lock's check goes to a shard
    faithful_dynamodb.inject("TransactWriteItems", "conflict")
    refused = books.entry("2026-11-05", ("110101", 10, 0), ("410101", 0, 10), expect=400)
    assert refused["code"] == "PERIOD_CLOSED"
    assert api.post(f"/accounting-periods/{november['id']}/reopen", key=company_a.api_key).status == 200
    faithful_dynamodb.inject("TransactWriteItems", "conflict")
    books.entry("2026-11-05", ("110101", 10, 0), ("410101", 0, 10))  # reopened on every shard too
    assert Decimal(str(books.ledger("110101")["closingBalance"])) == Decimal("10")


def test_a_closed_year_is_closed_on_every_shard_of_its_lock(api, table, company_a):
    books = Books(api, company_a)
    books.entry("2025-06-30", ("110101", 100, 0), ("410101", 0, 100))
    assert api.post("/fiscal-years/2025/close", key=company_a.api_key).status == 200
    for key in keys.shards(keys.period_lock(company_a.company_id, "2025")):
        assert table.get(key)["yearClosed"] is True
    faithful_dynamodb.inject("TransactWriteItems", "conflict")
    assert books.entry("2025-07-01", ("110101", 1, 0), ("410101", 0, 1), expect=400)["code"] == "PERIOD_CLOSED"
    assert [year["year"] for year in api.get("/fiscal-years", key=company_a.api_key).json["fiscalYears"]] == [2025]


def test_invoices_in_flight_together_keep_the_partner_s_books_exact(api, table, company_a):
    shop = Shop(api, company_a)
    statuses = []

    def sell():
        statuses.append(shop.api.post("/documents", {
            "type": "01", "businessPartnerId": shop.customer, "date": "2026-11-02",
            "lines": [{"productId": shop.service, "quantity": 1, "unitPrice": 100}]}, key=shop.key).status)

    with faithful_dynamodb.behaving(transaction_hold_s=0.15):
        threads = [threading.Thread(target=sell) for _ in range(5)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
    assert statuses == [201] * 5
    # 5 invoices of 100 + 15 % ISV = 575 owed, on the partner's ledger months and its control account
    statement = api.get(f"/credits/client/{shop.customer}/statement?startDate=2026-11-01&endDate=2026-11-30",
                        key=shop.key).json
    assert Decimal(str(statement["closingBalance"])) == Decimal("575")
    assert shop.balance("110201") == Decimal("575")
    assert api.get("/documents", key=shop.key).json["total"] == 5
    assert api.get(f"/documents?businessPartnerId={shop.customer}&startDate=2026-11-02&endDate=2026-11-02",
                   key=shop.key).json["total"] == 5
