"""Inventory costing through the console, in a fresh company with the standard chart: an opening
stock (refused first without its unit cost, the error beside the input), the count sheet that finds
two units missing, a transfer to a second warehouse, and the valuation at average cost that equals
the inventory account, downloaded as CSV, XLSX and PDF; the product's average cost and stock. A
second journey counts 27 products: two adjustments (25 changed lines at most each)."""
from __future__ import annotations

import uuid
from pathlib import Path

from tests.browser.conftest import amount, fresh_company


def stocked_product(console, code: str, name: str, cost: float = 10) -> dict:
    status, _, product = console.as_session("POST", "/products", {
        "code": code, "name": name, "type": "product", "unitPrice": 30, "cost": cost, "trackInventory": True})
    assert status == 201, product
    return product


def test_opening_stock_count_transfer_and_valuation(console, demo, stack):
    tag = uuid.uuid4().hex[:6]
    with fresh_company(console, demo, f"Inventarios {tag} S.A."):
        journey(console, stocked_product(console, f"CAF-{tag}", "Café molido 1 lb"), tag)
    assert not console.errors


def test_a_long_count_is_sent_in_adjustments_of_25_changed_lines(console, demo, stack):
    """27 products counted where the books hold none: two adjustments (25 lines, then 2), as the
    API refuses more changed lines in one (DOCUMENT_TOO_LARGE); the pages also render in English."""
    page, tag = console.page, uuid.uuid4().hex[:6]
    with fresh_company(console, demo, f"Inventarios {tag} S.A."):
        products = [stocked_product(console, f"G{index:02d}-{tag}", f"Galleta {index:02d}", cost=2)
                    for index in range(27)]
        console.goto("/inventory/count")
        for product in products:
            page.fill(f"input.count-input[data-product='{product['id']}']", "3")
        assert "con diferencia: 27" in page.inner_text("#count-summary")
        assert page.locator("#count-summary .count-split").count() == 1
        page.locator("#count-summary").scroll_into_view_if_needed()
        console.shot("long-count-sheet", full_page=False)
        page.click("#count-form button[type=submit]")
        page.wait_for_selector("#count-results .count-adjustment")
        console.wait_loaded()
        parts = page.locator("#count-results .count-adjustment")
        assert parts.count() == 2
        assert parts.nth(0).locator("tbody tr").count() == 25 and parts.nth(1).locator("tbody tr").count() == 2
        assert "se registró en 2 ajustes de hasta 25" in page.inner_text("#count-results .count-outcome")
        console.shot("long-count-recorded", full_page=False)
        status, _, listed = console.as_session("GET", "/inventory/adjustments?limit=10")
        assert status == 200 and listed["total"] == 2, listed
        assert sorted(len(a["lines"]) for a in listed["adjustments"]) == [2, 25]
        assert sum(a["totalValue"] for a in listed["adjustments"]) == 27 * 3 * 2

        # English: the inventory pages render with their English labels
        page.select_option("#language", "en")
        console.wait_loaded()
        for route in ["/inventory/adjustments", "/inventory/adjustments/new", "/inventory/count",
                      "/inventory/transfers", "/inventory/transfers/new", "/inventory/valuation"]:
            console.goto(route)
            assert not page.query_selector(".page-error"), route
        assert page.inner_text("h1") == "Inventory valuation"
        console.shot("valuation-en")
        page.select_option("#language", "es")
        console.wait_loaded()
    assert not console.errors


def journey(console, product: dict, tag: str) -> None:
    page = console.page

    # an opening stock: 50 units at 12.50 in warehouse 1, refused first without its unit cost
    console.goto("/inventory/adjustments")
    assert page.inner_text("h1") == "Ajustes de inventario"
    assert "Aún no hay ajustes" in page.inner_text("#content")
    console.shot("adjustments-empty")
    page.click(".page-header button:has-text('Nuevo ajuste')")
    console.wait_loaded()
    form = page.locator("#adjustment-form")
    assert form.locator("#f-reason").input_value() == "opening"
    assert form.locator("#f-warehouseId").input_value() == "1"
    console.pick("lines-0-productId", product, within=form)  # typed, found through GET /products?q=
    form.locator("#f-lines-0-quantity").fill("50")
    assert "En existencia en la bodega: 0" in form.inner_text()
    form.locator("button[type=submit]").click()
    error = form.locator("[data-error-for='lines[0].unitCost']")
    error.wait_for()
    assert form.locator("#f-lines-0-unitCost").get_attribute("aria-invalid") == "true"
    console.shot("opening-refused-without-cost")
    form.locator("#f-lines-0-unitCost").fill("12.50")
    form.locator("#f-reference").fill(f"INI-{tag}")
    form.locator("button[type=submit]").click()
    page.wait_for_selector("[data-page='inventory-adjustments.detail'] #adjustment-value")
    console.wait_loaded()
    assert amount(page.inner_text("#adjustment-value")) == 625.0
    assert "Inventario inicial" in page.inner_text(".facts")
    assert page.locator(".facts .entry-link").count() == 1
    console.shot("opening-recorded")

    console.goto("/inventory/adjustments")
    row = page.locator("table.grid tbody tr", has_text=f"INI-{tag}")
    assert "Inventario inicial" in row.inner_text() and "Principal" in row.inner_text()
    assert amount(row.locator("td").nth(6).inner_text()) == 625.0
    assert row.locator("a[href^='#/accounting/entries/']").count() == 1
    console.shot("adjustments-listed")
    row.locator("a[href^='#/accounting/entries/']").click()
    page.wait_for_selector("[data-page='journal.detail']")
    console.wait_loaded()
    assert "Ajuste de inventario" in page.inner_text(".facts")
    console.shot("opening-entry")

    # the count sheet: 48 counted where the books hold 50
    console.goto("/inventory/count")
    assert page.locator("#f-warehouseId").input_value() == "1"
    sheet_row = page.locator("#count-form tbody tr", has_text=product["code"])
    assert amount(sheet_row.locator(".on-hand").inner_text()) == 50
    page.fill("#count-filter", product["code"])
    page.press("#count-filter", "Enter")  # Enter moves on to the first count shown, and never submits
    page.keyboard.type("48")
    page.keyboard.press("Enter")
    assert sheet_row.locator("input.count-input").input_value() == "48"
    assert page.locator("#count-results *").count() == 0
    assert sheet_row.locator(".difference").inner_text() == "-2"
    assert "Productos contados: 1 · con diferencia: 1" in page.inner_text("#count-summary")
    console.shot("count-sheet")
    # a full-page screenshot leaves Chromium's scroll offset stale until focus moves: the focus
    # leaves the input first, so that the click lands where the button is
    sheet_row.locator("input.count-input").blur()
    page.click("#count-form button[type=submit]")
    page.wait_for_selector("#count-results .count-adjustment")
    console.wait_loaded()
    result = page.locator("#count-results .count-adjustment tbody tr", has_text=product["code"])
    assert result.locator(".line-change").inner_text() == "-2"
    assert amount(result.locator(".line-value").inner_text()) == -25.0
    assert amount(page.locator("#count-form tbody tr", has_text=product["code"]).locator(".on-hand").inner_text()) == 48
    console.shot("count-recorded")

    # a second warehouse (through the API), and 8 units moved to it through the console
    status, _, north = console.as_session("POST", "/warehouses", {"name": f"Bodega Norte {tag}"})
    assert status == 201, north
    console.goto("/inventory/transfers")
    console.shot("transfers-empty")
    page.click(".page-header button:has-text('Nuevo traslado')")
    console.wait_loaded()
    form = page.locator("#transfer-form")
    form.locator("#f-fromWarehouseId").select_option("1")
    form.locator("#f-toWarehouseId").select_option(str(north["id"]))
    console.pick("lines-0-productId", product, within=form)
    form.locator("#f-lines-0-quantity").fill("8")
    assert "Disponible en la bodega de origen: 48" in form.inner_text()
    console.shot("transfer-form")
    form.locator("button[type=submit]").click()
    page.wait_for_selector("[data-page='inventory-transfers.detail'] .facts")
    console.wait_loaded()
    assert f"Bodega Norte {tag}" in page.inner_text(".facts")
    console.shot("transfer-recorded")
    console.goto("/inventory/transfers")
    assert f"Bodega Norte {tag}" in page.inner_text("table.grid tbody")
    console.shot("transfers-listed")
    # the stock page names the products of its rows (read one by one, not every product)
    console.goto("/stock")
    assert page.locator("table.grid tbody tr", has_text=product["code"]).count() >= 2  # two warehouses
    assert page.locator("a[href^='#/inventory/transfers/']", has_text="Traslado #").count() == 2  # out and in
    console.shot("stock")

    # the valuation: 40 x 12.50 in warehouse 1, 8 x 12.50 in the other, equal to the inventory account
    console.goto("/inventory/valuation")
    assert page.inner_text("h1") == "Valuación de inventario"
    items = page.locator("#valuation-items tbody tr")
    assert items.count() == 2
    principal = page.locator("#valuation-items tbody tr", has_text="Principal")
    other = page.locator("#valuation-items tbody tr", has_text=f"Bodega Norte {tag}")
    assert amount(principal.locator("td").nth(3).inner_text()) == 40
    assert amount(principal.locator("td").nth(5).inner_text()) == 500.0
    assert amount(other.locator("td").nth(3).inner_text()) == 8
    assert amount(other.locator("td").nth(5).inner_text()) == 100.0
    assert amount(page.inner_text("#valuation-total")) == 600.0
    assert amount(page.inner_text("#valuation-accounts-balance")) == 600.0
    assert amount(page.inner_text("#valuation-value strong")) == amount(page.inner_text("#valuation-balance strong"))
    assert amount(page.inner_text("#valuation-difference strong")) == 0
    assert page.locator("#valuation-difference.figure-ok").count() == 1
    console.shot("valuation")
    with page.expect_download() as downloading:
        page.click(".downloads .download-csv")
    download = downloading.value
    assert download.suggested_filename.endswith(".csv")
    text = Path(download.path()).read_bytes().decode("utf-8-sig")
    assert text.startswith("Código,Producto,Bodega,Cantidad,Costo promedio,Valor\r\n"), text[:200]
    assert "600.00" in text
    for button, extension, magic in (("download-xlsx", "xlsx", b"PK"), ("download-pdf", "pdf", b"%PDF")):
        with page.expect_download() as downloading:
            page.click(f".downloads .{button}")
        assert downloading.value.suggested_filename.endswith(f".{extension}")
        assert Path(downloading.value.path()).read_bytes().startswith(magic), extension

    # the product carries its average cost, stock and value
    console.goto("/products")
    product_row = page.locator("table.grid tbody tr", has_text=product["code"])
    cells = product_row.inner_text()
    assert "12.5000" in cells and "600.00" in cells
    console.shot("products")
    product_row.locator("td").first.click()
    dialog = page.locator("dialog")
    assert amount(dialog.locator("#product-stock-quantity").inner_text()) == 48
    assert "Costo de referencia" in dialog.inner_text()
    console.shot("product-detail")
    dialog.locator("button.icon").click()
