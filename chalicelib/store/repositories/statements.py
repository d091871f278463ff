"""Imported bank statements and their lines as the statement commands write and read them: a
statement's lines counted as an import writes them, a line moved between statuses (its status
index with it) on its version and status, the account's lines by status or all of them, its
counts by status, its statements newest first; the company's bank rules deleted."""
from __future__ import annotations

from collections import Counter
from typing import Any

from chalicelib.errors import ApiError
from chalicelib.store import keys
from chalicelib.store.listing import GSI1, GSI2, Page, list_range
from chalicelib.store.table import Table
from chalicelib.store.transaction import Transaction


def line_identity(identity_key: keys.Key) -> str:
    """What a line's identity item (keys.statement_line_identity) keeps of it, as the line stores it."""
    return identity_key["SK"]


def count_lines_imported(transaction: Transaction, company_id: int, account_id: int, statement_id: int,
                         lines: int) -> None:
    """A later chunk of an import: the statement counts its lines."""
    transaction.update(keys.bank_statement(company_id, account_id, statement_id), "ADD linesImported :n",
                       values={":n": lines})


def finish_statement(transaction: Transaction, company_id: int, account_id: int, statement_id: int,
                     changes: dict[str, Any]) -> None:
    """The statement an import wrote gets its final `changes`: it must exist."""
    transaction.set_fields(keys.bank_statement(company_id, account_id, statement_id), changes,
                           condition="attribute_exists(PK)")


def move_line(transaction: Transaction, company_id: int, line: dict[str, Any], status: str,
              changes: dict[str, Any], on_fail: ApiError) -> dict[str, Any]:
    """The line to `status` with `changes` (its status index entry with it), from the status and
    version read. Answers what was written (the changes with the index entry)."""
    written = {"status": status, **changes,
               **keys.statement_line_index(company_id, line["bankAccountId"], status, line["date"], line["id"])}
    transaction.update_fields(keys.statement_line(company_id, line["bankAccountId"], line["id"]), written,
                              line["version"], also_require="#status = :from", names={"#status": "status"},
                              values={":from": line["status"]}, on_fail=on_fail)
    return written


def line_counts(table: Table, company_id: int, account_id: int) -> Counter[str]:
    """The account's counts of lines and statements (keys.statement_line_counts), its shards added
    up (one Query)."""
    key = keys.statement_line_counts(company_id, account_id)
    items: list[dict[str, Any]]
    items, _ = table.query(partition=("PK", key["PK"]), sort_prefix=("SK", key["SK"]), consistent=True)
    counts: Counter[str] = Counter()
    for item in items:
        counts.update({name: int(value) for name, value in item.items() if name not in ("PK", "SK")})
    return counts


def lines_page(table: Table, company_id: int, account_id: int, *, status: str | None, statement_id: int | None,
               page: int, limit: int, cursor: str | None, total: int) -> Page:
    """A page of the account's lines by date (then id), oldest first: of one status, or all of
    them (None); of one statement when given."""
    partition = keys.statement_line_index(company_id, account_id, status or keys.LINE_STATUSES[0], "", 0)
    index = GSI1 if status else GSI2
    return list_range(table, partition=partition[f"{index}PK"], low=None, high=None,
                      filters={"statementId": statement_id} if statement_id is not None else {},
                      page=page, limit=limit, cursor=cursor, descending=False, total=total, index=index)


def lines_of_statement(table: Table, company_id: int, account_id: int, statement_id: int,
                       status: str) -> list[dict[str, Any]]:
    """The statement's lines in `status`."""
    return table.query_all(partition=("PK", keys.statement_lines_partition(company_id, account_id)),
                           filters={"statementId": statement_id, "status": status}, consistent=True)


def newest_statements(table: Table, company_id: int, account_id: int, limit: int) -> list[dict[str, Any]]:
    """The account's `limit` newest statements, newest first."""
    items: list[dict[str, Any]]
    items, _ = table.query(partition=("PK", keys.statements_partition(company_id, account_id)), forward=False,
                           limit=limit, consistent=True)
    return items


def delete_rule(transaction: Transaction, company_id: int, rule_id: int, on_missing: ApiError) -> None:
    """The bank rule deleted: it must exist."""
    transaction.delete(keys.small_record(company_id, keys.BANK_RULE, rule_id), condition="attribute_exists(PK)",
                       on_fail=on_missing)
