"""The authority's JSON for a factura (01) and a crédito fiscal (03), from hand-written documents:
the figures are worked out in the comments, and each document validates against the authority's
published schema (chalicelib/domain/dte_schemas)."""
from __future__ import annotations

from decimal import Decimal

from chalicelib.domain import dte_json
from tests.unit.dte_fixtures import CONSUMER, SV, TAXPAYER, confirmed, line


def test_a_factura_prices_include_the_iva_and_validates():
    # 2 x 50 at 13 % (100, IVA 13) less nothing; 1 x 20 exempt; 1 x 10 non-subject
    document = confirmed("01", CONSUMER, [line("2", "50", "0.13"), line("1", "20", "0"),
                                          line("1", "10", "0", "nonSubject")])
    sent = dte_json.authority_document(document)
    assert dte_json.schema_problems(sent) == []
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
    assert dte_json.schema_problems(sent) == []
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
                                "direccion": {"departamento": "06", "municipio": "14",
                                              "complemento": "Colonia Escalón, San Salvador"},
                                "telefono": "2555-0000", "correo": "compras@beta.example", "nombreComercial": None}
    assert sent["identificacion"]["version"] == 3


def test_what_the_schema_refuses_is_named_with_where_it_comes_from():
    incomplete = {key: value for key, value in TAXPAYER.items() if key not in ("economicActivityCode", "email")}
    sent = dte_json.authority_document(confirmed("03", incomplete, [line("1", "10", "0.13")]))
    assert dte_json.schema_problems(sent) == [
        {"field": "receptor.codActividad", "message": "missing: set the customer's economicActivityCode"},
        {"field": "receptor.correo", "message": "missing: set the customer's email"}]
    no_issuer = dte_json.issuer({**SV, "dteIssuer": None}, "001-001-01-00000001")
    document = confirmed("01", CONSUMER, [line("1", "10", "0.13")])
    document["dte"]["emisor"] = no_issuer
    fields = [problem["field"] for problem in dte_json.schema_problems(dte_json.authority_document(document))]
    assert {"emisor.nrc", "emisor.codActividad", "emisor.descActividad", "emisor.direccion.departamento"} <= set(fields)


def test_the_notes_name_the_credito_fiscal_they_correct_and_validate():
    credito_fiscal = confirmed("03", TAXPAYER, [line("2", "100", "0.13")])
    # a credit note of 1 x 100 at 13 %: 100, IVA 13; a debit note of 1 x 10 at 13 %: 10, IVA 1.30
    for tipo, lines, total in (("05", [line("1", "100", "0.13")], Decimal("113.00")),
                               ("06", [line("1", "10", "0.13")], Decimal("11.30"))):
        note = confirmed(tipo, TAXPAYER, lines, corrects=credito_fiscal, date="2026-11-05")
        sent = dte_json.authority_document(note)
        assert dte_json.schema_problems(sent) == [], tipo
        assert sent["documentoRelacionado"] == [{"tipoDocumento": "03", "tipoGeneracion": 2,
                                                 "numeroDocumento": credito_fiscal["dte"]["codigoGeneracion"],
                                                 "fechaEmision": "2026-11-02"}]
        assert sent["cuerpoDocumento"][0]["numeroDocumento"] == credito_fiscal["dte"]["codigoGeneracion"]
        assert sent["resumen"]["montoTotalOperacion"] == total and "totalPagar" not in sent["resumen"]
        assert "codEstable" not in sent["emisor"] and "otrosDocumentos" not in sent
        assert sent["identificacion"]["tipoDte"] == tipo and sent["identificacion"]["version"] == 3
