"""The JSON the Ministerio de Hacienda receives for a DTE, in its published formats (the schemas
in dte_schemas/, sources in dte_schemas/SOURCES.md), no I/O: a Factura (01, fe-fc-v1) and a
Comprobante de crédito fiscal (03, fe-ccf-v3), built from the stored document and the issuer and
receiver kept on its `dte` at confirmation, and checked against the schema.

A factura's amounts include IVA (its price, its taxed sale, `ivaItem` says the IVA inside); a
crédito fiscal's do not (the IVA is the tribute "20" of the summary). Catalogues used: CAT-002
document types, CAT-003 model (1 normal), CAT-004 transmission (1 normal), CAT-009 establishment
types, CAT-011 item types (1 goods, 2 services, 3 both), CAT-012/013 departments and municipalities,
CAT-014 units (59 unit), CAT-015 tributes (20 IVA 13 %), CAT-016 terms (1 cash, 2 credit),
CAT-022 receiver's document (36 NIT, 13 DUI)."""
from __future__ import annotations

import re
from decimal import Decimal
from typing import Any, Mapping

from chalicelib.countries.sv.domain import dte as dte_rules
from chalicelib.countries.sv.domain import dte_catalogues
from chalicelib.countries.sv.domain.dte import (
    BOTH,
    CASH,
    CENTS,
    CREDIT,
    CREDITO_FISCAL,
    EXPORTACION,
    FACTURA,
    GOODS,
    NOTA_CREDITO,
    NOTA_DEBITO,
    PRICE,
    RETENCION,
    SERVICES,
    SUJETO_EXCLUIDO,
    UNIT,
    item_price,
)
from chalicelib.countries.sv.domain.dte_formats import (
    EDITION_2026,
    dte_edition,
    edition_of,
    schema,
    version_of,
)
from chalicelib.domain import taxes
from chalicelib.domain.amount_words import amount_in_words

ELECTRONIC = 2  # CAT-007: the related document is a DTE, named by its generation code
# The Ministerio's public page where anyone checks a DTE; the printed version's QR code links to it.
PUBLIC_CONSULTATION = "https://admin.factura.gob.sv/consultaPublica"
IVA_TRIBUTE = {"codigo": "20", "descripcion": "Impuesto al Valor Agregado 13%"}
NIT_DOCUMENT, DUI_DOCUMENT = "36", "13"
_DIGITS = re.compile(r"\D")


def ambiente(company: Mapping[str, Any]) -> str:
    """The authority's environment the company issues in: 00 test, 01 production (its setting)."""
    return str((company.get("dteIssuer") or {}).get("environment", "00"))


def digits(value: Any) -> str:
    return _DIGITS.sub("", str(value or ""))


def issuer(company: Mapping[str, Any], document_number: str, tipo_dte: str = FACTURA,
           version: int | None = None) -> dict[str, Any]:
    """The emisor, from the company and its `dteIssuer` settings, in the format of `tipo_dte` in
    `version` (None: the legacy edition's); the establishment and point of sale are the document
    number's (EEE-PPP-...). The 2026 formats write them "M001" (the establishment type's letter,
    dte.establishment_codes) and "P001", and name the address's distrito."""
    settings = company.get("dteIssuer") or {}
    number = document_number or "000-000"
    establishment, point = number.split("-")[:2]
    kind = dte_rules.establishment_type(settings, number)[0]
    address = {"departamento": settings.get("department"),
               "municipio": _municipio(settings.get("department"), settings.get("municipality")),
               "complemento": company.get("address")}
    codes = (f"{establishment:0>4}", f"{point:0>4}")
    if edition_of(tipo_dte, version) == EDITION_2026:
        codes = dte_rules.establishment_codes(number, dte_rules.checked_establishment_type(settings, number))
        address["distrito"] = _distrito(settings)
    return _declared(tipo_dte, "emisor", {"nit": digits(company.get("taxId")), "nrc": digits(settings.get("nrc")), "nombre": company.get("name"),
            "codActividad": settings.get("economicActivityCode"), "descActividad": settings.get("economicActivity"),
            "nombreComercial": settings.get("tradeName"), "tipoEstablecimiento": kind,
            "direccion": address,
            # the comprobante de retención takes the digits only
            "telefono": digits(company.get("phone")) if tipo_dte == RETENCION else company.get("phone"),
            "correo": company.get("email"), "codEstableMH": None, "codEstable": codes[0], "codPuntoVentaMH": None,
            "codPuntoVenta": codes[1],
            # the comprobante de retención names them so
            "codigoMH": None, "codigo": codes[0], "puntoVentaMH": None, "puntoVenta": codes[1]}, version)


def _distrito(place: Mapping[str, Any]) -> Any:
    """The distrito the 2026 formats require in an address: the stored `district` (the CAT-008 code
    within the department, the one the place had as a municipio before 2024); None when the address
    has none, which the schema refuses naming direccion.distrito."""
    return place.get("district") or None


def _municipio(department: Any, code: Any) -> Any:
    """The CAT-013 code under the 2024 division of an address saved before it (its pre-2024 code
    names its district): until the migration has run, what is sent is what the authority takes."""
    return dte_catalogues.municipio(str(department), str(code)) or code if department and code else code


def related(source: Mapping[str, Any]) -> dict[str, Any]:
    """What a note says of the crédito fiscal it corrects."""
    return {"tipoDocumento": CREDITO_FISCAL, "tipoGeneracion": ELECTRONIC,
            "numeroDocumento": source["dte"]["codigoGeneracion"], "fechaEmision": source["date"]}


# CAT-006: the IVA withheld at 1 % (22) or 13 % (C4) of the base; any other (C9)
WITHHOLDING_CODES = {Decimal("0.01"): "22", Decimal("0.13"): "C4"}
_UUID = re.compile(r"[0-9A-F]{8}-[0-9A-F]{4}-[0-9A-F]{4}-[0-9A-F]{4}-[0-9A-F]{12}")


def withheld(purchase: Mapping[str, Any], certificate: Mapping[str, Any]) -> dict[str, Any]:
    """What a comprobante de retención says of the purchase it withholds from: the supplier's
    document (electronic when its number is a generation code, else physical), its date, the
    base subject to the withholding (the purchase's taxed lines) and the IVA withheld."""
    taxed = [line for line in purchase["lines"] if taxes.treatment_of(line) == taxes.TAXED]
    base = sum((Decimal(line["subtotal"]) for line in taxed), Decimal(0))
    withheld_iva = Decimal(certificate["total"])
    code = next((code for share, code in WITHHOLDING_CODES.items() if (base * share).quantize(CENTS) == withheld_iva),
                "C9")
    number = str(purchase.get("supplierDocumentNumber") or purchase.get("number") or "").upper()
    source_tipo = (purchase.get("dte") or {}).get("tipoDte")
    return {"tipoDte": SUJETO_EXCLUIDO if source_tipo == SUJETO_EXCLUIDO else CREDITO_FISCAL,
            "tipoDoc": ELECTRONIC if _UUID.fullmatch(number) else 1, "numDocumento": number,
            "fechaEmision": purchase["date"], "montoSujetoGrav": base, "codigoRetencionMH": code,
            "ivaRetenido": withheld_iva,
            "descripcion": f"Retención de IVA sobre {purchase.get('number') or number}",
            # the IVA the base generated (fe-cr-v2's totalIva; fe-cr-v1 names none)
            "ivaGenerado": sum((Decimal(line.get("tax") or 0) for line in taxed), Decimal(0))}


def receiver(tipo_dte: str, partner: Mapping[str, Any], export: Mapping[str, Any] | None = None,
             version: int | None = None) -> dict[str, Any]:
    """The receptor as the format of `tipo_dte` in `version` (None: the legacy edition's) wants it.
    A factura's consumer is named by NIT (14 digits) or DUI (9, written ########-#), or by nothing
    under 1,095 dollars; a crédito fiscal's taxpayer by NIT and NRC (its 2026 notes: by document
    type 36 and number); an export's buyer abroad by its own tax id and the destination the
    document's `export` names. The 2026 formats name the address's distrito."""
    if tipo_dte == EXPORTACION:
        from chalicelib.countries.sv.domain import dte_fex

        return dte_fex.foreign_receiver(partner, export or {})
    edition = edition_of(tipo_dte, version)
    address = None
    if partner.get("department") and partner.get("municipality"):
        address = {"departamento": partner["department"],
                   "municipio": _municipio(partner["department"], partner["municipality"]),
                   "complemento": partner.get("address")}
        if edition == EDITION_2026:
            address["distrito"] = _distrito(partner)
    common = {"nrc": digits(partner.get("nrc")) or None, "nombre": partner.get("name"),
              "codActividad": partner.get("economicActivityCode"), "descActividad": partner.get("economicActivity"),
              "direccion": address, "telefono": partner.get("phone"), "correo": partner.get("email")}
    number = digits(partner.get("taxId"))
    if tipo_dte == RETENCION:  # the supplier withheld from: a registered taxpayer named by its NIT
        return {"tipoDocumento": NIT_DOCUMENT if number else None, "numDocumento": number or None, **common,
                "telefono": digits(partner.get("phone")) or None, "nombreComercial": None}
    if tipo_dte in (NOTA_CREDITO, NOTA_DEBITO) and edition == EDITION_2026:  # by its NIT as a document
        return {"tipoDocumento": NIT_DOCUMENT, "numDocumento": number, **common, "nombreComercial": None}
    if tipo_dte not in (FACTURA, SUJETO_EXCLUIDO):  # a crédito fiscal and its notes: a registered taxpayer
        return {"nit": number, **common, "nombreComercial": None}
    kind = NIT_DOCUMENT if len(number) == 14 else DUI_DOCUMENT if len(number) == 9 else None
    shown = f"{number[:8]}-{number[8:]}" if kind == DUI_DOCUMENT else number or None
    if tipo_dte == SUJETO_EXCLUIDO:  # the supplier: named by its document (digits only here), no NRC to give
        return {"tipoDocumento": kind, "numDocumento": number or None, **{k: v for k, v in common.items() if k != "nrc"}}
    return {"tipoDocumento": kind, "numDocumento": shown,
            **common, "nrc": common["nrc"] if kind == NIT_DOCUMENT else None}


def consultation_url(document: Mapping[str, Any], ambiente: str = "00") -> str:
    """The public consultation of a DTE, as its printed version's QR code links to it."""
    return (f"{PUBLIC_CONSULTATION}?ambiente={ambiente}&codGen={document['dte']['codigoGeneracion']}"
            f"&fechaEmi={document['date']}")


def item_kinds(lines: list[Mapping[str, Any]], products: Mapping[int, Mapping[str, Any]]) -> list[dict[str, Any]]:
    """Per line, what the format asks of its product, kept on the DTE at confirmation: its code
    and whether goods (1), services (2) or, for a free-text line, both (3)."""
    kinds = []
    for line in lines:
        product = products.get(int(line["productId"])) if line.get("productId") is not None else None
        if product is None:
            kinds.append({"codigo": None, "tipoItem": BOTH})
        else:
            kinds.append({"codigo": product.get("code"),
                          "tipoItem": SERVICES if product.get("type") == "service" else GOODS})
    return kinds


def authority_document(document: Mapping[str, Any], ambiente: str = "00") -> dict[str, Any]:
    """The whole DTE of a confirmed document whose `dte` holds its codes, issuer and receiver (and,
    a note, the crédito fiscal it corrects). The formats differ in which summary and item fields
    they carry: each keeps the ones its schema declares."""
    dte = document["dte"]
    tipo = dte["tipoDte"]
    if tipo == "18":  # issue 40: returns (the return event, fe-eret-v1: countries/sv/domain/dte_return.py)
        from chalicelib.countries.sv.domain import dte_return

        return dte_return.event(document, ambiente)
    if tipo == RETENCION:
        return _retention(document, ambiente)
    if tipo == EXPORTACION:
        from chalicelib.countries.sv.domain import dte_fex

        return dte_fex.export_invoice(document, _identification(document, ambiente))
    corrected = dte.get("related")
    if corrected:  # read back from the table, its integer is a Decimal: the schema wants an integer
        corrected = {**corrected, "tipoGeneracion": int(corrected["tipoGeneracion"])}
    version = _version(dte)
    items, summary = sales_body(document, tipo, dte.get("items"), corrected, version)
    identification = _identification(document, ambiente)
    if "fusion" in schema(tipo, version)["properties"]["identificacion"]["properties"]:
        identification["fusion"] = None  # the NIT of a company this one absorbed: none here
    return _declared(tipo, None, {"identificacion": identification,
            "documentoRelacionado": [corrected] if corrected else None, "emisor": dte["emisor"],
            "receptor": dte["receptor"], "otrosDocumentos": None, "ventaTercero": None, "cuerpoDocumento": items,
            "resumen": summary, "extension": None, "apendice": None}, version)


def sales_body(document: Mapping[str, Any], tipo: str, kinds: list[Mapping[str, Any]] | None = None,
               corrected: Mapping[str, Any] | None = None,
               version: int | None = None) -> tuple[list[dict[str, Any]], dict[str, Any]]:
    """The cuerpoDocumento and resumen of a sales-format DTE (01, 03 and its notes) from the
    document's stored lines, in the format of `tipo` in `version` (None: the legacy edition's):
    what is sent, and what a draft prints as the DTE it will become. `kinds`: each line's code and
    item type (left out: a free-text line's, 3). The 2026 notes (fe-nc-v4, fe-nd-v4) carry the IVA
    as totalIva, per line and in the summary, not as the tribute 20."""
    items, sums = [], dict.fromkeys(("noSuj", "exenta", "gravada", "iva", "descuento"), Decimal(0))
    factura = tipo == FACTURA
    edition = edition_of(tipo, version)
    iva_apart = not factura and "totalIva" in schema(tipo, version)["properties"]["resumen"]["properties"]
    kinds = kinds or [{"codigo": None, "tipoItem": BOTH}] * len(document["lines"])
    for number, (line, kind) in enumerate(zip(document["lines"], kinds, strict=True), start=1):
        rate, treatment = Decimal(line["taxRate"]), taxes.treatment_of(line)
        quantity, discount = Decimal(line["quantity"]), Decimal(line.get("discount") or 0)
        subtotal, tax = Decimal(line["subtotal"]), Decimal(line["tax"])
        gross_up = 1 + rate if factura else Decimal(1)  # a factura's prices include the IVA
        sale = subtotal + tax if factura else subtotal
        item_discount = (discount * gross_up).quantize(CENTS)
        if factura and edition == EDITION_2026:
            price = item_price(sale, item_discount, quantity)
        else:  # the legacy edition as it always was: a DTE rebuilt for delivery is signed to the same bytes
            price = (Decimal(line["unitPrice"]) * gross_up).quantize(PRICE)
        columns = {"ventaNoSuj": Decimal(0), "ventaExenta": Decimal(0), "ventaGravada": Decimal(0)}
        column = {taxes.TAXED: "ventaGravada", taxes.NON_SUBJECT: "ventaNoSuj"}.get(treatment, "ventaExenta")
        columns[column] = sale
        item = {"numItem": number, "tipoItem": int(kind["tipoItem"]),
                "numeroDocumento": corrected["numeroDocumento"] if corrected else None, "codigo": kind["codigo"],
                "codTributo": None,
                "descripcion": line.get("description") or "", "cantidad": quantity, "uniMedida": UNIT,
                "precioUni": price, "montoDescu": item_discount, **columns,
                "tributos": ["20"] if column == "ventaGravada" and not (factura or iva_apart) else None,
                "psv": Decimal(0), "noGravado": Decimal(0), "compra": sale}
        if factura:
            item["ivaItem"] = tax
        elif iva_apart:  # no IVA perceived nor withheld here
            item.update(ivaPerci=Decimal(0), totalIva=tax, ivaRete=Decimal(0))
        items.append(_declared(tipo, "cuerpoDocumento", item, version))
        sums[{"ventaGravada": "gravada", "ventaNoSuj": "noSuj"}.get(column, "exenta")] += sale
        sums["iva"] += tax
        sums["descuento"] += item_discount
    sales = sums["noSuj"] + sums["exenta"] + sums["gravada"]
    total = sales if factura else sales + sums["iva"]
    summary: dict[str, Any] = {
        "totalNoSuj": sums["noSuj"], "totalExenta": sums["exenta"], "totalGravada": sums["gravada"],
        "subTotalVentas": sales, "descuNoSuj": Decimal(0), "descuExenta": Decimal(0), "descuGravada": Decimal(0),
        "porcentajeDescuento": Decimal(0), "totalDescu": sums["descuento"],
        "tributos": None if factura or iva_apart or not sums["gravada"] else [{**IVA_TRIBUTE, "valor": sums["iva"]}],
        "subTotal": sales, "ivaRete1": Decimal(0), "ivaRete": Decimal(0), "reteRenta": Decimal(0),
        "montoTotalOperacion": total,
        "totalNoGravado": Decimal(0), "totalPagar": total, "totalLetras": amount_in_words(total, "USD"),
        "saldoFavor": Decimal(0),
        "condicionOperacion": CASH if document.get("dueDate", document["date"]) <= document["date"] else CREDIT,
        "pagos": None, "numPagoElectronico": None,
        # a factura de sujeto excluido: what was bought
        "totalCompra": sales, "descu": Decimal(0),
        # the 2026 formats': the document's notes
        "observaciones": (str(document.get("notes") or "")[:3000] or None) if edition == EDITION_2026 else None,
        "codigoRetencionMH": None}
    if factura or iva_apart:
        summary["totalIva"] = sums["iva"]
    if not factura:
        summary.update(ivaPerci1=Decimal(0), ivaPerci=Decimal(0))
    return items, _declared(tipo, "resumen", summary, version)


def _identification(document: Mapping[str, Any], ambiente: str) -> dict[str, Any]:
    dte = document["dte"]
    # sent after its contingency was reported: the deferred model (2), in contingency (2), of its type
    deferred = (dte.get("contingency") or {}).get("type")
    version = _version(dte) or version_of(dte["tipoDte"])
    return {"version": version, "ambiente": ambiente, "tipoDte": dte["tipoDte"],
            "numeroControl": dte["numeroControl"], "codigoGeneracion": dte["codigoGeneracion"],
            "tipoModelo": 2 if deferred else 1, "tipoOperacion": 2 if deferred else 1,
            "tipoContingencia": int(deferred) if deferred else None, "motivoContin": None,
            "fecEmi": document["date"], "horEmi": dte["horEmi"], "tipoMoneda": document.get("currency") or "USD"}


def _version(dte: Mapping[str, Any]) -> int | None:
    """The version a stored `dte` was issued in (read back from the table, a Decimal); None: issued
    before versions were kept, the legacy edition's."""
    return int(dte["version"]) if dte.get("version") is not None else None


def _retention(document: Mapping[str, Any], ambiente: str) -> dict[str, Any]:
    """A comprobante de retención (fe-cr-v1): the purchase withheld from, the base and the IVA. One
    issued in the 2026 edition: its fe-cr-v2 (dte_purchases.retention)."""
    dte = document["dte"]
    if dte_edition(dte) == EDITION_2026:
        from chalicelib.countries.sv.domain import dte_purchases

        return dte_purchases.retention(document, _identification(document, ambiente))
    related = {name: value for name, value in dte["related"].items() if name != "ivaGenerado"}
    item = {**related, "numItem": 1, "tipoDoc": int(dte["related"]["tipoDoc"]),
            "montoSujetoGrav": Decimal(dte["related"]["montoSujetoGrav"]),
            "ivaRetenido": Decimal(dte["related"]["ivaRetenido"])}
    return {"identificacion": _identification(document, ambiente), "emisor": dte["emisor"], "receptor": dte["receptor"],
            "cuerpoDocumento": [item],
            "resumen": {"totalSujetoRetencion": item["montoSujetoGrav"], "totalIVAretenido": item["ivaRetenido"],
                        "totalIVAretenidoLetras": amount_in_words(item["ivaRetenido"], "USD")},
            "extension": None, "apendice": None}


def _declared(tipo_dte: str, section: str | None, values: dict[str, Any], version: int | None = None) -> dict[str, Any]:
    """`values` with only the fields the format of `tipo_dte` in `version` (None: the legacy one)
    declares for `section` (the whole document when None; an item of cuerpoDocumento for that name)."""
    properties = schema(tipo_dte, version)["properties"]
    if section is not None:
        part = properties[section]
        properties = (part.get("items") or part)["properties"]
    return {name: value for name, value in values.items() if name in properties}


# issue 40: purchases

