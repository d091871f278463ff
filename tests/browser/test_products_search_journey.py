"""The products page finds a product by its code or name through the API's `q` (issue 38), in
both languages, on a wide and a phone-width screen."""
from __future__ import annotations

import uuid

from tests.browser.conftest import api_call
from tests.browser.reports_support import switch_language


def test_the_products_page_searches_by_code_or_name(console, demo, stack):
    base, key = stack[0].base, demo["apiKey"]
    tag = uuid.uuid4().hex[:6]
    for code, name in ((f"SRCH-{tag}-1", f"Escritorio roble {tag}"), (f"SRCH-{tag}-2", f"Silla giratoria {tag}")):
        status, _, answer = api_call(base, "POST", "/products", key, {"code": code, "name": name, "unitPrice": 10})
        assert status == 201, answer
    console.login_to_company(demo["email"], demo["password"], demo["companyId"])
    for language, width in (("es", 1280), ("en", 1280), ("es", 390)):
        console.page.set_viewport_size({"width": width, "height": 860})
        console.goto("/products")
        switch_language(console, language)
        console.page.fill("#f-q", f"roble {tag}")
        console.page.click("form.inline button[type=submit]")
        console.wait_loaded()
        rows = console.page.locator(".crud tbody tr")
        assert rows.count() == 1 and f"Escritorio roble {tag}" in rows.first.inner_text()
        console.shot(f"name-{language}-{width}")
        # the code, typed without its hyphens, finds the other one
        console.page.fill("#f-q", f"srch{tag}2")
        console.page.click("form.inline button[type=submit]")
        console.wait_loaded()
        assert [row.inner_text().split("\t")[0] for row in rows.all()] == [f"SRCH-{tag}-2"]
        console.shot(f"code-{language}-{width}")
    switch_language(console, "es")
    assert console.errors == []
