"""El Salvador's electronic tax documents (DTE), no I/O: which documents are DTEs, their
generation code and control number, what the tax authority receives, and the `dte` state a
transmission's outcome leaves on the document."""
from __future__ import annotations

import re
import uuid
from dataclasses import dataclass, field
from datetime import timedelta
from decimal import ROUND_HALF_UP, Decimal
from typing import Any, Mapping

from chalicelib.domain import taxes
from chalicelib.errors import ValidationFailed

PENDING, ACCEPTED, REJECTED, INVALIDATED = "pending", "accepted", "rejected", "invalidated"
# On a DTE's `dte`: the invalidation event sent (or about to be) and not yet answered.
PENDING_INVALIDATION = "pendingInvalidation"
DTE_COUNTRY = "SV"
# The authority receives a DTE issued normally within this of its issue (later: in contingency).
AUTHORITY_WINDOW = timedelta(hours=24)

# Our document type -> the authority's tipoDte. Both sales invoices are a "Factura" (01) for the
# authority, so they share one control-number sequence. Credit and debit notes are not DTEs
# here: the authority's notes (05, 06) correct a "Comprobante de crédito fiscal" (03), a type
# this service does not issue.
DTE_TYPES = {"01": "01", "113": "01"}
# A sale to a registered taxpayer (a customer with an NRC) is a "Comprobante de crédito fiscal":
# the buyer deducts its IVA. It keeps its own control-number sequence.
FACTURA, CREDITO_FISCAL, NOTA_CREDITO, NOTA_DEBITO = "01", "03", "05", "06"
# Our credit and debit notes of sales are the authority's notes (05, 06) when they correct a
# crédito fiscal; a note correcting a factura is not a DTE (the authority's notes correct only 03).
NOTE_TYPES = {"06": NOTA_CREDITO, "07": NOTA_DEBITO}

_CODIGO_GENERACION = re.compile(r"[0-9A-F]{8}-[0-9A-F]{4}-4[0-9A-F]{3}-[89AB][0-9A-F]{3}-[0-9A-F]{12}")
_NUMERO_CONTROL = re.compile(r"DTE-\d{2}-[A-Z0-9]{8}-\d{15}")
NUMERO_CONTROL_MAX = 10 ** 15 - 1


# A purchase (a purchase invoice or an expense) from a supplier who is not a registered taxpayer
# (no NRC) has no invoice of the supplier's: the buyer issues a "Factura de sujeto excluido" (14).
SUJETO_EXCLUIDO = "14"
EXCLUDED_SUBJECT_PURCHASES = ("103", "11")
# A withholding certificate (05) of the IVA we withheld from a supplier is a "Comprobante de
# retención" (07): it names the purchase (our 103 or 11, the supplier's document) it withholds from.
RETENCION = "07"
WITHHOLDING_CERTIFICATE = "05"
IVA_WITHHELD_FROM_SUPPLIER = {"tax": "iva", "side": "purchases"}
# A sales invoice to a customer abroad (a partner whose country is not SV) whose lines are all
# exports is a "Factura de exportación" (11): no IVA, the buyer's country and the export's terms.
EXPORTACION = "11"
# The authority's names of the DTE types (CAT-002), as printed and as the books and lists read them.
TITLES = {FACTURA: "Factura", CREDITO_FISCAL: "Comprobante de crédito fiscal", NOTA_CREDITO: "Nota de crédito",
          NOTA_DEBITO: "Nota de débito", SUJETO_EXCLUIDO: "Factura de sujeto excluido",
          RETENCION: "Comprobante de retención", EXPORTACION: "Factura de exportación"}


def issues_dte(company: Mapping[str, Any], document_type: str) -> bool:
    """Whether the type may be a DTE for the company (a note is one when its source is a 03, a
    purchase when its supplier has no NRC)."""
    return company.get("country") == DTE_COUNTRY and (
        document_type in DTE_TYPES or document_type in NOTE_TYPES or document_type in EXCLUDED_SUBJECT_PURCHASES
        or document_type == WITHHOLDING_CERTIFICATE)


def new_codigo_generacion() -> str:
    return check_codigo_generacion(str(uuid.uuid4()).upper())


def is_codigo_generacion(value: Any) -> bool:
    """An uppercase UUID version 4 (RFC 4122 variant), as the authority requires."""
    return isinstance(value, str) and _CODIGO_GENERACION.fullmatch(value) is not None


def check_codigo_generacion(value: Any) -> str:
    if not is_codigo_generacion(value):
        raise ValueError(f"codigoGeneracion must be an uppercase UUID v4, not {value!r}")
    return str(value)


def point_of_sale(document_number: str) -> str:
    """The establishment and point of sale (4 + 4 digits) of a document number EEE-PPP-TT-NNNNNNNN:
    each keeps its own control-number sequence per DTE type."""
    establishment, point = document_number.split("-")[:2]
    return f"{establishment:0>4}{point:0>4}"


def numero_control(tipo_dte: str, document_number: str, sequence: int, establishment_type: str | None = None) -> str:
    """DTE-{tipoDte}-{establishment and point of sale, 4 + 4}-{15-digit sequence}; the
    establishment and emission point come from the document's number (EEE-PPP-TT-NNNNNNNN). With
    the establishment's type (CAT-009), the 2026 formats' DTE-{tipoDte}-XEEEPPPP-{sequence}: X its
    letter (establishment_codes)."""
    if not 1 <= sequence <= NUMERO_CONTROL_MAX:
        raise ValueError(f"the control number sequence must be within 1..{NUMERO_CONTROL_MAX}")
    place = point_of_sale(document_number) if establishment_type is None else \
        "".join(establishment_codes(document_number, establishment_type))
    value = f"DTE-{tipo_dte}-{place}-{sequence:015d}"
    if not is_numero_control(value):
        raise ValueError(f"not a control number: {value}")
    return value


# CAT-009's establishment types and the letter the 2026 formats give each in numeroControl and
# codEstable; 20 ("otro") has none, so a DTE of such an establishment cannot be issued in 2026.
ESTABLISHMENT_LETTERS = {"02": "M", "01": "S", "04": "B", "07": "P"}
OTHER_ESTABLISHMENT = "20"


def establishment_type(settings: Mapping[str, Any] | None, document_number: str) -> tuple[str, str]:
    """The CAT-009 type of the establishment a document number (EEE-PPP-...) is issued at, with the
    setting that says it: its entry in dteIssuer.establishments (by code EEE), else the company's
    dteIssuer.establishmentType (head office, 02, when unset)."""
    settings = settings or {}
    code = document_number.split("-")[0].zfill(3)
    for index, entry in enumerate(settings.get("establishments") or []):
        if str(entry.get("code", "")).zfill(3) == code:
            return str(entry.get("type")), f"dteIssuer.establishments[{index}].type"
    return str(settings.get("establishmentType") or "02"), "dteIssuer.establishmentType"


def checked_establishment_type(settings: Mapping[str, Any] | None, document_number: str,
                               setting: str | None = None) -> str:
    """The establishment's type (CAT-009) as the 2026 formats need it, refused (a 400 naming the
    setting, or `setting`) when it is one they have no letter for."""
    kind, named = establishment_type(settings, document_number)
    setting = setting or named
    if kind not in ESTABLISHMENT_LETTERS:
        raise ValidationFailed.for_field(setting, "the 2026 DTE formats name an establishment head office (02), "
                                                  "branch (01), warehouse (04) or yard (07): set this "
                                                  "establishment's type")
    return kind


def checked_2026_establishment_types(settings: Mapping[str, Any]) -> None:
    """The issuer's settings refused (a 400 naming the setting) when they issue in the 2026 formats
    (formats2026From set) with an establishment type those formats have no letter for, rather than
    at the first DTE of that establishment."""
    if not settings.get("formats2026From"):
        return
    for index, entry in enumerate(settings.get("establishments") or []):
        checked_establishment_type({"establishments": [entry]}, f"{entry.get('code', '000')}-000",
                                   f"dteIssuer.establishments[{index}].type")
    checked_establishment_type({"establishmentType": settings.get("establishmentType")}, "000-000")


def establishment_codes(document_number: str, establishment_type: str) -> tuple[str, str]:
    """The 2026 formats' codEstable ("M001": the type's letter and the establishment EEE) and
    codPuntoVenta ("P001": P and the point of sale PPP) of a document number EEE-PPP-..."""
    establishment, point = document_number.split("-")[:2]
    letter = ESTABLISHMENT_LETTERS.get(establishment_type)
    if letter is None:
        raise ValueError(f"establishment type {establishment_type!r} has no letter in the 2026 formats")
    return f"{letter}{int(establishment):03d}", f"P{int(point):03d}"


def is_numero_control(value: Any) -> bool:
    return isinstance(value, str) and _NUMERO_CONTROL.fullmatch(value) is not None


@dataclass(frozen=True)
class DteResult:
    """The authority's answer to one transmission."""
    accepted: bool
    received_at: str
    sello_recepcion: str | None = None
    observations: list[str] = field(default_factory=list)
    # the answer's fields as the authority wrote them (estado, selloRecibido, fhProcesamiento...):
    # handed to the receiver with the DTE (countries/sv/services/dte_delivery.py)
    answer: dict[str, Any] = field(default_factory=dict)


def check_export(partner: Mapping[str, Any], lines: list[dict[str, Any]]) -> None:
    """Refuses a sales invoice with export lines that cannot be a factura de exportación: an
    export invoice carries export lines only, to a customer abroad."""
    exported = [taxes.treatment_of(line) == taxes.EXPORT for line in lines]
    if not any(exported):
        return
    if not all(exported):
        raise ValidationFailed.for_field("lines", "an El Salvador export invoice (DTE 11) carries export lines only: "
                                                  "issue the taxed, exempt or non-subject lines on an invoice of "
                                                  "their own")
    if not is_abroad(partner):
        raise ValidationFailed.for_field("businessPartnerId", "an export sale is to a customer abroad: set the "
                                                              "customer's country (ISO 3166 code, not SV)")


def is_abroad(partner: Mapping[str, Any]) -> bool:
    return bool(partner.get("country")) and partner["country"] != DTE_COUNTRY


def tipo_dte(document_type: str, partner: Mapping[str, Any], source: Mapping[str, Any] | None = None,
             withholding: dict[str, Any] | None = None, lines: list[dict[str, Any]] | None = None,
             chosen: str | None = None) -> str | None:
    """The authority's type of one of our documents, None when it is not a DTE: a sales invoice
    is the factura or crédito fiscal the seller `chosen` (its `dteType`), else, left out, a crédito
    fiscal to a customer with an NRC and a factura to anyone else; a note is the authority's
    note when it corrects a crédito fiscal; a purchase from a supplier without an NRC is a
    factura de sujeto excluido; a certificate of IVA withheld from a supplier, a comprobante de
    retención; a sales invoice of export lines to a customer abroad, a factura de exportación."""
    if document_type in NOTE_TYPES:
        corrects = ((source or {}).get("dte") or {}).get("tipoDte")
        return NOTE_TYPES[document_type] if corrects == CREDITO_FISCAL else None
    if document_type in EXCLUDED_SUBJECT_PURCHASES:
        return None if partner.get("nrc") else SUJETO_EXCLUIDO
    if document_type == WITHHOLDING_CERTIFICATE:
        return RETENCION if withholding == IVA_WITHHELD_FROM_SUPPLIER else None
    tipo = DTE_TYPES[document_type]
    if lines and is_abroad(partner) and all(taxes.treatment_of(line) == taxes.EXPORT for line in lines):
        if chosen is not None:
            raise ValidationFailed.for_field("dteType", "an export sale is a factura de exportación (DTE 11): leave "
                                                        "the DTE type out")
        return EXPORTACION
    if chosen == CREDITO_FISCAL and not partner.get("nrc"):
        raise ValidationFailed.for_field("dteType", "a comprobante de crédito fiscal (03) is issued to a registered "
                                                    "taxpayer: set the customer's nrc or choose 01")
    if chosen is not None:
        return chosen
    return CREDITO_FISCAL if tipo == FACTURA and partner.get("nrc") else tipo


def pending_dte(tipo: str, codigo_generacion: str, numero: str, version: int | None = None) -> dict[str, Any]:
    """The document's `dte` at confirmation, with the version of the format it is issued in (kept:
    delivery, printing and invalidation read the DTE in its own); the issuing service adds the
    issuer and receiver as they were then (a later retransmission sends what was issued, not the
    parties as edited since). No version: the legacy edition's, as of a DTE issued before versions
    were kept."""
    return {"status": PENDING, "tipoDte": tipo, **({"version": version} if version is not None else {}),
            "codigoGeneracion": codigo_generacion, "numeroControl": numero, "observations": [], "attempts": 0}


def answered(dte: dict[str, Any], result: DteResult) -> dict[str, Any]:
    """The `dte` once the authority answered: accepted with its seal, or rejected with its
    observations."""
    if result.accepted and not result.sello_recepcion:
        raise ValueError("an accepted DTE carries the authority's selloRecepcion")
    answer = {**_attempted(dte, result.received_at), "status": ACCEPTED if result.accepted else REJECTED,
              "observations": list(result.observations), "transmittedAt": result.received_at}
    answer.pop("lastError", None)
    if result.accepted:
        answer.update(selloRecepcion=result.sello_recepcion, acceptedAt=result.received_at)
    return answer


def unanswered(dte: dict[str, Any], error: str, at: str) -> dict[str, Any]:
    """The `dte` after a transmission that got no answer (timeout, authority down): still
    pending, to be sent again."""
    return {**_attempted(dte, at), "status": PENDING, "lastError": error[:500]}


def _attempted(dte: dict[str, Any], at: str) -> dict[str, Any]:
    if dte.get("status") != PENDING:
        raise ValueError(f"only a pending DTE is transmitted; this one is {dte.get('status')}")
    return {**dte, "attempts": int(dte.get("attempts", 0)) + 1, "lastAttemptAt": at}


# issue 40: returns (the return event's name, CAT-002 18, as printed and as the books read it)
TITLES["18"] = "Evento de retorno"

# What every DTE's JSON shares (dte_json.py builds the sales documents; dte_fex.py, dte_return.py
# and dte_purchases.py their own types): the catalogues' codes and the amounts' places.
UNIT, GOODS, SERVICES, BOTH = 59, 1, 2, 3   # CAT-014 unit (59: unidad), CAT-011 item types
CASH, CREDIT = 1, 2                         # CAT-016 condicionOperacion
CENTS, PRICE = Decimal("0.01"), Decimal("0.00000001")   # amounts; a unit price's 8 places


def observations(document: Mapping[str, Any]) -> str | None:
    """A 2026 DTE's resumen.observaciones: the document's notes (up to the formats' 3,000
    characters), as sales_body sends them."""
    return str(document.get("notes") or "")[:3000] or None


# issue 40: fixa
def item_price(sale: Decimal, discount: Decimal, quantity: Decimal) -> Decimal:
    """A 2026 factura's (and return event's) precioUni: the line's amount with its discount back,
    per unit, to 8 decimals half up (the manual's rounding, section XXI), so that cantidad x
    precioUni - montoDescu is the line's amount within the authority's 0.01 per line (its holgura,
    pp. 53-54). The price x 1.13 rounded on its own drifts: 1 x 3.805 is 3.81 + 0.50 IVA = 4.31 sold,
    against 3.805 x 1.13 = 4.29965."""
    if not quantity:
        return Decimal(0)
    return ((sale + discount) / quantity).quantize(PRICE, rounding=ROUND_HALF_UP)
