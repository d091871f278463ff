"""A dollar invoice through the console, in a fresh lempira company with the standard chart (the
exchange difference accounts 4202 and 6303 with their fx_gain and fx_loss rules): the day's USD
rate recorded on the exchange rates page (refused first without its rate, the error beside the
field); an invoice in USD made in the document form (refused first on a date without a rate, the
API's error beside the exchange rate field), whose page shows the lempira equivalent at 24.50;
then paid in full through the payment dialog at 25.00 by a dollar bank account: nothing pending,
the payment row showing its rate and lempiras, and the 57.50 gained posted to 4202. The customer's
page shows the open invoice in dollars and lempiras, and the statement's movements in dollars."""
from __future__ import annotations

import re
import uuid
from decimal import Decimal

from tests.browser.conftest import fresh_company
from tests.browser.test_year_close_journey import account_ids

CAI_CODE = "F1E2D3-C4B5A6-0F1E2D-3C4B5A-6F7E8D-9C"


def amount(text: str) -> Decimal:
    """'USD 115.00' or 'L 2,817.50' -> the number."""
    return Decimal(re.sub(r"[^\d.-]", "", text))




def shot(console, name: str) -> None:
    """A screenshot without the notices of the steps before covering the page."""
    console.page.evaluate("() => document.getElementById('toasts').replaceChildren()")
    console.shot(name)


def created(console, path: str, body: dict) -> dict:
    status, _, answer = console.as_session("POST", path, body)
    assert status == 201, (path, answer)
    return answer


def test_a_dollar_invoice_paid_at_another_rate(console, demo, stack):
    tag = uuid.uuid4().hex[:6]
    page = console.page
    with fresh_company(console, demo, f"Divisas {tag} S.A."):
        accounts = account_ids(console)
        created(console, "/cai", {"cai": CAI_CODE, "branchId": 1, "emissionPoint": "001", "documentType": "01",
                                  "rangeStart": 1, "rangeEnd": 500, "deadline": "2099-12-31"})
        customer = created(console, "/business-partners", {"name": f"Importadora Dólar {tag}", "type": "customer"})
        bank = created(console, "/bank-accounts", {"name": f"Banco en dólares {tag}", "currency": "USD",
                                                   "openingBalance": 0, "openingBalanceDate": "2020-01-01",
                                                   "chartOfAccountId": accounts["110103"]})
        transfer = created(console, "/payments/methods", {"name": "Transferencia USD", "bankAccountId": bank["id"]})
        created(console, "/payments/methods", {"name": "Cheque en lempiras", "bankAccountId": created(
            console, "/bank-accounts", {"name": f"Banco en lempiras {tag}", "currency": "HNL", "openingBalance": 0,
                                        "openingBalanceDate": "2020-01-01",
                                        # a bank account's ledger is its own (a control account)
                                        "chartOfAccountId": created(console, "/chart-of-accounts", {
                                            "code": "110104", "name": "Bancos en lempiras", "type": "asset",
                                            "parentId": accounts["1101"]})["id"]})["id"]})

        day = record_rate(console)
        document_id = dollar_invoice(console, customer, day)

        # the customer's page: the open invoice in dollars, its pending in lempiras at its rate
        console.goto(f"/partners/{customer['id']}")
        assert amount(page.inner_text("#credit-client-pending")) == Decimal("2817.50")
        open_row = page.locator("table.grid tbody tr:has(td.pending-base)")
        assert open_row.count() == 1
        shown = open_row.inner_text().replace("\xa0", " ")
        assert "USD · TC 24.50" in shown and "USD 115.00" in shown, shown
        assert amount(open_row.locator("td.pending-base").inner_text()) == Decimal("2817.50")
        shot(console, "customer-open-invoice")

        console.goto(f"/documents/{document_id}")
        pay_at_another_rate(console, document_id, transfer)

        # the books: USD 115 at 25.00 = 2,875.00 into the bank, 2,817.50 off the receivable, 57.50 gained
        payments = console.as_session("GET", f"/payments/documents/{document_id}/payments")[2]["payments"]
        assert [(p["amount"], p["exchangeRate"], p["baseAmount"], p["settledBase"]) for p in payments] == \
               [(115, 25, 2875, Decimal("2817.50"))], payments
        entry = console.as_session("GET", f"/journal-entries/{payments[0]['journalEntryId']}")[2]
        gain = [line for line in entry["lines"] if line["chartOfAccountId"] == accounts["4202"]]
        assert [(line["credit"], line["debit"]) for line in gain] == [(Decimal("57.50"), 0)], entry["lines"]

        # the customer's statement: each movement also in dollars, at the invoice's rate
        console.goto(f"/partners/{customer['id']}")
        in_dollars = page.locator("table.grid td.in-currency").all_inner_texts()
        assert any("115.00" in text and "24.50" in text for text in in_dollars), in_dollars
        assert amount(page.inner_text("#statement-closing")) == 0
        shot(console, "customer-statement")
    assert not console.errors


def record_rate(console) -> str:
    """The USD rate of the console's today, 24.50, recorded on the exchange rates page; its date."""
    page = console.page
    page.click("nav.sidebar a:has-text('Tipos de cambio')")
    page.wait_for_selector("[data-page='exchange-rates.render'] #exchange-rate-form")
    console.wait_loaded()
    assert "No hay tipos de cambio registrados" in page.inner_text("#content")
    form = page.locator("#exchange-rate-form")
    assert form.locator("#f-currency").input_value() == "USD"   # the only currency other than the lempira
    day = form.locator("#f-date").input_value()
    form.locator("button[type=submit]").click()                   # no rate: refused, the error beside it
    error = form.locator(".field:has(#f-rate) [data-error-for=rate]")
    error.wait_for()
    assert form.locator("#f-rate").get_attribute("aria-invalid") == "true"
    shot(console, "rate-refused")

    form.locator("#f-rate").fill("24.50")
    form.locator("button[type=submit]").click()
    page.wait_for_selector("#exchange-rate-recorded")
    console.wait_loaded()
    assert "1 USD = 24.50 HNL" in page.inner_text("#exchange-rate-recorded")
    row = page.locator("#exchange-rates tbody tr")
    assert row.count() == 1 and "USD" in row.inner_text() and "1 USD = 24.50 HNL" in row.inner_text()
    assert row.locator("[data-rate]").get_attribute("data-rate") == "24.5"
    shot(console, "rate-recorded")
    rates = console.as_session("GET", "/exchange-rates?currency=USD")[2]["exchangeRates"]
    assert [(r["date"], r["rate"], r["companyCurrency"]) for r in rates] == [(day, Decimal("24.5"), "HNL")]
    return day


def dollar_invoice(console, customer: dict, day: str) -> int:
    """USD 100 + 15 % = 115.00 in the document form, the day's rate taken: 2,817.50 lempiras."""
    page = console.page
    console.goto("/documents/new")
    rate_field = page.locator(".field:has(#f-exchangeRate)")
    assert page.input_value("#f-currency") == "HNL" and rate_field.is_hidden()   # the company's currency
    console.pick("businessPartnerId", customer)
    page.select_option("#f-currency", "USD")
    assert rate_field.is_visible()
    assert "registrado para la fecha" in page.get_attribute("#f-exchangeRate", "placeholder")
    page.fill("#f-lines-0-description", "Consultoría en dólares")
    page.fill("#f-lines-0-quantity", "1")
    page.fill("#f-lines-0-unitPrice", "100")

    # a date before any rate, the field empty: the API's refusal beside the exchange rate field
    page.fill("#f-date", "2020-01-15")
    page.dispatch_event("#f-date", "change")
    page.wait_for_function("() => document.querySelector('#docform-rate-hint').textContent.includes('No hay tipo')")
    page.click("#document-form button[type=submit]")
    refusal = rate_field.locator("[data-error-for=exchangeRate]")
    refusal.wait_for()
    assert "no hay tipo de cambio de USD" in refusal.inner_text()  # the API's answer, in Spanish
    assert "Nuevo documento" in page.inner_text("h1")
    shot(console, "invoice-no-rate")

    page.fill("#f-date", day)
    page.dispatch_event("#f-date", "change")
    page.wait_for_function("() => document.querySelector('#docform-rate-hint').dataset.rate === '24.5'")
    assert "1 USD = 24.50 HNL" in page.inner_text("#docform-rate-hint")
    assert rate_field.locator(".field-error").count() == 0        # the refusal spoke of the other date
    assert rate_field.locator("label").inner_text() == "Tipo de cambio (HNL por 1 USD)"
    page.wait_for_function("() => document.querySelector('#docform-total-base strong')?.textContent.includes('2,817.50')")
    assert amount(page.inner_text("#docform-total strong")) == Decimal("115.00")
    shot(console, "invoice-form")
    page.click("#document-form button[type=submit]")
    page.wait_for_selector("[data-page='document.render'] #doc-number")
    console.wait_loaded()
    document_id = int(re.search(r"#/documents/(\d+)", page.url).group(1))

    assert "USD" in page.inner_text("#doc-total") and amount(page.inner_text("#doc-total")) == Decimal("115.00")
    total_base = page.inner_text("#doc-total-base")
    assert "2,817.50" in total_base and "al tipo de cambio 24.50" in total_base, total_base
    assert "2,817.50" in page.inner_text("#doc-pending-base")
    assert page.inner_text("#doc-exchange-rate") == "1 USD = 24.50 HNL"
    shot(console, "invoice")
    held = console.as_session("GET", f"/documents/{document_id}")[2]
    assert (held["currency"], held["exchangeRate"], held["total"], held["baseTotal"]) == \
           ("USD", Decimal("24.5"), 115, Decimal("2817.50"))
    return document_id


def pay_at_another_rate(console, document_id: int, transfer: dict) -> None:
    """The whole USD 115.00 by the dollar transfer at 25.00: nothing left pending."""
    page = console.page
    page.click(".pay-button")
    dialog = page.locator("dialog")
    methods = dialog.locator("#f-paymentMethodId option").all_inner_texts()
    assert "Transferencia USD" in methods and "Cheque en lempiras" not in methods   # a lempira bank would be refused
    assert amount(dialog.locator("#f-amount").input_value()) == Decimal("115.00")
    assert "Monto (USD)" in dialog.inner_text()
    dialog.locator("#f-paymentMethodId").select_option(str(transfer["id"]))
    dialog.locator("#f-exchangeRate").fill("25")
    dialog.locator("#f-reference").fill("TRF-USD-1")
    shot(console, "payment-dialog")
    dialog.locator("button[type=submit]").click()
    dialog.wait_for(state="detached")
    page.wait_for_function("() => Number(document.querySelector('#doc-pending')?.dataset.amount) === 0")
    console.wait_loaded()
    assert amount(page.inner_text("#doc-paid")) == Decimal("115.00")
    assert amount(page.inner_text("#doc-pending-base").split("al tipo")[0]) == 0
    row = page.locator("table.grid tbody tr", has_text="TRF-USD-1")
    assert row.locator(".badge-confirmed").count() == 1
    assert row.locator(".payment-rate").inner_text() == "al tipo de cambio 25.00"
    assert amount(row.locator(".payment-base-amount").inner_text()) == Decimal("2875.00")
    assert amount(row.locator(".payment-settled").inner_text()) == Decimal("2817.50")
    assert page.locator(".page-header .pay-button").count() == 0
    shot(console, "invoice-paid")
