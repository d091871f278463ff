"""Issue 41, the opening kinds when something goes wrong: a run interrupted (by a fault mid-file or
after its last unit) and run again lands each entry and document once and counts every row the job
landed; every row a write would refuse is named by the check (a closed period, an inactive partner, a
currency or an amount the API does not take), a changeover in a closed period too; a rule refusing a
write after the check names the unit's rows; each unit reports its progress. The company and its files:
tests/import_opening_support.py."""
from __future__ import annotations

from decimal import Decimal

import pytest

from chalicelib.services.imports.kinds import kind
from tests import import_opening_support
from tests.import_kinds_support import stop_at_call
from tests.import_opening_support import (
    C1,
    C2,
    C3,
    C4,
    EXPECTED_TRIAL_BALANCE,
    OPEN_ITEMS,
    balances_file,
    close_period,
    item,
    rows,
    stock,
    trial_balance_figures,
)

D = Decimal
moving = import_opening_support.moving  # the fixture: a company moving in


def test_an_interrupted_run_again_lands_each_entry_and_document_once(moving, monkeypatch):
    from chalicelib.services.imports import opening_balances as kind_module
    from chalicelib.services.sales_purchases import opening_balances as documents_900

    real = documents_900.record_opening_balance
    stop_at_call(monkeypatch, documents_900, "record_opening_balance", 2, RuntimeError("the Lambda's end"))
    with pytest.raises(RuntimeError):
        moving.run("open-items", OPEN_ITEMS, job_id=7)
    monkeypatch.setattr(documents_900, "record_opening_balance", real)
    # a run again: the first document is this job's (not a duplicate), the other 11 land; the job
    # landed 12, whichever run wrote them
    assert moving.run("open-items", OPEN_ITEMS, job_id=7) == {"created": 12}
    # another job finds them all stored: each row a duplicate
    assert len(moving.run("open-items", OPEN_ITEMS, job_id=8)) == 12
    assert moving.run("opening-stock", stock(moving)) == {"created": 2, "lines": 6}

    # 8 posted lines in entries of 3: (3,000 + 40,000 + 1,500 D: equity C 44,500), (10,000 D, 2,500 + 20,000 C:
    # equity D 12,500), (30,000 + 14,000 C: equity D 44,000)
    monkeypatch.setattr(kind_module, "LINES_PER_ENTRY", 3)
    from chalicelib.services.accounting import journal
    real_writes = journal.entry_writes
    stop_at_call(monkeypatch, journal, "entry_writes", 2, RuntimeError("a fault"))
    with pytest.raises(RuntimeError):
        moving.run("opening-balances", balances_file(), job_id=9)
    monkeypatch.setattr(journal, "entry_writes", real_writes)
    # the job's 3 entries and 8 lines, the first run's entry of 3 lines included
    assert moving.run("opening-balances", balances_file(), job_id=9) == {"created": 3, "lines": 8}
    # 3401 here: debit 15,000 (payables) + 12,500 + 44,000 = 71,500; credit 22,000 + 5,000 + 44,500 = 71,500
    assert trial_balance_figures(moving) == {**EXPECTED_TRIAL_BALANCE, "3401": (D("71500.00"), D("71500.00"))}
    ledger = moving.books.ledger("3401", end="2026-01-01")
    opening_entries = {m["journalEntryId"] for m in ledger["postings"] if m["description"] == "Saldos iniciales al 2026-01-01"}
    assert len(opening_entries) == 3


def test_every_row_the_writes_would_refuse_is_named_by_check_and_nothing_lands(moving):
    """Review: check let through rows the document's write refuses, so half a file landed."""
    close_period(moving, "2025-11-01", "2025-11-30")
    inactive = moving.created("/business-partners", {"name": "Inactivo", "type": "customer", "taxId": "08011990000098"})
    assert moving.api.put(f"/business-partners/{inactive['id']}", {"isActive": False}, key=moving.key).status == 200
    errors = moving.run("open-items", [
        item(C1, "customer", "F-1", "2025-12-10", "100.00"),                         # right
        item(C1, "customer", "F-2", "2025-11-15", "200.00"),                         # in the closed November
        item("08011990000098", "customer", "I-1", "2025-12-10", "50.00"),            # an inactive partner
        item(C2, "customer", "X-1", "2025-12-10", "50.00", "XYZ", "2"),              # no such currency
        item(C2, "customer", "E-1", "2025-12-10", "50.00", "EUR", "28.10"),          # one the API does not take
        # 999,999,999,999.99 x 2 passes the money limit in lempiras
        item(C3, "customer", "M-1", "2025-12-10", "999999999999.99", "USD", "2"),
        # 0.01 x 0.1 = 0.001: nothing in lempiras
        item(C3, "customer", "Z-1", "2025-12-10", "0.01", "USD", "0.1"),
        item(C4, "customer", "L" * 201, "2025-12-10", "10.00"),                       # a reference over 200
    ])
    assert [(e.row, e.column, e.message) for e in errors] == [
        (3, "date", "falls in a closed accounting period or fiscal year"),
        (4, "partnerTaxId", "the business partner is inactive"),
        (5, "currency", "is not one of the currencies HNL, USD: XYZ"),
        (6, "currency", "is not one of the currencies HNL, USD: EUR"),
        (7, "exchangeRate", "at this rate the amount in the company's currency (1999999999999.98) would exceed "
                            "999999999999.99"),
        (8, "exchangeRate", "at this rate 0.01 comes to 0.00 in the company's currency"),
        (9, "documentNumber", errors[-1].message)]
    assert "200" in errors[-1].message
    # nothing landed: the right row waits for the others
    assert D(str(moving.get(f"/business-partners/{moving.customers[0]['id']}")["receivableBalance"])) == 0


def test_a_changeover_in_a_closed_period_is_refused_by_check_for_the_stock_and_the_balances(moving):
    """Review: opening-stock and opening-balances failed on the write, then "run it again" for ever."""
    close_period(moving, "2026-01-01", "2026-01-31")
    first = str(moving.warehouses[0])
    for name, records in (("opening-stock", [{"productCode": "P1", "warehouseId": first, "quantity": "1",
                                              "unitCost": "1"}]),
                          ("opening-balances", [{"accountCode": "120103", "debit": "1"},
                                                {"accountCode": "3101", "credit": "1"}])):
        assert [(e.row, e.column, e.message) for e in moving.run(name, records)] == \
               [(0, "date", "the changeover date 2026-01-01 falls in a closed accounting period or fiscal year")], name


def test_closed_dates_reads_the_years_and_the_books_locks(moving):
    from chalicelib.services.accounting import posting
    from chalicelib.store import keys
    close_period(moving, "2025-11-01", "2025-11-30")
    company_id = moving.company.company_id
    # the books' lock as closing fiscal year 2024 leaves it (fiscal_years._move_books_lock)
    from chalicelib.store.transaction import Transaction
    Transaction(moving.table).put({**keys.books_lock(company_id), "closedThrough": "2024-12-31"}).commit()
    assert posting.closed_dates(moving.table, company_id, ["2024-12-31", "2025-01-01", "2025-11-30", "2025-12-01"]) == {
        "2024-12-31": posting.IN_CLOSED_YEAR, "2025-11-30": posting.IN_CLOSED_PERIOD}


def test_each_unit_reports_the_rows_landed_so_far(moving):
    """Review: the opening kinds never called context.progress (the job showed processed 0 until done)."""
    reported = []
    moving.run("open-items", OPEN_ITEMS[:3], progress=reported.append)
    assert reported == [1, 2, 3]                         # a document a row, a unit each
    reported.clear()
    moving.run("opening-stock", stock(moving), progress=reported.append)
    assert reported == [3, 6]                           # two warehouses, 3 lines each
    reported.clear()
    moving.run("open-items", OPEN_ITEMS[3:], progress=reported.append)
    moving.run("opening-balances", balances_file(), progress=reported.append)
    assert reported[9:] == [8]                          # 9 documents, then the one entry of 8 posted lines


class _Fault(Exception):
    pass


def _fault_after(total):
    """The progress of a run that dies once its last unit committed, before the job is marked done."""
    def progress(rows):
        if rows == total:
            raise _Fault("the Lambda's end")
    return progress


def test_a_fault_after_the_last_unit_then_a_run_again_counts_every_row_the_job_landed(moving):
    """Review: the run again said "created 0, skipped 12": the result counts what the job landed."""
    with pytest.raises(_Fault):
        moving.run("open-items", OPEN_ITEMS, job_id=5, progress=_fault_after(12))
    assert moving.run("open-items", OPEN_ITEMS, job_id=5) == {"created": 12}
    # each document once: 12 opening documents (900 x 9, 901 x 3); the balances not doubled: C1 9,750.00 ...
    # S2 3,650.00 as in the hand-worked test of tests/test_import_opening.py
    assert moving.get("/documents?limit=100")["total"] == 12
    owed = [D(str(moving.get(f"/business-partners/{p['id']}")["receivableBalance"])) for p in moving.customers]
    assert owed == [D("9750.00"), D("7920.00"), D("2000.00"), D("2330.00")]
    owing = [D(str(moving.get(f"/business-partners/{p['id']}")["payableBalance"])) for p in moving.suppliers]
    assert owing == [D("11350.00"), D("3650.00")]
    moving.run("opening-stock", stock(moving))
    with pytest.raises(_Fault):
        moving.run("opening-balances", balances_file(), job_id=6, progress=_fault_after(8))
    assert moving.run("opening-balances", balances_file(), job_id=6) == {"created": 1, "lines": 8}
    # one entry: the trial balance is the file's, not twice its posted lines
    assert trial_balance_figures(moving) == EXPECTED_TRIAL_BALANCE


def test_a_rule_refusing_a_write_after_the_check_names_the_units_rows(moving):
    """A period closed between check and write: the refusal names the unit's rows (kinds.UnitRefused,
    which the runner stores as the job's problems); the document written before it stays."""
    from chalicelib.services.imports.kinds import UnitRefused

    context = moving.context(4)
    checked = kind("open-items").check(context, rows(*OPEN_ITEMS[:3]))
    close_period(moving, "2025-11-01", "2025-11-30")              # F-002 (line 3) is dated 2025-11-15
    with pytest.raises(UnitRefused) as refused:
        kind("open-items").apply(context, checked.plan)
    assert (refused.value.lines, refused.value.error.code) == ((3,), "PERIOD_CLOSED")
    # F-001 landed: C1 owes 5,000.00
    assert D(str(moving.get(f"/business-partners/{moving.customers[0]['id']}")["receivableBalance"])) == D("5000.00")
