"""Issue 38, points 4 and 10 in Chromium. A count at a past date: the count sheet shows the stock of
the count's day (a transfer dated later left out) and records the difference against it; the stock
page "as of" that day. Small screens: at 390 px the menu button opens the navigation (keyboard
too) and a link navigates; at 1024 px the products, banking and sales book tables fit or scroll
inside their card (the page never scrolls sideways) and the chart of accounts keeps each row's
actions on one line. Screenshots in Spanish and English at 1280, 1024 and 390 px."""
from __future__ import annotations

import datetime
import uuid

from tests.browser.conftest import amount, fresh_company

WIDTHS = (1280, 1024, 390)


def shots_at_widths(console, name: str) -> None:
    """The page as it is, at each width, full page."""
    for width in WIDTHS:
        console.page.set_viewport_size({"width": width, "height": 860})
        console.shot(f"{name}-{width}")
    console.page.set_viewport_size({"width": 1280, "height": 860})


def created(console, path: str, body: dict) -> dict:
    status, _, answer = console.as_session("POST", path, body)
    assert status == 201, answer
    return answer


def test_a_count_at_a_past_date_and_the_stock_as_of_that_day(console, demo, stack):
    page, tag = console.page, uuid.uuid4().hex[:6]
    # the company's today (the context runs on Tegucigalpa's clock, as the API dates Honduras)
    today = datetime.date.fromisoformat(page.evaluate("() => new Date().toLocaleDateString('en-CA')"))
    opened, counted_on, moved_on = (today - datetime.timedelta(days=n) for n in (10, 3, 2))
    with fresh_company(console, demo, f"Conteos {tag} S.A."):
        product = created(console, "/products", {"code": f"TOR-{tag}", "name": "Tornillo 1/4", "type": "product",
                                                 "unitPrice": 30, "cost": 13, "trackInventory": True})
        north = created(console, "/warehouses", {"name": "Bodega Norte"})
        # 118 at 13 = 1,534 in the main warehouse (1); 20 moved north the day after the count, recorded first
        created(console, "/inventory/adjustments", {
            "warehouseId": 1, "date": opened.isoformat(), "reason": "opening",
            "lines": [{"productId": product["id"], "quantity": 118, "unitCost": 13}]})
        created(console, "/inventory/transfers", {
            "fromWarehouseId": 1, "toWarehouseId": north["id"], "date": moved_on.isoformat(),
            "lines": [{"productId": product["id"], "quantity": 20}]})

        console.goto("/inventory/count?warehouseId=1")
        row = page.locator("#count-form tbody tr", has_text=product["code"])
        assert amount(row.locator(".on-hand").inner_text()) == 98  # today: 118 - 20
        page.fill("#count-form [name=date]", counted_on.isoformat())
        page.dispatch_event("#count-form [name=date]", "change")
        page.wait_for_selector(f"#count-form[data-stock-date='{counted_on.isoformat()}']")
        # on the count's day the transfer had not happened: 118
        assert amount(row.locator(".on-hand").inner_text()) == 118
        assert "existencia en la fecha del conteo" in page.inner_text("#count-form thead").lower()
        row.locator("input.count-input").fill("116")
        assert row.locator(".difference").inner_text() == "-2"  # 116 - 118, not 116 - 98 = +18
        shots_at_widths(console, "count-at-a-past-date-es")
        row.locator("input.count-input").blur()
        page.click("#count-form button[type=submit]")
        page.wait_for_selector("#count-results .count-adjustment")
        console.wait_loaded()
        status, _, listed = console.as_session("GET", "/inventory/adjustments?limit=10")
        count = next(a for a in listed["adjustments"] if a["reason"] == "count")
        # 2 missing on the count's day at its average 1,534 / 118 = 13: 26 lost
        assert count["date"] == counted_on.isoformat()
        assert [(line["previousQuantity"], line["countedQuantity"], line["quantity"], line["value"])
                for line in count["lines"]] == [(118, 116, -2, -26)]
        # the sheet drawn again shows the count's day: 116 there now
        page.wait_for_selector(f"#count-form[data-stock-date='{counted_on.isoformat()}']")
        assert amount(row.locator(".on-hand").inner_text()) == 116
        console.shot("count-recorded-es")

        # a new adjustment's line notes the stock of the adjustment's date too
        console.goto("/inventory/adjustments/new?reason=count")
        form = page.locator("#adjustment-form")
        console.pick("lines-0-productId", product, within=form)
        assert "En existencia en la bodega: 96" in form.inner_text()  # today: 118 - 2 - 20
        form.locator("#f-date").fill(counted_on.isoformat())
        form.locator("#f-date").dispatch_event("change")
        page.wait_for_function("() => document.querySelector('#adjustment-form .line-hint').textContent"
                               ".includes('bodega: 116')")

        # the stock page, now and as of the count's day
        console.goto("/stock")
        lines = page.locator("table.grid").first.locator("tbody tr")
        now = {lines.nth(i).locator("td").nth(1).inner_text(): amount(lines.nth(i).locator("td").nth(2).inner_text())
               for i in range(lines.count())}
        assert now == {"Principal": 96, "Bodega Norte": 20}  # 118 - 2 - 20 and 20
        page.fill("#f-date", counted_on.isoformat())
        page.click(".card form button[type=submit]")
        console.wait_loaded()
        assert f"date={counted_on.isoformat()}" in page.url
        lines = page.locator("table.grid").first.locator("tbody tr")
        then = {lines.nth(i).locator("td").nth(1).inner_text(): amount(lines.nth(i).locator("td").nth(2).inner_text())
                for i in range(lines.count())}
        assert then == {"Principal": 116, "Bodega Norte": 0}  # 118 - 2; the transfer came the day after
        assert "los movimientos con fecha posterior no cuentan" in page.inner_text("#stock-as-of")
        shots_at_widths(console, "stock-as-of-es")

        page.select_option("#language", "en")
        console.wait_loaded()
        assert "movements dated later are left out" in page.inner_text("#stock-as-of")
        assert page.inner_text("label[for='f-date']") == "Stock as of"
        shots_at_widths(console, "stock-as-of-en")
        console.goto(f"/inventory/count?warehouseId=1&date={counted_on.isoformat()}")
        assert amount(row.locator(".on-hand").inner_text()) == 116
        assert "on hand on the count's date" in page.inner_text("#count-form thead").lower()
        shots_at_widths(console, "count-at-a-past-date-en")
        page.select_option("#language", "es")
        console.wait_loaded()
    assert not console.errors


def test_tables_at_1024_and_the_menu_on_a_phone(console, demo, stack):
    page, tag = console.page, uuid.uuid4().hex[:6]
    with fresh_company(console, demo, f"Pantallas {tag} S.A."):
        # rows as wide as real ones get: long names, codes and account numbers
        for index in range(3):
            created(console, "/products", {
                "code": f"FERR-{tag}-{index:04d}-XL", "type": "product", "unitPrice": 1234567.89, "cost": 987654.32,
                "name": f"Tornillo hexagonal galvanizado de alta resistencia {index} pulgadas caja de cien unidades",
                "trackInventory": True})
        cash = next(a["id"] for number in range(1, 10)
                    for a in console.as_session("GET", f"/chart-of-accounts?limit=100&page={number}")[2]["accounts"]
                    if a["code"] == "110103")
        created(console, "/bank-accounts", {
            "name": "Cuenta de cheques operativa principal de la empresa", "bankName": "Banco Atlántida de Honduras",
            "accountNumber": "0102-0304-0506-0708-0910", "openingBalance": 12345678.9,
            "openingBalanceDate": "2026-01-01", "chartOfAccountId": cash})
        for language in ("es", "en"):
            page.select_option("#language", language)
            console.wait_loaded()
            tables_at_1024(console, language)
            menu_on_a_phone(console, language)
        page.select_option("#language", "es")
        console.wait_loaded()
    assert not console.errors


def tables_at_1024(console, language: str) -> None:
    """Each table's card ends inside the window; the page never scrolls sideways; the chart of
    accounts keeps a row's actions on one line."""
    page = console.page
    page.set_viewport_size({"width": 1024, "height": 768})
    for route in ("/products", "/banking", "/reports/sales-book", "/accounting/chart"):
        console.goto(route)
        spill = page.evaluate("""() => ({
            page: document.documentElement.scrollWidth,
            content: document.getElementById('content').scrollWidth - document.getElementById('content').clientWidth,
            cards: [...document.querySelectorAll('#content table')].map((table) =>
                Math.round((table.closest('.card, .table-scroll') || table).getBoundingClientRect().right)),
        })""")
        assert spill["page"] <= 1024 and spill["content"] <= 0, (route, spill)
        assert spill["cards"] and all(right <= 1024 for right in spill["cards"]), (route, spill)
        console.shot(f"tablet{route.replace('/', '-')}-{language}", full_page=route != "/accounting/chart")
    rows = page.locator("#content table.grid tbody tr").count()
    # on one line: every action overlaps the others vertically (the highest top above the lowest bottom)
    lines = page.evaluate("""() => [...document.querySelectorAll('#content td.actions')].map((cell) => {
        const boxes = [...cell.children].map((child) => child.getBoundingClientRect());
        return Math.max(...boxes.map((b) => b.top)) < Math.min(...boxes.map((b) => b.bottom));
    })""")
    assert rows > 50 and all(lines), lines.count(False)
    height = page.evaluate("() => document.documentElement.scrollHeight")
    assert height < rows * 60 + 600, (rows, height)  # a row or two of text each, not 9,600 px of buttons
    page.set_viewport_size({"width": 1280, "height": 860})


def menu_on_a_phone(console, language: str) -> None:
    page = console.page
    page.set_viewport_size({"width": 390, "height": 844})
    console.goto("/")
    toggle = page.locator("#menu-toggle")
    assert toggle.is_visible() and not page.locator("#sidebar").is_visible()
    assert toggle.get_attribute("aria-expanded") == "false"
    assert toggle.get_attribute("aria-controls") == "sidebar"
    assert toggle.inner_text().strip().endswith("Menú" if language == "es" else "Menu")
    assert page.evaluate("() => document.documentElement.scrollWidth") <= 390
    console.shot(f"phone-home-{language}", full_page=False)
    # the keyboard opens it (Enter on the button), the focus goes to the first link, Escape closes it
    toggle.focus()
    page.keyboard.press("Enter")
    assert toggle.get_attribute("aria-expanded") == "true" and page.locator("#sidebar").is_visible()
    assert page.evaluate("() => document.activeElement.closest('#sidebar') !== null")
    console.shot(f"phone-menu-open-{language}", full_page=False)
    page.keyboard.press("Escape")
    assert toggle.get_attribute("aria-expanded") == "false" and not page.locator("#sidebar").is_visible()
    assert page.evaluate("() => document.activeElement.id") == "menu-toggle"
    # opened by a tap, a link navigates and the new page starts with the menu closed
    toggle.click()
    page.locator("#sidebar a[href='#/products']").click()
    console.wait_loaded()
    assert page.url.endswith("#/products") and page.inner_text("h1").startswith(
        "Productos" if language == "es" else "Products")
    assert not page.locator("#sidebar").is_visible()
    assert page.locator("#menu-toggle").get_attribute("aria-expanded") == "false"
    assert page.evaluate("() => document.documentElement.scrollWidth") <= 390
    console.shot(f"phone-products-{language}")
    page.set_viewport_size({"width": 1280, "height": 860})
