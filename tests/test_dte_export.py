"""El Salvador's factura de exportación (DTE 11, fe-fex-v1): a sale of export lines to a customer
abroad is issued in its published format, checked against its schema, signed, accepted by the
stand-in authority, printed and listed in the consumers' IVA book's export column; an export to a
customer in El Salvador, or mixed with taxed lines, is refused and changes nothing."""
from __future__ import annotations

from decimal import Decimal

import pytest

from chalicelib.countries.sv.domain import dte_formats
from chalicelib.store import keys
from tests.documents_support import Shop
from tests.dte_support import (
    EXPORT_DESTINATION,
    EXPORT_TERMS,
    assert_accepted,
    customer_abroad,
    export_invoice,
    printed,
    sv_shop,
)


@pytest.fixture
def shop(api, company_a) -> Shop:
    return sv_shop(api, company_a)


@pytest.fixture
def buyer(shop) -> int:
    return customer_abroad(shop)


def test_an_export_is_issued_as_a_dte_11_in_its_format_accepted_printed_and_in_the_export_column(
        shop, buyer, api, dte_authority):
    created = export_invoice(shop, buyer)

    dte = created["dte"]
    assert dte["tipoDte"] == "11" and dte["numeroControl"] == "DTE-11-00010001-000000000000001"
    assert_accepted(created)
    # 3 x 100.00 = 300.00 less 10.00 = 290.00; 1 x 45.50 = 45.50; 335.50 in all, no IVA
    assert (created["subtotal"], created["taxTotal"], created["total"]) == (Decimal("335.50"), 0, Decimal("335.50"))
    # this chart has no export revenue rule (as one imported before it had): the ordinary sales account
    assert shop.entry_lines(created["journalEntryId"]) == {
        "110201": (Decimal("335.50"), 0),   # Clientes
        "410101": (0, Decimal("335.50")),   # Ventas gravadas (DOCUMENT_RULES' revenue)
    }

    sent = dte_authority.registered[dte["codigoGeneracion"]]["document"]
    assert dte_formats.schema_problems(sent) == []  # fe-fex-v1, as the stand-in checked it
    assert sent["identificacion"]["version"] == 1 and sent["identificacion"]["tipoDte"] == "11"
    assert sent["emisor"]["tipoItemExpor"] == 3  # free-text lines: goods and services alike
    assert sent["receptor"] == {
        "nombre": "Importadora del Norte Inc.", "tipoDocumento": "37", "numDocumento": "98-7654321",
        "nombreComercial": None, "codPais": "9905", "nombrePais": "Destino de prueba",
        "complemento": "100 Main Street, Houston", "tipoPersona": 2, "descActividad": "Comercio al por mayor",
        "telefono": "+1 713 555 0100", "correo": "compras@norte.example"}
    first, second = sent["cuerpoDocumento"]
    assert (first["cantidad"], first["precioUni"], first["montoDescu"], first["ventaGravada"], first["tributos"]) == \
        (3, 100, 10, Decimal("290.00"), ["C3"])
    assert (second["ventaGravada"], second["montoDescu"]) == (Decimal("45.50"), 0)
    summary = sent["resumen"]
    # 290.00 + 45.50 = 335.50 taxed at 0 %: the operation and what is owed
    assert (summary["totalGravada"], summary["totalDescu"], summary["montoTotalOperacion"], summary["totalPagar"]) \
        == (Decimal("335.50"), Decimal("10.00"), Decimal("335.50"), Decimal("335.50"))
    assert (summary["codIncoterms"], summary["descIncoterms"]) == ("01", "EXW - En fábrica")
    assert "TRESCIENTOS TREINTA Y CINCO" in summary["totalLetras"].upper()

    text = printed(shop, created, "factura-de-exportacion.pdf")
    assert "FACTURA DE EXPORTACIÓN" in text and dte["codigoGeneracion"] in text

    date = shop.default_date
    book = api.get(f"/reports/iva-sales-consumers?startDate={date}&endDate={date}", key=shop.key).json
    assert book["rows"] == [{"date": date, "fromNumber": dte["numeroControl"], "toNumber": dte["numeroControl"],
                             "documents": 1, "exempt": 0, "nonSubject": 0, "taxed": 0,
                             "exports": Decimal("335.50"), "iva": 0, "total": Decimal("335.50")}]
    taxpayers = api.get(f"/reports/iva-sales-taxpayers?startDate={date}&endDate={date}", key=shop.key).json
    assert taxpayers["rows"] == []


def test_services_exported_name_no_precinct_and_what_is_missing_is_named(shop, buyer, api, dte_authority):
    services = shop.created("/documents", {"type": "01", "businessPartnerId": buyer, "date": shop.default_date,
                                           "export": {**EXPORT_DESTINATION, "fiscalPrecinct": "01", "regime": "EX-1.1000.000"},
                                           "lines": [{"productId": shop.service, "quantity": 1, "unitPrice": 80,
                                                      "taxTreatment": "export"}]})
    assert services["dte"]["tipoDte"] == "11" and services["total"] == 80
    issuer = dte_authority.registered[services["dte"]["codigoGeneracion"]]["document"]["emisor"]
    # services leave through no fiscal precinct: the format wants none named (its if/then on tipoItemExpor 2)
    assert (issuer["tipoItemExpor"], issuer["recintoFiscal"], issuer["regimen"]) == (2, None, None)
    # accepted, it is invalidated like any DTE: the anulación format takes tipoDte 11 and the buyer's "otro" document
    assert "invalidate" in services["allowedActions"]
    answer = api.post(f"/documents/{services['id']}/invalidate", {
        "invalidationType": 2, "reason": "El cliente desistió de la compra",
        "responsible": {"name": "Marta Ruiz", "documentType": "13", "documentNumber": "01234567-8"},
        "requester": {"name": "Jorge Pérez", "documentType": "36", "documentNumber": "06140202021024"}}, key=shop.key)
    assert answer.status == 200, answer.text
    assert answer.json["dte"]["status"] == "invalidated"

    refused = api.post("/documents", {"type": "01", "businessPartnerId": buyer, "date": shop.default_date,
                                      "lines": [{"productId": shop.service, "quantity": 1, "unitPrice": 80,
                                                 "taxTreatment": "export"}]}, key=shop.key,
                       headers={"Accept-Language": "es"})
    assert refused.status == 400, refused.text
    fields = {detail["field"]: detail["message"] for detail in refused.json["details"]}
    assert {"dte.receptor.codPais", "dte.receptor.nombrePais"} <= set(fields)
    # what is missing and what to set, each in Spanish (the remedy's closing ")" is no part of the "what")
    assert fields["dte.receptor.codPais"] == "falta: indique el código del país de destino (CAT-020)"


@pytest.mark.parametrize("case", ["domestic customer", "mixed lines"])
def test_a_refused_export_changes_nothing(shop, buyer, api, table, case):
    partner = shop.customer if case == "domestic customer" else buyer
    lines = [{"description": "Café verde, quintal", "quantity": 1, "unitPrice": 100, "taxTreatment": "export"}]
    if case == "mixed lines":
        lines.append({"description": "Café tostado", "quantity": 1, "unitPrice": 100, "taxRate": 0.13})
    reply = api.post("/documents", {"type": "01", "businessPartnerId": partner, "date": shop.default_date,
                                    "export": EXPORT_TERMS, "lines": lines}, key=shop.key)

    assert reply.status == 400, reply.text
    detail = reply.json["details"][0]
    assert (detail["field"], detail["message"].split(":")[0]) == (
        ("businessPartnerId", "an export sale is to a customer abroad") if case == "domestic customer" else
        ("lines", "an El Salvador export invoice (DTE 11) carries export lines only"))
    listed = api.get("/documents", key=shop.key).json
    assert listed["documents"] == []
    assert table.get(keys.dte_control_sequence(shop.company.company_id, "11", "00010001")) is None
