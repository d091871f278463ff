"""The Factura de exportación (DTE 11) in its published format, fe-fex-v1 (dte_schemas/, source in
dte_schemas/SOURCES.md), no I/O. An export carries no IVA: every line is a taxed sale (its
`ventaGravada`) under the tribute "C3", IVA on exports at 0 % (CAT-015); the buyer abroad is
named by its own tax id, the destination country (CAT-020, the codes fe-fex-v1 enumerates) and
the kind of person (CAT-029); the issuer says what it exports (`tipoItemExpor`, CAT-011: goods,
services or both) and, for goods, the fiscal precinct (CAT-027) and customs regime (CAT-028);
the summary carries the INCOTERMS (CAT-031).

Freight and insurance (`flete`, `seguro`) are sent null: the document's total is the sale of its
lines, and what the buyer owes is that total."""
from __future__ import annotations

from decimal import Decimal
from typing import Any, Mapping

from chalicelib.countries.sv.domain.dte_json import _CENTS, _PRICE, BOTH, CASH, CREDIT, GOODS, SERVICES, UNIT
from chalicelib.domain.amount_words import amount_in_words

EXPORT_TRIBUTE = "C3"  # CAT-015: IVA on exports, 0 %
OTHER_DOCUMENT = "37"  # CAT-022: a buyer abroad holds no NIT or DUI; its own tax id is "otro"
PERSON_TYPES = {"natural": 1, "legal": 2}  # CAT-029


def foreign_receiver(partner: Mapping[str, Any], export: Mapping[str, Any]) -> dict[str, Any]:
    """The receptor of fe-fex-v1: what the format refuses missing is named by schema_problems."""
    number = str(partner.get("taxId") or "").strip()
    return {"nombre": partner.get("name"), "tipoDocumento": OTHER_DOCUMENT if number else None,
            "numDocumento": number or None, "nombreComercial": None, "codPais": export.get("countryCode"),
            "nombrePais": export.get("countryName"), "complemento": partner.get("address"),
            "tipoPersona": PERSON_TYPES.get(str(partner.get("personType"))),
            "descActividad": partner.get("economicActivity"), "telefono": partner.get("phone"),
            "correo": partner.get("email")}


def add_export_terms(dte: dict[str, Any], export: Mapping[str, Any]) -> None:
    """What the issuer exports, on the `dte` being issued: goods (1), services (2) or both (3) by
    its lines' products; a fiscal precinct and regime only for goods (the format wants none for
    services); the INCOTERMS for the summary."""
    kinds = {int(kind["tipoItem"]) for kind in dte["items"]}
    exported = GOODS if kinds == {GOODS} else SERVICES if kinds == {SERVICES} else BOTH
    services = exported == SERVICES
    dte["emisor"] = {**dte["emisor"], "tipoItemExpor": exported,
                     "recintoFiscal": None if services else export.get("fiscalPrecinct"),
                     "regimen": None if services else export.get("regime")}
    dte["export"] = {"codIncoterms": export.get("incoterms"), "descIncoterms": export.get("incotermsDescription")}


def export_invoice(document: Mapping[str, Any], identification: dict[str, Any]) -> dict[str, Any]:
    """The whole fe-fex-v1 document of a confirmed export invoice: each line's sale before its
    discount is quantity x price, the discount apart, the sale after it the taxed sale."""
    dte = document["dte"]
    kinds = dte.get("items") or [{"codigo": None, "tipoItem": BOTH}] * len(document["lines"])
    items, total, discounts = [], Decimal(0), Decimal(0)
    for number, (line, kind) in enumerate(zip(document["lines"], kinds, strict=True), start=1):
        sale, discount = Decimal(line["subtotal"]), Decimal(line.get("discount") or 0).quantize(_CENTS)
        items.append({"numItem": number, "cantidad": Decimal(line["quantity"]), "codigo": kind["codigo"],
                      "uniMedida": UNIT, "descripcion": line.get("description") or "",
                      "precioUni": Decimal(line["unitPrice"]).quantize(_PRICE), "montoDescu": discount,
                      "ventaGravada": sale, "tributos": [EXPORT_TRIBUTE], "noGravado": Decimal(0)})
        total += sale
        discounts += discount
    terms = dte.get("export") or {}
    summary = {"totalGravada": total, "descuento": Decimal(0), "porcentajeDescuento": Decimal(0),
               "totalDescu": discounts, "seguro": None, "flete": None, "montoTotalOperacion": total,
               "totalNoGravado": Decimal(0), "totalPagar": total, "totalLetras": amount_in_words(total, "USD"),
               "condicionOperacion": CASH if document.get("dueDate", document["date"]) <= document["date"] else CREDIT,
               "pagos": None, "codIncoterms": terms.get("codIncoterms"), "descIncoterms": terms.get("descIncoterms"),
               "numPagoElectronico": None, "observaciones": None}
    # read back from the table, their integers are Decimals: the schema wants integers
    issuer = {**dte["emisor"], "tipoItemExpor": _integer(dte["emisor"].get("tipoItemExpor"))}
    receiver = {**dte["receptor"], "tipoPersona": _integer(dte["receptor"].get("tipoPersona"))}
    return {"identificacion": identification, "emisor": issuer, "receptor": receiver,
            "otrosDocumentos": None, "ventaTercero": None, "cuerpoDocumento": items, "resumen": summary,
            "apendice": None}


def _integer(value: Any) -> int | None:
    return None if value is None else int(value)
