"""Refunds and drafts through the console: a credit note left over after its invoice was paid is
refunded to the customer from the note's page (its pending falls to 0, the payment reads
"Reembolso"); a delivery takes an advance like an order; one draft quote is cancelled with a
reason, another is refused deletion while it holds an advance (the API's words shown) and deleted
once that advance is cancelled."""
from __future__ import annotations

import uuid

from tests.browser.conftest import amount, api_call
from tests.browser.test_sales_journey import ensure_sales_setup


def created(base: str, key: str, path: str, body: dict) -> dict:
    status, _, answer = api_call(base, "POST", path, key, body)
    assert status == 201, answer
    return answer


def customer(base: str, key: str, tag: str) -> dict:
    return created(base, key, "/business-partners", {
        "name": f"Cliente reembolso {tag}", "type": "customer", "taxId": f"0801{int(tag, 16) % 10**10:010d}"})


def document(base: str, key: str, doc_type: str, partner_id: int, quantity: int, price: int, **extra) -> dict:
    return created(base, key, "/documents", {
        "type": doc_type, "businessPartnerId": partner_id, **extra,
        "lines": [{"description": f"Servicio de prueba {doc_type}", "quantity": quantity, "unitPrice": price,
                   "taxRate": 0.15}]})


def payments_of(base: str, key: str, document_id: int) -> list[dict]:
    return api_call(base, "GET", f"/payments/documents/{document_id}/payments", key)[2]["payments"]


def test_a_credit_note_is_refunded_through_the_payment_dialog(console, demo, stack):
    base, key, page = stack[0].base, demo["apiKey"], console.page
    method_id = ensure_sales_setup(base, key)
    tag = uuid.uuid4().hex[:6]
    partner = customer(base, key, tag)
    invoice = document(base, key, "01", partner["id"], 2, 100)                       # 200 + 15 % = 230.00
    created(base, key, f"/payments/documents/{invoice['id']}/payments", {"paymentMethodId": method_id, "amount": 230})
    note = document(base, key, "06", partner["id"], 1, 100, sourceDocumentId=invoice["id"])   # 115.00
    assert note["status"] == "confirmed" and note["pending"] == 115, note

    console.login_to_company(demo["email"], demo["password"], demo["companyId"])
    console.goto(f"/documents/{note['id']}")
    assert amount(page.inner_text("#doc-pending")) == 115.0
    assert page.locator(".page-header button:has-text('Registrar pago')").count() == 0
    console.shot("credit-note")

    page.click(".page-header button:has-text('Reembolsar')")
    dialog = page.locator("dialog")
    assert dialog.locator("h2").inner_text() == "Reembolsar"
    assert amount(dialog.locator("#f-amount").input_value()) == 115.0  # defaults to what the note leaves
    dialog.locator("#f-paymentMethodId").select_option(str(method_id))
    dialog.locator("#f-reference").fill(f"DEV-{tag}")
    console.shot("refund-dialog")
    dialog.locator("button[type=submit]").click()
    dialog.wait_for(state="detached")
    page.wait_for_function("() => Number(document.querySelector('#doc-pending')?.dataset.amount) === 0")
    console.wait_loaded()
    row = page.locator("table.grid tbody tr", has_text=f"DEV-{tag}")
    assert "Reembolso" in row.inner_text() and row.locator(".badge-confirmed").count() == 1
    assert amount(page.inner_text("#doc-paid")) == 115.0
    assert page.locator(".page-header button:has-text('Reembolsar')").count() == 0  # nothing left to refund
    console.shot("credit-note-refunded")

    held = api_call(base, "GET", f"/documents/{note['id']}", key)[2]
    assert held["pending"] == 0 and held["paidTotal"] == 115
    assert [(p["kind"], p["amount"], p["reference"]) for p in payments_of(base, key, note["id"])] == \
           [("refund", 115, f"DEV-{tag}")]
    # invoice +230, paid -230, note -115, refunded +115: the customer is square
    assert api_call(base, "GET", f"/business-partners/{partner['id']}", key)[2]["receivableBalance"] == 0
    assert not console.errors


def test_drafts_are_cancelled_or_deleted_and_a_delivery_takes_an_advance(console, demo, stack):
    base, key, page = stack[0].base, demo["apiKey"], console.page
    method_id = ensure_sales_setup(base, key)
    tag = uuid.uuid4().hex[:6]
    partner = customer(base, key, tag)
    declined = document(base, key, "100", partner["id"], 1, 100, reference=f"COT-A-{tag}")
    dropped = document(base, key, "100", partner["id"], 2, 50, reference=f"COT-B-{tag}")
    spare = document(base, key, "100", partner["id"], 1, 30, reference=f"COT-C-{tag}")
    delivery = document(base, key, "112", partner["id"], 1, 40)                      # 40 + 6 = 46.00
    assert declined["status"] == dropped["status"] == "draft" and delivery["status"] == "confirmed"

    console.login_to_company(demo["email"], demo["password"], demo["companyId"])

    # a delivery is paid on delivery: an advance, as an order takes
    console.goto(f"/documents/{delivery['id']}")
    page.click(".page-header button:has-text('Registrar anticipo')")
    dialog = page.locator("dialog")
    assert amount(dialog.locator("#f-amount").input_value()) == 46.0
    dialog.locator("#f-paymentMethodId").select_option(str(method_id))
    dialog.locator("button[type=submit]").click()
    dialog.wait_for(state="detached")
    page.wait_for_function("() => Number(document.querySelector('#doc-advances')?.dataset.amount) === 46")
    console.wait_loaded()
    advance_row = page.locator("table.grid tbody tr", has_text="Anticipo")
    assert advance_row.count() == 1 and advance_row.locator(".badge-confirmed").count() == 1
    assert page.locator(".page-header button:has-text('Registrar anticipo')").count() == 0  # its total taken
    console.shot("delivery-advance")
    assert [(p["kind"], p["amount"]) for p in payments_of(base, key, delivery["id"])] == [("advance", 46)]

    # a declined quote: cancelled with its reason, nothing posted
    console.goto(f"/documents/{declined['id']}")
    assert "Borrador" in page.inner_text(".facts")
    page.click(".page-header button:has-text('Cancelar')")
    dialog = page.locator("dialog")
    dialog.locator("#f-reason").fill("El cliente no aceptó")
    console.shot("cancel-dialog")
    dialog.locator("button[type=submit]").click()
    dialog.wait_for(state="detached")
    page.wait_for_selector(".facts .badge-cancelled")
    console.wait_loaded()
    assert "El cliente no aceptó" in page.inner_text(".facts")
    assert page.locator(".page-header button:has-text('Cancelar'), .page-header button:has-text('Eliminar')").count() == 0
    console.shot("quote-cancelled")
    held = api_call(base, "GET", f"/documents/{declined['id']}", key)[2]
    assert (held["status"], held["cancelReason"], held["journalEntryId"]) == ("cancelled", "El cliente no aceptó", None)

    # a quote holding an advance: deletion refused, in the API's words; once the advance is
    # cancelled it stays on record, so the quote is cancelled rather than deleted
    console.goto(f"/documents/{dropped['id']}")
    page.click(".page-header button:has-text('Registrar anticipo')")
    dialog = page.locator("dialog")
    dialog.locator("#f-paymentMethodId").select_option(str(method_id))
    dialog.locator("#f-amount").fill("20")
    dialog.locator("button[type=submit]").click()
    dialog.wait_for(state="detached")
    page.wait_for_function("() => Number(document.querySelector('#doc-advances')?.dataset.amount) === 20")
    console.wait_loaded()
    # while it holds the advance, neither deleting nor cancelling is offered (allowedActions),
    # and the API refuses them in its words
    assert page.locator(".page-header button:has-text('Eliminar'), .page-header "
                        "button:has-text('Cancelar')").count() == 0
    console.shot("delete-not-offered")
    status, _, refusal = console.as_session("DELETE", f"/documents/{dropped['id']}")
    assert status == 400 and refusal["code"] == "DOCUMENT_HAS_PAYMENTS" and "holds advances" in refusal["message"]

    page.locator("table.grid tbody tr", has_text="Anticipo").locator("button:has-text('Anular pago')").click()
    dialog = page.locator("dialog")
    dialog.locator("#f-reason").fill("Devuelto al cliente")
    dialog.locator("button[type=submit]").click()
    dialog.wait_for(state="detached")
    page.wait_for_function("() => Number(document.querySelector('#doc-advances')?.dataset.amount) === 0")
    console.wait_loaded()
    page.click(".page-header button:has-text('Eliminar')")
    console.confirm()
    page.wait_for_selector(".toast-error:has-text('pagos registrados')")  # the API's answer, in Spanish
    assert api_call(base, "GET", f"/documents/{dropped['id']}", key)[0] == 200
    page.click(".page-header button:has-text('Cancelar')")
    dialog = page.locator("dialog")
    dialog.locator("#f-reason").fill("Desistió")
    dialog.locator("button[type=submit]").click()
    dialog.wait_for(state="detached")
    page.wait_for_selector(".facts .badge-cancelled")
    console.wait_loaded()

    # a draft that never took money is deleted, and the page goes back to the list
    console.goto(f"/documents/{spare['id']}")
    page.click(".page-header button:has-text('Eliminar')")
    console.shot("delete-confirm", full_page=False)
    console.confirm()
    page.wait_for_function("() => location.hash === '#/documents'")
    console.wait_loaded()
    console.shot("documents-after-delete")
    assert api_call(base, "GET", f"/documents/{spare['id']}", key)[0] == 404
    assert not console.errors
