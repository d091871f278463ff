"""Accounting periods: create (never overlapping), list, close and reopen. Closing writes the
period's days into the year locks that every dated write checks in its own transaction."""
from __future__ import annotations

from typing import Any

from chalicelib import clock
from chalicelib.domain import accounting
from chalicelib.domain.accounting import CLOSED, OPEN
from chalicelib.errors import ApiError, NotFound, ValidationFailed
from chalicelib.messages.phrases import Phrase
from chalicelib.services.commands import Command
from chalicelib.store import keys
from chalicelib.store.listing import Page, list_collection
from chalicelib.store.repositories import periods as period_store
from chalicelib.store.table import Table
from chalicelib.store.transaction import Transaction

PERIODS_GUARD = "PERIODS"
# Closing writes one lock item per calendar year, inside one transaction.
MAX_YEARS = 10


class PeriodRuleBroken(ApiError):
    """A refusal of this use case: each raise names its code."""


def period_key(company_id: int, period_id: int) -> keys.Key:
    return keys.entity(company_id, keys.ACCOUNTING_PERIOD, period_id)


def get_period(table: Table, company_id: int, period_id: int) -> dict[str, Any]:
    item = table.get(period_key(company_id, period_id))
    if item is None:
        raise NotFound("Accounting period not found.")
    return item


def list_periods(table: Table, company_id: int, page: int, limit: int, cursor: str | None) -> Page:
    return list_collection(table, partition=keys.collection_partition(company_id, keys.ACCOUNTING_PERIOD),
                           count_key=keys.entity_count(company_id, keys.ACCOUNTING_PERIOD),
                           page=page, limit=limit, cursor=cursor)


def create_period(command: Command, name: str, start_date: str, end_date: str) -> dict[str, Any]:
    """The guard item lists every period's range: reading it (strongly consistent) is the
    overlap check, and its version condition makes concurrent creations take turns."""
    company_id, table = command.company_id, command.table
    if start_date > end_date:
        raise ValidationFailed.for_field("endDate", "must not be before the start date")
    if int(end_date[:4]) - int(start_date[:4]) >= MAX_YEARS:
        raise ValidationFailed.for_field("endDate", Phrase("a period spans at most {} calendar years", MAX_YEARS))
    guard = table.get(keys.guard(company_id, PERIODS_GUARD)) or {"version": 0, "ranges": []}
    for other in guard["ranges"]:
        if accounting.overlaps(start_date, end_date, other["startDate"], other["endDate"]):
            raise PeriodRuleBroken(
                Phrase("The period overlaps period {} ({} to {}).", other['id'], other['startDate'], other['endDate']),
                code="PERIOD_OVERLAP", details=[{"field": "startDate", "message":
                        Phrase("overlaps period {}", other['id'])}])
    period_id = table.next_id(keys.id_sequence(company_id, keys.ACCOUNTING_PERIOD))
    now = clock.now_iso()
    item = {**period_key(company_id, period_id), **keys.period_index(company_id, start_date, period_id),
            "itemType": keys.ACCOUNTING_PERIOD, "id": period_id, "name": name, "startDate": start_date,
            "endDate": end_date, "status": OPEN, "version": 1, "createdAt": now, "updatedAt": now}
    transaction = command.transaction()
    transaction.put_new(item)
    transaction.increment(keys.entity_count(company_id, keys.ACCOUNTING_PERIOD), "total",
                          also_set=keys.entity_count_index(company_id, keys.ACCOUNTING_PERIOD))
    ranges = [*guard["ranges"], {"id": period_id, "startDate": start_date, "endDate": end_date}]
    period_store.record_ranges(transaction, company_id, PERIODS_GUARD, ranges, guard["version"])
    return command.commit(transaction, item)


def close_period(command: Command, period_id: int) -> dict[str, Any]:
    return _change_status(command, period_id, OPEN, CLOSED)


def reopen_period(command: Command, period_id: int) -> dict[str, Any]:
    return _change_status(command, period_id, CLOSED, OPEN)


def _change_status(command: Command, period_id: int, expected: str, status: str) -> dict[str, Any]:
    company_id = command.company_id
    period = get_period(command.table, company_id, period_id)
    if period["status"] != expected:
        raise PeriodRuleBroken(Phrase("The period is already {}.", period['status']),
                               code="PERIOD_NOT_OPEN" if status == CLOSED else "PERIOD_NOT_CLOSED")
    now = clock.now_iso()
    changed = {**period, "status": status, "version": period["version"] + 1, "updatedAt": now,
               "closedAt" if status == CLOSED else "reopenedAt": now}
    transaction = command.transaction()
    transaction.update_fields(period_key(company_id, period_id),
                              {"status": status, "updatedAt": now,
                               "closedAt" if status == CLOSED else "reopenedAt": now},
                              period["version"])
    _lock_days(transaction, company_id, period, closing=status == CLOSED)
    return command.commit(transaction, changed)


def _lock_days(transaction: Transaction, company_id: int, period: dict[str, Any], *, closing: bool) -> None:
    for year, days in accounting.days_by_year(period["startDate"], period["endDate"]).items():
        (period_store.close_days if closing else period_store.reopen_days)(transaction, company_id, year, days)
