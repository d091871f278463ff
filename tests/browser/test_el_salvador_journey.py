"""El Salvador through the console: a new SV company (its issuer data set through the API, as
tests/dte_support.py does) uploads its signing key (a PEM file) and the tax authority's password in
the company settings, neither ever shown back; registered at the stand-in authority the stack sends
DTEs to, it issues an invoice from the form (the
customer and the product found by typing), sees the DTE as the API answers it (status, control
number, generation code, seal, processing date), has an invalidation refused by the API and shown
beside its field, then invalidated through the dialog, and sees the status change. The DTE's JSON
(what the buyer is handed) downloads from its section. A customer abroad (country US, a legal
person, its activity) made in the partner dialog buys through an export invoice: its line's
treatment Exportación and the form's export terms make a factura de exportación (DTE 11) the
authority accepts. Screenshots in Spanish and English."""
from __future__ import annotations

import json
import re
import uuid
from pathlib import Path

from infra.devstack.dte_authority import register_taxpayer
from tests.documents_support import SV_ISSUER
from tests.dte_keys import SIGNING_KEY
from tests.dte_support import CUSTOMER_NIT

NIT = "0614-311299-101-6"  # the journey's own taxpayer at the stand-in (the API tests register another)
PASSWORD = "clave-de-la-consola"
RESPONSIBLE = {"name": "Marta Ruiz", "documentType": "13", "documentNumber": "01234567-8"}


def ok(answer: tuple, *statuses: int) -> dict:
    status, _, body = answer
    assert status in (statuses or (200, 201)), body
    return body


def open_sv_company(console, name: str, email: str) -> dict:
    """A new El Salvador company, the console switched to it, its chart and issuer's data set through the
    API (as tests/dte_support.py does); the caller switches back to the demo company when done."""
    company = ok(console.as_session("POST", "/companies", {"name": name, "country": "SV"}))
    console.page.reload()  # the switcher names the new company
    console.wait_loaded()
    console.switch_company(company["id"])
    ok(console.as_session("POST", "/chart-of-accounts/import-default"))
    ok(console.as_session("PUT", f"/companies/{company['id']}", {
        "currency": "USD", "taxId": NIT, "address": "Calle Arce 123, San Salvador", "phone": "2222-3333",
        "email": email, "dteIssuer": {**SV_ISSUER, "responsible": RESPONSIBLE}}))
    return company


def switch_language(console, language: str) -> None:
    console.page.select_option("#language", language)
    console.wait_loaded()


def both_languages(console, name: str) -> None:
    console.shot(f"{name}-es")
    switch_language(console, "en")
    console.shot(f"{name}-en")
    switch_language(console, "es")


def sell_abroad(console, tag: str, product: dict) -> None:
    """A customer abroad from the partner dialog (an SV company's dialog offers the SV fields),
    then its export invoice from the form: the line's treatment Exportación (no IVA) and the
    export's terms; the DTE the authority accepts is a 11."""
    page = console.page
    console.goto("/partners")
    page.click("text=Nuevo cliente o proveedor")
    dialog = page.locator("dialog")
    dialog.locator("#f-name").fill(f"Importadora del Norte {tag}")
    dialog.locator("#f-taxId").fill("98-7654321")
    dialog.locator("#f-country").fill("us")  # the console sends ISO codes upper case
    dialog.locator("#f-personType").select_option("legal")
    assert dialog.locator("#f-nrc").is_visible() and dialog.locator("#f-department").is_visible()
    dialog.locator("#f-economicActivity").fill("Comercio al por mayor")
    dialog.locator("#f-email").fill("compras@norte.example")
    dialog.locator("#f-phone").fill("+1 713 555 0100")
    dialog.locator("#f-address").fill("100 Main Street, Houston")
    console.shot("abroad-dialog")
    dialog.locator("button[type=submit]").click()
    dialog.wait_for(state="detached")
    found = ok(console.as_session("GET", f"/business-partners?q=Importadora+{tag}"))["businessPartners"]
    (abroad,) = found
    assert (abroad["country"], abroad["personType"], abroad["economicActivity"]) == ("US", "legal", "Comercio al por mayor")
    console.goto(f"/partners/{abroad['id']}")
    assert page.inner_text("#partner-country") == "US · Estados Unidos"
    assert page.inner_text("#partner-economicActivity") == "Comercio al por mayor"
    both_languages(console, "customer-abroad")

    console.goto("/documents/new")
    assert page.locator("#docform-export").is_visible() and page.locator("#docform-exoneration").is_hidden()
    console.pick("businessPartnerId", abroad)
    console.pick("lines-0-productId", product)  # 80.00 at IVA 13 %
    page.select_option("#f-lines-0-taxTreatment", "export")
    assert page.input_value("#f-lines-0-taxRate") == "0" and page.locator("#f-lines-0-taxRate").is_disabled()
    page.fill("#f-lines-0-quantity", "3")
    # 3 x 80.00 = 240.00 exported: no IVA, the total is the subtotal
    page.wait_for_function("() => document.querySelector('#docform-total strong').textContent.includes('240.00')")
    assert "0.00" in page.inner_text("#docform-tax")
    page.fill("#f-export-countryCode", "9450")  # CAT-020: Estados Unidos
    page.fill("#f-export-countryName", "Estados Unidos")
    page.fill("#f-export-incoterms", "01")
    page.fill("#f-export-incotermsDescription", "EXW - En fábrica")
    console.shot("export-form")
    page.click("#document-form button[type=submit]")
    page.wait_for_selector("#dte-status[data-status='accepted']")
    console.wait_loaded()
    document_id = int(re.search(r"#/documents/(\d+)", page.url).group(1))
    exported = ok(console.as_session("GET", f"/documents/{document_id}"))
    assert (exported["dte"]["tipoDte"], exported["dte"]["status"]) == ("11", "accepted")
    assert exported["export"] == {"countryCode": "9450", "countryName": "Estados Unidos", "incoterms": "01",
                                  "incotermsDescription": "EXW - En fábrica"}
    (line,) = exported["lines"]
    assert (line["taxTreatment"], line["taxRate"], line["tax"]) == ("export", 0, 0)
    assert (exported["subtotal"], exported["taxTotal"], exported["total"]) == (240, 0, 240)
    assert page.inner_text("#doc-export-countryCode") == "9450"
    assert page.inner_text("#dte-tipo") == "11 · Factura de exportación"
    assert page.inner_text("#dte-version") == "FEX v1"
    assert page.inner_text("td.line-treatment") == "Exportación"
    both_languages(console, "export-invoice")


def test_an_el_salvador_company_signs_issues_and_invalidates_a_dte(console, demo, stack, tmp_path):
    page, tag = console.page, uuid.uuid4().hex[:6]
    console.login_to_company(demo["email"], demo["password"], demo["companyId"])
    try:
        # what the API sets up: the chart, the issuer's data, a customer and a service
        company = open_sv_company(console, f"Comercial Cuscatlán {tag}", "facturas@cuscatlan.example")
        # a consumer named by NIT and e-mail: a factura's invalidation names both
        customer = ok(console.as_session("POST", "/business-partners", {
            "name": f"Cliente Consola {tag}", "type": "customer", "taxId": CUSTOMER_NIT,
            "email": "cliente@consola.example"}))
        product = ok(console.as_session("POST", "/products", {"code": f"SV-{tag}", "name": "Consultoría contable",
                                                             "type": "service", "unitPrice": 80, "taxRate": 0.13}))
        page.reload()  # the session's company as the API now holds it (USD, the issuer)
        console.wait_loaded()

        # settings: the key from a PEM file, the password; what the page shows is the API's answer
        console.goto("/settings/company")
        assert page.locator("#dte-key-none").is_visible() and page.locator("#dte-password-none").is_visible()
        pem = tmp_path / "llave-privada.pem"
        pem.write_text(SIGNING_KEY)
        page.set_input_files("#f-privateKeyFile", str(pem))
        page.wait_for_function("() => document.getElementById('f-privateKey').value.startsWith('-----BEGIN')")
        page.click("#dte-key-form button[type=submit]")
        page.wait_for_selector("#dte-key-fingerprint")
        key = ok(console.as_session("GET", f"/companies/{company['id']}/dte-signing-key"))
        assert page.inner_text("#dte-key-fingerprint") == key["fingerprint"]
        assert page.input_value("#f-privateKey") == ""  # the key does not stay on the page
        page.fill("#f-password", PASSWORD)
        page.click("#dte-password-form button[type=submit]")
        page.wait_for_selector("#dte-password-user")
        assert page.inner_text("#dte-password-user") == NIT.replace("-", "") and page.input_value("#f-password") == ""
        console.goto("/settings/company")  # read again: neither secret is ever answered
        assert page.inner_text("#dte-key-fingerprint") == key["fingerprint"]
        assert PASSWORD not in page.content() and "PRIVATE KEY" not in page.inner_text("#dte-settings")
        both_languages(console, "dte-settings")
        # what the company does once in the authority's portal, at the stand-in the stack sends DTEs to
        authority = re.search(r"El Salvador's tax authority: (\S+)", stack[0].read_log()).group(1)
        register_taxpayer(authority, NIT.replace("-", ""), PASSWORD, key["publicKey"])

        # the invoice: customer and product typed, IVA 13 %
        console.goto("/documents/new")
        console.pick("businessPartnerId", customer)
        console.pick("lines-0-productId", product)
        assert page.input_value("#f-lines-0-description") == "Consultoría contable"
        assert page.input_value("#f-lines-0-taxRate") == "0.13"
        page.fill("#f-lines-0-quantity", "2")
        page.wait_for_function("() => document.querySelector('#docform-total strong').textContent.includes('180.80')")
        console.shot("invoice-form")
        page.click("#document-form button[type=submit]")
        page.wait_for_selector("#dte-status")
        console.wait_loaded()
        document_id = int(re.search(r"#/documents/(\d+)", page.url).group(1))
        document = ok(console.as_session("GET", f"/documents/{document_id}"))
        dte = document["dte"]
        assert dte["status"] == "accepted" and page.get_attribute("#dte-status", "data-status") == "accepted"
        assert page.inner_text("#dte-numero-control") == dte["numeroControl"]
        # no formats2026From: issued in the earlier formats, fe-fc-v1
        assert dte["version"] == 1 and page.inner_text("#dte-version") == "FE v1"
        assert page.inner_text("#dte-codigo-generacion") == dte["codigoGeneracion"] == document["codigoGeneracion"]
        assert page.inner_text("#dte-sello") == dte["selloRecepcion"]
        assert page.get_attribute("#dte-processed-at", "data-at") == dte["acceptedAt"]
        # the file handed to the buyer: the DTE as the authority received it, with its seal
        with page.expect_download() as downloading:
            page.click("#dte .dte-download-json")
        assert downloading.value.suggested_filename == f"{dte['codigoGeneracion']}.json"
        handed = json.loads(Path(downloading.value.path()).read_bytes())
        assert handed["identificacion"]["codigoGeneracion"] == dte["codigoGeneracion"]
        assert handed["selloRecibido"] == dte["selloRecepcion"]
        # an accepted DTE is invalidated, not cancelled: the buttons are the API's allowedActions
        assert document["allowedActions"] == ["invalidate", "pay", "applyAdvances", "print", "send"]
        assert page.locator(".page-header .invalidate-button").count() == 1
        assert page.locator(".page-header button:has-text('Anular')").count() == 0
        both_languages(console, "invoice-dte")

        # the invalidation: refused by the API first (type 3 needs a reason of 5 characters), then taken
        page.click(".page-header .invalidate-button")
        dialog = page.locator("dialog")
        assert dialog.locator("[id='f-responsible.name']").input_value() == RESPONSIBLE["name"]  # the issuer's
        assert dialog.locator("[id='f-replacementDocumentId']").is_hidden()  # asked only by type 1
        dialog.locator("#f-invalidationType").select_option("1")
        assert dialog.locator("[id='f-replacementDocumentId']").is_visible()
        dialog.locator("#f-invalidationType").select_option("3")
        dialog.locator("#f-reason").fill("Mal")
        dialog.locator("[id='f-requester.name']").fill(f"Cliente Consola {tag}")
        dialog.locator("[id='f-requester.documentType']").select_option("36")
        dialog.locator("[id='f-requester.documentNumber']").fill("06140202021024")
        dialog.locator("button[type=submit]").click()
        refusal = dialog.locator("[data-error-for='reason']")
        refusal.wait_for()
        assert page.get_attribute("#dte-status", "data-status") == "accepted"  # nothing was sent
        console.shot("invalidate-refused", full_page=False)
        dialog.locator("#f-invalidationType").select_option("2")
        dialog.locator("#f-reason").fill("El cliente desistió de la compra")
        console.shot("invalidate-dialog", full_page=False)
        dialog.locator("button[type=submit]").click()
        dialog.wait_for(state="detached")
        page.wait_for_selector("#dte-status[data-status='invalidated']")
        console.wait_loaded()
        invalidated = ok(console.as_session("GET", f"/documents/{document_id}"))
        record = invalidated["dte"]["invalidation"]
        assert invalidated["status"] == "cancelled" and invalidated["dte"]["status"] == "invalidated"
        assert (record["type"], record["reason"]) == (2, "El cliente desistió de la compra")
        assert page.inner_text("#dte-invalidation-sello") == record["selloRecepcion"]
        assert page.inner_text("#dte-invalidation-codigo") == record["codigoGeneracion"]
        assert invalidated["allowedActions"] == ["print", "send"]
        assert page.locator(".page-header .invalidate-button").count() == 0
        both_languages(console, "invoice-invalidated")
        sell_abroad(console, tag, product)
        assert not console.errors
    finally:
        console.as_session("POST", "/auth/switch-company", {"companyId": demo["companyId"]})
