"""The reports and the home page's charts of a Honduran company through the console, in a fresh
company whose small books are seeded through the API: every figure a report page shows equals
the API's answer for the same period (the accounts of the balance sheet and of the income
statement with its comparison column, the aged balances, the sales and purchase books and ISV
summary), each downloaded as CSV, XLSX and PDF and opened with a reader (its totals are the
API's), and the home page's charts' tables (sales and purchases of the last 12 months,
receivables by age, cash by bank account) equal the API's figures. Every page is seen in Spanish
and in English (screenshots under build/screenshots/)."""
from __future__ import annotations

import datetime
import uuid
from decimal import Decimal

from tests.browser.conftest import fresh_company
from tests.browser.reports_support import (
    AGE_BUCKETS,
    HN_AMOUNTS,
    check_aged,
    check_home,
    check_isv,
    check_rows,
    check_statement,
    dec,
    document_row,
    downloaded,
    last_months,
    month_end,
    month_start,
    open_figures,
    switch_language,
    today,
    visit,
)


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
    # each bank account on a ledger account of its own (a control account): Bancos, then a new one
    savings = made("/chart-of-accounts", {"code": "110104", "name": "Bancos, cuentas de ahorro", "type": "asset",
                                          "parentId": accounts["1101"]})["id"]
    for name, amount, when, ledger in ((f"Cuenta corriente {tag}", 20000, two_back, accounts["110103"]),
                                       (f"Cuenta de ahorro {tag}", 5000, last_month, savings)):
        bank = made("/bank-accounts", {"name": name, "bankName": "Banco Atlántida",
                                       "openingBalanceDate": month_start(day, 3).isoformat(),
                                       "chartOfAccountId": ledger})
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
