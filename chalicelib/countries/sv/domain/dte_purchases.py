"""The comprobante de retención (07) in the authority's 2026 edition, fe-cr-v2, no I/O: the
certificate of the IVA withheld from a supplier, built from the stored document as fe-cr-v1 is
(its `dte.related`, dte_json.withheld): what it says was chosen when it was issued; only the
fields and their names follow the version. (The factura de sujeto excluido's fe-fse-v2 is
fe-fse-v1's lines and summary without `ivaRete1`: dte_json.authority_document builds it by the
DTE's version like the sales formats.)

fe-cr-v2 names the document
withheld from by `tipoGeneracion` + `numeroDocumento` (v1's `tipoDoc` + `numDocumento`), states
the IVA generated at 13 % beside the IVA withheld (`totalIva`, `totalIvaRetenido`, `totalLetras`,
the amount withheld in words) and takes `identificacion.fusion` (null: the issuer absorbed no
company, Manual Funcional V2.0 section XIV)."""
from __future__ import annotations

from decimal import Decimal
from typing import Any, Mapping

from chalicelib.countries.sv.domain.dte import CENTS, observations
from chalicelib.domain.amount_words import amount_in_words

IVA_RATE = Decimal("0.13")  # El Salvador's one IVA rate: what a retention's base generates


def retention(document: Mapping[str, Any], identification: dict[str, Any]) -> dict[str, Any]:
    """The whole fe-cr-v2 document of a confirmed certificate of IVA withheld from a supplier: the
    purchase withheld from (its `dte.related`), the base, the IVA it generated and the IVA withheld."""
    dte = document["dte"]
    related = dte["related"]
    base, withheld = Decimal(related["montoSujetoGrav"]), Decimal(related["ivaRetenido"])
    # a certificate stored before the purchase's own IVA was kept with it: the base at 13 %
    generated = Decimal(related["ivaGenerado"]) if related.get("ivaGenerado") is not None else \
        (base * IVA_RATE).quantize(CENTS)
    item = {"numItem": 1, "tipoDte": related["tipoDte"], "tipoGeneracion": int(related["tipoDoc"]),
            "numeroDocumento": related["numDocumento"], "fechaEmision": related["fechaEmision"],
            "montoSujetoGrav": base, "codigoRetencionMH": related["codigoRetencionMH"], "ivaRetenido": withheld,
            "descripcion": related.get("descripcion")}
    return {"identificacion": {**identification, "fusion": identification.get("fusion")}, "emisor": dte["emisor"],
            "receptor": dte["receptor"], "cuerpoDocumento": [item],
            "resumen": {"totalSujetoRetencion": base, "totalIva": generated, "totalIvaRetenido": withheld,
                        "totalLetras": amount_in_words(withheld, "USD"),
                        "observaciones": observations(document)},
            "apendice": None}

