"""Opening balances and closing the year through the console, in a fresh company with the standard
chart (the retained earnings account 3301 and its `retained_earnings` rule, the opening balance
equity 3401): a customer's opening balance recorded on the partner's page (refused first without
its amount, the error beside the field), then listed there with its amount and in the customer's
documents; a partner that is both chooses the side (payable here); on the periods page, 2026 (not
ended yet) refused in the page's words, in Spanish and in English, 2025 refused while 2024 (the
opening balances' year) is open, then 2024 closed, and 2025, which earned 5,000.00 of services,
closed (its closing entry takes the income to retained earnings) and reopened (the entry
reversed)."""
from __future__ import annotations

import uuid

from tests.browser.conftest import amount, fresh_company
from tests.browser.reports_support import switch_language


def account_ids(console) -> dict[str, int]:
    """code -> id of every account of the chart."""
    accounts: dict[str, int] = {}
    for page in range(1, 20):
        status, _, answer = console.as_session("GET", f"/chart-of-accounts?limit=100&page={page}")
        assert status == 200, answer
        accounts |= {a["code"]: a["id"] for a in answer["accounts"]}
        if len(accounts) >= answer["total"] or not answer["accounts"]:
            return accounts
    raise AssertionError("the chart never ended")


def test_opening_balance_then_the_year_closed_and_reopened(console, demo, stack):
    tag = uuid.uuid4().hex[:6]
    with fresh_company(console, demo, f"Cierre {tag} S.A."):
        accounts = account_ids(console)
        rules = console.as_session("GET", "/account-determination-rules?limit=100")[2]["rules"]
        assert any(r["operationType"] == "retained_earnings" and r["chartOfAccountId"] == accounts["3301"]
                   for r in rules), rules
        status, _, customer = console.as_session("POST", "/business-partners",
                                                 {"name": f"Comercial Lempira {tag}", "type": "customer"})
        assert status == 201, customer
        # 2025 earned 5,000.00 of services, in cash
        status, _, entry = console.as_session("POST", "/journal-entries", {
            "date": "2025-06-30", "description": "Servicios de junio", "status": "posted", "lines": [
                {"chartOfAccountId": accounts["110101"], "debit": 5000, "credit": 0},
                {"chartOfAccountId": accounts["4103"], "debit": 0, "credit": 5000}]})
        assert status == 201, entry

        opening_balance(console, customer)
        status, _, both = console.as_session("POST", "/business-partners",
                                             {"name": f"Ferretería Mixta {tag}", "type": "both"})
        assert status == 201, both
        supplier_side(console, both)
        close_and_reopen(console, accounts)
    assert not console.errors


def opening_balance(console, customer: dict) -> None:
    page = console.page
    console.goto(f"/partners/{customer['id']}")
    card = page.locator("#opening-balances")
    assert "Ningún saldo inicial pendiente" in card.inner_text()
    card.locator("button", has_text="Registrar saldo inicial").click()
    dialog = page.locator("dialog")
    assert dialog.locator("#f-side").count() == 0     # a customer's balance is receivable: no side to choose
    dialog.locator("#f-date").fill("2024-12-31")
    dialog.locator("#f-dueDate").fill("2025-01-31")
    dialog.locator("#f-reference").fill("FAC-0991")
    dialog.locator("button[type=submit]").click()
    # no amount: the API's error lands beside the amount
    dialog.locator("[data-error-for=amount]").wait_for()
    assert dialog.locator("#f-amount").get_attribute("aria-invalid") == "true"
    console.shot("opening-balance-refused")
    dialog.locator("#f-amount").fill("1500.75")
    console.shot("opening-balance-dialog")
    dialog.locator("button[type=submit]").click()
    dialog.wait_for(state="detached")
    console.wait_loaded()
    row = page.locator("#opening-balances tbody tr")
    assert row.count() == 1
    assert "Saldo inicial de cliente" in row.inner_text()
    cells = row.locator("td")
    assert amount(cells.nth(4).inner_text()) == 1500.75 and amount(cells.nth(5).inner_text()) == 1500.75
    assert "31 ene 2025" in cells.nth(3).inner_text()
    notice = page.locator("#opening-recorded")
    assert "Saldo inicial registrado" in notice.inner_text() and "1,500.75" in notice.inner_text()
    assert amount(page.inner_text("#partner-receivable")) == 1500.75
    assert amount(page.inner_text("#credit-client-pending")) == 1500.75
    console.shot("opening-balance-recorded")

    documents = console.as_session("GET", f"/documents?businessPartnerId={customer['id']}")[2]["documents"]
    assert [(d["type"], d["status"], d["total"], d["pending"]) for d in documents] == \
           [("900", "confirmed", 1500.75, 1500.75)]
    # the document's own page, from the link
    notice.locator("a", has_text="Ver documento").click()
    console.wait_loaded()
    assert page.locator("h1").inner_text().startswith("Saldo inicial de cliente")
    assert "1,500.75" in page.inner_text("#content")
    console.shot("opening-balance-document")


def supplier_side(console, partner: dict) -> None:
    """A partner that is both customer and supplier: the dialog asks whose favour the balance is in."""
    page = console.page
    console.goto(f"/partners/{partner['id']}")
    page.locator("#opening-balances button", has_text="Registrar saldo inicial").click()
    dialog = page.locator("dialog")
    assert dialog.locator("#f-side option").all_inner_texts() == [
        "La empresa: por cobrar (el cliente debe)", "El proveedor: por pagar (la empresa debe)"]
    dialog.locator("#f-side").select_option("payable")
    dialog.locator("#f-date").fill("2024-12-31")
    dialog.locator("#f-amount").fill("800")
    console.shot("opening-balance-both")
    dialog.locator("button[type=submit]").click()
    dialog.wait_for(state="detached")
    console.wait_loaded()
    row = page.locator("#opening-balances tbody tr")
    assert row.count() == 1 and "Saldo inicial de proveedor" in row.inner_text()
    assert amount(page.inner_text("#partner-payable")) == 800 and amount(page.inner_text("#partner-receivable")) == 0


def close_and_reopen(console, accounts: dict[str, int]) -> None:
    page = console.page
    console.goto("/accounting/periods")
    card = page.locator("#fiscal-years-card")
    assert "Ningún ejercicio cerrado" in card.inner_text()

    def refused(year: str, button: str, code: str) -> None:
        """The year asked of the form's button, confirmed, and refused with `code` in the form."""
        page.fill("#f-year", year)
        card.locator(button).click()
        console.confirm()
        card.locator(f".form-error .error-box[data-code={code}]").wait_for()

    # reopening a year never closed: refused, in Spanish, in the form
    refused("2025", "button:has-text('Reabrir ejercicio')", "FISCAL_YEAR_STATUS")
    assert "no está cerrado" in card.locator(".form-error").inner_text()
    console.shot("reopen-refused")

    # the current year has not ended: refused in the page's words, in both languages, wide and narrow
    not_ended = {"es": "El ejercicio 2026 aún no ha terminado: podrá cerrarse a partir del 1 de enero de 2027.",
                 "en": "Fiscal year 2026 has not ended yet: it can be closed from January 1, 2027."}
    for language in ("es", "en"):
        if language == "en":
            switch_language(console, "en")
        refused("2026", "#fiscal-year-form button.danger", "FISCAL_YEAR_NOT_ENDED")
        # the refusal alone: no stray text beside it (a missing list once read "null")
        assert card.locator(".form-error").inner_text().strip() == not_ended[language]
        for width in (1280, 390):
            page.set_viewport_size({"width": width, "height": 860})
            console.shot(f"close-refused-not-ended-{language}-{width}")
        page.set_viewport_size({"width": 1280, "height": 860})
    switch_language(console, "es")
    assert console.as_session("GET", "/fiscal-years/2026")[2]["status"] == "open"

    # 2024 holds the opening balances: 2025 closes after it, and the refusal names it
    refused("2025", "#fiscal-year-form button.danger", "FISCAL_YEAR_ORDER")
    assert "aún abiertos: 2024." in card.locator(".form-error").inner_text()
    console.shot("close-refused-order")
    page.fill("#f-year", "2024")
    card.locator("button", has_text="Cerrar ejercicio").click()
    console.confirm()
    card.locator("#fiscal-years tbody tr", has_text="2024").locator(".badge-closed").wait_for()
    console.wait_loaded()

    page.fill("#f-year", "2025")
    card.locator("button", has_text="Cerrar ejercicio").click()
    assert "¿Cerrar el ejercicio 2025?" in page.inner_text("dialog")
    console.shot("close-confirm")
    console.confirm()
    row = card.locator("#fiscal-years tbody tr", has_text="2025")
    row.locator(".badge-closed").wait_for()
    console.wait_loaded()
    assert row.locator(".badge").inner_text() == "Cerrado"
    assert not card.locator(".form-error .error-box").count()
    console.shot("year-closed")
    year = console.as_session("GET", "/fiscal-years/2025")[2]
    assert year["status"] == "closed" and len(year["closingEntryIds"]) == 1, year
    closing_id = year["closingEntryIds"][0]

    # the closing entry: the year's income to retained earnings on December 31
    row.get_by_role("link", name=f"#{closing_id}", exact=True).click()
    console.wait_loaded()
    assert "Cierre del ejercicio 2025" in page.inner_text(".facts")
    lines = {r.locator("td").nth(0).inner_text(): (r.locator("td").nth(3).inner_text(), r.locator("td").nth(4).inner_text())
             for r in page.locator("table.grid tbody tr").all()}
    assert set(lines) == {"4103", "3301"}, lines
    assert amount(lines["4103"][0]) == 5000 and amount(lines["3301"][1]) == 5000
    console.shot("closing-entry")

    # a posting dated in 2025 is now refused
    status, _, refused = console.as_session("POST", "/journal-entries", {
        "date": "2025-12-15", "status": "posted", "lines": [
            {"chartOfAccountId": accounts["110101"], "debit": 10, "credit": 0},
            {"chartOfAccountId": accounts["4103"], "debit": 0, "credit": 10}]})
    assert status == 400 and refused["code"] == "PERIOD_CLOSED", refused

    console.goto("/accounting/periods")
    card.locator("#fiscal-years tbody tr", has_text="2025").locator("button", has_text="Reabrir").click()
    assert "¿Reabrir el ejercicio 2025?" in page.inner_text("dialog")
    console.confirm()
    row = card.locator("#fiscal-years tbody tr", has_text="2025")
    row.locator(".badge-open").wait_for()
    console.wait_loaded()
    assert row.locator(".badge").inner_text() == "Abierto"
    console.shot("year-reopened")
    year = console.as_session("GET", "/fiscal-years/2025")[2]
    assert year["status"] == "open" and len(year["reopeningEntryIds"]) == 1, year
    # the closing entry was reversed: its link says so, and its page links the reversal
    assert year["reopeningEntryIds"] == [closing_id]
    assert [link.inner_text() for link in row.locator("a").all()] == [f"#{closing_id}"]
    assert "revertida al reabrir" in row.inner_text()
    row.get_by_role("link", name=f"#{closing_id}", exact=True).click()
    console.wait_loaded()
    assert "Revertida por" in page.inner_text(".facts")
    page.locator(".facts a", has_text="#").last.click()
    console.wait_loaded()
    assert "Reapertura del ejercicio 2025" in page.inner_text(".facts")
    lines = {r.locator("td").nth(0).inner_text(): (r.locator("td").nth(3).inner_text(), r.locator("td").nth(4).inner_text())
             for r in page.locator("table.grid tbody tr").all()}
    assert amount(lines["3301"][0]) == 5000 and amount(lines["4103"][1]) == 5000, lines
    console.shot("reopening-entry")
