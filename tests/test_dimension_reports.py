"""Cost centres in the reports (issue 44): movements of the postings carrying a dimension value,
read from the postings (each carries its line's `dimensionValueIds`)."""
from __future__ import annotations

from decimal import Decimal

from chalicelib.domain.statements import Movements
from chalicelib.services.accounting import dimension_reports
from chalicelib.store import keys
from chalicelib.store.transaction import Transaction

SALES, RENT = 41, 61  # two account ids (the postings' partitions need no account item)
NORTH, SOUTH, PROJECT_X = 101, 102, 201  # NORTH and SOUTH: values of a "branch" dimension; PROJECT_X another's


def write_postings(table, company_id, postings):
    """postings: (account, date, entry, line, debit, credit, value ids or None), as the posting engine writes them."""
    transaction = Transaction(table)
    for account, date, entry, line, debit, credit, values in postings:
        item = {**keys.posting(company_id, account, date, entry, line), "itemType": "POSTING", "accountId": account,
                "date": date, "journalEntryId": entry, "line": line, "entryType": "manual",
                "debit": Decimal(debit), "credit": Decimal(credit)}
        if values:
            item["dimensionValueIds"] = values
        transaction.put(item)
    transaction.commit()


POSTINGS = (
    (SALES, "2026-03-05", 1, 1, "0", "1000.00", [NORTH]),
    (SALES, "2026-03-10", 2, 1, "0", "400.00", [SOUTH, PROJECT_X]),
    (SALES, "2026-03-12", 3, 1, "0", "250.50", None),
    (SALES, "2026-03-20", 4, 0, "100.00", "0", [NORTH, PROJECT_X]),  # a return in the north
    (RENT, "2026-03-31", 5, 0, "300.00", "0", [NORTH]),
    (RENT, "2026-03-31", 6, 0, "200.00", "0", [PROJECT_X]),
    (SALES, "2026-04-01", 7, 1, "0", "999.00", [NORTH]),  # after the span
    (SALES, "2026-02-28", 8, 1, "0", "888.00", [NORTH]),  # before it
)


def test_tagged_movements_sum_the_postings_carrying_the_value_within_the_span(table, company_a):
    write_postings(table, company_a.company_id, POSTINGS)
    north = dimension_reports.tagged_movements(table, company_a.company_id, [SALES, RENT], "2026-03-01",
                                               "2026-03-31", NORTH)
    # sales north: credit 1,000.00 (entry 1), debit 100.00 (entry 4); entries 7 and 8 outside March
    # rent north: debit 300.00 (entry 5)
    assert north == {SALES: Movements(Decimal("100.00"), Decimal("1000.00")), RENT: Movements(Decimal("300.00"))}
    project = dimension_reports.tagged_movements(table, company_a.company_id, [SALES, RENT], "2026-03-01",
                                                 "2026-03-31", PROJECT_X)
    # sales: credit 400.00 (entry 2), debit 100.00 (entry 4); rent: debit 200.00 (entry 6)
    assert project == {SALES: Movements(Decimal("100.00"), Decimal("400.00")), RENT: Movements(Decimal("200.00"))}
    # an account not asked for is not read
    assert dimension_reports.tagged_movements(table, company_a.company_id, [RENT], "2026-03-01", "2026-03-31",
                                              SOUTH) == {}


def test_unassigned_and_the_groups_of_a_dimension_add_up_to_every_posting(table, company_a):
    write_postings(table, company_a.company_id, POSTINGS)
    branch = [NORTH, SOUTH]
    unassigned = dimension_reports.untagged_movements(table, company_a.company_id, [SALES, RENT], "2026-03-01",
                                                      "2026-03-31", branch)
    # no branch: sales credit 250.50 (entry 3); rent debit 200.00 (entry 6, a project's only)
    assert unassigned == {SALES: Movements(Decimal("0"), Decimal("250.50")), RENT: Movements(Decimal("200.00"))}
    groups = dimension_reports.grouped_movements(table, company_a.company_id, [SALES, RENT], "2026-03-01",
                                                 "2026-03-31", branch)
    assert groups == {
        NORTH: {SALES: Movements(Decimal("100.00"), Decimal("1000.00")), RENT: Movements(Decimal("300.00"))},
        SOUTH: {SALES: Movements(Decimal("0"), Decimal("400.00"))},
        None: unassigned}
    # together: sales debit 100.00, credit 1,000.00 + 400.00 + 250.50 = 1,650.50; rent 300.00 + 200.00 = 500.00
    sales_credit = sum((group[SALES].credit for group in groups.values() if SALES in group), Decimal(0))
    rent_debit = sum((group[RENT].debit for group in groups.values() if RENT in group), Decimal(0))
    assert (sales_credit, rent_debit) == (Decimal("1650.50"), Decimal("500.00"))
    # within the project only: sales south credit 400.00, north debit 100.00; rent unassigned 200.00
    within = dimension_reports.grouped_movements(table, company_a.company_id, [SALES, RENT], "2026-03-01",
                                                 "2026-03-31", branch, within_value_id=PROJECT_X)
    assert within == {SOUTH: {SALES: Movements(Decimal("0"), Decimal("400.00"))},
                      NORTH: {SALES: Movements(Decimal("100.00"), Decimal("0"))},
                      None: {RENT: Movements(Decimal("200.00"))}}
