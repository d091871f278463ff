"""Settling October's ISV through the console (issue 39: the tax accounts are control accounts, so
the tax settlement is the only way to pay it), in a fresh Honduran company with an invoice and a
purchase in October 2026 and a bank account in lempiras on a ledger of its own: the ISV summary's
link opens the settlements page with October's end proposed; settling lists 90.00 paid with its
entry; November's summary brings nothing forward; settling October again is refused beside the
period field, in Spanish and in English. Screenshots in both languages at 1280 and 390 px wide."""
from __future__ import annotations

import uuid
from decimal import Decimal

from tests.browser.conftest import created, fresh_company
from tests.browser.reports_support import month_end, number, shown, switch_language, today
from tests.browser.test_year_close_journey import account_ids

CAI_CODE = "A1B2C3-D4E5F6-A7B8C9-D0E1F2-A3B4C5-D6"


def shot(console, name: str) -> None:
    """The page at 1280 and at 390 px wide, without the notices of the steps before."""
    page = console.page
    page.evaluate("() => document.getElementById('toasts').replaceChildren()")
    console.shot(f"{name}-1280")
    page.set_viewport_size({"width": 390, "height": 844})
    # Chromium paints a scrolling table far below the fold only once it has been in view
    page.locator("#tax-settlements, #tax-settlements-empty").first.scroll_into_view_if_needed()
    console.shot(f"{name}-390")
    page.set_viewport_size({"width": 1280, "height": 860})


def test_settling_october_isv_in_the_console(console, demo, stack):
    tag = uuid.uuid4().hex[:6]
    page = console.page
    with fresh_company(console, demo, f"Liquidaciones {tag} S.A."):
        accounts = account_ids(console)
        created(console, "/cai", {"cai": CAI_CODE, "branchId": 1, "emissionPoint": "001", "documentType": "01",
                                  "rangeStart": 1, "rangeEnd": 500, "deadline": "2099-12-31"})
        # a bank account's ledger is its own: an empty, non-control account (conftest's bank_ledger)
        ledger = created(console, "/chart-of-accounts", {"code": "110104", "name": "Banco de impuestos",
                                                         "type": "asset", "parentId": accounts["1101"]})
        bank = created(console, "/bank-accounts", {"name": f"Banco Atlántida {tag}", "currency": "HNL",
                                                   "openingBalance": 0, "openingBalanceDate": "2026-01-01",
                                                   "chartOfAccountId": ledger["id"]})
        created(console, f"/bank-accounts/{bank['id']}/transactions", {
            "type": "deposit", "amount": "500.00", "transactionDate": "2026-10-01", "chartOfAccountId": accounts["3101"]})
        customer = created(console, "/business-partners", {"name": f"Cliente {tag}", "type": "customer"})
        supplier = created(console, "/business-partners", {"name": f"Proveedor {tag}", "type": "supplier"})
        line = lambda price: [{"description": "Servicio", "quantity": 1, "unitPrice": price, "taxRate": 0.15}]  # noqa: E731
        created(console, "/documents", {"type": "01", "businessPartnerId": customer["id"], "date": "2026-10-05",
                                        "lines": line(1000)})     # 1,000.00 + 15 % = ISV 150.00
        created(console, "/documents", {"type": "103", "businessPartnerId": supplier["id"], "date": "2026-10-06",
                                        "reference": f"FAC-{tag}", "lines": line(400)})  # 400.00 + 15 % = 60.00

        # October's summary: 150.00 output - 60.00 input = 90.00 payable; its link proposes October's end
        console.goto("/reports/isv-summary?month=2026-10")
        assert shown(page, "#isv-settlement tr[data-figure='taxPayable'] td.num") == [Decimal("90.00")]
        page.click("#isv-settle")
        console.wait_loaded()
        form = page.locator("#tax-settlement-form")
        assert form.locator("#f-periodEnd").input_value() == "2026-10-31"
        assert form.locator("#f-bankAccountId").input_value() == str(bank["id"])
        assert "Banco de impuestos" not in page.inner_text("#f-bankAccountId")  # bank accounts, not ledgers
        shot(console, "settle-form-es")

        form.locator("#f-date").fill("2026-11-15")
        form.locator("button[type=submit]").click()
        page.wait_for_selector("#tax-settlement-done")
        console.wait_loaded()
        settlements = console.as_session("GET", "/tax-settlements")[2]["taxSettlements"]
        assert len(settlements) == 1
        settlement = settlements[0]
        # paid 150.00 - 60.00 = 90.00, as the outcome and the list show it, with its entry linked
        assert number(page.inner_text("#tax-settlement-paid")) == Decimal("90.00")
        row = f"#tax-settlements tr[data-settlement='{settlement['id']}']"
        assert shown(page, f"{row} td.num") == [Decimal("150.00"), Decimal("60.00"), Decimal("90.00")]
        assert f"Banco Atlántida {tag}" in page.inner_text(row)
        entry = f"a[href='#/accounting/entries/{settlement['journalEntryId']}']"
        assert page.locator(f"#tax-settlement-done {entry}").count() == 1 and page.locator(f"{row} {entry}").count() == 1
        # the next period proposed: November, the month of the settlement's date (or a later month's end, when
        # the suite runs after December 2026)
        previous_month_end = month_end(today(), 1).isoformat()
        assert page.locator("#f-periodEnd").input_value() == max(previous_month_end, "2026-11-30")
        # the bank paid it: 500.00 - 90.00 = 410.00
        assert console.as_session("GET", f"/bank-accounts/{bank['id']}")[2]["balance"] == 410
        shot(console, "settled-es")

        # October settled: again is refused beside the period's field, in the page's language
        for language, words in (("es", "liquidación"), ("en", "settlement")):
            if language == "en":
                switch_language(console, "en")
            form = page.locator("#tax-settlement-form")
            form.locator("#f-periodEnd").fill("2026-10-31")
            form.locator("#f-date").fill("2026-11-20")
            form.locator("button[type=submit]").click()
            error = form.locator("[data-error-for='periodEnd']")
            error.wait_for()
            assert words in error.inner_text().lower(), error.inner_text()
            shot(console, f"refused-{language}")
        assert len(console.as_session("GET", "/tax-settlements")[2]["taxSettlements"]) == 1
        assert console.as_session("GET", f"/bank-accounts/{bank['id']}")[2]["balance"] == 410

        # November brings nothing forward: no credit, nothing payable
        console.goto("/reports/isv-summary?month=2026-11")
        for figure in ("creditBroughtForward", "taxPayable", "creditCarriedForward"):
            assert shown(page, f"#isv-settlement tr[data-figure='{figure}'] td.num") == [Decimal(0)], figure
        console.goto("/accounting/tax-settlements")
        assert "Tax settlements" in page.inner_text(".sidebar")
        shot(console, "settlements-en")
        switch_language(console, "es")
    assert not console.errors, console.errors
