"""The return event (DTE 18) of a credit note whose source is a 2026 FE or FEX (06) or FSE (105), issued in the
note's confirming transaction as a DTE is (countries/sv/services/dte.py): its generation code, the
event checked against fe-eret-v1 before anything is stored (a 400 naming the field), the pending
transmission, and what the source's returns add up to (keys.dte_returns, one item per source,
conditioned on what was read: what each return took, counted while its note stands), so that no
two returns together exceed a line of the source. Sent,
retried, delivered and invalidated by the same paths as the DTEs; the stock, the customer's balance
and the IVA book move as for any credit note (services/sales_purchases/documents.py)."""
from __future__ import annotations

import datetime as _dt
from collections.abc import Mapping
from typing import Any

from chalicelib import clock, countries
from chalicelib.countries.sv.domain import dte as dte_rules
from chalicelib.countries.sv.domain import dte_formats, dte_json, dte_return
from chalicelib.countries.sv.domain import dte_invalidation_rules as manual
from chalicelib.countries.sv.services import dte_signing
from chalicelib.domain.records import DocumentChanges
from chalicelib.errors import ValidationFailed
from chalicelib.messages.phrases import Phrase
from chalicelib.store import keys
from chalicelib.store.repositories import electronic_documents as dte_store
from chalicelib.store.table import Table
from chalicelib.store.transaction import Transaction

RETURNS_ITEM = "DTE_RETURNS"


def applies(document: Mapping[str, Any], source: Mapping[str, Any] | None) -> bool:
    """A sales credit note of a 2026 FE or FEX, a purchase credit note of a 2026 FSE: its DTE is
    the return event."""
    return dte_return.is_return(source, document["type"])


def issue_return(transaction: Transaction, table: Table, company: Mapping[str, Any], document: Mapping[str, Any],
          source: Mapping[str, Any]) -> DocumentChanges:
    """The note's new fields (its code and pending `dte`), with the transmission and the source's
    returns added to its transaction; refused (400) past the 3 months from the source's generation
    date or beyond the source's lines."""
    company_id = company["id"]
    today = clock.today_in(dte_rules.DTE_COUNTRY)
    if document["date"] != today:  # the event's date is the day it is applied (the manual's "fecha del evento")
        raise ValidationFailed.for_field("date", Phrase("an El Salvador DTE is dated the day it is issued: {}, not {}",
                                                        today, document['date']))
    dte_return.check_window(source, sealed_on(source), document["date"])
    dte_signing.require_credentials(table, company_id)
    returns_key = keys.dte_returns(company_id, int(source["id"]))
    kept = table.get(returns_key)
    notes = (kept or {}).get("notes") or {}
    already = dte_return.returned_so_far(notes, _live(table, company_id, notes))
    matched = dte_return.returned_lines(document["lines"], source["lines"], already)
    dte = dte_return.pending(dte_rules.new_codigo_generacion(), source, matched,
                             clock.local_time_in(dte_rules.DTE_COUNTRY), document["lines"])
    problems = dte_formats.schema_problems(dte_return.event({**document, "dte": dte}, dte_json.ambiente(company)),
                                           dte_formats.RETORNO)
    if problems:
        details = [{"field": f"dte.{problem['field']}", "message": problem["message"]} for problem in problems]
        raise ValidationFailed(Phrase("The tax authority's format refuses this document: {}: {}",
                                      details[0]['field'], details[0]['message']), details=details)
    codigo, now = dte["codigoGeneracion"], clock.now_iso()
    transaction.put_new({**keys.dte_transmission(company_id, document["id"]),
                         **keys.dte_pending_index(company_id, document["id"], now), "itemType": "DTE",
                         "companyId": company_id, "documentId": document["id"], "status": dte_rules.PENDING,
                         "codigoGeneracion": codigo, "attempts": 0, "createdAt": now})
    taken = dte_return.lines_returned(document["lines"], matched, source["lines"])
    _write_returned(transaction, returns_key, kept, {**notes, str(document["id"]): taken})
    return {"codigoGeneracion": codigo, "dte": dte}


def live_returns(table: Table, company_id: int, source_id: int) -> list[int]:
    """The ids of the notes whose return events of the DTE still stand (neither cancelled nor
    invalidated): the manual forbids invalidating an FE, FEX or FSE while it has one."""
    notes = (table.get(keys.dte_returns(company_id, source_id)) or {}).get("notes") or {}
    return sorted(int(note_id) for note_id in _live(table, company_id, notes))


def _live(table: Table, company_id: int, notes: Mapping[str, Any]) -> set[str]:
    """Of the returns on record, those that stand: an invalidated one gave its lines back (its
    invalidation reverses the note like a cancellation), with nothing to write here."""
    if not notes:
        return set()
    found = table.batch_get([keys.document(company_id, int(note_id)) for note_id in notes])
    return {note_id for note_id in notes
            if dte_return.is_live(found.get(keys.pair(keys.document(company_id, int(note_id)))))}


def sealed_on(source: Mapping[str, Any]) -> _dt.date | None:
    """The date, in El Salvador, the source obtained its seal (None: not sealed)."""
    dte = source.get("dte") or {}
    if dte.get("status") != dte_rules.ACCEPTED or not dte.get("acceptedAt"):
        return None
    return manual.sealed_at(dte, countries.pack(dte_rules.DTE_COUNTRY).utc_offset_hours).date()


def _write_returned(transaction: Transaction, key: dict[str, str], kept: dict[str, Any] | None,
                    notes: dict[str, Any]) -> None:
    """Written on what was read: a concurrent return of the same source makes the command run again."""
    dte_store.write_returns(transaction, key, kept, notes, RETURNS_ITEM)
