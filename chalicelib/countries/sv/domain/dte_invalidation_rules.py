"""When the Manual Funcional del Sistema de Transmisión V2.0 (Ministerio de Hacienda, May 2026,
section VII, printed pages 9-17) lets a DTE or event be invalidated, no I/O: the motives
(CAT-024), which document types are replaced before their invalidation and which after, the
documents that must be invalidated first, the windows counted from the seal (business days by
business_days.py) and the date the event carries. Each refusal is an ApiError the service raises
before anything is sent and dte_actions answers as `allowedActions`."""
from __future__ import annotations

import datetime as dt
from typing import Any, Iterable, Mapping

from chalicelib.countries.sv.domain import business_days, dte_formats
from chalicelib.countries.sv.domain.dte import (
    CREDITO_FISCAL,
    EXPORTACION,
    FACTURA,
    NOTA_CREDITO,
    NOTA_DEBITO,
    RETENCION,
    SUJETO_EXCLUIDO,
)
from chalicelib.domain.schedules import add_months
from chalicelib.errors import ApiError
from chalicelib.messages.phrases import Phrase

# CAT-024, the motive (tipoAnulacion): 1 an error in the DTE, 2 the operation rescinded, 3 another (page 13)
ERROR, RESCINDED, OTHER = 1, 2, 3
MOTIVES = (ERROR, RESCINDED, OTHER)
# CAT-002 types this service does not issue, which the manual's rules name
NOTA_REMISION, LIQUIDACION, DOCUMENTO_LIQUIDACION, DONACION = "04", "08", "09", "15"
OPERACIONES_ESPECIALES, RETORNO = "17", "18"
TYPES = (FACTURA, CREDITO_FISCAL, NOTA_REMISION, NOTA_CREDITO, NOTA_DEBITO, RETENCION, LIQUIDACION,
         DOCUMENTO_LIQUIDACION, EXPORTACION, SUJETO_EXCLUIDO, DONACION, OPERACIONES_ESPECIALES, RETORNO)
# Page 13: motives 1 and 3 need the replacement issued and sealed first (its code in codigoGeneracionR),
# except for these, invalidated first and issued again after (codigoGeneracionR null; pages 15-17).
INVALIDATED_BEFORE_REISSUE = frozenset({NOTA_CREDITO, LIQUIDACION, OPERACIONES_ESPECIALES, RETORNO})
# Page 11: within three months of the seal; the others by the 10th business day of the next month.
THREE_MONTHS = frozenset({FACTURA, EXPORTACION, SUJETO_EXCLUIDO})
# Pages 14-17: a validated document of these types against it is invalidated first.
BLOCKED_BY = {CREDITO_FISCAL: frozenset({NOTA_CREDITO, NOTA_DEBITO}), RETENCION: frozenset({NOTA_CREDITO, NOTA_DEBITO}),
              FACTURA: frozenset({RETORNO}), EXPORTACION: frozenset({RETORNO}), SUJETO_EXCLUIDO: frozenset({RETORNO})}
BUSINESS_DAYS_NEXT_MONTH = 10
REASON_LENGTH = 200  # invalidacion-schema-v3's motivoAnulacion (anulacion-schema-v2 took 250)
LAST_SECOND = dt.time(23, 59, 59)


def follows_manual(dte: Mapping[str, Any] | None) -> bool:
    """Whether a stored DTE is invalidated by all these rules: one issued in the 2026 edition. A
    legacy DTE keeps its anulacion v2 event and its replacement rules, but the authority applies
    the windows and the blocking documents to it too (`applies_windows`)."""
    return dte is not None and "tipoDte" in dte and dte_formats.dte_edition(dte) == dte_formats.EDITION_2026


def applies_windows(dte: Mapping[str, Any] | None) -> bool:
    """Whether the windows and blocking documents apply: to any DTE the authority sealed, whatever
    its edition (the manual applies by the event's transmission date, not the DTE's schema)."""
    return dte is not None and "tipoDte" in dte


def needs_replacement(tipo_dte: str, motive: int) -> bool:
    """Whether the event names the document that replaces it (issued and sealed first): motives 1
    and 3, but not for the types invalidated first; motive 2 never (page 13)."""
    return motive != RESCINDED and tipo_dte not in INVALIDATED_BEFORE_REISSUE


def replacement_refusal(tipo_dte: str, motive: int, replacement_given: bool) -> ApiError | None:
    if needs_replacement(tipo_dte, motive) and not replacement_given:
        return ApiError(Phrase("Motive {} invalidates a DTE of type {} only once the document that replaces it is "
                               "issued and accepted: name that document.", motive, tipo_dte),
                        code="DTE_INVALIDATION_REPLACEMENT_REQUIRED",
                        details=[{"field": "replacementDocumentId", "message": "required: issue the replacement first"}])
    if replacement_given and motive == RESCINDED:
        return ApiError("A rescinded operation (motive 2) is invalidated without a replacing document.",
                        code="DTE_INVALIDATION_REPLACEMENT_NOT_ALLOWED",
                        details=[{"field": "replacementDocumentId", "message": "must be null for motive 2"}])
    if replacement_given and not needs_replacement(tipo_dte, motive):
        return ApiError(Phrase("A DTE of type {} is invalidated first and issued again after: its invalidation names "
                               "no replacing document.", tipo_dte), code="DTE_INVALIDATION_REPLACEMENT_NOT_ALLOWED",
                        details=[{"field": "replacementDocumentId",
                                  "message": Phrase("must be null for a DTE of type {}", tipo_dte)}])
    return None


def blockers(tipo_dte: str, related: Iterable[Mapping[str, Any]]) -> list[Mapping[str, Any]]:
    """Of the documents issued against the DTE (each with its `tipoDte` and its DTE `status`), those
    the authority validated that must be invalidated before it."""
    blocking = BLOCKED_BY.get(tipo_dte, frozenset())
    return [document for document in related if document["tipoDte"] in blocking and document["status"] == "accepted"]


def blocked_refusal(tipo_dte: str, related: Iterable[Mapping[str, Any]]) -> ApiError | None:
    found = blockers(tipo_dte, related)
    if not found:
        return None
    names = ", ".join(_name(document) for document in found)
    return ApiError(Phrase("Documents the tax authority validated against this DTE must be invalidated first: {}.",
                           names),
                    code="DTE_INVALIDATION_BLOCKED",
                    details=[{"field": "documentId", "documentId": document.get("id"),
                              "message": Phrase("invalidate DTE {} {} first", document['tipoDte'], _name(document))}
                             for document in found])


def counted_blockers_refusal(document: Mapping[str, Any]) -> ApiError | None:
    """What the document alone says of the documents validated against it (`allowedActions`, no
    read): a credit note counts in its `creditedTotal` (refused by the core), a debit note in its
    `validatedDebitNotes` (countries/sv/services/dte.py `count_validated_debit_note`)."""
    tipo = (document.get("dte") or {}).get("tipoDte")
    notes = int(document.get("validatedDebitNotes") or 0)
    if NOTA_DEBITO not in BLOCKED_BY.get(str(tipo), frozenset()) or notes <= 0:
        return None
    return ApiError(Phrase("{} debit note(s) the tax authority validated against this DTE must be invalidated first.",
                           notes),
                    code="DTE_INVALIDATION_BLOCKED",
                    details=[{"field": "validatedDebitNotes", "message": "invalidate its debit notes first"}])


def _name(document: Mapping[str, Any]) -> str:
    return str(document.get("number") or document.get("codigoGeneracion"))


def deadline(tipo_dte: str, sealed_at: dt.datetime) -> dt.datetime:
    """The last moment (El Salvador's time) the event may be transmitted, from the DTE's seal. Page
    11's table: an FE, FEX or FSE within three months of the seal; the rest by 23:59:59 of the 10th
    business day of the month after the seal's."""
    sealed = sealed_at.date()
    if tipo_dte in THREE_MONTHS:
        last_day = add_months(sealed, 3)  # 30 November + 3 months: 28 February (page 12)
    else:
        year, month = (sealed.year + 1, 1) if sealed.month == 12 else (sealed.year, sealed.month + 1)
        last_day = business_days.nth_business_day(year, month, BUSINESS_DAYS_NEXT_MONTH)
    return dt.datetime.combine(last_day, LAST_SECOND)


def window_refusal(tipo_dte: str, sealed_at: dt.datetime, now: dt.datetime) -> ApiError | None:
    last = deadline(tipo_dte, sealed_at)
    if now <= last:
        return None
    details = [{"field": "dte.acceptedAt",
                "message": Phrase("sealed {}: the last moment was {}",
                                  sealed_at.isoformat(sep=' '), last.isoformat(sep=' '))}]
    if tipo_dte in THREE_MONTHS:
        return ApiError(Phrase("A DTE of type {} is invalidated within three months of its seal: the time ended {} at "
                               "23:59:59.", tipo_dte, last.date().isoformat()), code="DTE_INVALIDATION_WINDOW_CLOSED",
                        details=details)
    return ApiError(Phrase("A DTE of type {} is invalidated by the 10th business day of the month after its seal: the "
                           "time ended {} at 23:59:59.",
                           tipo_dte, last.date().isoformat()), code="DTE_INVALIDATION_WINDOW_CLOSED",
                    details=details)


def event_moment(tipo_dte: str, generated_on: str, generated_at: str, now: dt.datetime) -> tuple[str, str]:
    """The event's fecEmi and horEmi (page 11, second table): an FE, FEX or FSE's event carries its
    own date, at most three months after the DTE's generation date; every other type's carries the
    DTE's generation date itself (and here its time, so the event never predates the DTE)."""
    generated = dt.date.fromisoformat(generated_on)
    if tipo_dte in THREE_MONTHS:
        latest = add_months(generated, 3)
        if now.date() <= latest:
            return now.date().isoformat(), now.strftime("%H:%M:%S")
        return latest.isoformat(), LAST_SECOND.strftime("%H:%M:%S")
    return generated_on, generated_at


def local(moment: dt.datetime, utc_offset_hours: int) -> dt.datetime:
    """A moment (aware, or naive UTC) as El Salvador's clocks show it, naive: the windows' time."""
    if moment.tzinfo is not None:
        moment = moment.astimezone(dt.timezone.utc).replace(tzinfo=None)
    return moment + dt.timedelta(hours=utc_offset_hours)


def sealed_at(dte: Mapping[str, Any], utc_offset_hours: int) -> dt.datetime:
    """When the authority sealed the DTE, in El Salvador's time (its `acceptedAt` is UTC)."""
    return local(dt.datetime.fromisoformat(str(dte["acceptedAt"]).replace("Z", "+00:00")), utc_offset_hours)


def refusal_now(dte: Mapping[str, Any], now: dt.datetime, utc_offset_hours: int) -> ApiError | None:
    """What the document alone says against invalidating its accepted 2026 DTE at `now` (aware or
    naive UTC): its window (documents against it are read by the service). A DTE whose seal's time
    was never recorded is left to the authority's judgement."""
    if not dte.get("acceptedAt"):
        return None
    return window_refusal(dte["tipoDte"], sealed_at(dte, utc_offset_hours), local(now, utc_offset_hours))
