"""The Factura de exportación (DTE 11) in its published format, fe-fex-v1 (dte_schemas/, source in
dte_schemas/SOURCES.md), no I/O. An export carries no IVA: every line is a taxed sale (its
`ventaGravada`) under the tribute "C3", IVA on exports at 0 % (CAT-015); the buyer abroad is
named by its own tax id, the destination country (CAT-020, the codes fe-fex-v1 enumerates) and
the kind of person (CAT-029); the issuer says what it exports (`tipoItemExpor`, CAT-011: goods,
services or both) and, for goods, the fiscal precinct (CAT-027) and customs regime (CAT-028);
the summary carries the INCOTERMS (CAT-031).

Freight and insurance (`flete`, `seguro`) are sent null: the document's total is the sale of its
lines, and what the buyer owes is that total.

An export issued in the 2026 edition (its `dte.version`, fe-fex-v3) is built by `export_invoice_v3`:
the same lines and totals, with what v3 adds (each line's item type, no related document or third
party, the summary's C3 tribute at 0, no gratuitous transfers nor balance in favour, the issuer's
regime type, CAT-033) and the buyer's country as the 2026 CAT-020 names it, ISO alpha-2."""
from __future__ import annotations

from decimal import Decimal
from typing import Any, Mapping

from chalicelib.countries.sv.domain.dte import (
    BOTH,
    CASH,
    CENTS,
    CREDIT,
    GOODS,
    PRICE,
    SERVICES,
    UNIT,
    observations,
)
from chalicelib.countries.sv.domain.dte_formats import EDITION_2026, dte_edition
from chalicelib.domain.amount_words import amount_in_words

EXPORT_TRIBUTE = "C3"  # CAT-015: IVA on exports, 0 %
OTHER_DOCUMENT = "37"  # CAT-022: a buyer abroad holds no NIT or DUI; its own tax id is "otro"
PERSON_TYPES = {"natural": 1, "legal": 2}  # CAT-029
EXPORT_TRIBUTE_2026 = {"codigo": EXPORT_TRIBUTE, "descripcion": "Impuesto al Valor Agregado (exportaciones) 0%"}
# CAT-033 regime types, by the first digit of the CAT-028 regime (1xxx.xxx definitive exports,
# 2xxx.xxx temporary ones, 3xxx.xxx re-exports)
REGIME_TYPES = {"1": "EX-1", "2": "EX-2", "3": "EX-3"}


def foreign_receiver(partner: Mapping[str, Any], export: Mapping[str, Any]) -> dict[str, Any]:
    """The receptor of fe-fex-v1: what the format refuses missing is named by schema_problems."""
    number = str(partner.get("taxId") or "").strip()
    return {"nombre": partner.get("name"), "tipoDocumento": OTHER_DOCUMENT if number else None,
            "numDocumento": number or None, "nombreComercial": None, "codPais": export.get("countryCode"),
            "nombrePais": export.get("countryName"), "complemento": partner.get("address"),
            "tipoPersona": PERSON_TYPES.get(str(partner.get("personType"))),
            "descActividad": partner.get("economicActivity"), "telefono": partner.get("phone"),
            "correo": partner.get("email")}


def add_export_terms(dte: dict[str, Any], export: Mapping[str, Any],
                     partner: Mapping[str, Any] | None = None) -> None:
    """What the issuer exports, on the `dte` being issued: goods (1), services (2) or both (3) by
    its lines' products; a fiscal precinct and regime only for goods (the format wants none for
    services); the INCOTERMS for the summary. In the 2026 edition, also the regime's type and the
    buyer's country by its ISO code (`partner`'s)."""
    kinds = {int(kind["tipoItem"]) for kind in dte["items"]}
    exported = GOODS if kinds == {GOODS} else SERVICES if kinds == {SERVICES} else BOTH
    services = exported == SERVICES
    dte["emisor"] = {**dte["emisor"], "tipoItemExpor": exported,
                     "recintoFiscal": None if services else export.get("fiscalPrecinct"),
                     "regimen": None if services else export.get("regime")}
    dte["export"] = {"codIncoterms": export.get("incoterms"), "descIncoterms": export.get("incotermsDescription")}
    if dte_edition(dte) == EDITION_2026:
        regime_type, regime = regime_of(None if services else export.get("regime"))
        dte["emisor"].update(tipoRegimen=regime_type, regimen=regime)
        dte["receptor"] = {**dte["receptor"], "codPais": country_2026(partner or {}, export)}


def country_2026(partner: Mapping[str, Any], export: Mapping[str, Any]) -> Any:
    """The buyer's country in the 2026 CAT-020 (ISO 3166 alpha-2): the export's countryCode when it
    is one, else the partner's own country (a 4-digit code is fe-fex-v1's list, which 2026 dropped)."""
    code = str(export.get("countryCode") or "")
    return code if len(code) == 2 and code.isalpha() else partner.get("country")


def regime_of(regime: Any) -> tuple[str | None, str | None]:
    """A goods export's (CAT-033 type, CAT-028 regime) from the regime it names: "EX-1.1000.000"
    (type and regime, as fe-fex-v1 took it in one field) or "1000.000" (the type by its first digit)."""
    if not regime:
        return None, None
    text = str(regime)
    head, separator, tail = text.partition(".")
    if separator and not head[:1].isdigit():
        return head, tail
    return REGIME_TYPES.get(text[:1]), text


def export_invoice(document: Mapping[str, Any], identification: dict[str, Any]) -> dict[str, Any]:
    """The whole fe-fex-v1 document of a confirmed export invoice: each line's sale before its
    discount is quantity x price, the discount apart, the sale after it the taxed sale. A DTE
    issued in the 2026 edition: its fe-fex-v3 (`export_invoice_v3`)."""
    dte = document["dte"]
    if dte_edition(dte) == EDITION_2026:
        return export_invoice_v3(document, identification)
    kinds = dte.get("items") or [{"codigo": None, "tipoItem": BOTH}] * len(document["lines"])
    items, total, discounts = [], Decimal(0), Decimal(0)
    for number, (line, kind) in enumerate(zip(document["lines"], kinds, strict=True), start=1):
        sale, discount = Decimal(line["subtotal"]), Decimal(line.get("discount") or 0).quantize(CENTS)
        items.append({"numItem": number, "cantidad": Decimal(line["quantity"]), "codigo": kind["codigo"],
                      "uniMedida": UNIT, "descripcion": line.get("description") or "",
                      "precioUni": Decimal(line["unitPrice"]).quantize(PRICE), "montoDescu": discount,
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


def export_invoice_v3(document: Mapping[str, Any], identification: dict[str, Any]) -> dict[str, Any]:
    """The whole fe-fex-v3 document of a confirmed export invoice, from the lines and totals of its
    fe-fex-v1 (the same sale): each line names its item type and no related document nor tribute
    subject to IVA; the summary lists the C3 tribute at 0, insurance 0 (v3 takes no null), no
    global discount (`descuGravada`, v1's `descuento`), no gratuitous transfers nor balance in
    favour; no related document, no third party."""
    v1 = export_invoice({**document, "dte": {**document["dte"], "version": 1}}, identification)
    kinds = document["dte"].get("items") or [{"codigo": None, "tipoItem": BOTH}] * len(document["lines"])
    items = [{"numItem": item["numItem"], "tipoItem": int(kind["tipoItem"]), "numeroDocumento": None,
              "cantidad": item["cantidad"], "codigo": item["codigo"], "codTributo": None, "uniMedida": item["uniMedida"],
              "descripcion": item["descripcion"], "precioUni": item["precioUni"], "montoDescu": item["montoDescu"],
              "ventaGravada": item["ventaGravada"], "tributos": item["tributos"], "noGravado": item["noGravado"]}
             for item, kind in zip(v1["cuerpoDocumento"], kinds, strict=True)]
    old = v1["resumen"]
    summary = {"totalGravada": old["totalGravada"], "descuGravada": old["descuento"],
               "porcentajeDescuento": old["porcentajeDescuento"], "totalDescu": old["totalDescu"],
               "seguro": Decimal(0), "flete": None, "tributos": [{**EXPORT_TRIBUTE_2026, "valor": Decimal(0)}],
               "montoTotalOperacion": old["montoTotalOperacion"], "totalNoGravado": old["totalNoGravado"],
               "totalNoOnerosas": Decimal(0), "totalPagar": old["totalPagar"], "totalLetras": old["totalLetras"],
               "saldoFavor": Decimal(0), "condicionOperacion": old["condicionOperacion"], "pagos": None,
               "codIncoterms": old["codIncoterms"], "descIncoterms": old["descIncoterms"],
               "numPagoElectronico": None, "observaciones": observations(document)}
    return {"identificacion": identification, "documentoRelacionado": None, "emisor": v1["emisor"],
            "receptor": v1["receptor"], "otrosDocumentos": None, "ventaTercero": None, "compraTercero": None,
            "cuerpoDocumento": items, "resumen": summary, "apendice": None}
