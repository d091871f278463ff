"""A revaluation undone (issue 44): a payment registered later but dated on or before its date
leaves it stale, and its entries are automatic (no manual reversal), so the accountant voids it
and revalues the date again. Each posted chunk's entry is reversed on the revaluation's date and
its reversal on the next day (the month reads as if it had never been revalued), each partner's
ledger gets the opposite of its two movements (versions 3 and 4), chunk by chunk as it was posted
(the record `voiding`, `chunksVoided` moved on under the condition it has not moved, so nothing is
undone twice and a stopped void is finished by asking again). The last step moves the record off
its date's key (status `voided`): the date is free for a new revaluation, the voided one still
listed. Refused while either day is in a closed period."""
from __future__ import annotations

from typing import Any, Callable

from chalicelib import clock
from chalicelib.errors import NotFound
from chalicelib.messages.books import book_text
from chalicelib.services.accounting import revaluation_chunks as chunks
from chalicelib.services.accounting.posting import JournalWrites, get_entry
from chalicelib.services.commands import Command
from chalicelib.store import keys
from chalicelib.store.repositories import revaluations as revaluation_store
from chalicelib.store.table import Table


def stored_record(table: Table, company_id: int, revaluation_id: int) -> dict[str, Any]:
    """The record as stored (its plan, its progress), under its date's key or a voided one."""
    for item in revaluation_store.every_record(table, company_id):
        if int(item["id"]) == revaluation_id:
            return item
    raise NotFound("Revaluation not found.")


def void(command: Command, revaluation_id: int,
         answer: Callable[[dict[str, Any]], dict[str, Any]]) -> dict[str, Any]:
    """`answer(record)` is the view the route returns (and the Idempotency-Key stores)."""
    table, company_id = command.table, command.company_id
    record = stored_record(table, company_id, revaluation_id)
    if record.get("status") == chunks.VOIDED:
        return answer(record)   # voided already: the same answer
    writes = JournalWrites(company_id)
    writes.require_open(record["date"])
    writes.require_open(record["reversalDate"])
    writes.refuse_closed_now(table)
    if record.get("status", chunks.POSTED_STATUS) != chunks.VOIDING:
        record = _start(command, record)
    for number in range(int(record["chunksVoided"]), int(record["chunksToVoid"])):
        record = void_chunk(command, record, number)
    return _retire(command, record, answer)


def _start(command: Command, record: dict[str, Any]) -> dict[str, Any]:
    """`voiding`, from `posted` or from a `posting` stopped half-way (its posted chunks only are
    undone; a POST of its date that would finish it now loses the race)."""
    status = record.get("status", chunks.POSTED_STATUS)
    posted = len(record.get("journalEntryIds") or ([record["journalEntryId"]] if record.get("journalEntryId") else []))
    transaction = command.transaction()
    revaluation_store.start_voiding(transaction, command.company_id, record["date"], was=status, voiding=chunks.VOIDING,
                                    posted_chunks=posted, chunked="chunksPosted" in record)
    Command(command.principal, command.table).commit(transaction, None)
    return {**record, "status": chunks.VOIDING, "chunksVoided": 0, "chunksToVoid": posted, "voidJournalEntryIds": []}


def void_chunk(command: Command, record: dict[str, Any], number: int) -> dict[str, Any]:
    """Chunk `number` undone in one transaction: its entry and its reversal reversed (each on its
    own day, the originals marked `reversed`), its partners' movements answered by their
    opposites. Each chunk balanced by itself and moved its subledgers with their control
    accounts, so after each undone chunk the books are still whole."""
    table, company_id = command.table, command.company_id
    entry_ids = record.get("journalEntryIds") or [record["journalEntryId"]]
    reversal_ids = record.get("reversalJournalEntryIds") or [record["reversalJournalEntryId"]]
    text = book_text("revaluation_void", date=record["date"])
    writes = JournalWrites(company_id)
    undone = [writes.reverse(table, get_entry(table, company_id, int(entry_ids[number])), record["date"], text),
              writes.reverse(table, get_entry(table, company_id, int(reversal_ids[number])), record["reversalDate"],
                             text)]
    transaction = command.transaction()
    writes.apply(transaction)
    # a record posted whole (before chunks) has no `chunk` on its lines: its one chunk is all of them
    lines = [line for line in record["lines"] if int(line.get("chunk", 0)) == number and line.get("difference")]
    chunks.partner_movements(transaction, company_id, record, lines, voiding=True)
    new_ids = [int(entry["id"]) for entry in undone]
    revaluation_store.record_chunk_voided(transaction, company_id, record["date"], number, chunks.VOIDING, new_ids)
    Command(command.principal, table).commit(transaction, None)
    return {**record, "chunksVoided": number + 1, "voidJournalEntryIds": [*record["voidJournalEntryIds"], *new_ids]}


def _retire(command: Command, record: dict[str, Any], answer: Any) -> dict[str, Any]:
    """The record off its date's key, `voided`: the date free again. Carries the Idempotency-Key answer."""
    company_id = command.company_id
    voided = {**record, **keys.voided_revaluation(company_id, record["date"], int(record["id"])),
              "status": chunks.VOIDED, "voidedAt": clock.now_iso()}
    transaction = command.transaction()
    revaluation_store.retire(transaction, company_id, record["date"], chunks.VOIDING, int(record["chunksToVoid"]),
                             voided)
    return command.commit(transaction, answer(voided))
