"""Revaluations of foreign-currency balances: the records (one per date, a voided one moved off
its date's key) and their progress, chunk by chunk, as they post and as they are voided."""
from __future__ import annotations

from typing import Any

from chalicelib.store import keys
from chalicelib.store.table import Table
from chalicelib.store.transaction import Transaction


def every_record(table: Table, company_id: int) -> list[dict[str, Any]]:
    """Every revaluation of the company, voided ones included: one Query of a small partition."""
    return table.query_all(partition=("PK", keys.revaluations_partition(company_id)), consistent=True)


def record_chunk_posted(transaction: Transaction, company_id: int, date: str, number: int, entry_id: int,
                        reversal_id: int, *, posting: str, posted: str | None, now: str) -> None:
    """Chunk `number` posted (its entry and reversal kept), from the progress read while the
    record is `posting`; `posted`: the last chunk, which makes it so. Failing is a lost race."""
    sets = ["chunksPosted = :next", "journalEntryIds = list_append(journalEntryIds, :entry)",
            "reversalJournalEntryIds = list_append(reversalJournalEntryIds, :reversal)",
            "journalEntryId = if_not_exists(journalEntryId, :first)",
            "reversalJournalEntryId = if_not_exists(reversalJournalEntryId, :firstReversal)"]
    values: dict[str, Any] = {":next": number + 1, ":seen": number, ":posting": posting, ":entry": [entry_id],
                              ":reversal": [reversal_id], ":first": entry_id, ":firstReversal": reversal_id}
    if posted is not None:
        sets += ["#status = :posted", "postedAt = :now"]
        values.update({":posted": posted, ":now": now})
    transaction.update(keys.revaluation(company_id, date), "SET " + ", ".join(sets),
                       condition="#status = :posting AND chunksPosted = :seen", names={"#status": "status"},
                       values=values)


def start_voiding(transaction: Transaction, company_id: int, date: str, *, was: str, voiding: str,
                  posted_chunks: int, chunked: bool) -> None:
    """The record `voiding` from the status read (none: a record from before statuses), with
    `posted_chunks` to undo; `chunked`: a record posted in chunks, whose progress must be as read."""
    transaction.update(keys.revaluation(company_id, date),
                       "SET #status = :voiding, chunksVoided = :zero, chunksToVoid = :posted, voidJournalEntryIds = :none",
                       condition="(#status = :was OR attribute_not_exists(#status)) AND chunksPosted = :posted"
                       if chunked else "(#status = :was OR attribute_not_exists(#status))",
                       names={"#status": "status"},
                       values={":voiding": voiding, ":zero": 0, ":posted": posted_chunks, ":none": [], ":was": was})


def record_chunk_voided(transaction: Transaction, company_id: int, date: str, number: int, voiding: str,
                        new_entry_ids: list[int]) -> None:
    """Chunk `number` undone (its reversing entries kept), from the progress read."""
    transaction.update(keys.revaluation(company_id, date),
                       "SET chunksVoided = :next, voidJournalEntryIds = list_append(voidJournalEntryIds, :ids)",
                       condition="#status = :voiding AND chunksVoided = :seen", names={"#status": "status"},
                       values={":next": number + 1, ":seen": number, ":voiding": voiding, ":ids": new_entry_ids})


def retire(transaction: Transaction, company_id: int, date: str, voiding: str, chunks_to_void: int,
           voided: dict[str, Any]) -> None:
    """The record off its date's key once every chunk is undone, kept as `voided` (its own key)."""
    transaction.delete(keys.revaluation(company_id, date),
                       condition="#status = :voiding AND chunksVoided = :done", names={"#status": "status"},
                       values={":voiding": voiding, ":done": chunks_to_void})
    transaction.put_new(voided)
