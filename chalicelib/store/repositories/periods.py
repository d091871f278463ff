"""Accounting periods and the years' locks they close: the days a closed period covers
(`closedDays` of its year's lock), the periods' ranges kept on one guard (no two overlap), and
what every dated write checks of the lock in its transaction."""
from __future__ import annotations

from typing import Any

from chalicelib.errors import ApiError
from chalicelib.store import keys
from chalicelib.store.transaction import Transaction


def record_ranges(transaction: Transaction, company_id: int, guard_name: str, ranges: list[dict[str, Any]],
                  seen_version: int) -> None:
    """The periods' ranges (each new one checked against those read) on the guard, from the
    version read: two periods created at once take turns."""
    transaction.update(keys.guard(company_id, guard_name), "SET #ranges = :ranges, #version = :next",
                       condition="attribute_not_exists(#version) OR #version = :seen",
                       names={"#ranges": "ranges", "#version": "version"},
                       values={":ranges": ranges, ":next": seen_version + 1, ":seen": seen_version})


def close_days(transaction: Transaction, company_id: int, year: str, days: set[str] | list[str]) -> None:
    """The days ("MM-DD") of a closed period added to its year's lock, on the lock and its shards."""
    _change_days(transaction, company_id, year, "ADD", days)


def reopen_days(transaction: Transaction, company_id: int, year: str, days: set[str] | list[str]) -> None:
    _change_days(transaction, company_id, year, "DELETE", days)


def _change_days(transaction: Transaction, company_id: int, year: str, action: str, days: Any) -> None:
    lock = keys.period_lock(company_id, year)
    transaction.update(lock, f"{action} closedDays :days", values={":days": days})
    on_every_shard(transaction, lock, f"{action} closedDays :days", {":days": days})


def require_days_open(transaction: Transaction, company_id: int, year: str, days: list[str],
                      on_fail: ApiError) -> None:
    """The year is not closed and none of `days` ("MM-DD", sorted) is in a closed period: checked
    on whichever shard of the year's lock the transaction lands."""
    # NOT binds before AND, AND before OR: only the parentheses DynamoDB does not call redundant
    open_on_each = " AND ".join(f"NOT contains(closedDays, :d{i})" for i in range(len(days)))
    transaction.check(keys.period_lock(company_id, year),
                      f"attribute_not_exists(yearClosed) AND (attribute_not_exists(closedDays) OR {open_on_each})",
                      values={f":d{i}": day for i, day in enumerate(days)}, on_fail=on_fail, shardable=True)


def on_every_shard(transaction: Transaction, lock: keys.Key, expression: str,
                   values: dict[str, Any] | None = None) -> None:
    """A lock the dated writes check (a year's, the books'), changed alike on each of its shards
    beside the item itself (keys.shards): a check that went to a shard finds the same lock."""
    for key in keys.shards(lock)[1:]:
        transaction.update(key, expression, values=values)
