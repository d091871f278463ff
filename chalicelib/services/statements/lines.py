"""Reading an account's statements and statement lines; the lines' counts by status, which every
change of a line's status moves (count_status_change)."""
from __future__ import annotations

from collections import Counter
from typing import Any

from chalicelib.errors import NotFound
from chalicelib.services.banking import banking
from chalicelib.services.statements import suggestions
from chalicelib.store import keys
from chalicelib.store.listing import Page
from chalicelib.store.repositories import statements as statement_store
from chalicelib.store.table import Table
from chalicelib.store.transaction import Transaction

UNMATCHED, MATCHED, IGNORED = keys.LINE_STATUSES
ALL = "all"
STATEMENTS = "statements"


def get_line(table: Table, company_id: int, account_id: int, line_id: int) -> dict[str, Any]:
    item = table.get(keys.statement_line(company_id, account_id, line_id))
    if item is None:
        raise NotFound("Statement line not found.")
    return item


# --- counts ---------------------------------------------------------------------------------------

def count_changes(statement_id: int, old: str | None, new: str, lines: int = 1, *,
                  statements: int = 0) -> dict[str, int]:
    """What `lines` lines of one statement moving from status `old` (None: new lines) to `new`
    change in the account's counts (keys.statement_line_counts), for Transaction.add_counts."""
    name = keys.line_count_name
    changes: Counter[str] = Counter({name(new): lines, name(new, statement_id): lines})
    if old is None:
        changes.update({name(ALL): lines, name(ALL, statement_id): lines})
    else:
        changes.update({name(old): -lines, name(old, statement_id): -lines})
    if statements:
        changes[STATEMENTS] += statements
    return dict(changes)


def count_status_change(transaction: Transaction, company_id: int, line: dict[str, Any], new: str) -> None:
    """In the transaction that changes a line's status (a match, an unmatch, an ignore): the
    account's counts follow it, so that listings by status keep an exact `total`."""
    if line["status"] != new:
        transaction.add_counts(keys.statement_line_counts(company_id, line["bankAccountId"]),
                               count_changes(line["statementId"], line["status"], new))


def line_counts(table: Table, company_id: int, account_id: int) -> Counter[str]:
    """The account's counts, its shards added up (one Query)."""
    return statement_store.line_counts(table, company_id, account_id)


# --- lines ----------------------------------------------------------------------------------------

def list_lines(table: Table, company_id: int, account_id: int, *, status: str | None, statement_id: int | None,
               page: int, limit: int, cursor: str | None) -> Page:
    """By date (then id), oldest first; of one status (GSI1) or all (GSI2), of one statement
    when asked. The page's unmatched lines carry their suggestions."""
    account = banking.get_bank_account(table, company_id, account_id)
    counts = line_counts(table, company_id, account_id)
    counted = status or ALL
    total = counts[keys.line_count_name(counted, statement_id)]
    listed = statement_store.lines_page(table, company_id, account_id, status=status, statement_id=statement_id,
                                        page=page, limit=limit, cursor=cursor, total=total)
    return Page(items=with_suggestions(table, company_id, account, listed.items), total=total, page=listed.page,
                limit=listed.limit, next_cursor=listed.next_cursor)


def read_line(table: Table, company_id: int, account_id: int, line_id: int) -> dict[str, Any]:
    """One line as answered: with its suggestions while unmatched."""
    account = banking.get_bank_account(table, company_id, account_id)
    return with_suggestions(table, company_id, account, [get_line(table, company_id, account_id, line_id)])[0]


def with_suggestions(table: Table, company_id: int, account: dict[str, Any],
                     lines: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The lines, each unmatched one with `suggestions` (best first; the page's candidates read
    once for all of them)."""
    unmatched = [line for line in lines if line["status"] == UNMATCHED]
    found = suggestions.suggest(table, company_id, account, unmatched) if unmatched else {}
    return [{**line, "suggestions": found.get(line["id"], [])} if line["status"] == UNMATCHED else line
            for line in lines]


# --- statements -----------------------------------------------------------------------------------

def statement_view(statement: dict[str, Any]) -> dict[str, Any]:
    """A statement as answered."""
    names = ("id", "bankAccountId", "fileName", "format", "status", "linesImported", "linesSkipped",
             "linesAutoMatched", "periodStart", "periodEnd", "openingBalance", "closingBalance", "currency",
             "createdAt")
    return {name: statement.get(name) for name in names}


def list_statements(table: Table, company_id: int, account_id: int, page: int, limit: int) -> Page:
    """Newest first; `total` from the account's counts."""
    banking.get_bank_account(table, company_id, account_id)
    skip = (page - 1) * limit
    items = statement_store.newest_statements(table, company_id, account_id, skip + limit)
    total = line_counts(table, company_id, account_id)[STATEMENTS]
    return Page(items=[statement_view(item) for item in items[skip:skip + limit]], total=total, page=page,
                limit=limit, next_cursor=None)


def get_statement(table: Table, company_id: int, account_id: int, statement_id: int) -> dict[str, Any]:
    banking.get_bank_account(table, company_id, account_id)
    item = table.get(keys.bank_statement(company_id, account_id, statement_id))
    if item is None:
        raise NotFound("Bank statement not found.")
    return statement_view(item)
