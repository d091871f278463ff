"""What the reports' journeys share: the periods, reading the figures a page shows, opening the
downloads (CSV, XLSX, PDF) and checking a report's rows and the home page's chart tables against
the API's answer."""
from __future__ import annotations

import csv
import datetime
import io
import re
from decimal import Decimal
from pathlib import Path
from urllib.parse import urlencode
from zoneinfo import ZoneInfo

from openpyxl import load_workbook
from pypdf import PdfReader

AGE_BUCKETS = ("current", "days1To30", "days31To60", "days61To90", "over90", "total")
HN_AMOUNTS = ("exempt", "exonerated", "taxed15", "taxed18", "isv15", "isv18", "total")
IVA_AMOUNTS = {
    "iva-sales-consumers": ("exempt", "nonSubject", "taxed", "exports", "iva", "total"),
    "iva-sales-taxpayers": ("exempt", "nonSubject", "taxed", "iva", "total"),
    "iva-purchases": ("exemptInternal", "exemptImports", "taxedInternal", "taxedImports", "iva", "excludedSubject",
                      "total"),
}


# --- dates: the console's clock is Tegucigalpa's -----------------------------------------------------

def today() -> datetime.date:
    return datetime.datetime.now(ZoneInfo("America/Tegucigalpa")).date()


def month_start(day: datetime.date, back: int = 0) -> datetime.date:
    month = day.year * 12 + day.month - 1 - back
    return datetime.date(month // 12, month % 12 + 1, 1)


def month_end(day: datetime.date, back: int = 0) -> datetime.date:
    return month_start(day, back - 1) - datetime.timedelta(days=1)


def last_months(day: datetime.date) -> list[str]:
    return [month_start(day, back).isoformat()[:7] for back in range(11, -1, -1)]


# --- reading what the page shows and what the files hold -------------------------------------------

def number(text: str) -> Decimal:
    """'L 1,250.50', '-L 25.00', 'HNL 1,250.50' or 'US$1,250.50' -> the amount."""
    return Decimal(re.sub(r"[^\d.-]", "", text))


def dec(value) -> Decimal:
    return Decimal(str(value))


def shown(page, selector: str) -> list[Decimal]:
    return [number(text) for text in page.locator(selector).all_text_contents()]


def downloaded(console, stem: str, label: str, figures: list[Decimal], formats=("csv", "xlsx", "pdf")) -> None:
    """Each format downloaded from the page's buttons and opened: its name says the report and the
    period, and the row named `label` holds the API's `figures`."""
    page = console.page
    for extension in formats:
        with page.expect_download() as downloading:
            page.click(f".downloads .download-{extension}")
        download = downloading.value
        assert download.suggested_filename == f"{stem}.{extension}"
        content = Path(download.path()).read_bytes()
        if extension == "csv":
            rows = list(csv.reader(io.StringIO(content.decode("utf-8-sig"))))
            row = next(r for r in rows if label in r)
            assert [Decimal(cell) for cell in row[row.index(label) + 1:] if cell] == figures, (stem, row)
        elif extension == "xlsx":
            sheet = load_workbook(io.BytesIO(content), read_only=True).active
            row = next(r for r in sheet.iter_rows(values_only=True) if label in r)
            values = [dec(round(v, 2)) for v in row[row.index(label) + 1:] if isinstance(v, (int, float))]
            assert values == figures, (stem, row)
        else:
            text = "\n".join(p.extract_text() for p in PdfReader(io.BytesIO(content)).pages)
            assert label in text, stem
            for figure in figures:
                assert f"{figure:,.2f}" in text, (stem, figure)


# --- the report pages, each checked against the API --------------------------------------------------

def visit(console, route: str, query: dict) -> dict:
    """Opens a report's page for `query` and answers the API's JSON for the same."""
    console.goto(f"{route}?{urlencode(query)}")
    assert not console.page.locator(".form-error .error-box").count(), console.page.inner_text(".form-error")
    status, _, answer = console.as_session("GET", f"{route}?{urlencode(query)}")
    assert status == 200, answer
    return answer


def accounts_of(nodes: list[dict]):
    for node in nodes:
        yield node
        yield from accounts_of(node["accounts"])


def check_statement(page, table: str, report: dict, sections: list[str], figures: list[tuple[str, dict, str]]):
    compared = bool(report.get("compareDate") or report.get("compareStartDate"))
    seen = 0
    for name in sections:
        for node in accounts_of(report[name]["accounts"]):
            expected = [dec(node["balance"])] + ([dec(node["compareBalance"])] if compared else [])
            assert shown(page, f"#{table} tr[data-account='{node['code']}'] td.num") == expected, node["code"]
            seen += 1
    assert seen and page.locator(f"#{table} tr[data-account]").count() == seen
    for figure, source, name in figures:
        expected = [dec(source[name])] + ([dec(source["compare" + name[0].upper() + name[1:]])] if compared else [])
        assert shown(page, f"#{table} tr[data-figure='{figure}'] td.num") == expected, figure


def check_rows(page, report: dict, key: str, amounts: tuple[str, ...], row_selector) -> None:
    """Each row's amounts and the totals' as the API answered them."""
    assert page.locator("#book tbody tr").count() == len(report[key])
    for row in report[key]:
        for name in amounts:
            assert shown(page, f"#book {row_selector(row)} td[data-field='{name}']") == [dec(row[name])], (row, name)
    for name in amounts:
        assert shown(page, f"#book tfoot td[data-field='{name}']") == [dec(report["totals"][name])], name


def document_row(row: dict) -> str:
    return f"tr[data-document='{row['documentId']}'][data-status='{row['status']}']"


def check_aged(page, report: dict) -> None:
    """A row per partner with its buckets, and under it a row per open document: its number a link
    to it, its open amount in its bucket and in the total."""
    assert page.locator("#aged tbody tr[data-partner]").count() == len(report["partners"])
    documents = [document for partner in report["partners"] for document in partner["documents"]]
    assert page.locator("#aged tbody tr[data-document]").count() == len(documents)
    for document in documents:
        row = f"#aged tr[data-document='{document['documentId']}']"
        assert page.locator(f"{row} a[href='#/documents/{document['documentId']}']").count() == 1
        assert shown(page, f"{row} td[data-field='total']") == [dec(document["open"])]
    for partner in report["partners"]:
        assert shown(page, f"#aged tr[data-partner='{partner['businessPartnerId']}'] td[data-field]:not("
                           f"[data-field='name'],[data-field='taxId'],[data-field='documents'])") == [
            dec(partner[name]) for name in AGE_BUCKETS]
    assert shown(page, "#aged tfoot td.num:not([data-field='documents'])") == [
        dec(report["totals"][name]) for name in AGE_BUCKETS]


def check_isv(page, report: dict) -> None:
    for name in HN_AMOUNTS:
        assert shown(page, f"#isv-books tr[data-figure='{name}'] td.num") == [
            dec(report["sales"][name]), dec(report["purchases"][name])], name
    for name in ("outputTax", "inputTax", "creditBroughtForward", "withholdingsReceived", "taxPayable",
                 "withholdingsUnapplied", "creditCarriedForward", "withholdingsMade"):
        assert shown(page, f"#isv-settlement tr[data-figure='{name}'] td.num") == [dec(report[name])], name


# --- the home page's charts --------------------------------------------------------------------------

def check_home(console, monthly: dict[str, tuple[Decimal, Decimal]]) -> None:
    """The charts' tables: the months' sales and purchases, the receivables by age, the banks."""
    page = console.page
    assert page.locator("#chart-monthly svg rect.bar").count() == 24
    for month, (sales, purchases) in monthly.items():
        assert shown(page, f"#monthly-figures tr[data-month='{month}'] td") == [sales, purchases], month
    assert page.locator("#monthly-figures caption").text_content()
    aged = console.as_session("GET", f"/reports/aged-receivables?date={today()}")[2]
    for bucket in AGE_BUCKETS:
        assert shown(page, f"#aging-figures tr[data-bucket='{bucket}'] td") == [dec(aged["totals"][bucket])], bucket
    banks = console.as_session("GET", "/bank-accounts?limit=100")[2]["bankAccounts"]
    assert page.locator("#cash-figures tbody tr").count() == len(banks)
    for bank in banks:
        row = page.locator(f"#cash-figures tr[data-bank-account='{bank['id']}']")
        assert row.locator("th").text_content() == bank["name"]
        assert shown(page, f"#cash-figures tr[data-bank-account='{bank['id']}'] td.num") == [
            dec(bank["balance"])]
    assert page.locator("#chart-cash svg rect.bar").count() == len(banks)


def open_figures(page) -> None:
    for summary in page.locator(".chart-figures summary").all():
        summary.click()


def switch_language(console, language: str) -> None:
    console.page.select_option("#language", language)
    console.wait_loaded()


# --- Honduras ----------------------------------------------------------------------------------------
