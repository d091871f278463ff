"""Closing the year as an accountant closes it: the closing entry, dated the year's last day,
brings every revenue, cost and expense account to zero against the `retained_earnings` rule's
account, and the year then takes no posting; reopening reverses it.

A year closes once it has ended (its last day before the company's today) and once every
earlier year with postings is closed; it reopens only while no later year is closed (newest
first). The year's state lives on its lock item (the one every dated write checks,
keys.period_lock): `yearClosed` there refuses every posting dated in the year; the books' lock
(keys.books_lock, checked by every dated write too) holds the newest closed year's last day,
on or before which nothing posts, in whichever year (one with no lock of its own included). The closing entry posts at most
CLOSING_LINES accounts: a chart with more moved accounts is closed by several entries, one
transaction each. The first transaction locks the year (status `closing`), the last makes it
`closed`; between them nothing else can post in the year, so a close that stopped half-way is
finished by asking again (what is left to close is what still has a balance). Reopening walks
back the same way (`reopening`, then `open`)."""
from __future__ import annotations

from collections import Counter
from decimal import Decimal
from typing import Any

from chalicelib import clock
from chalicelib.domain import accounting
from chalicelib.domain.accounting import CREDIT, DEBIT, POSTED, REVERSED, ZERO, Movement
from chalicelib.errors import ApiError, NotFound, ValidationFailed, VersionConflict
from chalicelib.messages.books import book_text
from chalicelib.messages.phrases import Phrase
from chalicelib.services.accounting import chart
from chalicelib.services.accounting.posting import (
    INVALID_ACCOUNT,
    JournalWrites,
    Source,
    count_attribute,
    get_entry,
    load_rules,
)
from chalicelib.services.accounting.reports import account_months
from chalicelib.services.commands import Command
from chalicelib.store import keys
from chalicelib.store.repositories import day_counts
from chalicelib.store.repositories import fiscal_years as year_store
from chalicelib.store.table import Table
from chalicelib.store.transaction import Transaction

OPEN, CLOSING, CLOSED, REOPENING = "open", "closing", "closed", "reopening"
RESULT_TYPES = (accounting.INCOME, accounting.COST, accounting.EXPENSE)
# per line: its posting, its account's month balance and guard (at most); beside
# them the entry, its day count, the lock item and its shards and the Idempotency-Key record
CLOSING_LINES = 25
SOURCE_KIND = "year_close"
FIRST_YEAR, LAST_YEAR = 1900, 2999


class FiscalYearRefused(ApiError):
    code = "FISCAL_YEAR_STATUS"


def _checked_year(year: int) -> str:
    if not FIRST_YEAR <= year <= LAST_YEAR:  # like an id in a path: no such year
        raise NotFound(Phrase("No fiscal year {}: years run from {} to {}.", year, FIRST_YEAR, LAST_YEAR))
    return str(year)


def fiscal_year(table: Table, company_id: int, year: int) -> dict[str, Any]:
    return _view(_checked_year(year), table.get(keys.period_lock(company_id, _checked_year(year))))


def list_fiscal_years(table: Table, company_id: int) -> list[dict[str, Any]]:
    """The years anything locked (a closed period or the year itself), newest first."""
    return [_view(year, lock) for year, lock in sorted(year_store.year_locks(table, company_id), reverse=True,
                                                        key=lambda found: found[0])]


def _view(year: str, lock: dict[str, Any] | None) -> dict[str, Any]:
    lock = lock or {}
    return {"year": int(year), "status": lock.get("yearStatus", OPEN), "closingDate": f"{year}-12-31",
            "closingEntryIds": [int(i) for i in lock.get("closingEntryIds", [])],
            "reopeningEntryIds": [int(i) for i in lock.get("reopeningEntryIds", [])],
            "closedAt": lock.get("closedAt"), "reopenedAt": lock.get("reopenedAt"),
            "version": int(lock.get("yearVersion", 0))}


def close_year(command: Command, year: int) -> dict[str, Any]:
    """The whole close: the year locked first (so the balances read next are the last ones),
    then its closing entries, CLOSING_LINES accounts each; the last transaction carries the
    Idempotency-Key answer."""
    table, company_id, name = command.table, command.company_id, _checked_year(year)
    state = fiscal_year(table, company_id, year)
    if state["status"] not in (OPEN, CLOSING):
        raise FiscalYearRefused(Phrase("The fiscal year {} is {}; only an open year is closed.", year, state['status']))
    result_accounts = {a["id"]: a for a in chart.all_accounts(table, company_id) if a["type"] in RESULT_TYPES}
    rules = load_rules(table, company_id)
    if state["status"] == OPEN:
        # read before the order checks: an earlier year reopened meanwhile moves it, and the
        # lock written below on this value then refuses the close
        through = _books_closed_through(table, company_id)
        _check_ended(table, company_id, year)
        _check_earlier_years_closed(table, company_id, year)
        _check_closable(table, company_id, rules, _result_left(table, company_id, name, result_accounts),
                        result_accounts)
        state = _set_lock(Command(command.principal, table), company_id, name, state, CLOSING, yearClosed=True,
                          books=(through, max(through or "", f"{name}-12-31")))
    while True:
        left = _result_left(table, company_id, name, result_accounts)
        batch, rest = left[:CLOSING_LINES], left[CLOSING_LINES:]
        writes = JournalWrites(company_id, period_checks=False)
        entry_ids = list(state["closingEntryIds"])
        if batch:
            # each account to zero; what they leave (the year's result, or this batch's part) to retained earnings
            movements = [Movement("retained_earnings", CREDIT if net > 0 else DEBIT, abs(net), account_id=account_id)
                         for account_id, net in batch]
            result = sum((net for _, net in batch), ZERO)   # debit-positive: a profit is negative here
            if result:
                movements.append(Movement("retained_earnings", DEBIT if result > 0 else CREDIT, abs(result)))
            several = bool(rest or entry_ids)
            entry = writes.automatic_entry(table, rules, source=Source(SOURCE_KIND, int(name)), date=f"{name}-12-31",
                                           description=book_text("year_closing_partial" if several else "year_closing", year=name),
                                           movements=movements)
            entry_ids.append(entry["id"])
        last = not rest
        closed: dict[str, Any] = {"closedAt": clock.now_iso()} if last else {}
        state = _set_lock(command if last else Command(command.principal, table), company_id, name, state,
                          CLOSED if last else CLOSING, writes=writes, closingEntryIds=entry_ids, **closed)
        if last:
            return state


def _result_left(table: Table, company_id: int, year: str,
                 result_accounts: dict[int, dict[str, Any]]) -> list[tuple[int, Decimal]]:
    """Each revenue, cost and expense account with a balance at the year's end (debit-positive),
    in code order: read after the year is locked, nothing changes them meanwhile; strongly
    consistent, one Query per account, once a year."""
    day = f"{year}-12-31"
    left = []
    for account_id in sorted(result_accounts, key=lambda i: result_accounts[i]["code"]):
        debit, credit = accounting.totals_through(account_months(table, company_id, account_id, f"{year}-12"), day)
        if debit != credit:
            left.append((account_id, debit - credit))
    return left


def _check_closable(table: Table, company_id: int, rules: list[Any], left: list[tuple[int, Decimal]],
                    result_accounts: dict[int, dict[str, Any]]) -> None:
    """What would stop the closing entry, refused before the year is locked: no retained-earnings
    rule, or an inactive account among those it posts to."""
    if not left:
        return
    retained = accounting.resolve_rule(rules, "retained_earnings", None).account_id
    accounts = {**result_accounts, retained: chart.get_account(table, company_id, retained)}
    inactive = [accounts[account_id] for account_id in [*(a for a, _ in left), retained]
                if not accounts[account_id].get("isActive", True)]
    if inactive:
        raise ValidationFailed(
            Phrase("Account {} is inactive: the closing entry posts to it. Activate it to close the year.",
                   inactive[0]['code']),
            code=INVALID_ACCOUNT, details=[{"field": "chartOfAccountId", "message":
                    Phrase("account {} is inactive", a['code'])}
                                           for a in inactive])


def _check_ended(table: Table, company_id: int, year: int) -> None:
    """A year closes once its last day is over where the company is."""
    today, next_year = clock.company_today(table.get(keys.company(company_id)) or {}), f"{year + 1}-01-01"
    if next_year > today:
        raise FiscalYearRefused(Phrase("The fiscal year {} has not ended: it can be closed from {} (today is {}).",
                                       year, next_year, today), code="FISCAL_YEAR_NOT_ENDED")


def _check_earlier_years_closed(table: Table, company_id: int, year: int) -> None:
    """Years close in order: every earlier year with a posted entry is closed first. The day
    counts (strongly consistent) say which years have one; a year with none is passed over."""
    closed = {item["year"] for item in list_fiscal_years(table, company_id) if item["status"] == CLOSED}
    days = day_counts.between(table, company_id, None, f"{year - 1}-12-31")
    posted = [count_attribute(status, kind) for status in (POSTED, REVERSED) for kind in accounting.ENTRY_TYPES]
    entries: Counter[int] = Counter()
    for day, counts in days:
        entries[int(day[:4])] += sum(int(counts.get(name, 0)) for name in posted)
    still_open = sorted(earlier for earlier, count in entries.items() if count > 0 and earlier not in closed)
    if still_open:
        raise FiscalYearRefused(Phrase("Earlier years with postings are still open: {}. Close them first, oldest first.",
                                       ', '.join(map(str, still_open))), code="FISCAL_YEAR_ORDER")


def _books_closed_through(table: Table, company_id: int) -> str | None:
    return year_store.books_closed_through(table, company_id)


def _move_books_lock(transaction: Transaction, company_id: int, seen: str | None, through: str | None) -> None:
    """The books' lock to the newest closed year's last day (None: no year closed), on the
    value read: two years closing or reopening at once take turns."""
    year_store.move_books_lock(transaction, company_id, seen, through,
                               VersionConflict("Another fiscal year was closed or reopened meanwhile: try again."))


def _set_lock(command: Command, company_id: int, year: str, state: dict[str, Any], status: str, *,
              writes: JournalWrites | None = None, yearClosed: bool | None = None,
              books: tuple[str | None, str | None] | None = None, **fields: Any) -> dict[str, Any]:
    """The year's state on its lock item, on the version read, in one transaction with `writes`
    (`yearClosed`: True sets the lock, False removes it; `books`: the books' lock moved from the
    day read to another)."""
    transaction = command.transaction()
    if writes is not None:
        writes.apply(transaction)
    if books is not None:
        _move_books_lock(transaction, company_id, *books)
    year_store.record_year_state(transaction, company_id, year, status, state["version"], fields, yearClosed)
    changed = {**state, **fields, "status": status, "version": state["version"] + 1}
    return command.commit(transaction, changed)


def reopen_year(command: Command, year: int) -> dict[str, Any]:
    """Each closing entry reversed on the year's last day, newest first, one transaction each;
    the last one opens the year and carries the Idempotency-Key answer."""
    table, company_id, name = command.table, command.company_id, _checked_year(year)
    state = fiscal_year(table, company_id, year)
    if state["status"] not in (CLOSED, CLOSING, REOPENING):
        raise FiscalYearRefused(Phrase("The fiscal year {} is {}; only a closed year is reopened.",
                                       year, state['status']))
    years = list_fiscal_years(table, company_id)   # newest first
    later = [item for item in years if item["year"] > year and item["status"] != OPEN]
    if later:
        raise FiscalYearRefused(Phrase("The fiscal year {} is {}: reopen it first.",
                                       later[0]['year'], later[0]['status']),
                                code="FISCAL_YEAR_ORDER")
    if state["status"] in (CLOSED, CLOSING):
        # the books' lock back to the newest earlier closed year first: the year's own lock
        # keeps refusing its dates until its closing entries are reversed
        earlier = next((f"{item['year']}-12-31" for item in years if item["year"] < year and item["status"] != OPEN),
                       None)
        state = _set_lock(Command(command.principal, table), company_id, name, state, REOPENING,
                          books=(_books_closed_through(table, company_id), earlier))
    while True:
        reversed_ids = list(state["reopeningEntryIds"])
        pending = [entry_id for entry_id in state["closingEntryIds"] if entry_id not in reversed_ids]
        writes = JournalWrites(company_id, period_checks=False)
        if pending:
            writes.reverse(table, get_entry(table, company_id, pending[-1]), f"{name}-12-31",
                           book_text("year_reopening", year=name))
            reversed_ids.append(pending[-1])
        last = len(pending) <= 1
        reopened: dict[str, Any] = {"reopenedAt": clock.now_iso()} if last else {}
        state = _set_lock(command if last else Command(command.principal, table), company_id, name, state,
                          OPEN if last else REOPENING, writes=writes, yearClosed=False if last else None,
                          reopeningEntryIds=reversed_ids, **reopened)
        if last:
            return state


def closing_movements(table: Table, company_id: int, years: list[dict[str, Any]], start: str,
                      end: str) -> dict[int, tuple[Decimal, Decimal]]:
    """What the closing entries (and their reversals) of the `years` (list_fiscal_years) ending
    within [start, end] moved, per account: the income statement leaves them out, so a closed
    year still shows its revenue and expenses."""
    moved: dict[int, tuple[Decimal, Decimal]] = {}
    for item in years:
        if not start <= item["closingDate"] <= end:
            continue
        entry_ids = item["closingEntryIds"]
        for entry_id in entry_ids:
            entry = get_entry(table, company_id, entry_id)
            reversal_id = entry.get("reversedBy")
            entries = [entry] + ([get_entry(table, company_id, reversal_id)] if reversal_id is not None else [])
            for one in entries:
                for line in one["lines"]:
                    account_id = line["chartOfAccountId"]
                    debit, credit = moved.get(account_id, (ZERO, ZERO))
                    moved[account_id] = (debit + Decimal(line["debit"]), credit + Decimal(line["credit"]))
    return moved
