"""Journal entries: an entry read as its record, and its status moves (the per-day counts of
entries are day_counts.py's)."""
from __future__ import annotations

from collections.abc import Mapping
from typing import Any, cast

from chalicelib.domain.records import EntryRecord
from chalicelib.store import keys
from chalicelib.store.table import Table
from chalicelib.store.transaction import Transaction


def entry(table: Table, company_id: int, entry_id: int) -> EntryRecord | None:
    """The stored journal entry, as its record (the store reads each field at its declared type)."""
    return cast("EntryRecord | None", table.get(keys.entity(company_id, keys.JOURNAL_ENTRY, entry_id)))


def put_new_entry(transaction: Transaction, company_id: int, entry: EntryRecord) -> None:
    """A new entry, under its key and in the company's entries by date (GSI1)."""
    transaction.put_new({**keys.entity(company_id, keys.JOURNAL_ENTRY, entry["id"]),
                         **keys.entry_index(company_id, entry["date"], entry["id"]), **entry})


def change_status(transaction: Transaction, company_id: int, entry: EntryRecord, status: str,
                  also: Mapping[str, Any]) -> None:
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
