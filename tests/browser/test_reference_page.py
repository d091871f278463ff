"""GET /docs: the API reference renders every operation of the served OpenAPI document, public like
the document (no session: a reader or an integrator needs no account)."""
from __future__ import annotations

from tests.browser.conftest import api_call


def test_the_reference_lists_every_operation_with_its_fields(console, demo, stack):
    base, page = stack[0].base, console.page
    page.goto(f"{base}/docs")  # no session
    page.wait_for_selector("[data-operation='POST /business-partners']")
    assert "parse_float=decimal.Decimal" in page.locator("[data-info='description']").inner_text()  # money, exactly
    document = api_call(base, "GET", "/openapi.json", demo["apiKey"])[2]
    operations = sum(1 for methods in document["paths"].values() for method in methods
                     if method in ("get", "post", "put", "patch", "delete"))
    assert page.locator("section.operation").count() == operations
    create = page.locator("[data-operation='POST /business-partners']")
    assert "name" in create.inner_text() and "201" in create.inner_text()
    console.shot("api-reference-top", full_page=False)
    conflicts = create.locator("li", has_text="409").locator("details")
    conflicts.locator("summary").click()  # an error status lists the codes it carries
    assert "DUPLICATE_CODE" in conflicts.inner_text() and "VERSION_CONFLICT" in conflicts.inner_text()
    create.scroll_into_view_if_needed()
    console.shot("api-reference-operation", full_page=False)
    assert not console.errors
