"""Credit notes and copies from the console (issue 38, point 1), in Spanish and in English: an
invoice's page offers "Nota de crédito", "Nota de débito" and "Duplicar"; the credit note opens the
document form with the invoice picked as the document it corrects and the invoice's lines filled in,
editable; saved, the note refers to the invoice through the API. A note without its invoice is
refused once, beside the field the form labels, in the person's language, with no "Documento
creado." notice left beside it. "Duplicar" makes a draft copy."""
from __future__ import annotations

import re
import uuid

import pytest

from tests.browser.conftest import amount, api_call
from tests.browser.test_refund_journey import created, customer
from tests.browser.test_sales_journey import ensure_sales_setup

WORDS = {
    "es": {"credit": "Nota de crédito", "debit": "Nota de débito", "duplicate": "Duplicar",
           "source": "Factura que corrige", "created": "Documento creado.",
           "refusal": "obligatorio: la factura (01) o factura de reserva (113) que corrige esta nota de crédito",
           "fields": "No se guardó: corrija los campos marcados.", "copy": "Copia de"},
    "en": {"credit": "Credit note", "debit": "Debit note", "duplicate": "Duplicate",
           "source": "Invoice it corrects", "created": "Document created.",
           "refusal": "required: the sales invoice (01) or reservation invoice (113) this credit note corrects",
           "fields": "Not saved: correct the fields marked.", "copy": "Copy of"},
}


def choose_language(console, language: str) -> None:
    if console.page.locator("#language").input_value() != language:
        console.page.locator("#language").select_option(language)
        console.wait_loaded()


def shots_at_two_widths(console, name: str) -> None:
    """The page at a desktop's 1280 px and a phone's 390 px, back to 1280 afterwards."""
    console.shot(f"{name}-1280")
    console.page.set_viewport_size({"width": 390, "height": 844})
    console.page.wait_for_timeout(150)
    console.shot(f"{name}-390")
    console.page.set_viewport_size({"width": 1280, "height": 860})


def once_on_screen(page, text: str) -> int:
    return page.evaluate("text => document.body.innerText.split(text).length - 1", text)


@pytest.mark.parametrize("language", ["es", "en"])
def test_a_credit_note_and_a_copy_from_an_invoice(console, demo, stack, language):
    base, key, page, words = stack[0].base, demo["apiKey"], console.page, WORDS[language]
    ensure_sales_setup(base, key)
    tag = uuid.uuid4().hex[:6]
    partner = customer(base, key, tag)
    service = created(base, key, "/products", {"code": f"NC-{tag}", "name": f"Mantenimiento {tag}", "type": "service",
                                               "unitPrice": 100, "taxRate": 0.15})
    # 2 x 100.00 = 200.00, ISV 15 % = 30.00: 230.00
    invoice = created(base, key, "/documents", {"type": "01", "businessPartnerId": partner["id"], "lines": [
        {"productId": service["id"], "description": f"Mantenimiento {tag}", "quantity": 2, "unitPrice": 100,
         "taxRate": 0.15}]})
    assert (invoice["status"], invoice["total"]) == ("confirmed", 230)

    console.login_to_company(demo["email"], demo["password"], demo["companyId"])
    choose_language(console, language)
    console.goto(f"/documents/{invoice['id']}")
    header = page.locator(".page-header")
    assert header.locator("button.note-06").inner_text() == words["credit"]
    assert header.locator("button.note-07").inner_text() == words["debit"]
    assert header.locator("button.duplicate-button").inner_text() == words["duplicate"]
    shots_at_two_widths(console, f"{language}-invoice-actions")

    # the credit note starts from the invoice: its partner, the invoice picked, its lines filled in
    header.locator("button.note-06").click()
    console.wait_loaded()
    assert page.inner_text("h1") == f"{words['credit']} {'de' if language == 'es' else 'for'} {invoice['number']}"
    assert page.input_value("#f-type") == "06"
    assert page.input_value("#f-businessPartnerId") == str(partner["id"])
    assert page.input_value("#f-sourceDocumentId") == str(invoice["id"])
    assert page.inner_text("label[for='f-sourceDocumentId-search']") == words["source"]
    page.wait_for_function("n => document.getElementById('f-sourceDocumentId-search').value.startsWith(n)",
                           arg=invoice["number"])
    assert page.input_value("#f-lines-0-productId") == str(service["id"])
    assert page.input_value("#f-lines-0-description") == f"Mantenimiento {tag}"
    assert page.input_value("#f-lines-0-quantity") == "2" and amount(page.input_value("#f-lines-0-unitPrice")) == 100
    assert page.input_value("#f-lines-0-taxRate") == "0.15"
    # one of the two units comes back: 1 x 100.00 = 100.00 + 15.00 ISV = 115.00
    page.fill("#f-lines-0-quantity", "1")
    page.wait_for_function("() => document.querySelector('#docform-total strong').textContent.includes('115.00')")
    shots_at_two_widths(console, f"{language}-credit-note-form")
    page.click("#document-form button[type=submit]")
    page.wait_for_selector("[data-page='document.render'] #doc-number")
    console.wait_loaded()
    note_id = int(re.search(r"#/documents/(\d+)", page.url).group(1))
    note = api_call(base, "GET", f"/documents/{note_id}", key)[2]
    assert (note["type"], note["status"], note["sourceDocumentId"]) == ("06", "confirmed", invoice["id"])
    assert note["businessPartnerId"] == partner["id"] and note["lines"][0]["productId"] == service["id"]
    # 1 x 100.00 = 100.00; ISV 15 % of 100.00 = 15.00; 115.00
    assert (note["subtotal"], note["taxTotal"], note["total"]) == (100, 15, 115)
    # the customer owes the invoice's 230.00 less the note's 115.00 = 115.00
    assert api_call(base, "GET", f"/business-partners/{partner['id']}", key)[2]["receivableBalance"] == 115
    console.shot(f"{language}-credit-note")

    # at once a note without its invoice (the "Documento creado." notice still showing): refused
    # once, beside the field as the form labels it, and the notice no longer beside the refusal
    console.goto(f"/documents/new?type=06&businessPartnerId={partner['id']}")
    page.wait_for_function("() => document.getElementById('f-businessPartnerId-search').value !== ''")
    page.fill("#f-lines-0-description", "Descuento")
    page.fill("#f-lines-0-unitPrice", "10")
    before = api_call(base, "GET", "/documents?limit=1", key)[2]["total"]
    page.click("#document-form button[type=submit]")
    beside = page.wait_for_selector("#docform-source [data-error-for='sourceDocumentId']")
    assert beside.inner_text() == words["refusal"]
    assert page.locator("#docform-source > label").inner_text() == words["source"]
    assert page.locator("#f-sourceDocumentId-search").get_attribute("aria-invalid") == "true"
    assert once_on_screen(page, words["refusal"]) == 1
    assert page.inner_text(".form-error") == words["fields"]
    assert "sourceDocumentId" not in page.evaluate("() => document.body.innerText")
    assert page.locator("#toasts .toast-ok").count() == 0 and once_on_screen(page, words["created"]) == 0
    shots_at_two_widths(console, f"{language}-refusal")
    assert api_call(base, "GET", "/documents?limit=1", key)[2]["total"] == before

    # "Duplicar": the invoice again as a draft, its lines as they were
    console.goto(f"/documents/{invoice['id']}")
    page.locator(".page-header button.duplicate-button").click()
    console.wait_loaded()
    assert page.inner_text("h1") == f"{words['copy']} {invoice['number']}"
    assert page.input_value("#f-type") == "01" and page.is_checked("#f-draft")
    assert page.locator("#docform-source").is_hidden()
    # as the invoice: 2 x 100.00 + 15 % = 230.00
    page.wait_for_function("() => document.querySelector('#docform-total strong').textContent.includes('230.00')")
    page.click("#document-form button[type=submit]")
    page.wait_for_selector("[data-page='document.render'] #doc-number")
    console.wait_loaded()
    copy_id = int(re.search(r"#/documents/(\d+)", page.url).group(1))
    copy = api_call(base, "GET", f"/documents/{copy_id}", key)[2]
    assert copy_id != invoice["id"] and (copy["type"], copy["status"], copy["number"]) == ("01", "draft", None)
    assert copy["businessPartnerId"] == partner["id"] and (copy["subtotal"], copy["taxTotal"], copy["total"]) == (200, 30, 230)
    assert [(line["productId"], line["quantity"], line["unitPrice"]) for line in copy["lines"]] == [(service["id"], 2, 100)]
    console.shot(f"{language}-copy")
    choose_language(console, "es")  # the next test finds the console as it was
    assert not console.errors
