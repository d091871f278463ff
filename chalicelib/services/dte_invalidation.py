"""El Salvador: invalidating (anulación) an accepted DTE. The invalidation event is built in the
authority's format (anulacion-schema-v2) and checked, signed and sent first: the authority's
answer is an external call and cannot be inside a transaction. Only once it accepted is the
document reversed, in one transaction, like a cancellation. When the authority does not answer
nothing changes (503, send it again); when it refuses, its observations are the 400's details."""
from __future__ import annotations

from typing import Any

from chalicelib import clock
from chalicelib.domain import dte as rules
from chalicelib.domain import dte_json
from chalicelib.errors import ApiError, NotFound, ValidationFailed
from chalicelib.observability import logger
from chalicelib.services import accounts, documents, dte, dte_signing
from chalicelib.services.commands import Command


def invalidate(command: Command, document_id: int, fields: dict[str, Any],
               transmitter: dte.DteTransmitter | None = None) -> dict[str, Any]:
    table, company_id = command.table, command.company_id
    document = documents.get_document(table, company_id, document_id)
    documents.check_invalidatable(document)  # before the authority invalidates anything
    replacement = _replacement(command, document, fields)
    company = accounts.get_company(table, company_id)
    country = company.get("country", "SV")
    codigo = rules.new_codigo_generacion()
    ambiente = (company.get("dteIssuer") or {}).get("environment", "00")
    sent = dte_json.invalidation(document, fields, codigo, clock.today_in(country), clock.local_time_in(country),
                                 replacement, ambiente)
    problems = dte_json.schema_problems(sent, dte_json.INVALIDATION)
    if problems:
        details = [{"field": f"invalidation.{problem['field']}", "message": problem["message"]} for problem in problems]
        raise ValidationFailed(f"The tax authority's format refuses this invalidation: {details[0]['field']}: "
                               f"{details[0]['message']}", details=details)
    submission = dte.Submission(company_id=company_id, nit=sent["emisor"]["nit"], ambiente=ambiente,
                                tipo_dte=document["dte"]["tipoDte"], version=2, codigo_generacion=codigo,
                                documento=dte_signing.sign(table, company_id, sent))
    try:
        answer = (transmitter or dte.configured_transmitter(table)).invalidate(submission)
    except Exception:
        logger.exception("DTE invalidation got no answer", extra={"companyId": company_id, "documentId": document_id})
        raise ApiError("The tax authority did not answer; nothing was invalidated. Send it again.",
                       code="SERVICE_UNAVAILABLE", status=503) from None
    if not answer.accepted:
        raise ApiError("The tax authority refused the invalidation.", code="DTE_INVALIDATION_REJECTED", status=400,
                       details=[{"field": "invalidation", "message": text} for text in answer.observations])
    record = {"codigoGeneracion": codigo, "selloRecepcion": answer.sello_recepcion, "acceptedAt": answer.received_at,
              "type": int(fields["invalidationType"]), "reason": fields.get("reason"),
              "replacementDocumentId": fields.get("replacementDocumentId")}
    return documents.invalidate_document(command, document_id, fields.get("date"), fields.get("reason"), record)


def _replacement(command: Command, document: dict[str, Any], fields: dict[str, Any]) -> dict[str, Any] | None:
    """Type 1 names the DTE that replaces it: an accepted one of the same customer."""
    if fields["invalidationType"] != 1:
        return None
    if fields.get("replacementDocumentId") is None:
        raise ValidationFailed.for_field("replacementDocumentId", "required: type 1 is replaced by another DTE")
    try:
        replacement = documents.get_document(command.table, command.company_id, fields["replacementDocumentId"])
    except NotFound:
        raise ValidationFailed.for_field("replacementDocumentId", "no such document") from None
    problem = None
    if int(replacement["id"]) == int(document["id"]):
        problem = "a document does not replace itself"
    elif (replacement.get("dte") or {}).get("status") != rules.ACCEPTED:
        problem = "must be a DTE the tax authority accepted"
    elif int(replacement["businessPartnerId"]) != int(document["businessPartnerId"]):
        problem = "belongs to another business partner"
    if problem:
        raise ValidationFailed.for_field("replacementDocumentId", problem)
    return replacement["dte"]
