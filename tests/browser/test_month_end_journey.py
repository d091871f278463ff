"""A month end through the console (issue 44), in a fresh Honduran company with the standard chart:
a dollar bank account opened with USD 1,000.00 at 24.50 is revalued on the periods page at
October 31, 2025 (24.80): the preview shows the line and the 300.00 gained before anything is
written, "Registrar" posts the entry and its reversal (both linked from the list), the same date
again is refused beside the form; "Anular" voids it and the date is revalued again. Then a month of entries (a loan, a computer bought, a sale and an
expense, the last two each for a cost centre) read in the cash-flow statement, a budget typed in
the budget grid read against the actuals, and the income statement filtered by a cost centre and
grouped by its dimension. Every page in Spanish and in English, at 1280 and 390 px wide (the
screenshots under build/screenshots/)."""
from __future__ import annotations

import uuid
from decimal import Decimal
from urllib.parse import urlencode

from tests.browser.conftest import created, fresh_company, read, shot_without_notices
from tests.browser.reports_support import dec, month_start, number, shown, switch_language, today
from tests.browser.test_year_close_journey import account_ids

REVALUED_AT, REVERSED_AT = "2025-10-31", "2025-11-01"


def screens(console, name: str, route: str | None = None) -> None:
    """The page as it is (Spanish) at 1280 and 390 px; with `route`, opened again in English and
    shot the same way, then Spanish again."""
    page = console.page
    for language in ("es", "en") if route else ("es",):
        if language == "en":
            switch_language(console, "en")
            console.goto(route)
        shot_without_notices(console, f"{name}-{language}-1280")
        page.set_viewport_size({"width": 390, "height": 844})
        shot_without_notices(console, f"{name}-{language}-390")
        page.set_viewport_size({"width": 1280, "height": 860})
    if route:
        switch_language(console, "es")
    assert not console.errors, console.errors


def entry(console, day: str, lines: list[tuple[int, str, int, dict | None]]) -> dict:
    """A posted manual entry: lines (account, "debit"|"credit", amount, cost centre or None)."""
    return created(console, "/journal-entries", {"date": day, "description": "Movimiento del mes", "status": "posted",
                                                 "lines": [{"chartOfAccountId": account, side: amount,
                                                            **({"dimensions": [centre]} if centre else {})}
                                                           for account, side, amount, centre in lines]})


def test_a_month_end_close(console, demo, stack):
    tag = uuid.uuid4().hex[:6]
    with fresh_company(console, demo, f"Cierre de mes {tag} S.A."):
        accounts = account_ids(console)
        revalue_a_dollar_bank(console, accounts, tag)
        cash_flow_of_the_revalued_month(console)
        centres = cost_centres(console)
        day = today().isoformat()
        # the month's book: a loan of 5,000 in cash; a computer bought for 2,000; a sale of 1,000 in
        # Tegucigalpa; 150 of expenses in San Pedro Sula
        entry(console, day, [(accounts["110101"], "debit", 5000, None), (accounts["2201"], "credit", 5000, None)])
        entry(console, day, [(accounts["120104"], "debit", 2000, None), (accounts["110101"], "credit", 2000, None)])
        entry(console, day, [(accounts["110101"], "debit", 1000, None), (accounts["410101"], "credit", 1000, centres["TGU"])])
        entry(console, day, [(accounts["6104"], "debit", 150, centres["SPS"]), (accounts["110101"], "credit", 150, None)])
        cash_flow_of_the_month(console)
        budget_against_actual(console, accounts)
        income_statement_by_cost_centre(console, centres)
        budgets_past_one_page(console, accounts)


def budgets_past_one_page(console, accounts: dict[str, int]) -> None:
    """1 budget + 50 = 51, 50 a page: page 2 shows the one left."""
    page = console.page
    for n in range(50):
        created(console, "/budgets", {"name": f"Escenario {n:02d}", "year": 2030, "lines": [
            {"chartOfAccountId": accounts["410101"], "month": 1, "amount": n + 1}]})
    console.goto("/budgets")
    assert page.locator("#budgets tbody tr").count() == 50
    assert page.inner_text("#budgets .pager span") == "Página 1 de 2 · 51 registros"
    page.locator("#budgets .pager button").nth(1).click()
    console.wait_loaded()
    page.wait_for_selector("#budgets .pager span:has-text('Página 2 de 2')")
    assert page.locator("#budgets tbody tr").count() == 1
    shot_without_notices(console, "budgets-page-2-es-1280")


# --- the revaluation -------------------------------------------------------------------------------

def revalue_a_dollar_bank(console, accounts: dict[str, int], tag: str) -> None:
    page = console.page
    # no rate recorded yet: no currency offered (an HNL or USD box would only be refused for want of a
    # rate); the API revalues whatever the company holds
    console.goto("/accounting/periods")
    page.wait_for_selector("#reval-no-rates")
    assert page.locator("#revaluation-form input[name=currencies]").count() == 0
    for day, rate in (("2025-10-01", "24.50"), (REVALUED_AT, "24.80")):
        created(console, "/exchange-rates", {"currency": "USD", "date": day, "rate": rate})
    bank = created(console, "/bank-accounts", {
        "name": f"Banco en dólares {tag}", "currency": "USD", "openingBalance": 1000, "openingBalanceDate": "2025-10-01",
        # a bank account's ledger is its own (a control account)
        "chartOfAccountId": created(console, "/chart-of-accounts", {
            "code": "110105", "name": "Bancos en dólares", "type": "asset", "parentId": accounts["1101"]})["id"]})
    console.goto("/accounting/periods")
    page.fill("#f-revaluation-date", REVALUED_AT)
    # the one currency with rates (USD), kept: no `currencies` sent, the API takes every one held
    assert [box.get_attribute("value") for box in page.locator("#revaluation-form input[name=currencies]").all()] == [
        "USD"]
    assert page.locator("#revaluation-form input[name=currencies][value=USD]").is_checked()
    with page.expect_request(lambda r: r.url.endswith("/revaluations") and r.method == "POST") as asked:
        page.click("#revaluation-preview")
    assert asked.value.post_data_json == {"date": REVALUED_AT, "dryRun": True}
    page.wait_for_selector("#reval-dry-run")
    # USD 1,000.00 booked at 24.50 = 24,500.00; at 24.80 = 24,800.00: 300.00 gained
    row = page.locator("#reval-lines tbody tr")
    assert row.count() == 1
    cells = row.first.locator("td")
    assert bank["name"] in cells.nth(0).inner_text()
    assert [number(cells.nth(i).inner_text()) for i in (1, 2, 3, 4, 5)] == [
        Decimal("1000.00"), Decimal("24500.00"), Decimal("24.80"), Decimal("24800.00"), Decimal("300.00")]
    assert shown(page, "#reval-gain strong") == [Decimal("300.00")] and shown(page, "#reval-loss strong") == [0]
    assert read(console, "/revaluations")["data"] == []  # a preview writes nothing
    screens(console, "revaluation-preview")

    page.click("#revaluation-post")
    console.confirm()
    page.wait_for_selector("#reval-entries")
    console.wait_loaded()
    made = read(console, "/revaluations")["data"]
    assert [(r["date"], r["reversalDate"], dec(r["totalGain"])) for r in made] == [
        (REVALUED_AT, REVERSED_AT, Decimal("300.00"))]
    for entry_id in (made[0]["journalEntryId"], made[0]["reversalJournalEntryId"]):
        assert page.locator(f"#revaluations a[href='#/accounting/entries/{entry_id}']").count() == 1
    reversal = read(console, f"/journal-entries/{made[0]['reversalJournalEntryId']}")
    assert reversal["date"] == REVERSED_AT
    screens(console, "revaluation-posted")

    # the same month end again: refused beside the form, in the page's language
    page.click("#revaluation-post")
    console.confirm()
    page.wait_for_selector("#revaluation-form .error-box")
    assert page.locator("#revaluation-form [data-code=REVALUATION_EXISTS]").count() == 1
    shot_without_notices(console, "revaluation-refused-es")
    # "Anular" (after a confirmation): the entry and its reversal reversed on their own days, the
    # bank's ledger back at 24,500.00 on the 31st, the date free; revalued again: 300.00 once more
    page.click(f"#revaluations .reval-void[data-id='{made[0]['id']}']")
    console.confirm()
    page.wait_for_selector("#revaluations .badge-voided")
    console.wait_loaded()
    voided, = read(console, "/revaluations")["data"]
    assert voided["status"] == "voided" and len(voided["voidJournalEntryIds"]) == 2
    assert page.locator("#revaluations .reval-void").count() == 0
    screens(console, "revaluation-voided", "/accounting/periods")
    page.fill("#f-revaluation-date", REVALUED_AT)
    page.click("#revaluation-post")
    console.confirm()
    page.wait_for_selector("#reval-entries")
    console.wait_loaded()
    assert sorted((r["status"], dec(r["totalGain"])) for r in read(console, "/revaluations")["data"]) == [
        ("posted", Decimal("300.00")), ("voided", Decimal("300.00"))]
    # November 30 (the reversal brought the bank back to 24,500.00): the English preview
    switch_language(console, "en")
    page.fill("#f-revaluation-date", "2025-11-30")
    page.click("#revaluation-preview")
    page.wait_for_selector("#reval-dry-run")
    assert shown(page, "#reval-net strong") == [Decimal("300.00")]
    shot_without_notices(console, "revaluation-preview-en-1280")
    page.set_viewport_size({"width": 390, "height": 844})
    shot_without_notices(console, "revaluation-preview-en-390")
    page.set_viewport_size({"width": 1280, "height": 860})
    switch_language(console, "es")


# --- cost centres ----------------------------------------------------------------------------------

def cost_centres(console) -> dict[str, dict]:
    """A dimension "Sucursal" with Tegucigalpa and San Pedro Sula: code -> a line's {dimensionId, valueId}."""
    dimension = created(console, "/dimensions", {"name": "Sucursal"})
    for code, name in (("TGU", "Tegucigalpa"), ("SPS", "San Pedro Sula")):
        created(console, f"/dimensions/{dimension['id']}/values", {"code": code, "name": name})
    values = read(console, f"/dimensions/{dimension['id']}")["values"]
    return {value["code"]: {"dimensionId": dimension["id"], "valueId": value["id"]} for value in values}


# --- the cash-flow statement -----------------------------------------------------------------------

def cash_flow_of_the_month(console) -> None:
    page = console.page
    query = {"startDate": month_start(today()).isoformat(), "endDate": today().isoformat()}
    route = f"/reports/cash-flow?{urlencode(query)}"
    console.goto(route)
    report = read(console, route)
    # result 1,000 - 150 = 850 (operating); the computer -2,000 (investing); the loan 5,000
    # (financing): 3,850 more cash. Opening: the dollar bank's 24,500.00 (the revaluation reversed
    # on November 1, 2025); closing 24,500 + 3,850 = 28,350.
    expected = {"operatingActivities.total": 850, "investingActivities.total": -2000,
                "financingActivities.total": 5000, "netCashFlow": 3850, "openingCash": 24500, "closingCash": 28350}
    for figure, amount in expected.items():
        assert shown(page, f"#cash-flow tr[data-figure='{figure}'] td.num") == [Decimal(amount)], figure
    assert dec(report["netResult"]) == 850 and report["balanced"] is True
    for name in ("operatingActivities", "investingActivities", "financingActivities"):
        for line in report[name]["lines"]:
            assert shown(page, f"#cash-flow tr[data-line='{line['key']}'] td.num") == [dec(line["amount"])], line
    assert "badge-completed" in page.locator("#report-status .badge").get_attribute("class")
    assert page.locator(".downloads .download-pdf").count() == 1
    screens(console, "cash-flow", route)


def cash_flow_of_the_revalued_month(console) -> None:
    """October 2025 against November: the revaluation moved the dollar bank with no cash flowing
    (NIIF para PYMES 7.13): its effect is a line of its own, out of operating."""
    page = console.page
    query = {"startDate": "2025-10-01", "endDate": REVALUED_AT, "compareStartDate": REVERSED_AT,
             "compareEndDate": "2025-11-30"}
    route = f"/reports/cash-flow?{urlencode(query)}"
    console.goto(route)
    # October: the bank opened with USD 1,000.00 at 24.50 = 24,500.00 (financing: the opening equity);
    # the 300.00 gained on the 31st is in the result and taken out again (operating 300 - 300 = 0);
    # the effect +300.00: 0 + 24,500 + 300 = 24,800.00. November: the reversal on the 1st (result
    # -300, adjustment +300), the effect -300.00: 24,800 + 0 - 300 = 24,500.00
    expected = {"operatingActivities.total": [0, 0], "financingActivities.total": [24500, 0],
                "netCashFlow": [24500, 0], "exchangeRateEffect": [300, -300], "openingCash": [0, 24800],
                "closingCash": [24800, 24500]}
    for figure, amounts in expected.items():
        assert shown(page, f"#cash-flow tr[data-figure='{figure}'] td.num") == [Decimal(a) for a in amounts], figure
    assert shown(page, "#cash-flow tr[data-line='adjustment'] td.num") == [Decimal(-300), Decimal(300)]
    assert page.locator("#cash-flow tr[data-line='adjustment'] td").first.inner_text() == (
        "Diferencial cambiario no realizado del efectivo")
    assert "badge-completed" in page.locator("#report-status .badge").get_attribute("class")
    screens(console, "cash-flow-exchange-effect", route)


# --- the budget ------------------------------------------------------------------------------------

def budget_against_actual(console, accounts: dict[str, int]) -> None:
    page = console.page
    month, year = today().month, today().year
    console.goto("/budgets")
    page.get_by_role("button", name="Nuevo presupuesto").click()
    console.wait_loaded()
    page.fill("#f-name", "Presupuesto anual")
    page.fill("#f-year", str(year))
    for code in ("410101", "6104"):
        page.select_option("#f-add-account", str(accounts[code]))
        page.get_by_role("button", name="Agregar cuenta").click()
    # sales: 1,200.00 every month (January typed, then repeated); expenses: 200.00 this month only
    page.fill("tr[data-account='410101'] input[data-month='1']", "1200")
    page.locator("tr[data-account='410101']").get_by_role("button", name="Repetir enero").click()
    page.fill(f"tr[data-account='6104'] input[data-month='{month}']", "200")
    screens(console, "budget-editor")
    page.click("#budget-save")
    page.wait_for_function("() => location.hash.startsWith('#/budgets/') && location.hash !== '#/budgets/new'"
                           " || document.querySelector('#budget-form .error-box')")
    console.wait_loaded()
    assert not page.locator("#budget-form .error-box").count(), page.inner_text("#budget-form .form-error")
    budget = read(console, "/budgets")["budgets"][0]
    assert (budget["name"], budget["year"], budget["lineCount"]) == ("Presupuesto anual", year, 13)
    route = f"/budgets/{budget['id']}"
    assert console.page.evaluate("location.hash") == f"#{route}"
    screens(console, "budget-saved", route)

    query = {"year": year, "month": month, "budgetId": budget["id"]}
    route = f"/reports/budget-vs-actual?{urlencode(query)}"
    console.goto(route)
    report = read(console, route)
    # sales: actual 1,000 against 1,200 -> -200, -200 / 1,200 = -16.67 %; the year to date: the
    # budget 1,200 x month, the actual 1,000 (the company began this month)
    # expenses: 150 against 200 -> -50, -25.00 %; the year to date the same
    ytd_budget = Decimal(1200 * month)
    expected = {
        "410101": [1200, 1000, -200, Decimal("-16.67"), ytd_budget, 1000, 1000 - ytd_budget,
                   round((1000 - ytd_budget) / ytd_budget * 100, 2)],
        "6104": [200, 150, -50, Decimal("-25.00"), 200, 150, -50, Decimal("-25.00")],
    }
    for code, figures in expected.items():
        assert shown(page, f"#budget-vs-actual tr[data-account='{code}'] td.num") == [Decimal(f) for f in figures], code
    for row in report["rows"]:
        fields = ("budget", "actual", "variance", "yearToDateBudget", "yearToDateActual", "yearToDateVariance")
        assert [shown(page, f"#budget-vs-actual tr[data-account='{row['code']}'] td[data-field='{f}']")[0]
                for f in fields] == [dec(row[f]) for f in fields]
    # less sales than budgeted is unfavourable; less expense than budgeted, favourable
    assert "unfavourable" in page.locator("#budget-vs-actual tr[data-account='410101'] td[data-field='variance']").get_attribute("class")
    assert "favourable" in page.locator("#budget-vs-actual tr[data-account='6104'] td[data-field='variance']").get_attribute("class")
    screens(console, "budget-vs-actual", route)


# --- the income statement by cost centre -----------------------------------------------------------

def income_statement_by_cost_centre(console, centres: dict[str, dict]) -> None:
    page = console.page
    base = {"startDate": month_start(today()).isoformat(), "endDate": today().isoformat()}
    console.goto(f"/reports/income-statement?{urlencode(base)}")
    page.select_option("#f-dimensionValueId", str(centres["TGU"]["valueId"]))
    page.click(".report-filters button[type=submit]")
    console.wait_loaded()
    query = {**base, "dimensionValueId": centres["TGU"]["valueId"]}
    report = read(console, f"/reports/income-statement?{urlencode(query)}")
    # Tegucigalpa: the sale of 1,000 only (the expense was San Pedro Sula's)
    assert shown(page, "#income-statement tr[data-figure='netResult'] td.num") == [dec(report["netResult"])] == [1000]
    assert "Tegucigalpa" in page.inner_text("#content h2")
    screens(console, "income-statement-cost-centre", f"/reports/income-statement?{urlencode(query)}")

    # by Sucursal: Tegucigalpa 1,000, San Pedro Sula -150, nothing unassigned: 850 in all
    dimension_id = centres["TGU"]["dimensionId"]
    page.select_option("#f-dimensionValueId", "")
    page.select_option("#f-groupByDimensionId", str(dimension_id))
    page.click(".report-filters button[type=submit]")
    console.wait_loaded()
    assert not page.locator(".form-error .error-box").count(), page.inner_text(".form-error")
    headings = page.locator("#income-statement thead th.num").all_text_contents()
    assert headings == ["TGU · Tegucigalpa", "SPS · San Pedro Sula", "Sin asignar", "Total"], headings
    assert shown(page, "#income-statement tr[data-figure='netResult'] td.num") == [1000, -150, 0, 850]
    assert shown(page, "#income-statement tr[data-account='410101'] td.num") == [1000, 0, 0, 1000]
    grouped = {**base, "groupByDimensionId": dimension_id}
    screens(console, "income-statement-by-dimension", f"/reports/income-statement?{urlencode(grouped)}")

    # the trial balance by Sucursal: each column's debits and credits, then the whole
    route = f"/accounting/trial-balance?{urlencode({'date': today().isoformat(), 'groupByDimensionId': dimension_id})}"
    console.goto(route)
    assert shown(page, "#trial-balance tr[data-account='410101'] td.num") == [0, 1000, 0, 0, 0, 0, 0, 1000]
    assert shown(page, "#trial-balance tr[data-account='6104'] td.num") == [0, 0, 150, 0, 0, 0, 150, 0]
    answer = read(console, f"/journal-entries/trial-balance?{route.split('?')[1]}")
    assert shown(page, "#trial-balance tfoot td.num")[-2:] == [dec(answer["totalDebit"]), dec(answer["totalCredit"])]
    screens(console, "trial-balance-by-dimension", route)
