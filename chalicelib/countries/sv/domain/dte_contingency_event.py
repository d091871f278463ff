"""The contingency event in the edition the company issues in at the event's date: the legacy
contingencia-schema-v3 (`contingency_event_v3`) or the 2026 contingencia-schema-v4 built here;
and how DTEs waiting for an event are split into events. No I/O.

contingencia-schema-v4 against v3: the emisor names the establishment by its type (CAT-009, a
catalogue code the schema no longer enumerates) and by the codes the Ministerio assigned it,
`codEstableMH` and `codPuntoVentaMH`, both required and nullable (4 characters when given); the
taxpayer's own `codPuntoVenta` is gone. The company has no codes from the Ministerio: both are
sent null, as the legacy DTEs send `codEstableMH`. Either edition lists 1 to 1,000 DTEs, each by
its code and type, of whatever edition each DTE was issued in (the event reports codes, not formats)."""
from __future__ import annotations

from typing import Any, Mapping, Sequence, TypeVar

from chalicelib.countries.sv.domain import dte as dte_rules
from chalicelib.countries.sv.domain import dte_formats, dte_json

# DTEs per event: contingencia-schema-v3 and v4 both list at most 1,000 (detalleDTE maxItems)
MAX_DTES = 1000
Document = TypeVar("Document", bound=Mapping[str, Any])


def version_for(company: Mapping[str, Any], date: str) -> int:
    """The version of the contingency event the company sends on `date`: v4 from the date it issues
    in the 2026 edition (dteIssuer.formats2026From), v3 before."""
    return dte_formats.version_of(dte_formats.CONTINGENCY, dte_formats.edition_for(company, date))


def declared_issuer(company: Mapping[str, Any]) -> dict[str, Any]:
    """What an event says of its issuer, in the company's shape, as the company's settings are when
    the event is declared: kept with the declaration, so the event sent again after a settings
    change is the same event under its code (the authority refuses another one under it)."""
    settings = company.get("dteIssuer") or {}
    return {"taxId": company.get("taxId"), "name": company.get("name"), "phone": company.get("phone"),
            "email": company.get("email"),
            # the settings as set (one unset keeps the builders' default)
            "dteIssuer": {name: settings[name] for name in ("responsible", "establishmentType", "establishments")
                          if settings.get(name) is not None}}


def in_events(documents: Sequence[Document], size: int = MAX_DTES) -> list[list[Document]]:
    """The DTEs to report, split into events: one establishment's per event (the event's emisor
    names one establishment), at most `size` each, in the order given."""
    by_establishment: dict[str, list[Document]] = {}
    for document in documents:
        by_establishment.setdefault(establishment_of(document), []).append(document)
    return [group[start:start + size] for group in by_establishment.values() for start in range(0, len(group), size)]


def establishment_of(document: Mapping[str, Any]) -> str:
    """The establishment (EEE) of a document number EEE-PPP-TT-NNNNNNNN."""
    return (document.get("number") or "000-000").split("-")[0]


def contingency_event(company: Mapping[str, Any], documents: Sequence[Mapping[str, Any]], codigo: str, date: str,
                      time: str, ambiente: str = "00", version: int | None = None) -> dict[str, Any]:
    """The event reporting `documents` (one establishment's, at most MAX_DTES), in `version` (None:
    the one the company sends on `date`)."""
    version = version_for(company, date) if version is None else int(version)
    if dte_formats.edition_of(dte_formats.CONTINGENCY, version) == dte_formats.LEGACY:
        return contingency_event_v3(company, list(documents), codigo, date, time, ambiente)
    return contingency_event_v4(company, documents, codigo, date, time, ambiente)


def contingency_event_v4(company: Mapping[str, Any], documents: Sequence[Mapping[str, Any]], codigo: str,
                         date: str, time: str, ambiente: str = "00") -> dict[str, Any]:
    """contingencia-schema-v4: the issuer's establishment that could not transmit, its responsible
    person (dteIssuer.responsible), each DTE by code and type, and the contingency from the first
    DTE's issue to the event."""
    settings = company.get("dteIssuer") or {}
    responsible = settings.get("responsible") or {}
    first = min(documents, key=lambda document: (document["date"], document["dte"]["horEmi"]))
    version = dte_formats.version_of(dte_formats.CONTINGENCY, dte_formats.EDITION_2026)
    return {"identificacion": {"version": version, "ambiente": ambiente, "codigoGeneracion": codigo,
                               "fTransmision": date, "hTransmision": time},
            "emisor": {"nit": dte_json.digits(company.get("taxId")), "nombre": company.get("name"),
                       "nombreResponsable": responsible.get("name"),
                       "tipoDocResponsable": responsible.get("documentType"),
                       "numeroDocResponsable": responsible.get("documentNumber"),
                       # CAT-009: dteIssuer.establishments' entry for the establishment, else the company's type
                       "tipoEstablecimiento": dte_rules.establishment_type(settings, first.get("number") or "000")[0],
                       "codEstableMH": None, "codPuntoVentaMH": None,
                       "telefono": company.get("phone"), "correo": company.get("email")},
            "detalleDTE": [{"noItem": number, "codigoGeneracion": document["dte"]["codigoGeneracion"],
                            "tipoDoc": document["dte"]["tipoDte"]} for number, document in enumerate(documents, start=1)],
            "motivo": {"fInicio": first["date"], "fFin": date, "hInicio": first["dte"]["horEmi"], "hFin": time,
                       "tipoContingencia": int(first["dte"]["contingency"]["type"]), "motivoContingencia": None}}


def contingency_event_v3(company: Mapping[str, Any], documents: list[Mapping[str, Any]], codigo: str, date: str,
                      time: str, ambiente: str = "00") -> dict[str, Any]:
    """The contingency event (contingencia-schema-v3) reporting DTEs issued while the authority
    could not receive them: the issuer, its responsible person (the company's
    dteIssuer.responsible), each DTE by its code and type, and the contingency from the first
    DTE's issue to now."""
    settings = company.get("dteIssuer") or {}
    responsible = settings.get("responsible") or {}
    first = min(documents, key=lambda document: (document["date"], document["dte"]["horEmi"]))
    establishment, point = (first.get("number") or "000-000").split("-")[:2]
    contingency_type = int(first["dte"]["contingency"]["type"])
    return {"identificacion": {"version": dte_formats.version_of(dte_formats.CONTINGENCY), "ambiente": ambiente, "codigoGeneracion": codigo,
                               "fTransmision": date, "hTransmision": time},
            "emisor": {"nit": dte_json.digits(company.get("taxId")), "nombre": company.get("name"),
                       "nombreResponsable": responsible.get("name"), "tipoDocResponsable": responsible.get("documentType"),
                       "numeroDocResponsable": responsible.get("documentNumber"),
                       "tipoEstablecimiento": settings.get("establishmentType", "02"), "codEstableMH": None,
                       "codPuntoVenta": f"{establishment:0>4}{point:0>4}"[-15:],
                       "telefono": company.get("phone"), "correo": company.get("email")},
            "detalleDTE": [{"noItem": number, "codigoGeneracion": document["dte"]["codigoGeneracion"],
                            "tipoDoc": document["dte"]["tipoDte"]} for number, document in enumerate(documents, start=1)],
            "motivo": {"fInicio": first["date"], "fFin": date, "hInicio": first["dte"]["horEmi"], "hFin": time,
                       "tipoContingencia": contingency_type, "motivoContingencia": None}}
