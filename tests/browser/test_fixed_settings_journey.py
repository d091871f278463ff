"""The company settings page once the company has posted (issue 39, point 3): the currency and
country say they are fixed, and a change is refused under the field in the page's language."""
from __future__ import annotations

import uuid

from tests.browser.conftest import fresh_company
from tests.browser.reports_support import switch_language, today

REFUSED = {"es": "no se puede cambiar una vez que la empresa tiene registros en su contabilidad",
           "en": "cannot change once the company has posted to its books"}
HELP = {"es": "Fija desde la primera operación", "en": "Fixed from the first operation"}


def test_a_currency_change_after_postings_is_refused_under_its_field(console, demo):
    page = console.page
    with fresh_company(console, demo, f"Moneda fija {uuid.uuid4().hex[:6]} S.A.") as company:
        accounts: dict[str, int] = {}
        for number in (1, 2):
            answer = console.as_session("GET", f"/chart-of-accounts?limit=100&page={number}")[2]
            accounts |= {a["code"]: a["id"] for a in answer["accounts"]}
        status, _, entry = console.as_session("POST", "/journal-entries", {
            "date": today().isoformat(), "description": "Aporte de capital", "status": "posted",
            "lines": [{"chartOfAccountId": accounts["110101"], "debit": 500},
                      {"chartOfAccountId": accounts["3101"], "credit": 500}]})
        assert status == 201, entry
        try:
            for language in ("es", "en"):
                switch_language(console, language)
                for width in (1280, 390):
                    page.set_viewport_size({"width": width, "height": 860})
                    console.goto("/settings/company")
                    assert HELP[language] in page.locator("#f-currency").locator("xpath=..").inner_text()
                    page.select_option("#f-currency", "USD")
                    page.locator("form.form button[type=submit]").first.click()
                    error = page.wait_for_selector("[data-error-for=currency]")
                    assert REFUSED[language] in error.inner_text()
                    console.shot(f"currency-fixed-{language}-{width}")
        finally:
            page.set_viewport_size({"width": 1280, "height": 860})
            switch_language(console, "es")
        status, _, after = console.as_session("GET", "/companies")
        # the company has posted (the entry of 500.00): nothing changed, not even the version
        assert (after["id"], after["currency"], after["country"], after["version"]) == \
               (company["id"], "HNL", "HN", company["version"])
    assert not console.errors
