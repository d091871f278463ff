"""The reports and the home page's charts through the console, in fresh companies whose small books
are seeded through the API: every figure a report page shows equals the API's answer for the same
period (the accounts of the balance sheet and of the income statement with its comparison
column, the aged balances, Honduras' sales and purchase books and ISV summary, El Salvador's
three IVA books), each downloaded as CSV, XLSX and PDF and opened with a reader (its totals are
the API's), and the home page's charts' tables (sales and purchases of the last 12 months,
receivables by age, cash by bank account) equal the API's figures. Every page is seen in Spanish
and in English (screenshots under build/screenshots/)."""
from __future__ import annotations

import contextlib
import csv
import datetime
import io
import re
import uuid
from decimal import Decimal
from pathlib import Path
from urllib.parse import urlencode
from zoneinfo import ZoneInfo

from openpyxl import load_workbook
from pypdf import PdfReader

from tests.browser.conftest import fresh_company

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
    assert page.locator("#aged tbody tr").count() == len(report["partners"])
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

def seed_honduran_book(console, tag: str) -> dict:
    """Three sales invoices (two past due), two purchases, rent paid in two months, two bank
    accounts with deposits."""
    def made(path: str, body: dict) -> dict:
        status, _, answer = console.as_session("POST", path, body)
        assert status == 201, (path, answer)
        return answer

    accounts: dict[str, int] = {}
    for page in range(1, 20):
        answer = console.as_session("GET", f"/chart-of-accounts?limit=100&page={page}")[2]
        accounts |= {a["code"]: a["id"] for a in answer["accounts"]}
        if len(accounts) >= answer["total"]:
            break
    day = today()
    this_month, last_month, two_back = day, month_start(day, 1).replace(day=10), month_start(day, 2).replace(day=10)
    made("/cai", {"cai": "35A4E1-6C8E5B-2F49A3-0C6F26-2C3E5A-0A", "branchId": 1, "emissionPoint": "001",
                  "documentType": "01", "rangeStart": 1, "rangeEnd": 500,
                  "deadline": (day + datetime.timedelta(days=365)).isoformat()})
    customer = made("/business-partners", {"name": f"Comercial Lenca {tag}", "type": "customer",
                                           "taxId": "08011999012345"})
    other = made("/business-partners", {"name": f"Hotel Copán {tag}", "type": "customer"})
    supplier = made("/business-partners", {"name": f"Importadora Maya {tag}", "type": "supplier",
                                           "taxId": "05019001234567"})

    def invoice(partner: dict, when: datetime.date, due: datetime.date, lines: list[dict], kind: str = "01") -> dict:
        return made("/documents", {"type": kind, "businessPartnerId": partner["id"], "date": when.isoformat(),
                                   "dueDate": due.isoformat(), "lines": lines})

    service = lambda price, rate=0.15, quantity=1: {"description": "Servicio de consultoría",  # noqa: E731
                                                    "quantity": quantity, "unitPrice": price, "taxRate": rate}
    invoice(customer, two_back, two_back, [service(1000)])                     # 1,150.00, long past due
    invoice(other, last_month, last_month, [service(400, 0)])                  # 400.00 exempt, past due
    invoice(customer, this_month, day + datetime.timedelta(days=30), [service(250, quantity=3)])  # 862.50, not due
    purchase = {"description": "Papelería", "quantity": 1, "taxRate": 0.15}
    made("/documents", {"type": "103", "businessPartnerId": supplier["id"], "date": last_month.isoformat(),
                        "supplierDocumentNumber": "000-001-01-00004711", "lines": [{**purchase, "unitPrice": 600}]})
    made("/documents", {"type": "103", "businessPartnerId": supplier["id"], "date": this_month.isoformat(),
                        "supplierDocumentNumber": "000-001-01-00004790", "lines": [{**purchase, "unitPrice": 200}]})
    for when, rent in ((two_back, 10000), (last_month, -2800), (this_month, -3000)):
        lines = ([(accounts["110101"], rent, 0), (accounts["3101"], 0, rent)] if rent > 0
                 else [(accounts["6104"], -rent, 0), (accounts["110101"], 0, -rent)])
        made("/journal-entries", {"date": when.isoformat(), "description": "Capital" if rent > 0 else "Alquiler",
                                  "status": "posted", "lines": [{"chartOfAccountId": a, "debit": d, "credit": c}
                                                                for a, d, c in lines]})
    for name, amount, when in ((f"Cuenta corriente {tag}", 20000, two_back), (f"Cuenta de ahorro {tag}", 5000, last_month)):
        bank = made("/bank-accounts", {"name": name, "bankName": "Banco Atlántida",
                                       "openingBalanceDate": month_start(day, 3).isoformat(),
                                       "chartOfAccountId": accounts["110103"]})
        made(f"/bank-accounts/{bank['id']}/transactions", {"type": "deposit", "amount": amount,
                                                            "transactionDate": when.isoformat(),
                                                            "chartOfAccountId": accounts["3101"]})
    return {"customer": customer, "supplier": supplier}


def honduran_reports(console, language: str) -> None:
    """Every report of a Honduran company, its figures against the API's (and, in Spanish, its files)."""
    downloads = language == "es"
    page, day = console.page, today()
    last = {"startDate": month_start(day, 1).isoformat(), "endDate": month_end(day, 1).isoformat()}
    two_months = {"startDate": month_start(day, 1).isoformat(), "endDate": month_end(day).isoformat()}

    query = {"date": day.isoformat(), "compareDate": month_end(day, 1).isoformat()}
    report = visit(console, "/reports/balance-sheet", query)
    assert report["balanced"] and "report-status" in page.inner_html("#content")
    check_statement(page, "balance-sheet", report, ["assets", "liabilities", "equity"], [
        ("assets.total", report["assets"], "total"), ("liabilities.total", report["liabilities"], "total"),
        ("equity.currentYearResult", report["equity"], "currentYearResult"),
        ("equity.priorYearsResult", report["equity"], "priorYearsResult"),
        ("equity.total", report["equity"], "total"),
        ("totalLiabilitiesAndEquity", report, "totalLiabilitiesAndEquity")])
    console.shot(f"balance-sheet-{language}")
    if downloads:
        downloaded(console, f"balance-general-{query['date']}-vs-{query['compareDate']}", "Total pasivo y patrimonio",
                   [dec(report["totalLiabilitiesAndEquity"]), dec(report["compareTotalLiabilitiesAndEquity"])])

    query = {"startDate": month_start(day).isoformat(), "endDate": day.isoformat(),
             "compareStartDate": last["startDate"], "compareEndDate": last["endDate"]}
    report = visit(console, "/reports/income-statement", query)
    assert report["compareStartDate"] == last["startDate"]
    check_statement(page, "income-statement", report, ["revenue", "costOfSales", "expenses"], [
        ("revenue.total", report["revenue"], "total"), ("costOfSales.total", report["costOfSales"], "total"),
        ("grossMargin", report, "grossMargin"), ("expenses.total", report["expenses"], "total"),
        ("operatingResult", report, "operatingResult"), ("netResult", report, "netResult")])
    assert (dec(report["revenue"]["total"]), dec(report["revenue"]["compareTotal"])) == (750, 400)
    console.shot(f"income-statement-{language}")
    if downloads:
        downloaded(console, f"estado-de-resultados-{query['startDate']}-{query['endDate']}-vs-"
                            f"{query['compareStartDate']}-{query['compareEndDate']}", "Resultado neto",
                   [dec(report["netResult"]), dec(report["compareNetResult"])])

    for which, word in (("receivables", "cobrar"), ("payables", "pagar")):
        report = visit(console, f"/reports/aged-{which}", {"date": day.isoformat()})
        assert report["partners"]
        check_aged(page, report)
        console.shot(f"aged-{which}-{language}")
        if downloads:
            downloaded(console, f"antiguedad-cuentas-por-{word}-{day}", "Totales",
                       [dec(report["totals"][name]) for name in AGE_BUCKETS])

    for route, stem in (("/reports/sales-book", "libro-de-ventas"), ("/reports/purchase-book", "libro-de-compras")):
        report = visit(console, route, two_months)
        assert len(report["rows"]) == 2
        check_rows(page, report, "rows", HN_AMOUNTS, document_row)
        console.shot(f"{stem}-{language}")
        if downloads:
            downloaded(console, f"{stem}-{two_months['startDate']}-{two_months['endDate']}", "Totales",
                       [dec(report["totals"][name]) for name in HN_AMOUNTS])

    month = last["startDate"][:7]
    report = visit(console, "/reports/isv-summary", {"month": month})
    assert dec(report["outputTax"]) == 0 and dec(report["inputTax"]) == 90
    check_isv(page, report)
    console.shot(f"isv-summary-{language}")
    if downloads:
        downloaded(console, f"resumen-isv-{month}", "Total",
                   [dec(report["sales"]["total"]), dec(report["purchases"]["total"])])


def test_reports_and_home_charts_of_a_honduran_company(console, demo, stack):
    tag = uuid.uuid4().hex[:6]
    page = console.page
    with fresh_company(console, demo, f"Informes {tag} S.A."):
        seed_honduran_book(console, tag)
        monthly = {}
        for month in last_months(today()):
            summary = console.as_session("GET", f"/reports/isv-summary?month={month}")[2]
            monthly[month] = (dec(summary["sales"]["total"]), dec(summary["purchases"]["total"]))
        assert monthly[today().isoformat()[:7]] == (Decimal("862.50"), Decimal("230"))
        assert sum(sales for sales, _ in monthly.values()) == Decimal("2412.50")

        console.goto("/")
        assert page.inner_text("h1") == "Inicio"
        nav = page.text_content(".sidebar")
        assert "Informes" in nav and "Libro de ventas" in nav and "IVA: compras" not in nav
        check_home(console, monthly)
        console.shot("home-es")
        open_figures(page)
        console.shot("home-figures-es")
        honduran_reports(console, "es")

        switch_language(console, "en")
        console.goto("/")
        assert page.inner_text("h1") == "Home" and "Sales and purchases" in page.inner_text("#chart-monthly")
        check_home(console, monthly)
        console.shot("home-en")
        honduran_reports(console, "en")
        assert page.inner_text("h1") == "ISV summary"
        switch_language(console, "es")
    assert not console.errors


# --- El Salvador -------------------------------------------------------------------------------------

@contextlib.contextmanager
def salvadoran_company(console, demo, stack, name: str):
    """A new El Salvador company that issues DTEs to the stack's tax authority (its stand-in), the
    console switched to it; the demo company again afterwards."""
    from infra.dte_authority import register_taxpayer
    from tests.documents_support import SV_COMPANY_NIT, SV_ISSUER
    from tests.dte_keys import SIGNING_KEY

    console.login_to_company(demo["email"], demo["password"], demo["companyId"])
    status, _, company = console.as_session("POST", "/companies", {
        "name": name, "country": "SV", "currency": "USD", "taxId": SV_COMPANY_NIT, "phone": "2222-3333",
        "address": "Calle Arce 123, San Salvador", "email": "facturas@informes.example", "dteIssuer": SV_ISSUER})
    assert status == 201, company
    try:
        console.page.reload()
        console.wait_loaded()
        console.switch_company(company["id"])
        for method, path, body in (("POST", "/chart-of-accounts/import-default", None),
                                   ("PUT", f"/companies/{company['id']}/dte-signing-key", {"privateKey": SIGNING_KEY}),
                                   ("PUT", f"/companies/{company['id']}/dte-authority-credentials",
                                    {"password": "clave-informes"})):
            status, _, answer = console.as_session(method, path, body)
            assert status in (200, 201), answer
            if path.endswith("dte-signing-key"):
                public_key = answer["publicKey"]
        authority = re.search(r"El Salvador's tax authority: (\S+)", stack.read_log()).group(1)
        register_taxpayer(authority, SV_COMPANY_NIT.replace("-", ""), "clave-informes", public_key)
        yield company
    finally:
        console.as_session("POST", "/auth/switch-company", {"companyId": demo["companyId"]})


def test_iva_books_and_home_of_a_salvadoran_company(console, demo, stack):
    tag = uuid.uuid4().hex[:6]
    page, day = console.page, today()
    with salvadoran_company(console, demo, stack[0], f"Informes {tag} S.A. de C.V."):
        def made(body: dict, path: str = "/documents") -> dict:
            status, _, answer = console.as_session("POST", path, body)
            assert status == 201, answer
            return answer

        consumer = made({"name": f"Cliente final {tag}", "type": "customer"}, "/business-partners")
        taxpayer = made({"name": f"Empresa {tag} SA de CV", "type": "customer", "taxId": "06140101901013",
                         "nrc": "123456-7", "economicActivityCode": "62010",
                         "economicActivity": "Programación informática", "department": "06", "municipality": "14",
                         "address": "Colonia Escalón, San Salvador", "email": "compras@empresa.example"},
                        "/business-partners")
        supplier = made({"name": f"Proveedor {tag}", "type": "supplier", "nrc": "765432-1",
                         "taxId": "06140202902024"}, "/business-partners")
        line = lambda price: [{"description": "Servicio", "quantity": 1, "unitPrice": price, "taxRate": 0.13}]  # noqa: E731
        made({"type": "01", "businessPartnerId": consumer["id"], "lines": line(100)})     # a factura: 113.00
        made({"type": "01", "businessPartnerId": taxpayer["id"], "lines": line(200)})     # a crédito fiscal: 226.00
        made({"type": "103", "businessPartnerId": supplier["id"], "date": month_start(day, 1).replace(day=5).isoformat(),
              "supplierDocumentNumber": "DTE-03-00010001-000000000000123", "lines": line(60)})  # 67.80

        months = last_months(day)
        period = {"startDate": f"{months[0]}-01", "endDate": day.isoformat()}
        books = {path: console.as_session("GET", f"/reports/{path}?{urlencode(period)}")[2] for path in IVA_AMOUNTS}
        monthly = {month: [Decimal(0), Decimal(0)] for month in months}
        for path, book in books.items():
            for row in book["rows"]:
                monthly[row["date"][:7]][path == "iva-purchases"] += dec(row["total"])
        assert monthly[day.isoformat()[:7]] == [Decimal("339"), Decimal(0)]

        console.goto("/")
        nav = page.text_content(".sidebar")
        assert "IVA: compras" in nav and "Libro de ventas" not in nav
        check_home(console, {month: tuple(figures) for month, figures in monthly.items()})
        console.shot("home-sv-es")

        this_and_last = {"startDate": month_start(day, 1).isoformat(), "endDate": month_end(day).isoformat()}
        for language in ("es", "en"):
            if language == "en":
                switch_language(console, "en")
            for path, formats, label in (("iva-sales-consumers", ("csv",), "Totales"),
                                         ("iva-sales-taxpayers", ("xlsx",), "Totales"),
                                         ("iva-purchases", ("pdf",), "Totales")):
                report = visit(console, f"/reports/{path}", this_and_last)
                assert len(report["rows"]) == 1, report
                check_rows(page, report, "rows", IVA_AMOUNTS[path],
                           (lambda row: f"tr[data-date='{row['date']}']") if path == "iva-sales-consumers"
                           else document_row)
                console.shot(f"{path}-{language}")
                if language == "es":
                    stem = {"iva-sales-consumers": "libro-iva-consumidor-final",
                            "iva-sales-taxpayers": "libro-iva-contribuyentes", "iva-purchases": "libro-iva-compras"}[path]
                    downloaded(console, f"{stem}-{this_and_last['startDate']}-{this_and_last['endDate']}", label,
                               [dec(report["totals"][name]) for name in IVA_AMOUNTS[path]], formats)
        console.goto("/")
        check_home(console, {month: tuple(figures) for month, figures in monthly.items()})
        console.shot("home-sv-en")
        switch_language(console, "es")
    assert not console.errors
