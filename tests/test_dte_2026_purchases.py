"""El Salvador's 2026 formats for what this side issues besides its sales invoices: a factura de
exportación (11) in fe-fex-v3, a factura de sujeto excluido (14) in fe-fse-v2 and a comprobante de
retención (07) in fe-cr-v2, through the API from a date the company chose (dteIssuer.formats2026From),
each checked against its 2026 schema and accepted by the stand-in authority; before that date the
same company still issues the legacy formats."""
from __future__ import annotations

import datetime as _dt
from decimal import Decimal

import pytest

from chalicelib import clock
from chalicelib.countries.sv.domain import dte_formats
from tests.documents_support import SV_ISSUER, Shop
from tests.dte_support import assert_accepted, customer_abroad, export_invoice, printed, sv_shop

FARMER = {"name": "Juan Pérez", "type": "supplier", "taxId": "01234567-8", "department": "05", "municipality": "11",
          "address": "Cantón El Sauce, Santa Tecla", "phone": "7000-1234", "email": "juan@example.com"}
SUPPLIER = {"name": "Distribuidora Gamma S.A. de C.V.", "type": "supplier", "taxId": "0614-030303-103-9",
            "nrc": "112233-4", "economicActivityCode": "46510", "economicActivity": "Venta al por mayor",
            "department": "06", "municipality": "14", "address": "Boulevard de los Héroes",
            "email": "ventas@gamma.example", "phone": "2233-4455"}
THEIR_CCF = "7DE5A3C1-0B2F-4E8D-9A6C-1F3B5D7E9A0C"  # the generation code of the supplier's crédito fiscal


def issuing_in_2026_from(shop: Shop, date: str) -> None:
    reply = shop.api.put(f"/companies/{shop.company.company_id}", {"dteIssuer": {**SV_ISSUER, "formats2026From": date}},
                         key=shop.key)
    assert reply.status == 200, reply.text


@pytest.fixture
def shop(api, company_a) -> Shop:
    shop = sv_shop(api, company_a)
    issuing_in_2026_from(shop, shop.default_date)
    return shop


def sent_of(dte_authority, document: dict) -> dict:
    """What the stand-in authority received, valid against the schema of the version it declares."""
    sent = dte_authority.registered[document["dte"]["codigoGeneracion"]]["document"]
    assert dte_formats.schema_problems(sent) == []
    return sent


def test_an_export_in_2026_is_a_fex_v3_with_its_lines_kinds_the_c3_tribute_and_the_iso_country(shop, dte_authority):
    created = export_invoice(shop, customer_abroad(shop))

    assert_accepted(created)
    assert created["dte"]["numeroControl"] == "DTE-11-M001P001-000000000000001"
    sent = sent_of(dte_authority, created)
    assert sent["identificacion"]["version"] == 3
    assert (sent["documentoRelacionado"], sent["ventaTercero"], sent["compraTercero"]) == (None, None, None)
    # the buyer's country as the 2026 CAT-020 names it: its ISO code, the customer's "US" (the export's
    # terms gave fe-fex-v1's 4-digit code, which that catalogue no longer lists)
    assert (sent["receptor"]["codPais"], sent["receptor"]["tipoDocumento"]) == ("US", "37")
    assert (sent["emisor"]["codEstable"], sent["emisor"]["codPuntoVenta"]) == ("M001", "P001")
    assert "tipoRegimen" in sent["emisor"] and "tipoEstablecimiento" not in sent["emisor"]
    coffee, haulage = sent["cuerpoDocumento"]
    # 3 x 100.00 = 300.00 less 10.00 of discount = 290.00; 1 x 45.50 = 45.50; free-text lines: both kinds (3)
    assert (coffee["tipoItem"], coffee["cantidad"], coffee["precioUni"], coffee["montoDescu"],
            coffee["ventaGravada"]) == (3, 3, 100, 10, Decimal("290.00"))
    assert (haulage["ventaGravada"], haulage["montoDescu"], haulage["codTributo"], haulage["numeroDocumento"]) == \
        (Decimal("45.50"), 0, None, None)
    summary = sent["resumen"]
    # 290.00 + 45.50 = 335.50 at 0 %: the C3 tribute is 0.00; the 10.00 is the lines' discount, no global one
    assert (summary["totalGravada"], summary["descuGravada"], summary["totalDescu"], summary["montoTotalOperacion"],
            summary["totalPagar"]) == (Decimal("335.50"), 0, Decimal("10.00"), Decimal("335.50"), Decimal("335.50"))
    assert summary["tributos"] == [{"codigo": "C3", "descripcion": "Impuesto al Valor Agregado (exportaciones) 0%",
                                    "valor": 0}]
    assert (summary["totalNoOnerosas"], summary["saldoFavor"], summary["seguro"]) == (0, 0, 0)
    assert "TRESCIENTOS TREINTA Y CINCO" in summary["totalLetras"].upper()
    text = printed(shop, created, "factura-de-exportacion-v3.pdf")
    assert "FACTURA DE EXPORTACIÓN" in text and created["dte"]["numeroControl"] in text


def test_a_purchase_without_nrc_in_2026_is_a_fse_v2(shop, dte_authority):
    farmer = shop.created("/business-partners", FARMER)["id"]
    # 30 x 4.50 = 135.00 of eggs; 1 x 15.00 of transport: 150.00 bought, no IVA
    purchase = shop.created("/documents", {"type": "103", "businessPartnerId": farmer, "date": shop.default_date,
                                           "lines": [{"description": "Huevos", "quantity": 30, "unitPrice": 4.5,
                                                      "taxRate": 0},
                                                     {"description": "Transporte", "quantity": 1, "unitPrice": 15,
                                                      "taxRate": 0}]})

    assert_accepted(purchase)
    assert purchase["dte"]["numeroControl"] == "DTE-14-M001P001-000000000000001"
    sent = sent_of(dte_authority, purchase)
    assert (sent["identificacion"]["version"], sent["identificacion"]["tipoDte"]) == (2, "14")
    assert [item["compra"] for item in sent["cuerpoDocumento"]] == [Decimal("135.00"), Decimal("15.00")]
    summary = sent["resumen"]
    assert (summary["totalCompra"], summary["subTotal"], summary["totalPagar"]) == (150, 150, 150)
    assert "ivaRete1" not in summary
    # the supplier by its DUI, digits only; its address with the district (Santa Tecla's pre-2024 code 11)
    assert sent["receptor"]["numDocumento"] == "012345678" and sent["receptor"]["direccion"]["distrito"] == "11"


def test_iva_withheld_in_2026_is_certified_by_a_cr_v2(shop, dte_authority):
    supplier = shop.created("/business-partners", SUPPLIER)["id"]
    # 5 x 100.00 = 500.00 taxed, IVA 500.00 x 13 % = 65.00 on the supplier's crédito fiscal
    purchase = shop.document("103", [(shop.product, 5, 100)], partner=supplier, supplierDocumentNumber=THEIR_CCF)
    assert purchase["taxTotal"] == 65
    # withheld 1 % of the 500.00 base: 5.00
    issued = shop.created("/documents", {"type": "05", "businessPartnerId": supplier, "date": shop.default_date,
                                         "withholding": {"tax": "iva", "side": "purchases"},
                                         "sourceDocumentId": purchase["id"],
                                         "lines": [{"description": "Retención IVA 1 %", "quantity": 1, "unitPrice": 5,
                                                    "taxRate": 0}]})

    assert issued["dte"]["status"] == "accepted", issued["dte"]["observations"]
    assert_accepted(issued)
    assert issued["dte"]["numeroControl"] == "DTE-07-M001P001-000000000000001"
    sent = sent_of(dte_authority, issued)
    assert (sent["identificacion"]["version"], sent["identificacion"]["fusion"]) == (2, None)
    assert sent["cuerpoDocumento"] == [{
        "numItem": 1, "tipoDte": "03", "tipoGeneracion": 2, "numeroDocumento": THEIR_CCF,
        "fechaEmision": purchase["date"], "montoSujetoGrav": 500, "codigoRetencionMH": "22", "ivaRetenido": 5,
        "descripcion": f"Retención de IVA sobre {purchase['number']}"}]
    assert sent["resumen"] == {"totalSujetoRetencion": 500, "totalIva": 65, "totalIvaRetenido": 5,
                               "totalLetras": "CINCO DÓLARES CON 00/100", "observaciones": None}
    assert (sent["emisor"]["codEstable"], sent["emisor"]["codPuntoVenta"]) == ("M001", "P001")
    assert "codigo" not in sent["emisor"] and sent["receptor"]["nrc"] == "1122334"
    text = printed(shop, issued, "retencion-v2-sv.pdf")
    assert "COMPROBANTE DE RETENCIÓN" in text and issued["dte"]["numeroControl"] in text


def test_before_its_2026_date_the_company_still_issues_the_legacy_formats(api, company_a, dte_authority):
    shop = sv_shop(api, company_a)
    tomorrow = (_dt.date.fromisoformat(clock.today_in("SV")) + _dt.timedelta(days=1)).isoformat()
    issuing_in_2026_from(shop, tomorrow)
    farmer = shop.created("/business-partners", FARMER)["id"]
    purchase = shop.created("/documents", {"type": "103", "businessPartnerId": farmer, "date": shop.default_date,
                                           "lines": [{"description": "Huevos", "quantity": 30, "unitPrice": 4.5,
                                                      "taxRate": 0}]})
    exported = export_invoice(shop, customer_abroad(shop))

    for document, version in ((purchase, 1), (exported, 1)):
        assert_accepted(document)
        sent = sent_of(dte_authority, document)
        assert sent["identificacion"]["version"] == version
        assert document["dte"]["numeroControl"].startswith(f"DTE-{sent['identificacion']['tipoDte']}-00010001-")
    # fe-fex-v1's own 4-digit destination, as the export's terms gave it
    assert dte_authority.registered[exported["dte"]["codigoGeneracion"]]["document"]["receptor"]["codPais"] == "9905"
