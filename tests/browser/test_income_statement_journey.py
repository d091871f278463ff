"""The income statement's page in NIIF para PYMES' shape, in a fresh Honduran company whose book
has a line in every section: each account and subtotal the page shows equals the API's answer,
and the hand-worked subtotals are those the page prints, in Spanish and in English, at 1280 and
390 px wide (screenshots under build/screenshots/)."""
from __future__ import annotations

import uuid
from decimal import Decimal

from tests.browser.conftest import fresh_company
from tests.browser.reports_support import check_statement, month_start, switch_language, today, visit

SECTIONS = ["revenue", "costOfSales", "expenses", "otherIncome", "otherExpenses", "financialIncome",
            "financialCosts", "incomeTax"]
# (debit code, credit code, amount): the book of tests/test_income_statement_sections.py
BOOK = (("110101", "410101", 1000), ("5101", "110101", 600), ("6104", "110101", 150), ("110101", "4202", 40),
        ("6303", "110101", 15), ("110101", "4203", 30), ("6301", "110101", 20), ("6499", "110101", 10),
        ("6501", "210204", 50))


def test_the_income_statement_page_shows_every_section(console, demo, stack):
    tag = uuid.uuid4().hex[:6]
    with fresh_company(console, demo, f"Resultados {tag} S.A."):
        accounts: dict[str, int] = {}
        for page in (1, 2):
            answer = console.as_session("GET", f"/chart-of-accounts?limit=100&page={page}")[2]
            accounts |= {a["code"]: a["id"] for a in answer["accounts"]}
        day = today()
        for debit, credit, amount in BOOK:
            status, _, answer = console.as_session("POST", "/journal-entries", {
                "date": day.isoformat(), "description": "Asiento de prueba", "status": "posted",
                "lines": [{"chartOfAccountId": accounts[debit], "debit": amount},
                          {"chartOfAccountId": accounts[credit], "credit": amount}]})
            assert status == 201, answer
        query = {"startDate": month_start(day).isoformat(), "endDate": day.isoformat()}
        for language in ("es", "en"):
            if language == "en":
                switch_language(console, "en")
            report = visit(console, "/reports/income-statement", query)
            figures = [(f"{name}.total", report[name], "total") for name in SECTIONS] + [
                (name, report, name) for name in ("grossMargin", "operatingResult", "financialResult",
                                                  "resultBeforeTax", "netResult")]
            check_statement(console.page, "income-statement", report, SECTIONS, figures)
            # grossMargin 1,000 - 600 = 400; operating 400 - 150 = 250; financial 40 - (20 + 15) = 5;
            # before tax 250 + 30 - 10 + 5 = 275; net 275 - 50 = 225
            assert [Decimal(str(report[name])) for name in ("grossMargin", "operatingResult", "financialResult",
                                                            "resultBeforeTax", "netResult")] == [400, 250, 5, 275, 225]
            text = console.page.inner_text("#income-statement").lower()  # headings are upper case by CSS
            words = {"es": ("Ingresos de actividades ordinarias", "Ingresos financieros", "Resultado antes de impuesto",
                            "Impuesto sobre la renta"),
                     "en": ("Revenue", "Financial income", "Result before income tax", "Income tax")}[language]
            assert all(word.lower() in text for word in words), text
            # the exchange gain's row comes after the operating result, under the financial income
            rows = console.page.locator("#income-statement tbody tr")
            order = [rows.nth(i).get_attribute("data-account") or rows.nth(i).get_attribute("data-figure")
                     for i in range(rows.count())]
            assert order.index("operatingResult") < order.index("4202") < order.index("financialIncome.total")
            assert not console.errors, console.errors
            console.shot(f"income-statement-{language}-1280")
            console.page.set_viewport_size({"width": 390, "height": 844})
            console.shot(f"income-statement-{language}-390")
            console.page.set_viewport_size({"width": 1280, "height": 860})
        switch_language(console, "es")
        place_an_account_from_its_form(console)


def place_an_account_from_its_form(console) -> None:
    """The account's form sets its place; an asset given one is refused beside the field, in Spanish."""
    page = console.page
    console.goto("/accounting/chart")

    def fill(code: str, name: str, kind: str, place: str) -> None:
        page.get_by_role("button", name="Nueva cuenta").click()
        page.fill("dialog #f-code", code)
        page.fill("dialog #f-name", name)
        page.select_option("dialog #f-type", kind)
        page.select_option("dialog #f-statementSection", place)
        page.click("dialog button[type=submit]")

    fill("1199", "Caja de prueba", "asset", "revenue")
    error = page.locator("dialog [data-error-for='statementSection']")
    assert "estado de resultados" in error.inner_text(), error.inner_text()
    console.shot("account-form-refused-es", full_page=False)
    page.click("dialog header button.icon")
    fill("4299", "Alquileres cobrados", "income", "other_income")
    page.wait_for_selector("dialog", state="detached")
    accounts = {}
    for number in (1, 2):
        answer = console.as_session("GET", f"/chart-of-accounts?limit=100&page={number}")[2]
        accounts |= {a["code"]: a for a in answer["accounts"]}
    assert accounts["4299"]["statementSection"] == "other_income" and "1199" not in accounts
