"""The DTEs of purchases in the authority's 2026 edition, no I/O: the factura de sujeto excluido
(14, fe-fse-v2) the buyer issues for a purchase from someone not registered for IVA, and the
comprobante de retención (07, fe-cr-v2) certifying the IVA withheld from a supplier. Each is
built from the stored document as its legacy format is (dte_json.sales_body, dte_json.withheld):
what a DTE says is chosen when it is issued; only the fields and their names follow the version.

fe-fse-v2 keeps fe-fse-v1's lines and summary without `ivaRete1`. fe-cr-v2 names the document
withheld from by `tipoGeneracion` + `numeroDocumento` (v1's `tipoDoc` + `numDocumento`), states
the IVA generated at 13 % beside the IVA withheld (`totalIva`, `totalIvaRetenido`, `totalLetras`,
the amount withheld in words) and takes `identificacion.fusion` (null: the issuer absorbed no
company, Manual Funcional V2.0 section XIV)."""
from __future__ import annotations

from decimal import Decimal
from typing import Any, Mapping

from chalicelib.countries.sv.domain.dte import SUJETO_EXCLUIDO
from chalicelib.countries.sv.domain.dte_formats import EDITION_2026, version_of
from chalicelib.countries.sv.domain.dte_json import _CENTS, _declared, sales_body
from chalicelib.domain.amount_words import amount_in_words

IVA_RATE = Decimal("0.13")  # El Salvador's one IVA rate: what a retention's base generates


def excluded_subject_purchase(document: Mapping[str, Any], identification: dict[str, Any]) -> dict[str, Any]:
    """The whole fe-fse-v2 document of a confirmed purchase from a supplier without an NRC."""
    dte, version = document["dte"], version_of(SUJETO_EXCLUIDO, EDITION_2026)
    items, summary = sales_body(document, SUJETO_EXCLUIDO, dte.get("items"))
    return _declared(SUJETO_EXCLUIDO, None, {
        "identificacion": identification, "emisor": dte["emisor"], "receptor": dte["receptor"],
        "cuerpoDocumento": [_declared(SUJETO_EXCLUIDO, "cuerpoDocumento", item, version) for item in items],
        "resumen": _declared(SUJETO_EXCLUIDO, "resumen", summary, version), "apendice": None}, version)


def retention(document: Mapping[str, Any], identification: dict[str, Any]) -> dict[str, Any]:
    """The whole fe-cr-v2 document of a confirmed certificate of IVA withheld from a supplier: the
    purchase withheld from (its `dte.related`), the base, the IVA it generated and the IVA withheld."""
    dte = document["dte"]
    related = dte["related"]
    base, withheld = Decimal(related["montoSujetoGrav"]), Decimal(related["ivaRetenido"])
    # a certificate stored before the purchase's own IVA was kept with it: the base at 13 %
    generated = Decimal(related["ivaGenerado"]) if related.get("ivaGenerado") is not None else \
        (base * IVA_RATE).quantize(_CENTS)
    item = {"numItem": 1, "tipoDte": related["tipoDte"], "tipoGeneracion": int(related["tipoDoc"]),
            "numeroDocumento": related["numDocumento"], "fechaEmision": related["fechaEmision"],
            "montoSujetoGrav": base, "codigoRetencionMH": related["codigoRetencionMH"], "ivaRetenido": withheld,
            "descripcion": related.get("descripcion")}
    return {"identificacion": {**identification, "fusion": identification.get("fusion")}, "emisor": dte["emisor"],
            "receptor": dte["receptor"], "cuerpoDocumento": [item],
            "resumen": {"totalSujetoRetencion": base, "totalIva": generated, "totalIvaRetenido": withheld,
                        "totalLetras": amount_in_words(withheld, "USD"), "observaciones": None},
            "apendice": None}

