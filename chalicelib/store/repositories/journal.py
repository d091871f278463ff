"""Journal entries: their status moves and the per-day counts of entries (by status and type)
that list totals and the fiscal years' order read."""
from __future__ import annotations

from typing import Any, cast

from chalicelib.domain.records import EntryRecord
from chalicelib.store import keys
from chalicelib.store.table import Table
from chalicelib.store.transaction import Transaction


def entry(table: Table, company_id: int, entry_id: int) -> EntryRecord | None:
    """The stored journal entry, as its record (the store reads each field at its declared type)."""
    return cast("EntryRecord | None", table.get(keys.entity(company_id, keys.JOURNAL_ENTRY, entry_id)))


def day_counts_between(table: Table, company_id: int, first: str | None,
                       last: str | None) -> list[tuple[str, dict[str, Any]]]:
    """(day, counts) of each day from `first` to `last` (either open), shards included (a day may
    come more than once: add them up), strongly consistent."""
    found = table.query_all(partition=("PK", keys.day_counts(company_id, "")["PK"]),
                            sort_range=("SK", first, f"{last}{keys.SHARD_SUFFIX_END}" if last else None),
                            consistent=True)
    return [(str(item["SK"])[:10], item) for item in found]


def change_status(transaction: Transaction, company_id: int, entry: dict[str, Any], status: str,
                  also: dict[str, Any]) -> None:
    """The entry from the status and version read to `status` (and `also` set): a concurrent post
    or reversal of the same entry makes the command run again."""
    names = {"#status": "status", "#version": "version"}
    values: dict[str, Any] = {":from": entry["status"], ":to": status,
                              ":expected": entry["version"], ":next": entry["version"] + 1}
    assignments = ["#status = :to", "#version = :next"]
    for position, (name, value) in enumerate(also.items()):
        names[f"#a{position}"] = name
        values[f":a{position}"] = value
        assignments.append(f"#a{position} = :a{position}")
    transaction.update(keys.entity(company_id, keys.JOURNAL_ENTRY, int(entry["id"])), "SET " + ", ".join(assignments),
                       condition="#status = :from AND #version = :expected", names=names, values=values)
