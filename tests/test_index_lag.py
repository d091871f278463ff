"""The books are exact while DynamoDB's indexes lag behind the table (infra/devstack/faithful_dynamodb.py
shows each written item to index reads after its own delay, so an index read can see part of a
transaction): the trial balance, the statements and the ledger read balances and postings from
the table, strongly consistent."""
from __future__ import annotations

from decimal import Decimal

import pytest

from infra.devstack import faithful_dynamodb
from tests.support import Books


@pytest.fixture
def books(api, company_a):
    return Books(api, company_a, full=False)


@pytest.fixture
def lagging(books):
    """From now on (the chart set up), each written item reaches the indexes within a second."""
    now = [1_000.0]
    faithful_dynamodb.control_time(seed=11, clock=lambda: now[0])
    faithful_dynamodb.configure(index_lag_s=1.0)
    return now


def money(value) -> Decimal:
    return Decimal(str(value))


def test_reports_never_show_part_of_a_posting_while_the_index_lags(books, lagging):
    books.entry("2026-11-02", ("110101", 1000, 0), ("3101", 0, 1000))     # capital paid in
    books.entry("2026-11-03", ("110101", 230, 0), ("410101", 0, 230))       # a cash sale
    books.entry("2026-11-04", ("6199", 80, 0), ("110101", 0, 80))         # an expense paid
    listed = books.api.get("/journal-entries?startDate=2026-11-01&endDate=2026-11-30", key=books.key).json
    # the lag is real: the list (an index) does not show the three entries yet, its total (a
    # count kept in the table) does
    assert len(listed["journalEntries"]) < 3 and listed["total"] == 3
    for _ in range(4):  # at once, and as the index catches up item by item over the next second
        trial = books.trial_balance("2026-11-30")
        rows = {row["code"]: row for row in trial["accounts"]}
        # debits 1000 + 230 + 80 = 1310 = credits 1000 + 230 + 80
        assert money(trial["totalDebit"]) == money(trial["totalCredit"]) == Decimal("1310")
        # cash: 1000 + 230 - 80 = 1150
        assert money(rows["110101"]["balance"]) == Decimal("1150")
        ledger = books.ledger("110101", "2026-11-01", "2026-11-30")
        assert money(ledger["closingBalance"]) == Decimal("1150")
        assert len(ledger["postings"]) == 3
        reply = books.api.get("/reports/balance-sheet?date=2026-11-30", key=books.key)
        assert reply.status == 200, reply.text
        sheet = reply.json
        # assets 1150 = liabilities 0 + equity: capital 1000 + this year's result 230 - 80
        assert sheet["balanced"] is True
        assert money(sheet["assets"]["total"]) == Decimal("1150")
        assert money(sheet["equity"]["total"]) == Decimal("1150")
        lagging[0] += 0.3
