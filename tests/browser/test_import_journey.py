"""Issue 41, point 3: moving a business in through the console and taking it out again. In a new
company of its own (the demo company is shared), the owner downloads the partners' template, uploads
a file whose first heading is not the template's (the mapping step names it), sees exactly the two
bad rows by line and column, fixes them, validates again, imports and finds the partners in the
partners page; then exports all the company's data from the company settings and gets the link.
Screenshots in Spanish and English at 1280 and 390 px wide."""
from __future__ import annotations

import uuid
from pathlib import Path

from tests.browser.conftest import fresh_company
from tests.browser.reports_support import switch_language

WIDTHS = (1280, 390)


def partners_csv(tag: str, fixed: bool) -> str:
    """Five partners; the first heading is the business's own ("Razon social"), not the template's.
    Line 1 is the heading, so the partners are lines 2 to 6. Unfixed, line 3's type ("alien") is none
    of customer|supplier|both and line 5's email has no "@": exactly two bad rows."""
    bad_type, bad_email = ("customer", f"compras-{tag}@example.com") if fixed else ("alien", "compras-sin-arroba")
    return "\n".join([
        "Razon social,type,taxId,email,creditLimit",
        f"Ferretería Uno {tag},customer,0801{tag}000001,uno-{tag}@example.com,5000.00",   # line 2
        f"Distribuidora Dos {tag},{bad_type},0801{tag}000002,,",                       # line 3
        f"Agro Tres {tag},supplier,0801{tag}000003,,",                                # line 4
        f"Comercial Cuatro {tag},both,0801{tag}000004,{bad_email},1500.00",            # line 5
        f"Servicios Cinco {tag},customer,0801{tag}000005,,",                          # line 6
    ]) + "\n"


def choose_file(console, tmp_path: Path, name: str, text: str) -> None:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    console.page.set_input_files("#import-file", str(path))


def wait_status(console, *statuses: str) -> str:
    """The job's status once it is one of `statuses` (the page polls GET /imports/{id} each second)."""
    selector = ", ".join(f"#import-status[data-status={status}]" for status in statuses)
    console.page.wait_for_selector(selector, timeout=60_000)
    return console.page.get_attribute("#import-status", "data-status")


def shown_errors(page) -> list[tuple[str, str]]:
    rows = page.locator(".import-errors tbody tr").all()
    # the column as the API names it (data-column); the page shows its heading in the console's language
    return [(row.locator("td").nth(0).inner_text(), row.locator("td [data-column]").get_attribute("data-column"))
            for row in rows]


def shots_in_both_languages(console, route: str, name: str, ready_selector: str, before=None) -> None:
    page = console.page
    for language in ("es", "en"):
        switch_language(console, language)
        for width in WIDTHS:
            page.set_viewport_size({"width": width, "height": 860})
            console.goto(route)
            if before:
                before()
            page.wait_for_selector(ready_selector)
            # nothing wider than the screen: a wide table scrolls inside its card
            assert page.evaluate("document.documentElement.scrollWidth") <= width, (language, width)
            console.shot(f"{name}-{language}-{width}")
    page.set_viewport_size({"width": 1280, "height": 860})
    switch_language(console, "es")


def test_partners_move_in_from_the_template_and_the_company_moves_out(console, demo, stack, tmp_path):
    page = console.page
    tag = str(uuid.uuid4().int)[:4]
    with fresh_company(console, demo, f"Mudanza {tag}"):
        console.goto("/imports")
        assert page.inner_text("h1") == "Importar datos"
        assert page.locator("#kind-partners").is_checked()
        # every kind, with the order of the opening balances said
        assert page.locator(".import-kind").count() == 7
        assert "primero los documentos pendientes y el inventario inicial" in page.inner_text("#import-order")
        console.shot("imports-start")

        # The template, as the console fetches it (Accept: text/csv, Accept-Language: es), saved as a file.
        with page.expect_download() as download:
            page.click("#import-template .template-csv")
        saved = Path(download.value.path()).read_bytes().decode("utf-8-sig")
        assert download.value.suggested_filename == "plantilla-partners.csv"
        first_line = saved.splitlines()[0]
        assert first_line.split(",")[:3] == ["Nombre", "Tipo", "Identificación fiscal"], first_line
        status, _, columns = console.as_session("GET", "/imports/templates/partners?language=es")  # the same, as JSON
        assert status == 200 and first_line == ",".join(column["heading"] for column in columns["columns"])

        # A file of the business's own: its first heading is not the template's. The API refuses the
        # request (400 IMPORT_INVALID, no job) naming it at line 1; the page offers the kind's columns for it.
        choose_file(console, tmp_path, "clientes.csv", partners_csv(tag, fixed=False))
        page.click("#import-validate")
        page.wait_for_selector("select.import-map[data-heading='Razon social']")
        assert page.get_attribute("[role=alert]", "data-code") == "IMPORT_INVALID"
        assert "Razon social" in page.inner_text("[role=alert] .error-list")
        assert page.locator("#import-status").count() == 0
        console.shot("imports-mapping")
        page.select_option("select.import-map[data-heading='Razon social']", "name")

        # Validated again with the mapping: exactly the two bad rows, by line and column.
        page.click("#import-validate")
        wait_status(console, "failed")
        page.wait_for_selector(".import-errors tbody tr")
        assert sorted(shown_errors(page)) == [("3", "type"), ("5", "email")]
        page.wait_for_selector(".import-errors [data-column=type]:text-is('Tipo')")
        assert page.inner_text("#import-rows") == "5" and page.inner_text("#import-invalid") == "2"
        assert page.locator("#import-run").is_disabled()
        console.shot("imports-errors")

        # The corrected file (the same headings: the mapping stays), validated: ready, nothing stored.
        choose_file(console, tmp_path, "clientes-corregido.csv", partners_csv(tag, fixed=True))
        page.click("#import-validate")
        assert wait_status(console, "ready") == "ready"
        assert page.inner_text("#import-valid") == "5"
        status, _, listed = console.as_session("GET", f"/business-partners?q={tag}")
        assert status == 200 and listed["total"] == 0, listed
        console.shot("imports-ready")

        # Imported: 5 created (lines 2 to 6), none updated.
        page.click("#import-run")
        assert wait_status(console, "done") == "done"
        assert page.inner_text("#import-result") == "Importación terminada: 5 creados, 0 actualizados."
        console.shot("imports-done")
        status, _, listed = console.as_session("GET", f"/business-partners?q={tag}&limit=100")
        assert status == 200 and listed["total"] == 5, listed
        by_tax_id = {partner["taxId"]: partner for partner in listed["businessPartners"]}
        assert by_tax_id[f"0801{tag}000002"]["type"] == "customer"
        assert by_tax_id[f"0801{tag}000004"]["email"] == f"compras-{tag}@example.com"

        console.goto("/partners")
        names = page.inner_text("table.grid tbody")
        for name in ("Ferretería Uno", "Distribuidora Dos", "Agro Tres", "Comercial Cuatro", "Servicios Cinco"):
            assert f"{name} {tag}" in names
        console.shot("partners-imported")

        # The recent jobs, newest first: the failed validation (the refused file made none) and the
        # ready one, run for real (the same job: no second upload); the failed one opens again.
        console.goto("/imports")
        jobs = page.locator("#import-jobs tbody tr")
        assert jobs.count() == 2
        assert "clientes-corregido.csv" in jobs.first.inner_text()
        assert jobs.first.locator(".badge").inner_text() == "Terminado"
        open_failed = lambda: page.locator("#import-jobs tbody tr", has_text="clientes.csv").first.click()  # noqa: E731
        shots_in_both_languages(console, "/imports", "imports-failed-job", ".import-errors tbody tr", open_failed)

        # Moving out: the company's archive from its settings, with its link, date and counts.
        console.goto("/settings/company")
        page.click("#company-export")
        page.wait_for_selector("#company-export-link", timeout=60_000)
        link = page.get_attribute("#company-export-link", "href")
        assert link.startswith("http")
        assert page.get_attribute("#company-export-state", "data-status") == "done"
        assert page.inner_text("#company-export-finished")
        # the archive's records: the total only (the store's own family names are not shown to a person)
        status, _, exported = console.as_session("GET", f"/exports/{page.get_attribute('#company-export-state', 'data-export')}")
        assert status == 200 and exported["counts"]["BP"] == 5, exported
        assert page.inner_text("#company-export-items") == f"{exported['counts']['items']:,}"
        assert page.locator(".export-counts").count() == 0 and "CHART" not in page.inner_text("#company-export-status")
        console.shot("company-export-done")
        export = lambda: (page.click("#company-export"), page.wait_for_selector("#company-export-link", timeout=60_000))  # noqa: E731
        shots_in_both_languages(console, "/settings/company", "company-export", "#company-export-link", export)
    assert not console.errors
