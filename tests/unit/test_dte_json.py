"""The authority's JSON for a factura (01) and a crédito fiscal (03), from hand-written documents:
the figures are worked out in the comments, and each document validates against the authority's
published schema (chalicelib/countries/sv/domain/dte_schemas)."""
from __future__ import annotations

from decimal import Decimal

from chalicelib.countries.sv.domain import dte_formats, dte_json
from tests.unit.dte_fixtures import CONSUMER, EXCLUDED_SUPPLIER, SV, TAXPAYER, confirmed, line


def test_a_factura_prices_include_the_iva_and_validates():
    # 2 x 50 at 13 % (100, IVA 13) less nothing; 1 x 20 exempt; 1 x 10 non-subject
    document = confirmed("01", CONSUMER, [line("2", "50", "0.13"), line("1", "20", "0"),
                                          line("1", "10", "0", "nonSubject")])
    sent = dte_json.authority_document(document)
    assert dte_formats.schema_problems(sent) == []
    taxed, exempt, non_subject = sent["cuerpoDocumento"]
    # a factura's price includes the IVA: 50 x 1.13 = 56.50; the taxed sale 113 holds 13 of IVA
    assert (taxed["precioUni"], taxed["ventaGravada"], taxed["ivaItem"], taxed["tributos"]) == (
        Decimal("56.50"), Decimal("113.00"), Decimal("13.00"), None)
    assert (exempt["ventaExenta"], non_subject["ventaNoSuj"]) == (Decimal("20.00"), Decimal("10.00"))
    summary = sent["resumen"]
    assert {name: summary[name] for name in ("totalNoSuj", "totalExenta", "totalGravada", "subTotalVentas",
                                             "totalIva", "montoTotalOperacion", "totalPagar")} == {
        "totalNoSuj": 10, "totalExenta": 20, "totalGravada": 113, "subTotalVentas": 143, "totalIva": 13,
        "montoTotalOperacion": 143, "totalPagar": 143}
    assert summary["totalLetras"] == "CIENTO CUARENTA Y TRES DÓLARES CON 00/100"
    assert summary["condicionOperacion"] == 1 and summary["tributos"] is None
    assert sent["receptor"]["tipoDocumento"] == "13" and sent["receptor"]["numDocumento"] == "01234567-8"
    assert sent["emisor"]["nit"] == "06140101901013" and sent["emisor"]["nrc"] == "1234567"
    assert sent["identificacion"] == {
        "version": 1, "ambiente": "00", "tipoDte": "01", "numeroControl": "DTE-01-00010001-000000000000001",
        "codigoGeneracion": document["dte"]["codigoGeneracion"], "tipoModelo": 1, "tipoOperacion": 1,
        "tipoContingencia": None, "motivoContin": None, "fecEmi": "2026-11-02", "horEmi": "10:15:00",
        "tipoMoneda": "USD"}


def test_a_credito_fiscal_lists_the_iva_as_a_tribute_and_validates():
    # 2 x 100 at 13 % with 20 of discount: 180, IVA 23.40; 1 x 10 exempt. On credit (due later).
    document = confirmed("03", TAXPAYER, [line("2", "100", "0.13", discount="20"), line("1", "10", "0")],
                         dueDate="2026-12-02")
    sent = dte_json.authority_document(document)
    assert dte_formats.schema_problems(sent) == []
    taxed, exempt = sent["cuerpoDocumento"]
    assert (taxed["precioUni"], taxed["montoDescu"], taxed["ventaGravada"], taxed["tributos"]) == (
        Decimal("100"), Decimal("20"), Decimal("180.00"), ["20"])
    assert "ivaItem" not in taxed and exempt["tributos"] is None
    summary = sent["resumen"]
    # 180 taxed and 10 exempt: 190; IVA 23.40 on top: 213.40
    assert summary["tributos"] == [{"codigo": "20", "descripcion": "Impuesto al Valor Agregado 13%",
                                    "valor": Decimal("23.40")}]
    assert (summary["subTotalVentas"], summary["totalDescu"], summary["montoTotalOperacion"],
            summary["totalPagar"]) == (190, 20, Decimal("213.40"), Decimal("213.40"))
    assert summary["totalLetras"] == "DOSCIENTOS TRECE DÓLARES CON 40/100"
    assert summary["condicionOperacion"] == 2
    assert sent["receptor"] == {"nit": "06140202021024", "nrc": "7654321", "nombre": "Empresa Beta S.A. de C.V.",
                                "codActividad": "62010", "descActividad": "Programación informática",
                                "direccion": {"departamento": "06", "municipio": "23",
                                              "complemento": "Colonia Escalón, San Salvador"},
                                "telefono": "2555-0000", "correo": "compras@beta.example", "nombreComercial": None}
    assert sent["identificacion"]["version"] == 3


def test_a_factura_de_sujeto_excluido_lists_what_was_bought_and_validates():
    # bought from a farmer without an NRC: 30 x 4.50 = 135 of eggs and 1 x 15 of transport, 5 of discount:
    # 145; no IVA (the seller is not registered for it); on credit
    document = confirmed("14", EXCLUDED_SUPPLIER, [line("30", "4.50", "0"), line("1", "15", "0", discount="5")],
                         dueDate="2026-11-30")
    sent = dte_json.authority_document(document)
    assert dte_formats.schema_problems(sent) == []
    eggs, transport = sent["cuerpoDocumento"]
    assert (eggs["precioUni"], eggs["compra"], eggs["montoDescu"]) == (Decimal("4.50"), Decimal("135.00"), 0)
    assert (transport["compra"], transport["montoDescu"]) == (Decimal("10"), Decimal("5"))
    assert set(eggs) == {"numItem", "tipoItem", "cantidad", "codigo", "uniMedida", "descripcion", "precioUni",
                         "montoDescu", "compra"}
    summary = sent["resumen"]
    assert summary == {"totalCompra": Decimal("145.00"), "descu": 0, "totalDescu": Decimal("5"),
                       "subTotal": Decimal("145.00"), "ivaRete1": 0, "reteRenta": 0, "totalPagar": Decimal("145.00"),
                       "totalLetras": "CIENTO CUARENTA Y CINCO DÓLARES CON 00/100", "condicionOperacion": 2,
                       "pagos": None, "observaciones": None}
    # the supplier is the receptor of this format: named by its DUI (no hyphen in this format), no NRC to give
    assert sent["receptor"] == {"tipoDocumento": "13", "numDocumento": "012345678", "nombre": "Juan Pérez",
                                "codActividad": "01460", "descActividad": "Cría de aves de corral",
                                "direccion": {"departamento": "05", "municipio": "28",
                                              "complemento": "Cantón El Sauce, Santa Tecla"},
                                "telefono": "7000-1234", "correo": "juan@example.com"}
    assert sent["identificacion"]["tipoDte"] == "14" and sent["identificacion"]["version"] == 1
    assert "tipoEstablecimiento" not in sent["emisor"] and sent["apendice"] is None


def test_a_comprobante_de_retencion_names_the_purchase_the_base_and_the_iva_withheld():
    from chalicelib.countries.sv.domain import dte

    # we bought 500 taxed and 20 exempt from a taxpayer (its crédito fiscal, an electronic DTE) and
    # withheld 1 % of the 500: 5.00
    purchase = {"type": "103", "number": "001-001-103-00000004", "date": "2026-11-01",
                "supplierDocumentNumber": "7DE5A3C1-0B2F-4E8D-9A6C-1F3B5D7E9A0C",
                "lines": [line("5", "100", "0.13"), line("1", "20", "0")]}
    certificate = {"id": 9, "type": "05", "number": "001-001-05-00000001", "date": "2026-11-02",
                   "dueDate": "2026-11-02", "currency": "USD", "total": Decimal("5.00"),
                   "lines": [line("1", "5", "0")], "withholding": {"tax": "iva", "side": "purchases"}}
    assert dte.tipo_dte("05", TAXPAYER, purchase, certificate["withholding"]) == "07"
    assert dte.tipo_dte("05", TAXPAYER, purchase, {"tax": "iva", "side": "sales"}) is None
    state = dte.pending_dte("07", dte.new_codigo_generacion(), "DTE-07-00010001-000000000000001")
    state.update(emisor=dte_json.issuer(SV, certificate["number"], "07"), receptor=dte_json.receiver("07", TAXPAYER),
                 horEmi="09:00:00", related=dte_json.withheld(purchase, certificate))
    sent = dte_json.authority_document({**certificate, "dte": state})
    assert dte_formats.schema_problems(sent) == []
    assert sent["cuerpoDocumento"] == [{
        "numItem": 1, "tipoDte": "03", "tipoDoc": 2, "numDocumento": "7DE5A3C1-0B2F-4E8D-9A6C-1F3B5D7E9A0C",
        "fechaEmision": "2026-11-01", "montoSujetoGrav": Decimal("500.00"), "codigoRetencionMH": "22",
        "ivaRetenido": Decimal("5.00"), "descripcion": "Retención de IVA sobre 001-001-103-00000004"}]
    assert sent["resumen"] == {"totalSujetoRetencion": Decimal("500.00"), "totalIVAretenido": Decimal("5.00"),
                               "totalIVAretenidoLetras": "CINCO DÓLARES CON 00/100"}
    assert sent["receptor"]["tipoDocumento"] == "36" and sent["receptor"]["nrc"] == "7654321"
    assert (sent["emisor"]["codigo"], sent["emisor"]["puntoVenta"]) == ("0001", "0001")
    # 13 % of the base is C4; anything else C9; a supplier's number that is no generation code: physical
    assert dte_json.withheld(purchase, {"total": "65.00"})["codigoRetencionMH"] == "C4"
    paper = dte_json.withheld({**purchase, "supplierDocumentNumber": "F-0012"}, {"total": "7"})
    assert (paper["tipoDoc"], paper["numDocumento"], paper["codigoRetencionMH"]) == (1, "F-0012", "C9")


def test_what_the_schema_refuses_is_named_with_where_it_comes_from():
    incomplete = {key: value for key, value in TAXPAYER.items() if key not in ("economicActivityCode", "email")}
    sent = dte_json.authority_document(confirmed("03", incomplete, [line("1", "10", "0.13")]))
    assert dte_formats.schema_problems(sent) == [
        {"field": "receptor.codActividad", "message": "missing: set the customer's economic activity code"},
        {"field": "receptor.correo", "message": "missing: set the customer's email"}]
    no_issuer = dte_json.issuer({**SV, "dteIssuer": None}, "001-001-01-00000001")
    document = confirmed("01", CONSUMER, [line("1", "10", "0.13")])
    document["dte"]["emisor"] = no_issuer
    fields = [problem["field"] for problem in dte_formats.schema_problems(dte_json.authority_document(document))]
    assert {"emisor.nrc", "emisor.codActividad", "emisor.descActividad", "emisor.direccion.departamento"} <= set(fields)


def test_the_notes_name_the_credito_fiscal_they_correct_and_validate():
    credito_fiscal = confirmed("03", TAXPAYER, [line("2", "100", "0.13")])
    # a credit note of 1 x 100 at 13 %: 100, IVA 13; a debit note of 1 x 10 at 13 %: 10, IVA 1.30
    for tipo, lines, total in (("05", [line("1", "100", "0.13")], Decimal("113.00")),
                               ("06", [line("1", "10", "0.13")], Decimal("11.30"))):
        note = confirmed(tipo, TAXPAYER, lines, corrects=credito_fiscal, date="2026-11-05")
        sent = dte_json.authority_document(note)
        assert dte_formats.schema_problems(sent) == [], tipo
        assert sent["documentoRelacionado"] == [{"tipoDocumento": "03", "tipoGeneracion": 2,
                                                 "numeroDocumento": credito_fiscal["dte"]["codigoGeneracion"],
                                                 "fechaEmision": "2026-11-02"}]
        assert sent["cuerpoDocumento"][0]["numeroDocumento"] == credito_fiscal["dte"]["codigoGeneracion"]
        assert sent["resumen"]["montoTotalOperacion"] == total and "totalPagar" not in sent["resumen"]
        assert "codEstable" not in sent["emisor"] and "otrosDocumentos" not in sent
        assert sent["identificacion"]["tipoDte"] == tipo and sent["identificacion"]["version"] == 3
