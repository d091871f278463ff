"""El Salvador: invalidating (anulación) an accepted DTE. The invalidation event is built in the
format of the DTE's own edition (anulacion-schema-v2 for a legacy DTE, invalidacion-schema-v3 for
a 2026 one); the Manual Funcional V2.0's windows and blocking documents are checked first for
either (the authority applies them by transmission date), its replacement rules for a 2026 one
(domain/dte_invalidation_rules.py), and the event is checked, signed and sent: the authority's
answer is an external call and cannot be inside a transaction. Only once it accepted is the
document reversed, in one transaction, like a cancellation. The event is recorded on the document
before it is sent: when the authority does not answer (503), the next request sends the same event
again, whatever its body; when it refuses, the record goes and its observations are the 400's
details."""
from __future__ import annotations

from collections.abc import Mapping
from decimal import Decimal
from typing import Any, Callable

from chalicelib import clock, countries, jsoncodec
from chalicelib.countries.sv.domain import dte as dte_rules
from chalicelib.countries.sv.domain import dte_formats, dte_invalidation_event, dte_json
from chalicelib.countries.sv.domain import dte_invalidation_rules as manual
from chalicelib.countries.sv.services import dte, dte_signing
from chalicelib.countries.sv.services.dte_authority import DteTransmitter, Submission
from chalicelib.domain.records import DocumentChanges, DocumentRecord
from chalicelib.errors import ApiError, NotFound, ServiceUnavailable, ValidationFailed
from chalicelib.messages.phrases import Phrase
from chalicelib.observability import logger
from chalicelib.services.commands import Command
from chalicelib.services.identity import accounts
from chalicelib.services.sales_purchases import document_reversals, documents
from chalicelib.store.repositories import documents as document_store
from chalicelib.store.repositories import electronic_documents as dte_store
from chalicelib.store.table import Table
from chalicelib.store.transaction import LostRace, Transaction


def invalidate(command: Command, document_id: int, fields: dict[str, Any],
               transmitter: DteTransmitter | None = None) -> dict[str, Any]:
    table, company_id = command.table, command.company_id
    document = documents.get_document(table, company_id, document_id)
    # an event sent before without an answer may be at the authority: it is completed as it was sent
    pending = (document.get("dte") or {}).get(dte_rules.PENDING_INVALIDATION)
    by_manual = manual.follows_manual(document.get("dte"))
    if pending is None:  # the manual's refusals, before the authority is asked (motive 2 never replaced)
        refused = manual_refusal(table, company_id, document, fields)
        if refused is not None:
            raise refused
    document_reversals.check_invalidatable(document)  # before the authority invalidates anything
    issued: dict[str, Any] = document.get("dte") or {}  # an invalidatable document is a DTE
    company = accounts.get_company(table, company_id)
    country = company.get("country", "SV")
    if pending is None:
        date, time = clock.today_in(country), clock.local_time_in(country)
        if by_manual:
            date, time = manual.event_moment(issued["tipoDte"], document["date"], issued["horEmi"],
                                             manual.local(clock.now(), _offset()))
        pending = {"codigoGeneracion": dte_rules.new_codigo_generacion(), "date": date, "time": time,
                   "fields": fields}
    fields = jsoncodec.loads(jsoncodec.dumps(pending["fields"]))  # read back from the table: ids as ints again
    replacing = _replacement(command, document, fields, by_manual)
    replacement = replacing.get("dte") if replacing else None
    ambiente = dte_json.ambiente(company)
    if by_manual:
        sent = dte_invalidation_event.event(document, fields, pending["codigoGeneracion"], pending["date"],
                                            pending["time"], replacement, ambiente)
    else:
        sent = dte_invalidation_event.legacy_event(document, fields, pending["codigoGeneracion"], pending["date"], pending["time"],
                                     replacement, ambiente,
                                     establishment_type=(company.get("dteIssuer") or {}).get("establishmentType", "02"))
    problems = dte_formats.schema_problems(sent, dte_formats.INVALIDATION)
    if problems:
        details = [{"field": f"invalidation.{problem['field']}", "message": problem["message"]} for problem in problems]
        raise ValidationFailed(Phrase("The tax authority's format refuses this invalidation: {}: {}",
                                      details[0]['field'], details[0]['message']), details=details)
    submission = Submission(company_id=company_id, nit=sent["emisor"]["nit"], ambiente=ambiente,
                            tipo_dte=issued["tipoDte"],
                            version=sent["identificacion"]["version"], codigo_generacion=pending["codigoGeneracion"],
                            documento=dte_signing.sign(table, company_id, sent))
    _record_pending(table, company_id, document, pending)
    try:
        answer = (transmitter or dte.configured_transmitter(table, dte.REQUEST_ATTEMPTS)).invalidate(submission)
    except Exception:
        logger.exception("DTE invalidation got no answer", extra={"companyId": company_id, "documentId": document_id})
        raise ApiError("The tax authority did not answer; nothing was invalidated. Send it again.",
                       code="SERVICE_UNAVAILABLE") from None
    if not answer.accepted:
        _forget_pending(table, company_id, document_id, pending["codigoGeneracion"])
        raise ApiError("The tax authority refused the invalidation.", code="DTE_INVALIDATION_REJECTED",
                       details=[{"field": "invalidation", "message": text} for text in answer.observations])
    codigo = pending["codigoGeneracion"]
    record = {"codigoGeneracion": codigo, "selloRecepcion": answer.sello_recepcion, "acceptedAt": answer.received_at,
              "type": int(fields["invalidationType"]), "reason": fields.get("reason"),
              "replacementDocumentId": fields.get("replacementDocumentId"),
              # the replacement as a person names it, so the invalidated document's page reads no other
              "replacementNumeroControl": replacement["numeroControl"] if replacement else None,
              "replacementDocumentNumber": replacing.get("number") if replacing else None}
    return document_reversals.invalidate_document(
        command, document_id, fields.get("date"), fields.get("reason"), lambda document: _invalidated(document, record),
        along=lambda document, transaction: dte.count_validated_debit_note(transaction, company_id, document, -1))


def _invalidated(document: DocumentRecord, record: dict[str, Any]) -> DocumentChanges:
    """The document's DTE as the accepted invalidation leaves it (the pending event answered)."""
    kept = {name: value for name, value in (document.get("dte") or {}).items() if name != dte_rules.PENDING_INVALIDATION}
    return {"dte": {**kept, "status": dte_rules.INVALIDATED, "invalidation": record}}


def _record_pending(table: Table, company_id: int, document: Mapping[str, Any], pending: dict[str, Any]) -> None:
    """Records the event on the document before it is sent, in a transaction of its own: an
    accepted invalidation whose answer was lost, or whose reversal then failed (a payment
    registered meanwhile), is completed by sending the request again, which sends the same event,
    and the authority answers it as it did. Only where no other request recorded its event."""
    if (document.get("dte") or {}).get(dte_rules.PENDING_INVALIDATION) == pending:
        return
    _update_pending(table, lambda transaction: dte_store.record_pending_invalidation(
        transaction, company_id, document["id"], dte_rules.PENDING_INVALIDATION, pending, dte_rules.ACCEPTED))


def _forget_pending(table: Table, company_id: int, document_id: int, codigo: str) -> None:
    """The authority refused the event: nothing of it is there. Only this request's record goes."""
    _update_pending(table, lambda transaction: dte_store.forget_pending_invalidation(
        transaction, company_id, document_id, dte_rules.PENDING_INVALIDATION, codigo, dte_rules.ACCEPTED))


def _update_pending(table: Table, write: Callable[[Transaction], None]) -> None:
    transaction = Transaction(table)
    write(transaction)
    try:
        transaction.commit()
    except LostRace:
        raise ServiceUnavailable("Another request is invalidating this document; send it again.",
                                 code="CONCURRENT_UPDATE") from None


def _replacement(command: Command, document: Mapping[str, Any], fields: dict[str, Any],
                 by_manual: bool = False) -> DocumentRecord | None:
    """The DTE that replaces the invalidated one (an accepted one, answered whole): for a legacy DTE
    type 1 names it, of the same customer; for a 2026 one the manual says when (its rules checked
    before: manual_refusal), of the same type."""
    if by_manual:
        if not manual.needs_replacement(document["dte"]["tipoDte"], int(fields["invalidationType"])):
            return None
    elif fields["invalidationType"] != 1:
        return None
    if fields.get("replacementDocumentId") is None:
        raise ValidationFailed.for_field("replacementDocumentId", "required: type 1 is replaced by another DTE")
    try:
        replacement = documents.get_document(command.table, command.company_id, fields["replacementDocumentId"])
    except NotFound:
        raise ValidationFailed.for_field("replacementDocumentId", "no such document") from None
    problem = None
    tipo = document["dte"]["tipoDte"]
    if replacement["id"] == document["id"]:
        problem = "a document does not replace itself"
    elif (replacement.get("dte") or {}).get("status") != dte_rules.ACCEPTED:
        problem = "must be a DTE the tax authority accepted"
    elif by_manual and (replacement.get("dte") or {}).get("tipoDte") != tipo:  # pages 14-17: "la nueva factura", "el nuevo CCFE"
        problem = Phrase("must be a DTE of type {}, as the one it replaces", tipo)
    elif not by_manual and replacement["businessPartnerId"] != document["businessPartnerId"]:
        # the manual's first reason is an error in the customer's identification: a 2026 DTE's replacement
        # may name another customer
        problem = "belongs to another business partner"
    if problem:
        raise ValidationFailed.for_field("replacementDocumentId", problem)
    return replacement


def _offset() -> int:
    return countries.pack(dte_rules.DTE_COUNTRY).utc_offset_hours


def _rescinded_replaced(document: Mapping[str, Any], fields: dict[str, Any]) -> ApiError | None:
    """A legacy DTE's event: a rescinded operation (motive 2) names no replacement either."""
    if int(fields["invalidationType"]) != manual.RESCINDED or fields.get("replacementDocumentId") is None:
        return None
    return manual.replacement_refusal((document.get("dte") or {}).get("tipoDte", ""), manual.RESCINDED, True)


def manual_refusal(table: Table, company_id: int, document: Mapping[str, Any], fields: dict[str, Any]) -> ApiError | None:
    """What the Manual Funcional V2.0 refuses in invalidating this DTE now. Whatever its edition (the
    authority applies them by the event's transmission date): its window and the documents against
    it the authority validated (read here: the document does not record a return event). A 2026
    DTE's also: the replacement its motive takes or forbids, a reason within invalidacion-schema-v3's
    200 characters; a legacy DTE keeps its own replacement rules (`_replacement`; motive 2 names none)."""
    dte = document.get("dte") or {}
    if dte.get("status") != dte_rules.ACCEPTED or not manual.applies_windows(dte):
        return None  # the core's refusal says why (check_invalidatable)
    tipo = dte["tipoDte"]
    refused = (manual.refusal_now(dte, clock.now(), _offset())
               or (manual.blocked_refusal(tipo, related_documents(table, company_id, document))
                   if _may_be_blocked(document) else None))
    if refused is not None or not manual.follows_manual(dte):
        return refused or _rescinded_replaced(document, fields)
    if len(fields.get("reason") or "") > manual.REASON_LENGTH:
        return ValidationFailed.for_field("reason", Phrase("at most {} characters in the 2026 formats",
                                                           manual.REASON_LENGTH))
    return manual.replacement_refusal(tipo, int(fields["invalidationType"]), fields.get("replacementDocumentId") is not None)


def _may_be_blocked(document: Mapping[str, Any]) -> bool:
    """Whether documents against it are worth reading: only some types are blocked, and an FE, FEX
    or FSE only by a return event, which is a credit note of it (its `creditedTotal`): a factura to
    the final consumer, whose partner holds the most documents, is not read for nothing."""
    tipo = document["dte"]["tipoDte"]
    if tipo not in manual.BLOCKED_BY:
        return False
    return manual.BLOCKED_BY[tipo] != {manual.RETORNO} or Decimal(document.get("creditedTotal") or 0) != 0


def related_documents(table: Table, company_id: int, document: Mapping[str, Any]) -> list[dict[str, Any]]:
    """The DTEs issued against the document (its notes, a return): the partner's documents from
    its date whose source it is, each as the rules read it. The window bounds the read: a DTE is
    invalidated within weeks (at most three months) of its date."""
    found = document_store.dated_between(table, company_id, partner_id=document["businessPartnerId"],
                                         low=document["date"], filters={"sourceDocumentId": document["id"]})
    return [{"id": item["id"], "number": item.get("number"), "tipoDte": item["dte"]["tipoDte"],
             "status": item["dte"].get("status"), "codigoGeneracion": item["dte"].get("codigoGeneracion")}
            for item in found if (item.get("dte") or {}).get("tipoDte")]
