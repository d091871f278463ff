"""A bank account's transactions as the commands that match, reverse and reconcile them write them:
each held by at most one statement line (`statementLineId`), named by its reversal (`reversedBy`),
claimed by one reconciliation (`reconciled`, `reconciliationId`); and read by date."""
from __future__ import annotations

from typing import Any

from chalicelib.errors import ApiError
from chalicelib.store import keys
from chalicelib.store.table import Table
from chalicelib.store.transaction import Transaction


def newest_of_account(table: Table, company_id: int, account_id: int, limit: int) -> list[dict[str, Any]]:
    """The account's `limit` newest transactions, newest first."""
    items: list[dict[str, Any]]
    items, _ = table.query(partition=("PK", keys.bank_transactions_partition(company_id, account_id)), forward=False,
                           limit=limit, consistent=True)
    return items


def dated_between(table: Table, company_id: int, account_id: int, first_day: str, last_day: str) -> list[dict[str, Any]]:
    """The account's transactions dated from `first_day` through `last_day`, by date."""
    return table.query_all(partition=("PK", keys.bank_transactions_partition(company_id, account_id)),
                           sort_range=("SK", first_day, keys.day_end(last_day)), consistent=True)


def dated_from(table: Table, company_id: int, account_id: int, first_day: str) -> list[dict[str, Any]]:
    """The account's transactions dated `first_day` or later, by date."""
    return table.query_all(partition=("PK", keys.bank_transactions_partition(company_id, account_id)),
                           sort_range=("SK", first_day, None), consistent=True)


def match_to_line(transaction: Transaction, key: keys.Key, line_id: int, on_fail: ApiError) -> None:
    """The transaction now backs statement line `line_id`: it must exist, back no line yet and not
    be reversed (a reversal meanwhile marks it: the loser is told it is taken)."""
    transaction.update(key, "SET statementLineId = :line",
                       condition="attribute_exists(PK) AND attribute_not_exists(statementLineId) "
                                 "AND attribute_not_exists(reversedBy)",
                       values={":line": line_id}, on_fail=on_fail)


def free_of_line(transaction: Transaction, key: keys.Key, line_id: int, on_fail: ApiError) -> None:
    """The transaction no longer backs statement line `line_id`, which it must still back, and
    must still be unreconciled."""
    transaction.update(key, "REMOVE statementLineId", condition="statementLineId = :line AND reconciled = :no",
                       values={":line": line_id, ":no": False}, on_fail=on_fail)


def mark_reversed(transaction: Transaction, key: keys.Key, reversal_id: int, *, freed_line: int | None,
                  unreconciled: bool, on_fail: ApiError | None) -> None:
    """The original names its reversal, in the command's one update of it: freed of the statement
    line `freed_line` (which must still hold it), else held by none; `unreconciled`: still not
    reconciled."""
    update, values = "SET reversedBy = :reversal", {":reversal": reversal_id}
    if freed_line is None:
        condition = "attribute_exists(PK) AND attribute_not_exists(statementLineId)"
    else:
        update, condition, values[":line"] = update + " REMOVE statementLineId", "statementLineId = :line", freed_line
    if unreconciled:
        condition, values[":no"] = condition + " AND reconciled = :no", False
    transaction.update(key, update, condition=condition, values=values, on_fail=on_fail)


def claim_for_reconciliation(transaction: Transaction, key: keys.Key, reconciliation_id: int, *,
                             line_id: int | None, on_fail: ApiError | None) -> None:
    """The transaction becomes reconciliation `reconciliation_id`'s, unless another reconciliation
    has it (a re-run finds its own claims); with `line_id`, only while it still backs that line."""
    values: dict[str, Any] = {":yes": True, ":no": False, ":reconciliation": reconciliation_id}
    condition = "reconciled = :no OR reconciliationId = :reconciliation"
    if line_id is not None:
        condition, values[":line"] = ("(reconciled = :no AND statementLineId = :line) "
                                      "OR reconciliationId = :reconciliation"), line_id
    transaction.update(key, "SET reconciled = :yes, reconciliationId = :reconciliation",
                       condition=condition, values=values, on_fail=on_fail)


def release_claim(table: Table, key: keys.Key, reconciliation_id: int) -> bool:
    """Outside any transaction: the transaction unreconciled again if reconciliation
    `reconciliation_id` holds it (False, nothing written, otherwise)."""
    released: bool = table.update_if(key, "SET reconciled = :no REMOVE reconciliationId",
                                     condition="reconciliationId = :this AND reconciled = :yes",
                                     values={":no": False, ":yes": True, ":this": reconciliation_id})
    return released
