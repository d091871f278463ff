"""The invalidation event of a DTE, no I/O: of one issued in the 2026 edition
invalidacion-schema-v3 (the Manual Funcional V2.0's event), of a legacy one anulacion-schema-v2
(`legacy_event`): the event follows the DTE it concerns (dte_formats.dte_edition).

What v3 changes against v2: identificacion carries the event's date and time as fecEmi/horEmi
(dte_invalidation_rules.event_moment chooses them) and `fusion` (null: this service does not
issue for merged taxpayers); the emisor names its establishment and point of sale by the
authority's codes and its own (no nomEstablecimiento, no tipoEstablecimiento); the documento
loses montoIva and keeps the receiver's phone and e-mail as issued (null when the DTE had none)."""
from __future__ import annotations

import re
from decimal import Decimal
from typing import Any, Mapping

from chalicelib.countries.sv.domain import dte_formats
from chalicelib.countries.sv.domain.dte_json import NIT_DOCUMENT, digits

# The 2026 numeroControl: DTE-tt-XnnnPnnn-<15 digits>, X the establishment's type letter (CAT-009)
_NUMERO_CONTROL_2026 = re.compile(r"DTE-\d{2}-(?P<establishment>[MBSP]\d{3})(?P<point>P\d{3})-\d{15}")
VERSION = dte_formats.version_of(dte_formats.INVALIDATION, dte_formats.EDITION_2026)


def establishment_codes(dte: Mapping[str, Any]) -> tuple[str, str]:
    """The establishment ("M001") and point of sale ("P001") a 2026 DTE was issued from, as its
    numeroControl names them: the codes the authority registered the DTE under."""
    if dte.get("tipoDte") == dte_formats.RETORNO and dte.get("numeroControl") is None:  # issue 40: returns
        return dte["emisor"]["codEstable"], dte["emisor"]["codPuntoVenta"]  # an event has no numeroControl
    found = _NUMERO_CONTROL_2026.fullmatch(str(dte.get("numeroControl") or ""))
    if found is None:
        raise ValueError(f"{dte.get('numeroControl')!r} is not a 2026 numeroControl")
    return found["establishment"], found["point"]


def event(document: Mapping[str, Any], fields: Mapping[str, Any], codigo: str, date: str, time: str,
          replacement: Mapping[str, Any] | None, ambiente: str = "00") -> dict[str, Any]:
    """The event (invalidacion-schema-v3) invalidating the document's accepted 2026 DTE, dated
    `date` `time` (the rules' event moment), naming `replacement` (a DTE) when the motive takes one."""
    dte, issuer = document["dte"], document["dte"]["emisor"]
    receiver = dte.get("receptor") or {}
    establishment, point = establishment_codes(dte)

    def person(who: Mapping[str, Any]) -> tuple[str, str, str]:
        return who["name"], who["documentType"], who["documentNumber"]

    responsible, requester = person(fields["responsible"]), person(fields["requester"])
    return {"identificacion": {"version": VERSION, "ambiente": ambiente, "codigoGeneracion": codigo, "fecEmi": date,
                               "horEmi": time, "fusion": None},
            "emisor": {"nit": issuer["nit"], "nombre": issuer["nombre"],
                       "codEstableMH": establishment, "codEstable": establishment,
                       "codPuntoVentaMH": point, "codPuntoVenta": point,
                       "telefono": digits(issuer.get("telefono")) or None, "correo": issuer.get("correo")},
            "documento": {"tipoDte": dte["tipoDte"], "codigoGeneracion": dte["codigoGeneracion"],
                          "selloRecibido": dte.get("selloRecepcion"), "numeroControl": dte["numeroControl"],
                          "fecEmi": document["date"],
                          "codigoGeneracionR": (replacement or {}).get("codigoGeneracion"),
                          # page 13: null where the DTE named no receiver, else as it named it
                          "tipoDocumento": receiver.get("tipoDocumento") or (NIT_DOCUMENT if receiver.get("nit") else None),
                          "numDocumento": receiver.get("numDocumento") or receiver.get("nit"),
                          "nombre": receiver.get("nombre"), "telefono": digits(receiver.get("telefono")) or None,
                          "correo": receiver.get("correo")},
            "motivo": {"tipoAnulacion": int(fields["invalidationType"]), "motivoAnulacion": fields.get("reason"),
                       "nombreResponsable": responsible[0], "tipDocResponsable": responsible[1],
                       "numDocResponsable": responsible[2], "nombreSolicita": requester[0],
                       "tipDocSolicita": requester[1], "numDocSolicita": requester[2]}}


# Who stands in for the people of an invalidation when only what the DTE itself gives it is checked.
_SOMEONE = {"name": "Persona de prueba", "documentType": "13", "documentNumber": "00000000-0"}


def receiver_problems(document: Mapping[str, Any]) -> list[dict[str, str]]:
    """What invalidacion-schema-v3 refuses in the receiver as the 2026 DTE was issued to it (v3
    takes null where the DTE named none: page 13); checked with the event built around the DTE alone."""
    dte = document.get("dte") or {}
    if "emisor" not in dte:
        return [{"field": "documento", "message": "the DTE was issued without the authority's format"}]
    built = event(document, {"invalidationType": 2, "responsible": _SOMEONE, "requester": _SOMEONE},
                  "00000000-0000-4000-8000-000000000000", document["date"], "00:00:00", None)
    return [problem for problem in dte_formats.schema_problems(built, dte_formats.INVALIDATION)
            if problem["field"].startswith("documento.")]


# --- a legacy DTE's event (anulacion-schema-v2)

def legacy_event(document: Mapping[str, Any], fields: Mapping[str, Any], codigo: str, date: str, time: str,
                 replacement: Mapping[str, Any] | None, ambiente: str = "00",
                 establishment_type: str | None = None) -> dict[str, Any]:
    """The invalidation event (anulacion-schema-v2) of an accepted DTE: the issuer and the
    document as issued, its seal, and who invalidates it and why. `establishment_type`: the
    company's, for a DTE whose format names none (a factura de sujeto excluido)."""
    dte, issuer_ = document["dte"], document["dte"]["emisor"]
    receiver_ = dte["receptor"]
    establishment, point = (document.get("number") or "000-000").split("-")[:2]
    receiver_kind = receiver_.get("tipoDocumento") or (NIT_DOCUMENT if receiver_.get("nit") else None)

    def person(who: Mapping[str, Any]) -> dict[str, Any]:
        return {"nombre": who["name"], "tipDoc": who["documentType"], "numDoc": who["documentNumber"]}

    responsible, requester = person(fields["responsible"]), person(fields["requester"])
    return {"identificacion": {"version": 2, "ambiente": ambiente, "codigoGeneracion": codigo, "fecAnula": date,
                               "horAnula": time},
            "emisor": {"nit": issuer_["nit"], "nombre": issuer_["nombre"],
                       "tipoEstablecimiento": issuer_.get("tipoEstablecimiento") or establishment_type,
                       "nomEstablecimiento": issuer_.get("nombreComercial"), "codEstableMH": None,
                       "codEstable": f"{establishment:0>4}", "codPuntoVentaMH": None, "codPuntoVenta": f"{point:0>4}",
                       "telefono": digits(issuer_.get("telefono")) or None, "correo": issuer_["correo"]},
            "documento": {"tipoDte": dte["tipoDte"], "codigoGeneracion": dte["codigoGeneracion"],
                          "selloRecibido": dte.get("selloRecepcion"), "numeroControl": dte["numeroControl"],
                          "fecEmi": document["date"], "montoIva": Decimal(document.get("taxTotal") or 0),
                          "codigoGeneracionR": (replacement or {}).get("codigoGeneracion"),
                          "tipoDocumento": receiver_kind,
                          "numDocumento": receiver_.get("numDocumento") or receiver_.get("nit"),
                          "nombre": receiver_.get("nombre"), "telefono": digits(receiver_.get("telefono")) or None,
                          "correo": receiver_.get("correo")},
            "motivo": {"tipoAnulacion": int(fields["invalidationType"]), "motivoAnulacion": fields.get("reason"),
                       "nombreResponsable": responsible["nombre"], "tipDocResponsable": responsible["tipDoc"],
                       "numDocResponsable": responsible["numDoc"], "nombreSolicita": requester["nombre"],
                       "tipDocSolicita": requester["tipDoc"], "numDocSolicita": requester["numDoc"]}}


def legacy_receiver_problems(document: Mapping[str, Any]) -> list[dict[str, str]]:
    """What the invalidation format refuses in the receiver as the DTE was issued to it (a factura
    to an anonymous consumer lacks the document and e-mail it needs): no request can change it,
    so the document cannot be invalidated. Checked with the event built around the DTE alone."""
    dte = document.get("dte") or {}
    if "emisor" not in dte or "receptor" not in dte:
        return [{"field": "documento", "message": "the DTE was issued without the authority's format"}]
    event = legacy_event(document, {"invalidationType": 2, "responsible": _SOMEONE, "requester": _SOMEONE},
                         "00000000-0000-4000-8000-000000000000", document["date"], "00:00:00", None,
                         establishment_type="02")
    return [problem for problem in dte_formats.schema_problems(event, dte_formats.INVALIDATION) if problem["field"].startswith("documento.")]
