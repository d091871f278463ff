"""What a DTE's state allows, asked by the core's document actions (domain/document_actions.py)
after their own status checks: a DTE is invalidated at the tax authority, not cancelled or
unconfirmed here, and only once the authority accepted it."""
from __future__ import annotations

from typing import Any, Mapping

from chalicelib import clock, countries
from chalicelib.countries.sv.domain import dte as dte_rules
from chalicelib.countries.sv.domain import dte_invalidation_event
from chalicelib.countries.sv.domain import dte_invalidation_rules as manual
from chalicelib.domain.document_actions import Refusal, untouched
from chalicelib.domain.documents import CONFIRMED, DocumentStateError
from chalicelib.errors import ValidationFailed
from chalicelib.messages.phrases import Phrase


def _dte_status(document: Mapping[str, Any]) -> str | None:
    return (document.get("dte") or {}).get("status")


def refusal(action: str, document: Mapping[str, Any]) -> Refusal:
    if action == "cancel" and _dte_status(document) in (dte_rules.PENDING, dte_rules.ACCEPTED):
        return DocumentStateError(
            "An El Salvador electronic tax document (DTE) is invalidated at the tax authority, not cancelled here: "
            "once accepted, POST /documents/{id}/invalidate.", code="DOCUMENT_NOT_CANCELLABLE")
    if action == "unconfirm" and document.get("dte"):  # a factura de sujeto excluido we issued: the authority has (or had) it
        return DocumentStateError(
            "An El Salvador electronic tax document (DTE) is not unconfirmed: once accepted, invalidate it "
            "(POST /documents/{id}/invalidate).", code="DOCUMENT_NOT_UNCONFIRMABLE")
    if action == "invalidate":
        return _invalidate(document)
    return None


def _invalidate(document: Mapping[str, Any]) -> Refusal:
    dte_status = _dte_status(document)
    if document["status"] != CONFIRMED or dte_status != dte_rules.ACCEPTED:
        return DocumentStateError(
            Phrase("Only a confirmed El Salvador document whose DTE the tax authority accepted can be invalidated; "
                   "this one is {}, its DTE {}.",
                   document['status'], dte_status) if dte_status else
                    Phrase("Only a confirmed El Salvador document whose DTE the tax authority accepted can be "
                           "invalidated; this one is {}.", document['status']))
    if manual.applies_windows(document.get("dte")):  # the Manual Funcional V2.0's window, as of now (the service reads the rest)
        refused = manual.refusal_now(document["dte"], clock.now(),
                                     countries.pack(dte_rules.DTE_COUNTRY).utc_offset_hours)
        if refused is not None:
            return refused
    return (manual.counted_blockers_refusal(document) or untouched(dict(document))
            or _receiver_refused(document))


def _receiver_refused(document: Mapping[str, Any]) -> Refusal:
    """The invalidation names the receiver as the DTE was issued to it: what its format refuses
    there, no request can mend (in the event of the DTE's own edition)."""
    problems = (dte_invalidation_event.receiver_problems(document) if manual.follows_manual(document.get("dte"))
                else dte_invalidation_event.legacy_receiver_problems(document))
    if not problems:
        return None
    details = [{"field": f"invalidation.{problem['field']}", "message": problem["message"]} for problem in problems]
    return ValidationFailed(Phrase("The tax authority's format refuses this invalidation: {}: {}",
                                   details[0]['field'], details[0]['message']), details=details)
