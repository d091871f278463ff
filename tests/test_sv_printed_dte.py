"""El Salvador: the PDF the buyer gets is the DTE sent to Hacienda. Its identity is the número de
control and the código de generación (not the internal EEE-PPP-TT-N number), its title the type's
name in the authority's catalogue CAT-002, its amounts the DTE's own per type (a factura's prices
and sales with the IVA inside; a crédito fiscal's net, the IVA apart), and it prints only
Salvadoran rows (no Honduran "Importe exonerado")."""
from __future__ import annotations

import io

import pytest
from pypdf import PdfReader

from tests.documents_support import Shop
from tests.dte_support import consumer_of, printed, sv_shop, taxpayer_of


@pytest.fixture
def shop(api, company_a) -> Shop:
    return sv_shop(api, company_a)


def flat(text: str) -> str:
    return " ".join(text.split())  # the title wraps in its box


def sent_to_hacienda(dte_authority, document: dict) -> dict:
    return dte_authority.registered[document["dte"]["codigoGeneracion"]]["document"]


def test_a_factura_to_a_consumer_prints_the_dte_s_control_number_and_prices_with_iva(shop, dte_authority):
    factura = shop.document("01", [(shop.service, 3, "25.00")], partner=consumer_of(shop))
    dte = factura["dte"]
    assert dte["tipoDte"] == "01" and dte["status"] == "accepted"
    # 3 x 25.00 = 75.00 net; IVA 13 % = 9.75; the buyer pays 84.75. A factura carries the IVA
    # inside: precioUni 25.00 x 1.13 = 28.25, ventaGravada 75.00 x 1.13 = 84.75 (= 3 x 28.25)
    item = sent_to_hacienda(dte_authority, factura)["cuerpoDocumento"][0]
    assert (item["precioUni"], item["ventaGravada"], item["ivaItem"]) == (28.25, 84.75, 9.75)

    text = flat(printed(shop, factura, "factura-consumidor-sv.pdf"))
    assert "FACTURA No. DTE-01-00010001-000000000000001" in text, text
    assert dte["numeroControl"] == "DTE-01-00010001-000000000000001"
    assert dte["codigoGeneracion"] in text
    assert factura["number"] not in text  # the internal 001-001-01-00000001 is not the buyer's
    # the line as the DTE has it: description, quantity 3, precioUni 28.25, no discount, 84.75
    assert "Instalación 3 28.25 0.00 84.75" in text
    # the summary: gravadas 84.75 (IVA inside), the 9.75 it includes, the operation and the total
    for row in ("Ventas gravadas (IVA incluido) 84.75", "Sub-total 84.75", "IVA 13 % incluido 9.75",
                "Monto total de la operación 84.75", "TOTAL A PAGAR (USD) 84.75"):
        assert row in text, row
    # the net figures a factura does not carry
    assert "25.00" not in text and "75.00" not in text
    assert "exonerado" not in text.lower()


def test_a_credito_fiscal_prints_its_title_net_prices_and_the_iva_apart(shop, dte_authority):
    credito = shop.document("01", [(shop.service, 3, "25.00")], partner=taxpayer_of(shop))
    dte = credito["dte"]
    assert dte["tipoDte"] == "03" and dte["status"] == "accepted"
    # 3 x 25.00 = 75.00 taxed, net of IVA; IVA 13 % of 75.00 = 9.75 apart; 75.00 + 9.75 = 84.75
    sent = sent_to_hacienda(dte_authority, credito)
    assert (sent["cuerpoDocumento"][0]["precioUni"], sent["cuerpoDocumento"][0]["ventaGravada"]) == (25, 75)
    assert sent["resumen"]["tributos"][0]["valor"] == 9.75 and sent["resumen"]["totalPagar"] == 84.75

    text = flat(printed(shop, credito, "credito-fiscal-consumidor-sv.pdf"))
    assert "COMPROBANTE DE CRÉDITO FISCAL No. DTE-03-00010001-000000000000001" in text, text
    assert dte["codigoGeneracion"] in text and credito["number"] not in text
    assert "Instalación 3 25.00 0.00 75.00" in text
    for row in ("Ventas gravadas 75.00", "Sub-total 75.00", "IVA 13 % 9.75", "Monto total de la operación 84.75",
                "TOTAL A PAGAR (USD) 84.75"):
        assert row in text, row
    assert "28.25" not in text and "exonerado" not in text.lower() and "FACTURA No." not in text


def test_a_salvadoran_draft_prints_no_honduran_exoneration_row(shop):
    draft = shop.document("01", [(shop.service, 3, "25.00")], partner=consumer_of(shop), status="draft")
    text = flat(printed(shop, draft, "borrador-sv.pdf"))
    # printed as the factura it will be: 3 x 25.00 = 75.00 net, IVA 13 % = 9.75, inside the
    # 84.75 the buyer pays; Salvadoran rows only
    assert "IVA 13 % incluido 9.75" in text and "TOTAL A PAGAR (USD) 84.75" in text
    assert "exonerado" not in text.lower()


def test_a_draft_factura_prints_the_figures_its_dte_will_carry_marked_as_no_dte(shop):
    draft = shop.document("01", [(shop.service, 3, "25.00")], partner=consumer_of(shop), status="draft")
    assert draft["status"] == "draft" and not draft.get("dte")
    text = flat(printed(shop, draft, "borrador-factura-sv.pdf"))
    # a consumer without NRC: a factura (01), prices with the IVA inside, as its DTE will carry them:
    # precioUni 25.00 x 1.13 = 28.25; ventaGravada 3 x 28.25 = 84.75 (= 75.00 + 9.75); the IVA
    # included 75.00 x 0.13 = 9.75
    assert "FACTURA No. Borrador" in text, text
    assert "Instalación 3 28.25 0.00 84.75" in text, text
    for row in ("Ventas gravadas (IVA incluido) 84.75", "Sub-total 84.75", "IVA 13 % incluido 9.75",
                "Monto total de la operación 84.75", "TOTAL A PAGAR (USD) 84.75"):
        assert row in text, row
    assert "25.00" not in text and "75.00" not in text  # the net figures a factura does not carry
    # a draft, not a DTE: marked so, and no identity nor seal of one
    assert "BORRADOR: SIN VALOR FISCAL" in text
    for absent in ("DTE-01-", "Número de control", "Código de generación", "Sello de recepción"):
        assert absent not in text, absent


def test_a_draft_for_a_taxpayer_prints_as_the_credito_fiscal_it_will_be(shop):
    draft = shop.document("01", [(shop.service, 3, "25.00")], partner=taxpayer_of(shop), status="draft")
    text = flat(printed(shop, draft, "borrador-credito-fiscal-sv.pdf"))
    # the customer's NRC makes it a crédito fiscal (03), as at confirmation: net 3 x 25.00 = 75.00,
    # the IVA apart 75.00 x 0.13 = 9.75, 75.00 + 9.75 = 84.75 to pay
    assert "COMPROBANTE DE CRÉDITO FISCAL No. Borrador" in text, text
    assert "Instalación 3 25.00 0.00 75.00" in text
    for row in ("Ventas gravadas 75.00", "Sub-total 75.00", "IVA 13 % 9.75", "Monto total de la operación 84.75",
                "TOTAL A PAGAR (USD) 84.75"):
        assert row in text, row
    assert "28.25" not in text and "BORRADOR: SIN VALOR FISCAL" in text and "DTE-03-" not in text


def test_a_draft_for_a_taxpayer_the_seller_gives_a_factura_prints_as_a_factura(shop):
    draft = shop.document("01", [(shop.service, 3, "25.00")], partner=taxpayer_of(shop), dteType="01",
                          status="draft")
    text = flat(printed(shop, draft, "borrador-factura-elegida-sv.pdf"))
    # the explicit dteType 01 wins over the NRC: 25.00 x 1.13 = 28.25 each, 84.75 with 9.75 inside
    assert "FACTURA No. Borrador" in text and "Instalación 3 28.25 0.00 84.75" in text, text
    assert "IVA 13 % incluido 9.75" in text and "CRÉDITO FISCAL" not in text


# --- the seller chooses factura (01) or crédito fiscal (03): `dteType` ------------------------------------

def test_a_taxpayer_may_be_given_a_factura_when_the_seller_chooses_01(shop, dte_authority):
    taxpayer = taxpayer_of(shop)
    factura = shop.document("01", [(shop.service, 3, "25.00")], partner=taxpayer, dteType="01")
    assert (factura["dteType"], factura["dte"]["tipoDte"], factura["dte"]["status"]) == ("01", "01", "accepted")
    assert factura["dte"]["numeroControl"] == "DTE-01-00010001-000000000000001"
    # left out, the customer's NRC decides as before: a crédito fiscal
    credito = shop.document("01", [(shop.service, 3, "25.00")], partner=taxpayer)
    assert (credito["dteType"], credito["dte"]["tipoDte"]) == (None, "03")
    # the list names each by its número de control and says which DTE it is
    listed = {d["id"]: d["dte"] for d in shop.api.get("/documents", key=shop.key).json["documents"]}
    assert listed[factura["id"]]["numeroControl"] == "DTE-01-00010001-000000000000001"
    assert (listed[credito["id"]]["numeroControl"], listed[credito["id"]]["tipoDte"]) == \
        ("DTE-03-00010001-000000000000001", "03")


def test_a_credito_fiscal_chosen_for_a_consumer_without_nrc_is_refused_naming_dtetype(shop, api):
    consumer = consumer_of(shop)
    body = {"type": "01", "businessPartnerId": consumer, "dteType": "03",
            "lines": [{"productId": shop.service, "quantity": 3, "unitPrice": 25}]}
    refused = api.post("/documents", body, key=shop.key, headers={"accept-language": "es"})
    assert refused.status == 400 and refused.json["details"][0]["field"] == "dteType", refused.text
    assert "crédito fiscal" in refused.json["details"][0]["message"] and "contribuyente" in \
        refused.json["details"][0]["message"]
    assert api.get("/documents", key=shop.key).json["total"] == 0  # nothing written


def test_dtetype_belongs_to_salvadoran_sales_invoices_only(shop, api):
    body = {"type": "100", "businessPartnerId": consumer_of(shop), "dteType": "01",
            "lines": [{"productId": shop.service, "quantity": 1, "unitPrice": 25}]}
    refused = api.post("/documents", body, key=shop.key)
    assert refused.status == 400 and refused.json["details"][0]["field"] == "dteType", refused.text


def test_the_taxpayers_iva_book_names_a_credito_fiscal_by_its_title(shop, api):
    credito = shop.document("01", [(shop.service, 3, "25.00")], partner=taxpayer_of(shop))
    date = shop.default_date
    book = api.get(f"/reports/iva-sales-taxpayers?startDate={date}&endDate={date}", key=shop.key).json
    [row] = book["rows"]
    assert (row["documentId"], row["typeName"], row["number"]) == \
        (credito["id"], "Comprobante de crédito fiscal", "DTE-03-00010001-000000000000001")
    # the book's figures: 75.00 taxed net, IVA 9.75, 84.75
    assert (row["taxed"], row["iva"], row["total"]) == (75, 9.75, 84.75)


def test_the_ticket_of_a_factura_carries_the_dte_s_codes_and_amounts_too(shop):
    factura = shop.document("01", [(shop.service, 3, "25.00")], partner=consumer_of(shop))
    answer = shop.api.http.request("POST", f"/documents/{factura['id']}/print", body=b'{"templateId": 2}', headers={
        "authorization": f"Bearer {shop.key}", "accept": "application/pdf", "content-type": "application/json"})
    assert answer.status_code == 200
    text = flat(" ".join(page.extract_text() for page in PdfReader(io.BytesIO(answer.body)).pages))
    dte = factura["dte"]
    assert f"No. {dte['numeroControl']}" in text and dte["codigoGeneracion"] in text, text
    # 3 x 28.25 (25.00 with IVA 13 % inside) = 84.75, the IVA inside 9.75
    assert "3 x 28.25 84.75" in text and "IVA 13 % incluido 9.75" in text and "TOTAL (USD) 84.75" in text
    assert "exonerado" not in text.lower()
