"""El Salvador DTEs of purchases: a purchase from a supplier without an NRC is a factura de sujeto
excluido (14) we issue; the IVA we withheld from a supplier, a comprobante de retención (07)."""
from __future__ import annotations

import pytest

from tests.documents_support import Shop
from tests.dte_support import printed, sv_shop, transmission


@pytest.fixture
def shop(api, company_a) -> Shop:
    return sv_shop(api, company_a)


def test_a_purchase_from_a_supplier_without_an_nrc_is_a_factura_de_sujeto_excluido(shop, table, dte_authority):
    farmer = shop.created("/business-partners", {"name": "Juan Pérez", "type": "supplier", "department": "05",
                                                 "municipality": "11", "address": "Cantón El Sauce, Santa Tecla",
                                                 "phone": "7000-1234", "email": "juan@example.com"})["id"]
    eggs = [{"description": "Huevos", "quantity": 30, "unitPrice": 4.5, "taxRate": 0}]

    def purchase(doc_type: str, lines: list) -> object:
        return shop.api.post("/documents", {"type": doc_type, "businessPartnerId": farmer, "lines": lines,
                                            "date": shop.default_date}, key=shop.key)

    # the buyer issues it, so it names the seller: without a DUI or NIT the format refuses it
    refused = purchase("103", eggs)
    assert refused.status == 400
    assert {d["field"]: d["message"] for d in refused.json["details"]}["dte.receptor.numDocumento"] == \
        "missing: set the supplier's NIT or DUI"
    # the supplier's words are the catalogue's own phrase: a Spanish caller reads them in Spanish, not
    # the generic "valor no válido" a run-time rewrite of the customer's phrase got
    spanish = shop.api.post("/documents", {"type": "103", "businessPartnerId": farmer, "lines": eggs,
                                           "date": shop.default_date}, key=shop.key, headers={"Accept-Language": "es"})
    assert {d["field"]: d["message"] for d in spanish.json["details"]}["dte.receptor.numDocumento"] == \
        "falta: indique el NIT o DUI del proveedor"
    shop.api.put(f"/business-partners/{farmer}", {"taxId": "01234567-8"}, key=shop.key)
    # whoever is not registered for IVA charges none
    taxed = purchase("103", [{"productId": shop.product, "quantity": 1, "unitPrice": 60}])
    assert taxed.status == 400 and taxed.json["details"][0]["field"] == "dte.taxTotal", taxed.text
    assert shop.api.get("/documents?type=103", key=shop.key).json["documents"] == []

    invoice = purchase("103", eggs)
    assert invoice.status == 201, invoice.text
    dte = invoice.json["dte"]
    assert (dte["tipoDte"], dte["numeroControl"], dte["status"]) == ("14", "DTE-14-00010001-000000000000001", "accepted")
    sent = dte_authority.registered[dte["codigoGeneracion"]]["document"]
    assert sent["receptor"]["numDocumento"] == "012345678" and sent["resumen"]["totalCompra"] == 135
    # an expense from the same supplier shares the sequence of the 14s
    expense = purchase("11", [{"description": "Transporte", "quantity": 1, "unitPrice": 15, "taxRate": 0}])
    assert expense.status == 201 and expense.json["dte"]["numeroControl"] == "DTE-14-00010001-000000000000002"
    text = printed(shop, invoice.json, "sujeto-excluido-sv.pdf")
    assert "FACTURA DE SUJETO EXCLUIDO" in text and dte["numeroControl"] in text and dte["codigoGeneracion"] in text
    assert transmission(table, shop.company.company_id, expense.json["id"])["status"] == "accepted"


def test_iva_withheld_from_a_supplier_is_certified_by_a_comprobante_de_retencion(shop, table, dte_authority):
    supplier = shop.created("/business-partners", {
        "name": "Distribuidora Gamma S.A. de C.V.", "type": "supplier", "taxId": "0614-030303-103-9",
        "nrc": "112233-4", "economicActivityCode": "46510", "economicActivity": "Venta al por mayor",
        "department": "06", "municipality": "14", "address": "Boulevard de los Héroes", "email": "ventas@gamma.example",
        "phone": "2233-4455"})["id"]
    their_dte = "7DE5A3C1-0B2F-4E8D-9A6C-1F3B5D7E9A0C"  # the generation code of the supplier's crédito fiscal
    purchase = shop.document("103", [(shop.product, 5, 100)], partner=supplier, supplierDocumentNumber=their_dte)
    assert purchase["dte"] is None  # the supplier's to issue
    certificate = {"type": "05", "businessPartnerId": supplier, "date": shop.default_date,
                   "withholding": {"tax": "iva", "side": "purchases"},
                   "lines": [{"description": "Retención IVA 1 %", "quantity": 1, "unitPrice": 5, "taxRate": 0}]}
    refused = shop.api.post("/documents", certificate, key=shop.key)
    assert (refused.status, refused.json["details"][0]["field"]) == (400, "sourceDocumentId"), refused.text

    issued = shop.created("/documents", {**certificate, "sourceDocumentId": purchase["id"]})
    dte = issued["dte"]
    assert (dte["tipoDte"], dte["numeroControl"], dte["status"]) == ("07", "DTE-07-00010001-000000000000001", "accepted"), dte["observations"]
    sent = dte_authority.registered[dte["codigoGeneracion"]]["document"]
    assert sent["cuerpoDocumento"][0]["numDocumento"] == their_dte and sent["cuerpoDocumento"][0]["tipoDoc"] == 2
    assert (sent["cuerpoDocumento"][0]["montoSujetoGrav"], sent["cuerpoDocumento"][0]["codigoRetencionMH"]) == (500, "22")
    assert sent["resumen"]["totalIVAretenido"] == 5 and sent["receptor"]["nrc"] == "1122334"
    text = printed(shop, issued, "retencion-sv.pdf")
    assert "COMPROBANTE DE RETENCIÓN" in text and dte["numeroControl"] in text and "Proveedor:" in text
    # a certificate of what a customer withheld from us is the customer's to issue
    customer_side = shop.created("/documents", {"type": "05", "businessPartnerId": shop.customer,
                                                "date": shop.default_date, "withholding": {"tax": "iva", "side": "sales"},
                                                "lines": [{"description": "Retención", "quantity": 1, "unitPrice": 2,
                                                           "taxRate": 0}]})
    assert customer_side["dte"] is None
