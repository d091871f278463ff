"""The return event (DTE 18) of a sales credit note whose source is a 2026 FE or FEX, issued in the
note's confirming transaction as a DTE is (countries/sv/services/dte.py): its generation code, the
event checked against fe-eret-v1 before anything is stored (a 400 naming the field), the pending
transmission, and what the source's returns add up to (keys.dte_returns, one item per source,
conditioned on what was read), so that no two returns together exceed a line of the source. Sent,
retried, delivered and invalidated by the same paths as the DTEs; the stock, the customer's balance
and the IVA book move as for any credit note (services/sales_purchases/documents.py)."""
from __future__ import annotations

import datetime as _dt
from typing import Any

from chalicelib import clock, countries
from chalicelib.countries.sv.domain import dte as dte_rules
from chalicelib.countries.sv.domain import dte_formats, dte_json, dte_return
from chalicelib.countries.sv.services import dte_signing
from chalicelib.errors import ValidationFailed
from chalicelib.store import keys
from chalicelib.store.table import Table
from chalicelib.store.transaction import Transaction

RETURNS_ITEM = "DTE_RETURNS"


def applies(document: dict[str, Any], source: dict[str, Any] | None) -> bool:
    """A sales credit note of a 2026 FE or FEX: its DTE is the return event."""
    return document["type"] == "06" and dte_return.is_return(source)


def issue(transaction: Transaction, table: Table, company: dict[str, Any], document: dict[str, Any],
          source: dict[str, Any]) -> dict[str, Any]:
    """The note's new fields (its code and pending `dte`), with the transmission and the source's
    returns added to its transaction; refused (400) past the 3 months or beyond the source's lines."""
    company_id = company["id"]
    today = clock.today_in(dte_rules.DTE_COUNTRY)
    if document["date"] != today:  # the event's date is the day it is applied (the manual's "fecha del evento")
        raise ValidationFailed.for_field("date", f"an El Salvador DTE is dated the day it is issued: {today}, "
                                                 f"not {document['date']}")
    dte_return.check_window(source, sealed_on(source), document["date"])
    dte_signing.require_credentials(table, company_id)
    returns_key = keys.dte_returns(company_id, int(source["id"]))
    kept = table.get(returns_key)
    already = (kept or {}).get("returned") or {}
    matched = dte_return.returned_lines(document["lines"], source["lines"], already)
    dte = dte_return.pending(dte_rules.new_codigo_generacion(), source, matched,
                             clock.local_time_in(dte_rules.DTE_COUNTRY))
    problems = dte_formats.schema_problems(dte_return.event({**document, "dte": dte}, dte_json.ambiente(company)),
                                           dte_formats.RETORNO)
    if problems:
        details = [{"field": f"dte.{problem['field']}", "message": problem["message"]} for problem in problems]
        raise ValidationFailed(f"The tax authority's format refuses this document: {details[0]['field']}: "
                               f"{details[0]['message']}", details=details)
    codigo, now = dte["codigoGeneracion"], clock.now_iso()
    transaction.put_new({**keys.dte_transmission(company_id, document["id"]),
                         **keys.dte_pending_index(company_id, document["id"], now), "itemType": "DTE",
                         "companyId": company_id, "documentId": document["id"], "status": dte_rules.PENDING,
                         "codigoGeneracion": codigo, "attempts": 0, "createdAt": now})
    _write_returned(transaction, returns_key, kept, dte_return.after_return(already, document["lines"], matched))
    return {"codigoGeneracion": codigo, "dte": dte}


def release(transaction: Transaction, table: Table, company_id: int, note: dict[str, Any]) -> None:
    """What an invalidated return event gave back is returnable again: its lines leave the source's
    returns (for the invalidation's transaction)."""
    dte = note.get("dte") or {}
    if dte.get("tipoDte") != dte_formats.RETORNO or note.get("sourceDocumentId") is None:
        return
    returns_key = keys.dte_returns(company_id, int(note["sourceDocumentId"]))
    kept = table.get(returns_key)
    if kept is None:
        return
    returned = {index: dict(seen) for index, seen in (kept.get("returned") or {}).items()}
    for line, item in zip(note["lines"], dte["items"], strict=True):
        seen = returned[str(int(item["sourceLine"]))]
        seen["quantity"] -= line["quantity"]
        seen["total"] -= line["total"]
    _write_returned(transaction, returns_key, kept, returned)


def sealed_on(source: dict[str, Any]) -> _dt.date | None:
    """The date, in El Salvador, the source obtained its seal (None: not sealed)."""
    dte = source.get("dte") or {}
    if dte.get("status") != dte_rules.ACCEPTED or not dte.get("acceptedAt"):
        return None
    moment = _dt.datetime.fromisoformat(str(dte["acceptedAt"]).replace("Z", "+00:00"))
    return (moment + _dt.timedelta(hours=countries.pack(dte_rules.DTE_COUNTRY).utc_offset_hours)).date()


def _write_returned(transaction: Transaction, key: dict[str, Any], kept: dict[str, Any] | None,
                    returned: dict[str, Any]) -> None:
    """Written on what was read: a concurrent return of the same source makes the command run again."""
    if kept is None:
        transaction.put({**key, "itemType": RETURNS_ITEM, "returned": returned, "changes": 1},
                        condition="attribute_not_exists(PK)")
        return
    transaction.update(key, "SET returned = :returned, changes = :after", condition="changes = :seen",
                       values={":returned": returned, ":after": int(kept["changes"]) + 1,
                               ":seen": int(kept["changes"])})
