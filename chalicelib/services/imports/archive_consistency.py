"""Whether a company archive's items are one moment of the company (issue 41): a parallel Scan reads
while the company writes, so it may hold a record without the counter that numbered it (the
company's partition read before an invoice, the invoice's after). Restored, such a company would
issue a fiscal number or an id again. Every counter must be at least what the archive's records
used:
- an id sequence (`SEQ#<kind>`, its `value` the last id taken) at least the highest id of the
  records of that kind (their `itemType`; payments are `PAY`);
- a document series' next number past the highest number of the documents it numbered: a CAI
  range (its `nextNumber`) for a document carrying the range (`cai.rangeId`), else the type's
  sequence (`DOCSEQ#<type>`); the numbers a country's own counters gave (El Salvador's DTE control
  numbers, `DTESEQ#...`) through its pack's hook `numbers_taken`.
The export checks what it read (and reads again), the restore checks what it is given."""
from __future__ import annotations

from collections import defaultdict
from typing import Any, Iterable

from chalicelib import countries
from chalicelib.domain.import_rows import RowError
from chalicelib.messages.phrases import Phrase
from chalicelib.services.imports import company_archive
from chalicelib.store import keys
from chalicelib.store.company_items import counter_name
from chalicelib.store.repositories import archives as stored_archives
from chalicelib.store.table import from_attributes

TORN = "the archive was taken while the company was writing: export it again"
# id sequences whose records' itemType is another word
_RECORD_TYPES = {"PAYMENT": "PAY"}
_NOT_NUMBERED = frozenset({"COMPANY"})  # its id is the company's: no sequence of its own


def torn_problems(archive: company_archive.Archive) -> list[RowError]:
    """The books' invariants (company_archive.books_problems) and the counters' (below)."""
    items = [item for members in archive.items.values() for item in members]
    return company_archive.books_problems(archive) + counter_problems(items, archive.company_id,
                                                                      archive.manifest.get("country"))


def counter_problems(items: Iterable[dict[str, Any]], company_id: int, country: str | None) -> list[RowError]:
    """Each counter behind the records, named, with the number its records used."""
    records = [from_attributes(item) for item in items]
    held = {keys.pair(record): record for record in records}
    problems = []
    highest_ids: dict[str, int] = defaultdict(int)
    for record in records:
        kind = _sequence_kind(record, company_id)
        if kind is not None:
            highest_ids[kind] = max(highest_ids[kind], int(record["id"]))
    for kind, highest in sorted(highest_ids.items()):
        key = keys.id_sequence(company_id, kind)
        taken = int((held.get(keys.pair(key)) or {}).get("value", 0))
        if taken < highest:
            problems.append(_behind(stored_archives.sort_key_of(key), taken, highest))
    numbered: dict[tuple[tuple[str, str], ...], int] = defaultdict(int)
    pack = countries.pack(country)
    for record in records:
        if record.get("itemType") == keys.DOCUMENT and record.get("number") and "type" in record:
            for counters, number in _numbers_taken(company_id, record) + pack.hooks.numbers_taken(company_id, record):
                found = tuple(keys.pair(counter) for counter in counters)
                numbered[found] = max(numbered[found], number)
    for pairs, highest in sorted(numbered.items()):
        counter = next((held[pair] for pair in pairs if pair in held), None)
        following = int(counter.get("nextNumber", 0)) if counter else 0
        if following <= highest:
            problems.append(_behind(counter_name(*pairs[0], company_id), following, highest))
    return problems


def _behind(name: str, value: int, used: int) -> RowError:
    # TORN's words written out: the catalogue's test reads the phrase here
    return RowError(0, None, Phrase("the counter {} is at {}, behind the archive's records, which used {}: the archive "
                                    "was taken while the company was writing: export it again", name, value, used))


def _sequence_kind(record: dict[str, Any], company_id: int) -> str | None:
    """The id sequence a record's id came from: that of its itemType, when the record is an entity
    (`C#{c}#{kind}#{id}` / kind), a small record (`C#{c}#{kind}S` / its sortable id) or a payment."""
    item_type, record_id = record.get("itemType"), record.get("id")
    if not isinstance(item_type, str) or item_type in _NOT_NUMBERED or record_id is None \
            or not isinstance(record_id, (int, float)) \
            and not str(record_id).isdigit():
        return None
    kind = _RECORD_TYPES.get(item_type, item_type)
    shaped = keys.pair(record) in (keys.pair(keys.entity(company_id, item_type, int(record_id))),
                                   keys.pair(keys.small_record(company_id, item_type, int(record_id))))
    return kind if shaped or kind != item_type else None


def _numbers_taken(company_id: int, document: dict[str, Any]) -> list[tuple[tuple[dict[str, str], ...], int]]:
    """The document's own number: from its CAI range, else from its type's sequence."""
    term = keys.number_term(str(document["number"]))
    if term is None:
        return []
    range_id = (document.get("cai") or {}).get("rangeId")
    counter = keys.small_record(company_id, keys.CAI_RANGE, int(range_id)) if range_id is not None \
        else keys.document_sequence(company_id, str(document["type"]))
    return [((counter,), int(term))]
