"""Scheduled invoices: small records that sit in the due index (GSI2, keys.schedule_due_index) under
their next run date while active, so the hourly run reads the due ones, never the table; each run
advances its schedule only while it still waits for the run's date."""
from __future__ import annotations

from typing import Any

from chalicelib.store import keys
from chalicelib.store.listing import GSI2
from chalicelib.store.table import Table
from chalicelib.store.transaction import Guard, Transaction


def due_index(schedule: dict[str, Any]) -> dict[str, Any]:
    """The due index attributes of an active schedule with a run ahead; None (removed) otherwise."""
    if not schedule.get("isActive", True) or schedule.get("nextRunDate") is None:
        return dict.fromkeys(("GSI2PK", "GSI2SK"))
    return keys.schedule_due_index(schedule["companyId"], schedule["id"], schedule["nextRunDate"])


def due_through(table: Table, partition: str, high: str) -> list[dict[str, Any]]:
    """The schedules of one due partition (keys.schedule_due_partitions) due up to `high`, the
    earliest first."""
    return table.query_all(partition=("GSI2PK", partition), index=GSI2, sort_range=("GSI2SK", None, high))


def still_waiting_for(run_date: str) -> Guard:
    """A schedule's advance holds only while it still waits for `run_date`: a run date yields one
    invoice however many runs overlap."""
    return Guard("#next = :run", {"#next": "nextRunDate"}, {":run": run_date})


def record_failure(transaction: Transaction, schedule: keys.Key, run_date: str, error: dict[str, Any],
                   now: str) -> None:
    """`lastError` on the schedule while it still waits for `run_date` (it stays due); its version moves."""
    transaction.update(schedule, "SET lastError = :error, updatedAt = :now ADD #version :one",
                       condition="nextRunDate = :run", names={"#version": "version"},
                       values={":error": error, ":now": now, ":one": 1, ":run": run_date})
