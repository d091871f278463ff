"""A sale through the console: a new customer and product, an invoice with its CAI number, its PDF
previewed and downloaded, a part payment that lowers what is pending, an invoice to an exonerated
buyer (its registers typed in the form, its lines without ISV); and a bad invoice whose API
refusals show beside the fields they name."""
from __future__ import annotations

import datetime
import re
import uuid
from pathlib import Path

from tests.browser.conftest import all_items, api_call

FISCAL_NUMBER = re.compile(r"^\d{3}-001-01-\d{8}$")
CAI_CODE = "A1B2C3-D4E5F6-0A1B2C-3D4E5F-6A7B8C-9D"
# the series SAR numbers: a Honduran document of these types needs a CAI range
CAI_SERIES = ("01", "06", "07", "112", "05")


def ensure_sales_setup(base: str, key: str) -> int:
    """A usable CAI range of branch 1, emission point 001, for every series SAR numbers (invoices,
    credit and debit notes, guías de remisión, withholding certificates), and a payment method
    that confirms at once (cash: no bank account needed, the cash rule takes the money side).
    Returns the method's id."""
    today = datetime.date.today().isoformat()
    ranges = all_items(base, key, "/cai", "caiRanges")
    for document_type in CAI_SERIES:
        if any(r["documentType"] == document_type and r["branchId"] == 1 and r["emissionPoint"] == "001"
               and r["isActive"] and r["remaining"] > 10 and r["deadline"] > today for r in ranges):
            continue
        start = max([r["rangeEnd"] for r in ranges if r["documentType"] == document_type and r["branchId"] == 1
                     and r["emissionPoint"] == "001"] or [0]) + 1
        deadline = (datetime.date.today() + datetime.timedelta(days=365)).isoformat()
        status, _, created = api_call(base, "POST", "/cai", key, {
            "cai": CAI_CODE, "branchId": 1, "emissionPoint": "001", "documentType": document_type,
            "rangeStart": start, "rangeEnd": start + 999, "deadline": deadline})
        assert status == 201, created
    methods = all_items(base, key, "/payments/methods", "paymentMethods")
    usable = [m for m in methods if m["isActive"] and not m["requiresConfirmation"] and not m["bankAccountId"]]
    if usable:
        return usable[0]["id"]
    status, _, method = api_call(base, "POST", "/payments/methods", key, {"name": "Efectivo", "isCashMethod": True})
    assert status == 201, method
    return method["id"]


def amount(text: str) -> float:
    return float(re.sub(r"[^\d.]", "", text))


def create_customer(console, name: str, tax_id: str) -> None:
    console.goto("/partners")
    console.shot("partners")
    console.page.click("text=Nuevo cliente o proveedor")
    dialog = console.page.locator("dialog")
    dialog.locator("#f-name").fill(name)
    dialog.locator("#f-type").select_option("customer")
    dialog.locator("#f-taxId").fill(tax_id)
    dialog.locator("#f-email").fill("compras@example.com")
    dialog.locator("#f-credit_limit").fill("50000")
    console.shot("partner-dialog")
    dialog.locator("button[type=submit]").click()
    dialog.wait_for(state="detached")
    console.goto(f"/partners?q={tax_id}")  # the list searches by name, tax id or e-mail
    row = console.page.locator("tr", has_text=name)
    assert "Cliente" in row.inner_text()
    console.shot("partner-created")


def create_service(console, code: str, name: str) -> None:
    console.goto("/products")
    console.shot("products")
    console.page.click("text=Nuevo producto")
    dialog = console.page.locator("dialog")
    dialog.locator("#f-code").fill(code)
    dialog.locator("#f-name").fill(name)
    dialog.locator("#f-type").select_option("service")
    dialog.locator("#f-unitPrice").fill("250")
    dialog.locator("#f-taxRate").select_option("0.15")
    console.shot("product-dialog")
    dialog.locator("button[type=submit]").click()
    dialog.wait_for(state="detached")
    console.wait_loaded()


def sell_exonerated(console, base: str, key: str, partner: dict, product: dict, tag: str) -> None:
    """The same customer buying under an exoneration: the form's Exoneración group, filled, turns
    the taxed line exonerated (no ISV in the preview, as the API will make it); the document keeps
    the registers and shows them with the line's treatment."""
    page = console.page
    console.goto("/documents/new")
    assert page.locator("#docform-exoneration").is_visible() and page.locator("#docform-export").is_hidden()
    console.pick("businessPartnerId", partner)
    console.pick("lines-0-productId", product)
    page.fill("#f-lines-0-quantity", "2")
    # 2 x 250.00 = 500.00 taxed at 15 %: ISV 75.00, 575.00 before the exoneration
    page.wait_for_function("() => document.querySelector('#docform-total strong').textContent.includes('575.00')")
    page.fill("#f-exoneration-purchaseOrderNumber", f"OCE-{tag}")
    page.fill("#f-exoneration-registryNumber", "CRE-2026-0042")
    assert page.input_value("#f-lines-0-taxTreatment") == "exonerated"
    assert page.input_value("#f-lines-0-taxRate") == "0" and page.locator("#f-lines-0-taxRate").is_disabled()
    # exonerated: 500.00 with no ISV
    page.wait_for_function("() => document.querySelector('#docform-total strong').textContent.includes('500.00')")
    console.shot("exonerated-form")
    page.click("#document-form button[type=submit]")
    page.wait_for_selector("[data-page='document.render'] #doc-exoneration-purchaseOrderNumber")
    console.wait_loaded()
    document_id = int(re.search(r"#/documents/(\d+)", page.url).group(1))
    assert page.inner_text("#doc-exoneration-purchaseOrderNumber") == f"OCE-{tag}"
    assert page.inner_text("#doc-exoneration-registryNumber") == "CRE-2026-0042"
    assert page.locator("#doc-exoneration-sagNumber").count() == 0  # not given, not shown
    assert page.inner_text("td.line-treatment") == "Exonerado"
    console.shot("exonerated-invoice")
    status, _, held = api_call(base, "GET", f"/documents/{document_id}", key)
    assert status == 200 and held["type"] == "01" and FISCAL_NUMBER.match(held["number"])
    assert held["exoneration"] == {"purchaseOrderNumber": f"OCE-{tag}", "registryNumber": "CRE-2026-0042",
                                   "sagNumber": None}
    (line,) = held["lines"]
    assert (line["productId"], line["taxTreatment"], line["taxRate"], line["tax"]) == (product["id"], "exonerated", 0, 0)
    # 2 x 250.00 = 500.00, ISV 0: the total is the subtotal
    assert (held["subtotal"], held["taxTotal"], held["total"]) == (500, 0, 500)


def test_sell_print_and_collect_part_of_an_invoice(console, demo, stack):
    base, key = stack[0].base, demo["apiKey"]
    method_id = ensure_sales_setup(base, key)
    tag = uuid.uuid4().hex[:6]
    customer, tax_id = f"Ferretería Journey {tag}", f"0801{int(tag, 16) % 10**10:010d}"
    code, service = f"SJ-{tag}", f"Asesoría {tag}"

    console.login_to_company(demo["email"], demo["password"], demo["companyId"])
    create_customer(console, customer, tax_id)
    create_service(console, code, service)
    partner = next(p for p in all_items(base, key, "/business-partners", "businessPartners") if p["taxId"] == tax_id)
    product = next(p for p in all_items(base, key, "/products", "products") if p["code"] == code)
    assert partner["name"] == customer and partner["type"] == "customer" and partner["credit_limit"] == 50000
    assert product["name"] == service and product["type"] == "service" and product["trackInventory"] is False

    # the invoice: the product fills the line, the preview adds it up
    console.goto("/documents/new")
    page = console.page
    console.pick("businessPartnerId", partner)  # typed, found through the API's search
    console.pick("lines-0-productId", product)  # typed too, found through GET /products?q=
    assert page.input_value("#f-lines-0-description") == service
    page.fill("#f-lines-0-quantity", "2")
    page.wait_for_function("() => document.querySelector('#docform-total strong').textContent.includes('575.00')")
    console.shot("invoice-form")
    page.click("#document-form button[type=submit]")
    page.wait_for_selector("[data-page='document.render'] #doc-number")
    console.wait_loaded()
    number = page.inner_text("#doc-number")
    assert FISCAL_NUMBER.match(number), number
    document_id = int(re.search(r"#/documents/(\d+)", page.url).group(1))
    assert amount(page.inner_text("#doc-total")) == 575.0
    assert customer in page.inner_text("#doc-partner") and page.inner_text("#doc-cai")
    console.shot("invoice")

    # the list shows the fiscal number; filtered by the customer it is the only row
    console.goto("/documents")
    assert page.locator("a.doc-number", has_text=number).count() == 1
    console.pick("businessPartnerId", partner)
    page.click("form button[type=submit]")
    page.wait_for_function("() => location.hash.includes('businessPartnerId=')")
    console.wait_loaded()
    rows = page.locator("table.grid tbody tr")
    assert rows.count() == 1 and customer in rows.inner_text() and number in rows.inner_text()
    console.shot("documents-filtered")
    # or searched by the customer's name: the same one row (GET /documents?q=)
    console.goto("/documents")
    page.fill("#f-q", f"journey {tag}")
    page.click("form button[type=submit]")
    page.wait_for_function("() => location.hash.includes('q=')")
    console.wait_loaded()
    rows = page.locator("table.grid tbody tr")
    assert rows.count() == 1 and number in rows.inner_text()
    rows.first.click()
    page.wait_for_selector("#doc-number")
    console.wait_loaded()

    # the PDF: previewed in an iframe from the print route's bytes, then downloaded
    printed: list[tuple[str, dict, bytes]] = []

    def keep_print(route):  # the print route's answer passes through unchanged, its bytes kept
        answer = route.fetch()
        printed.append((route.request.post_data or "", answer.headers, answer.body()))
        route.fulfill(response=answer)

    page.route(f"**/documents/{document_id}/print", keep_print)
    page.click(".page-header .pdf-preview-button")
    frame = page.wait_for_selector("iframe.pdf-preview")
    body, headers, pdf = printed[0]
    assert '"templateId":1' in body and headers["content-type"] == "application/pdf" and pdf.startswith(b"%PDF")
    assert frame.get_attribute("src").startswith("blob:")
    console.shot("pdf-preview")
    with page.expect_download() as downloading:
        page.click(".page-header .pdf-download-button")
    download = downloading.value
    assert download.suggested_filename == f"factura-{number}.pdf"
    assert Path(download.path()).read_bytes().startswith(b"%PDF")

    # a part payment: the pending amount falls by it
    page.click(".pay-button")
    dialog = page.locator("dialog")
    assert amount(dialog.locator("#f-amount").input_value()) == 575.0  # defaults to what is pending
    dialog.locator("#f-paymentMethodId").select_option(str(method_id))
    dialog.locator("#f-amount").fill("200")
    dialog.locator("#f-reference").fill(f"REC-{tag}")
    console.shot("payment-dialog")
    dialog.locator("button[type=submit]").click()
    page.wait_for_function("() => Number(document.querySelector('#doc-pending')?.dataset.amount) === 375")
    console.wait_loaded()
    shown_pending = amount(page.inner_text("#doc-pending"))
    assert shown_pending == 375.0 and amount(page.inner_text("#doc-paid")) == 200.0
    assert page.locator("tr", has_text=f"REC-{tag}").locator(".badge-confirmed").count() == 1
    console.shot("invoice-part-paid")

    status, _, held = api_call(base, "GET", f"/documents/{document_id}", key)
    assert status == 200 and held["number"] == number and held["status"] == "confirmed"
    assert held["pending"] == shown_pending and held["paidTotal"] == 200 and held["total"] == 575
    assert held["businessPartnerId"] == partner["id"] and held["lines"][0]["productId"] == product["id"]
    payments = api_call(base, "GET", f"/payments/documents/{document_id}/payments", key)[2]["payments"]
    assert [(p["amount"], p["status"], p["reference"]) for p in payments] == [(200, "confirmed", f"REC-{tag}")]
    assert api_call(base, "GET", f"/business-partners/{partner['id']}", key)[2]["receivableBalance"] == 375
    assert api_call(base, "GET", f"/products/{product['id']}", key)[0] == 200

    # the customer's page: what they owe and the statement's two movements
    page.click("#doc-partner")
    page.wait_for_selector("[data-page='partners.detail'] #statement-closing")
    console.wait_loaded()
    assert amount(page.inner_text("#partner-receivable")) == 375.0
    assert amount(page.inner_text("#statement-closing")) == 375.0
    assert page.locator("table.grid tbody tr", has_text=number).count() >= 3  # pending doc, invoice, payment
    console.shot("customer")
    console.goto("/stock")
    console.shot("stock")
    sell_exonerated(console, base, key, partner, product, tag)
    assert not console.errors


def test_bad_invoice_shows_the_api_errors_beside_their_fields(console, demo, stack):
    base, key = stack[0].base, demo["apiKey"]
    before = api_call(base, "GET", "/documents?limit=1", key)[2]["total"]
    console.login_to_company(demo["email"], demo["password"], demo["companyId"])
    console.goto("/documents/new")
    page = console.page
    # two lines, the first removed: the second (quantity 0) becomes lines[0]; no customer chosen
    page.fill("#f-lines-0-description", "se quita")
    page.click("button.add-line")
    page.fill("#f-lines-1-description", "Cantidad cero")
    page.fill("#f-lines-1-quantity", "0")
    page.fill("#f-lines-1-unitPrice", "10")
    page.locator(".line").first.locator("button.remove-line").click()
    assert page.input_value("#f-lines-0-description") == "Cantidad cero"
    page.click("#document-form button[type=submit]")
    quantity_error = page.wait_for_selector("[data-error-for='lines[0].quantity']")
    assert "debe ser mayor que 0" in quantity_error.inner_text()  # the API's answer, in Spanish
    assert page.locator("#f-lines-0-quantity").get_attribute("aria-invalid") == "true"
    # beside its own input: in the same .field wrapper
    assert page.locator(".field:has(#f-lines-0-quantity) .field-error").count() == 1
    partner_error = page.locator(".field:has(#f-businessPartnerId) [data-error-for='businessPartnerId']")
    assert partner_error.inner_text() == "obligatorio"
    assert "Nuevo documento" in page.inner_text("h1")  # still on the form
    console.shot("invoice-errors")

    console.goto("/partners")
    page.click("text=Nuevo cliente o proveedor")
    dialog = page.locator("dialog")
    dialog.locator("#f-name").fill("Correo malo")
    dialog.locator("#f-email").fill("no-es-un-correo")
    dialog.locator("button[type=submit]").click()
    assert dialog.locator(".field:has(#f-email) [data-error-for='email']").inner_text()
    console.shot("partner-errors")
    assert api_call(base, "GET", "/documents?limit=1", key)[2]["total"] == before
    assert not any(p["name"] == "Correo malo" for p in all_items(base, key, "/business-partners", "businessPartners"))
    assert not console.errors
