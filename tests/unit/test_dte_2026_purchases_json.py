"""The 2026 edition of the purchases' DTEs and of the export invoice, from hand-written stored
documents: the factura de sujeto excluido (14, fe-fse-v2), the comprobante de retención (07,
fe-cr-v2) and the factura de exportación (11, fe-fex-v3), each built from what issuing stored (the
same as its legacy format's) and valid against its 2026 schema; a DTE stored in the legacy edition
still builds its legacy format."""
from __future__ import annotations

from decimal import Decimal

from chalicelib.countries.sv.domain import dte, dte_fex, dte_formats, dte_json
from tests.unit.dte_fixtures import EXCLUDED_SUPPLIER, SV, TAXPAYER, line

ADDRESS_2026 = {"distrito": "14"}  # San Salvador Centro's district of San Salvador (its pre-2024 municipio 14)
BUYER_ABROAD = {"name": "Importadora del Norte Inc.", "country": "US", "personType": "legal", "taxId": "98-7654321",
                "economicActivity": "Comercio al por mayor", "address": "100 Main Street, Houston",
                "email": "compras@norte.example", "phone": "+1 713 555 0100"}


# the company and its partners with the district the 2026 addresses name
COMPANY_2026 = {**SV, "dteIssuer": {**SV["dteIssuer"], **{"district": ADDRESS_2026["distrito"]}}}


def stored(tipo: str, partner: dict, lines: list[dict], edition: str = dte_formats.EDITION_2026, **fields) -> dict:
    version = dte_formats.version_of(tipo, edition)
    number = "001-001-01-00000001"
    numero = dte.numero_control(tipo, number, 1, "02") if edition == dte_formats.EDITION_2026 else \
        f"DTE-{tipo}-00010001-000000000000001"
    state = dte.pending_dte(tipo, dte.new_codigo_generacion(), numero, version)
    state.update(emisor=dte_json.issuer(COMPANY_2026, number, tipo, version),
                 receptor=dte_json.receiver(tipo, {**partner, "district": ADDRESS_2026["distrito"]},
                                            fields.pop("export", None), version),
                 horEmi="10:15:00", items=dte_json.item_kinds(lines, {}))
    return {"id": 3, "number": number, "date": "2026-11-02", "dueDate": "2026-11-02",
            "currency": "USD", "lines": lines, "dte": state, **fields}


def test_a_factura_de_sujeto_excluido_v2_keeps_its_purchase_without_iva_rete1():
    # 30 x 4.50 = 135.00 of eggs; 1 x 15 of transport less 5 of discount = 10.00: 145.00 bought, no IVA
    document = stored("14", EXCLUDED_SUPPLIER, [line("30", "4.50", "0"), line("1", "15", "0", discount="5")])
    sent = dte_json.authority_document(document)
    assert dte_formats.schema_problems(sent) == []
    assert sent["identificacion"]["version"] == 2
    eggs, transport = sent["cuerpoDocumento"]
    assert (eggs["compra"], transport["compra"], transport["montoDescu"]) == (Decimal("135.00"), 10, 5)
    assert sent["resumen"] == {"totalCompra": Decimal("145.00"), "descu": 0, "totalDescu": 5,
                               "subTotal": Decimal("145.00"), "reteRenta": 0, "totalPagar": Decimal("145.00"),
                               "totalLetras": "CIENTO CUARENTA Y CINCO DÓLARES CON 00/100",
                               "condicionOperacion": 1, "pagos": None, "observaciones": None}
    assert (sent["emisor"]["codEstable"], sent["emisor"]["codPuntoVenta"]) == ("M001", "P001")


def _purchase() -> dict:
    # 5 x 100 = 500.00 taxed at 13 % (IVA 65.00) and 20 exempt, on the supplier's crédito fiscal (a DTE)
    return {"type": "103", "number": "001-001-103-00000004", "date": "2026-11-01",
            "supplierDocumentNumber": "7DE5A3C1-0B2F-4E8D-9A6C-1F3B5D7E9A0C",
            "lines": [line("5", "100", "0.13"), line("1", "20", "0")]}


def test_a_comprobante_de_retencion_v2_names_the_document_by_generation_and_number_and_states_the_iva():
    purchase = _purchase()
    # 1 % of the 500.00 base: 5.00 withheld
    certificate = stored("07", TAXPAYER, [line("1", "5", "0")], total=Decimal("5.00"), type="05",
                         withholding={"tax": "iva", "side": "purchases"})
    certificate["dte"]["related"] = dte_json.withheld(purchase, certificate)
    sent = dte_json.authority_document(certificate)
    assert dte_formats.schema_problems(sent) == []
    assert sent["identificacion"]["version"] == 2 and sent["identificacion"]["fusion"] is None
    assert sent["cuerpoDocumento"] == [{
        "numItem": 1, "tipoDte": "03", "tipoGeneracion": 2, "numeroDocumento": "7DE5A3C1-0B2F-4E8D-9A6C-1F3B5D7E9A0C",
        "fechaEmision": "2026-11-01", "montoSujetoGrav": Decimal("500.00"), "codigoRetencionMH": "22",
        "ivaRetenido": Decimal("5.00"), "descripcion": "Retención de IVA sobre 001-001-103-00000004"}]
    # the 500.00 generated 500.00 x 13 % = 65.00 of IVA, of which 5.00 withheld
    assert sent["resumen"] == {"totalSujetoRetencion": Decimal("500.00"), "totalIva": Decimal("65.00"),
                               "totalIvaRetenido": Decimal("5.00"), "totalLetras": "CINCO DÓLARES CON 00/100",
                               "observaciones": None}
    assert (sent["emisor"]["codEstable"], sent["emisor"]["codPuntoVenta"]) == ("M001", "P001")
    assert "codigo" not in sent["emisor"] and "extension" not in sent


def test_a_legacy_comprobante_de_retencion_still_sends_fe_cr_v1_though_its_base_keeps_its_iva():
    purchase = _purchase()
    certificate = stored("07", TAXPAYER, [line("1", "5", "0")], edition=dte_formats.LEGACY, total=Decimal("5.00"),
                         type="05")
    certificate["dte"]["related"] = dte_json.withheld(purchase, certificate)
    sent = dte_json.authority_document(certificate)
    assert dte_formats.schema_problems(sent) == []
    assert sent["identificacion"]["version"] == 1 and "ivaGenerado" not in sent["cuerpoDocumento"][0]
    assert sent["resumen"]["totalIVAretenido"] == Decimal("5.00")


EXPORT = {"countryCode": "9905", "countryName": "Estados Unidos", "fiscalPrecinct": "03",
          "regime": "EX-1.1000.000", "incoterms": "09", "incotermsDescription": "FOB-Libre a bordo"}


def _export(edition: str) -> dict:
    # 3 x 100.00 = 300.00 less 10.00 = 290.00 of coffee; 2 x 22.75 = 45.50 of sacks: 335.50, at 0 %
    lines = [line("3", "100", "0", "export", discount="10"), line("2", "22.75", "0", "export")]
    document = stored("11", BUYER_ABROAD, lines, edition=edition, export=EXPORT)
    dte_fex.add_export_terms(document["dte"], EXPORT, BUYER_ABROAD)
    return document


def test_a_factura_de_exportacion_v3_carries_its_lines_kinds_the_c3_tribute_and_the_iso_country():
    sent = dte_json.authority_document(_export(dte_formats.EDITION_2026))
    assert dte_formats.schema_problems(sent) == []
    assert sent["identificacion"]["version"] == 3
    assert (sent["documentoRelacionado"], sent["ventaTercero"], sent["compraTercero"]) == (None, None, None)
    coffee, sacks = sent["cuerpoDocumento"]
    assert (coffee["tipoItem"], coffee["numeroDocumento"], coffee["codTributo"], coffee["tributos"]) == \
        (3, None, None, ["C3"])
    assert (coffee["montoDescu"], coffee["ventaGravada"], sacks["ventaGravada"]) == (10, Decimal("290.00"),
                                                                                    Decimal("45.50"))
    summary = sent["resumen"]
    # 290.00 + 45.50 = 335.50; 10.00 of line discounts, no global one; C3 at 0 % is 0.00
    assert (summary["totalGravada"], summary["descuGravada"], summary["totalDescu"],
            summary["montoTotalOperacion"], summary["totalPagar"]) == (Decimal("335.50"), 0, 10, Decimal("335.50"),
                                                                      Decimal("335.50"))
    assert summary["tributos"] == [{"codigo": "C3", "descripcion": "Impuesto al Valor Agregado (exportaciones) 0%",
                                    "valor": 0}]
    assert (summary["seguro"], summary["flete"], summary["totalNoOnerosas"], summary["saldoFavor"]) == (0, None, 0, 0)
    assert "descuento" not in summary
    # the 2026 CAT-020 names the United States "US" (fe-fex-v1's 4-digit code is not in it)
    assert (sent["receptor"]["codPais"], sent["receptor"]["nombrePais"]) == ("US", "Estados Unidos")
    issuer = sent["emisor"]
    assert (issuer["tipoItemExpor"], issuer["recintoFiscal"], issuer["tipoRegimen"], issuer["regimen"]) == \
        (3, "03", "EX-1", "1000.000")
    assert "tipoEstablecimiento" not in issuer


def test_a_legacy_factura_de_exportacion_stays_fe_fex_v1():
    sent = dte_json.authority_document(_export(dte_formats.LEGACY))
    assert dte_formats.schema_problems(sent) == []
    assert sent["identificacion"]["version"] == 1 and "compraTercero" not in sent
    assert (sent["receptor"]["codPais"], sent["emisor"]["regimen"]) == ("9905", "EX-1.1000.000")
    assert "tipoRegimen" not in sent["emisor"] and sent["resumen"]["descuento"] == 0


def test_the_regime_type_comes_from_the_regime_and_the_country_from_an_iso_code():
    # CAT-028's first digit: 1 definitive (EX-1), 2 temporary (EX-2), 3 re-export (EX-3)
    assert [dte_fex.regime_of(regime) for regime in ("2100.000", "3050.000", "EX-2.2200.000", None)] == [
        ("EX-2", "2100.000"), ("EX-3", "3050.000"), ("EX-2", "2200.000"), (None, None)]
    assert dte_fex.country_2026({"country": "US"}, {"countryCode": "DE"}) == "DE"
    assert dte_fex.country_2026({"country": "US"}, {"countryCode": "9905"}) == "US"
