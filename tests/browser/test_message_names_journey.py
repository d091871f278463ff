"""Issue 38, point 8: no program name of a field in what a person reads. A report asked for with
its dates the wrong way round: the API answers "startDate: must not be after the end date" (the
field for programs, in details[].field too; it read "must not be after endDate"); the console
says the problem beside the form's "Desde"/"From" in the screen's language, and no program name
of a field shows anywhere on the page."""
from __future__ import annotations

from tests.browser.reports_support import switch_language


def test_a_refusal_shows_its_problem_without_the_field_name(console, demo):
    page = console.page
    console.login_to_company(demo["email"], demo["password"], demo["companyId"])
    for language, problem in (("es", "no debe ser posterior a la fecha final"),
                              ("en", "must not be after the end date")):
        switch_language(console, language)
        console.goto("/reports/sales-book?startDate=2026-12-01&endDate=2026-11-01")
        beside = page.wait_for_selector(".field-error[data-error-for='startDate']")
        assert beside.inner_text() == problem
        text = page.inner_text("main")
        assert "startDate" not in text and "endDate" not in text, text
        console.shot(f"refusal-{language}")
