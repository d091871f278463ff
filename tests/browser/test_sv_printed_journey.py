"""El Salvador through the console: the seller chooses factura (01) or comprobante de crédito fiscal
(03) on the document form (it follows the customer: a taxpayer with an NRC gets 03), and the PDF the
buyer gets, downloaded from the document page and read back with pypdf, is the DTE sent to Hacienda:
its número de control and código de generación, and its amounts per type (a factura's prices with
IVA inside; a crédito fiscal's net with the IVA apart). The list and the home name each document by
its número de control and its type by the authority's name. Screenshots in es and en at 1280 and
390 px."""
from __future__ import annotations

import io
import re
import uuid
from pathlib import Path

from pypdf import PdfReader

from infra.devstack.dte_authority import register_taxpayer
from tests.browser.test_el_salvador_journey import NIT, PASSWORD, ok, open_sv_company
from tests.dte_keys import SIGNING_KEY
from tests.dte_support import CUSTOMER_NIT


def shots(console, name: str) -> None:
    """The page in both languages at desktop (1280) and phone (390) widths."""
    page = console.page
    for language in ("es", "en"):
        page.select_option("#language", language)
        console.wait_loaded()
        for width in (1280, 390):
            page.set_viewport_size({"width": width, "height": 860})
            console.shot(f"{name}-{language}-{width}")
    page.set_viewport_size({"width": 1280, "height": 860})
    page.select_option("#language", "es")
    console.wait_loaded()


def issue_from_the_form(console, partner: dict, product: dict, expected_type: str, name: str) -> dict:
    """3 x 25.00 at IVA 13 % to `partner`, the DTE type the form shows for it kept (then chosen again,
    as a person would confirm it), submitted; the document as the API answers it."""
    page = console.page
    console.goto("/documents/new")
    assert page.locator("#docform-dteType").is_visible() and page.locator("#docform-exoneration").is_hidden()
    console.pick("businessPartnerId", partner)
    page.wait_for_function("(code) => document.getElementById('f-dteType').value === code", arg=expected_type)
    page.select_option("#f-dteType", expected_type)
    console.pick("lines-0-productId", product)
    page.fill("#f-lines-0-quantity", "3")
    # 3 x 25.00 = 75.00 + IVA 13 % 9.75 = 84.75
    page.wait_for_function("() => document.querySelector('#docform-total strong').textContent.includes('84.75')")
    console.shot(f"{name}-form")
    page.click("#document-form button[type=submit]")
    page.wait_for_selector("#dte-status[data-status='accepted']")
    console.wait_loaded()
    document_id = int(re.search(r"#/documents/(\d+)", page.url).group(1))
    document = ok(console.as_session("GET", f"/documents/{document_id}"))
    assert (document["dteType"], document["dte"]["tipoDte"]) == (expected_type, expected_type)
    # the page names it as the buyer's document does
    assert document["dte"]["numeroControl"] in page.inner_text(".page-header h1")
    return document


def downloaded_pdf_text(console) -> str:
    page = console.page
    with page.expect_download() as downloading:
        page.click(".page-header .pdf-download-button")
    pdf = Path(downloading.value.path()).read_bytes()
    assert downloading.value.suggested_filename.endswith(".pdf") and "DTE-" in downloading.value.suggested_filename
    return " ".join(" ".join(p.extract_text() for p in PdfReader(io.BytesIO(pdf)).pages).split())


def test_an_sv_factura_and_credito_fiscal_chosen_on_the_form_print_as_their_dtes(console, demo, stack):
    page, tag = console.page, uuid.uuid4().hex[:6]
    console.login_to_company(demo["email"], demo["password"], demo["companyId"])
    try:
        company = open_sv_company(console, f"Librería Salvadoreña {tag}", "facturas@libreria.example")
        ok(console.as_session("PUT", f"/companies/{company['id']}/dte-signing-key", {"privateKey": SIGNING_KEY}))
        key = ok(console.as_session("GET", f"/companies/{company['id']}/dte-signing-key"))
        ok(console.as_session("PUT", f"/companies/{company['id']}/dte-authority-credentials", {"password": PASSWORD}))
        authority = re.search(r"El Salvador's tax authority: (\S+)", stack[0].read_log()).group(1)
        register_taxpayer(authority, NIT.replace("-", ""), PASSWORD, key["publicKey"])
        consumer = ok(console.as_session("POST", "/business-partners", {
            "name": f"Consumidor {tag}", "type": "customer", "taxId": CUSTOMER_NIT, "email": "c@libreria.example"}))
        taxpayer = ok(console.as_session("POST", "/business-partners", {
            "name": f"Empresa Beta {tag}", "type": "customer", "taxId": "0614-020202-102-4", "nrc": "765432-1",
            "economicActivityCode": "62010", "economicActivity": "Programación informática", "department": "06",
            "municipality": "14", "address": "Colonia Escalón, San Salvador", "email": "compras@beta.example",
            "phone": "2555-0000"}))
        product = ok(console.as_session("POST", "/products", {"code": f"L-{tag}", "name": "Libro de texto",
                                                             "type": "service", "unitPrice": 25, "taxRate": 0.13}))
        page.reload()
        console.wait_loaded()

        # the factura to a consumer (no NRC: the form shows 01)
        factura = issue_from_the_form(console, consumer, product, "01", "factura")
        text = downloaded_pdf_text(console)
        dte = factura["dte"]
        assert f"FACTURA No. {dte['numeroControl']}" in text and dte["codigoGeneracion"] in text, text
        assert factura["number"] not in text
        # a factura's amounts with the IVA inside: 25.00 x 1.13 = 28.25; 3 x 28.25 = 84.75, of which IVA 9.75
        assert "Libro de texto 3 28.25 0.00 84.75" in text, text
        assert "IVA 13 % incluido 9.75" in text and "TOTAL A PAGAR (USD) 84.75" in text
        assert "exonerado" not in text.lower()
        shots(console, "factura-page")

        # the crédito fiscal to a taxpayer (an NRC: the form shows 03)
        credito = issue_from_the_form(console, taxpayer, product, "03", "credito-fiscal")
        assert "Comprobante de crédito fiscal" in page.inner_text(".page-header h1")
        text = downloaded_pdf_text(console)
        dte = credito["dte"]
        assert f"COMPROBANTE DE CRÉDITO FISCAL No. {dte['numeroControl']}" in text and \
            dte["codigoGeneracion"] in text, text
        # net of IVA: 3 x 25.00 = 75.00; IVA 13 % 9.75 apart; 75.00 + 9.75 = 84.75
        assert "Libro de texto 3 25.00 0.00 75.00" in text and "IVA 13 % 9.75" in text
        assert "TOTAL A PAGAR (USD) 84.75" in text and "exonerado" not in text.lower()
        shots(console, "credito-fiscal-page")

        # the list and the home name both by their número de control, the 03 by its title
        console.goto("/documents")
        listed = page.inner_text("table.grid")
        for document in (factura, credito):
            assert document["dte"]["numeroControl"] in listed and document["number"] not in listed
        assert "Comprobante de crédito fiscal" in listed
        shots(console, "documents-list")
        console.goto("/")
        latest = page.locator("table.grid", has=page.locator(f"a[href='#/documents/{factura['id']}']")).inner_text()
        assert factura["dte"]["numeroControl"] in latest and credito["dte"]["numeroControl"] in latest
        shots(console, "home")
        assert not console.errors
    finally:
        console.as_session("POST", "/auth/switch-company", {"companyId": demo["companyId"]})
