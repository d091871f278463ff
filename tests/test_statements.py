"""The balance sheet and the income statement: a hand-worked company whose figures are written
out below (not copied from the output), random books that must stay balanced, the cost in
DynamoDB calls, and bad input."""
from __future__ import annotations

import datetime
from collections import Counter
from decimal import Decimal

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.support import make_company
from tests.test_call_budget import calls, measure  # noqa: F401  (calls is a fixture)

# code, name, type, parent code
CHART = (("11", "Activo corriente", "asset", None), ("1101", "Caja", "asset", "11"), ("1102", "Bancos", "asset", "11"),
         ("21", "Proveedores", "liability", None), ("31", "Capital", "equity", None),
         ("41", "Ventas", "income", None), ("51", "Costo de ventas", "cost", None), ("61", "Gastos", "expense", None))


class Ledger:
    def __init__(self, api, company):
        self.api, self.key, self.ids = api, company.api_key, {}
        for code, name, account_type, parent in CHART:
            body = {"code": code, "name": name, "type": account_type}
            if parent:
                body["parentId"] = self.ids[parent]
            reply = api.post("/chart-of-accounts", body, key=self.key)
            assert reply.status == 201, reply.text
            self.ids[code] = reply.json["id"]

    def entry(self, date, debit_code, credit_code, amount):
        reply = self.api.post("/journal-entries", {"date": date, "status": "posted", "lines": [
            {"chartOfAccountId": self.ids[debit_code], "debit": amount},
            {"chartOfAccountId": self.ids[credit_code], "credit": amount}]}, key=self.key)
        assert reply.status == 201, reply.text

    def report(self, path):
        reply = self.api.get(path, key=self.key)
        assert reply.status == 200, reply.text
        return reply.json


def _shape(section):
    """{code: (balance, compareBalance)} of a section's tree, and the tree as nested codes."""
    flat, tree = {}, []
    for node in section["accounts"]:
        below_flat, below_tree = _shape(node)
        flat.update(below_flat)
        flat[node["code"]] = (node["balance"], node["compareBalance"])
        tree.append((node["code"], below_tree))
    return flat, tree


def test_a_hand_worked_company(api, company_a):
    books = Ledger(api, company_a)
    books.entry("2025-06-01", "1101", "31", 1000)   # the owners put in 1,000 in cash
    books.entry("2025-09-01", "1101", "41", 300)    # a cash sale
    books.entry("2025-10-01", "61", "1101", 100)    # an expense paid in cash -> 2025's result 200
    books.entry("2026-01-10", "1102", "41", 500)    # a sale paid into the bank
    books.entry("2026-01-15", "51", "21", 200)      # its cost, owed to a supplier
    books.entry("2026-02-01", "61", "1102", 50)     # an expense paid from the bank -> 2026's result 250
    books.entry("2026-03-01", "1101", "41", 999)    # after the date: in neither report

    sheet = books.report("/reports/balance-sheet?date=2026-02-28&compareDate=2025-12-31")
    assert (sheet["date"], sheet["compareDate"], sheet["balanced"]) == ("2026-02-28", "2025-12-31", True)
    assets, tree = _shape(sheet["assets"])
    # Caja 1000 + 300 - 100; Bancos 500 - 50 (nothing at the end of 2025)
    assert assets == {"11": (1650, 1200), "1101": (1200, 1200), "1102": (450, 0)}
    assert tree == [("11", [("1101", []), ("1102", [])])]
    assert (sheet["assets"]["total"], sheet["assets"]["compareTotal"]) == (1650, 1200)
    assert _shape(sheet["liabilities"])[0] == {"21": (200, 0)}
    equity = sheet["equity"]
    assert _shape(equity)[0] == {"31": (1000, 1000)}
    assert (equity["currentYearResult"], equity["compareCurrentYearResult"]) == (250, 200)
    assert (equity["priorYearsResult"], equity["comparePriorYearsResult"]) == (200, 0)
    assert (equity["total"], equity["compareTotal"]) == (1450, 1200)
    assert (sheet["totalLiabilitiesAndEquity"], sheet["compareTotalLiabilitiesAndEquity"]) == (1650, 1200)

    statement = books.report("/reports/income-statement?startDate=2026-01-01&endDate=2026-02-28"
                             "&compareStartDate=2025-01-01&compareEndDate=2025-12-31")
    assert _shape(statement["revenue"])[0] == {"41": (500, 300)}
    assert _shape(statement["costOfSales"])[0] == {"51": (200, 0)}
    assert (statement["grossMargin"], statement["compareGrossMargin"]) == (300, 300)
    assert _shape(statement["expenses"])[0] == {"61": (50, 100)}
    assert (statement["operatingResult"], statement["netResult"], statement["compareNetResult"]) == (250, 250, 200)
    # without a comparison the compare figures are null; the period defaults to the year to date
    alone = books.report("/reports/income-statement?endDate=2026-02-28")
    assert (alone["startDate"], alone["netResult"], alone["compareNetResult"]) == ("2026-01-01", 250, None)
    assert alone["revenue"]["accounts"][0]["compareBalance"] is None


ACCOUNTS = ("1101", "1102", "21", "41", "51", "61")
DATES = st.dates(min_value=datetime.date(2025, 1, 1), max_value=datetime.date(2026, 12, 31))
ENTRIES = st.lists(st.tuples(DATES, st.sampled_from(ACCOUNTS), st.sampled_from(ACCOUNTS),
                             st.decimals(min_value=Decimal("0.01"), max_value=Decimal("99999.99"), places=2)),
                   min_size=1, max_size=8)


@settings(max_examples=15, deadline=None, suppress_health_check=list(HealthCheck), database=None)
@given(entries=ENTRIES, day=DATES, start=DATES)
def test_random_books_balance_and_their_result_is_the_change_in_equity(api, table, entries, day, start):
    """Whatever is posted, assets = liabilities + equity at any date, and (no entry touching the
    capital account after it was paid in) a period's net result is the change in equity over it."""
    company = make_company(table, f"Random {len(entries)}-{day}", f"owner-{id(entries)}-{day}@random.hn")
    books = Ledger(api, company)
    books.entry("2024-12-31", "1101", "31", 5000)
    for date, debit, credit, amount in entries:
        if debit != credit:
            books.entry(date.isoformat(), debit, credit, str(amount))
    sheet = books.report(f"/reports/balance-sheet?date={day}")
    assert sheet["balanced"] and sheet["assets"]["total"] == sheet["totalLiabilitiesAndEquity"]
    start, end = sorted((start, day))
    statement = books.report(f"/reports/income-statement?startDate={start}&endDate={end}")
    before = books.report(f"/reports/balance-sheet?date={start - datetime.timedelta(days=1)}")
    at_end = books.report(f"/reports/balance-sheet?date={end}")
    assert statement["netResult"] == at_end["equity"]["total"] - before["equity"]["total"]


def test_a_statement_costs_two_queries_whatever_the_books_hold(api, calls, company_a):  # noqa: F811
    books = Ledger(api, company_a)
    for month in range(1, 13):
        for _ in range(3):
            books.entry(f"2026-{month:02d}-15", "1101", "41", 10)
    key = company_a.api_key
    assert measure(calls, lambda: api.get("/reports/balance-sheet?date=2026-12-31&compareDate=2025-12-31",
                                          key=key)) == Counter({"Query": 2})
    # the income statement also reads the year locks, to leave closed years' closing entries out, and
    # the company (its country's standard chart places the accounts that have no statementSection)
    assert measure(calls, lambda: api.get("/reports/income-statement?startDate=2026-01-01&endDate=2026-12-31"
                                          "&compareStartDate=2025-01-01&compareEndDate=2025-12-31",
                                          key=key)) == Counter({"Query": 3, "GetItem": 1})


def test_bad_periods_are_400_naming_the_field_and_companies_see_only_their_books(api, company_a, company_b):
    books = Ledger(api, company_a)
    books.entry("2026-01-10", "1102", "41", 500)
    for path, field in (("/reports/income-statement?startDate=2026-03-01&endDate=2026-02-01", "startDate"),
                        ("/reports/income-statement?compareStartDate=2025-01-01", "compareEndDate"),
                        ("/reports/income-statement?compareStartDate=2025-03-01&compareEndDate=2025-01-01",
                         "compareStartDate"),
                        ("/reports/balance-sheet?date=2026-02-30", "date"),
                        ("/reports/balance-sheet?compareDate=yesterday", "compareDate")):
        reply = api.get(path, key=company_a.api_key)
        assert (reply.status, reply.json["code"], reply.json["details"][0]["field"]) == (400, "VALIDATION_ERROR",
                                                                                         field), path
    other = api.get("/reports/balance-sheet?date=2026-12-31", key=company_b.api_key).json
    assert other["assets"] == {"total": 0, "compareTotal": None, "accounts": []} and other["balanced"]
    mine = api.get("/reports/balance-sheet?date=2026-12-31", key=company_a.api_key).json
    assert mine["assets"]["total"] == 500


def test_the_reports_export_as_csv_xlsx_and_pdf_with_the_json_figures(api, company_a):
    import csv
    import io

    import openpyxl
    from pypdf import PdfReader

    books = Ledger(api, company_a)
    books.entry("2025-06-01", "1101", "31", 1000)
    books.entry("2026-01-10", "1102", "41", "500.10")
    books.entry("2026-01-15", "51", "21", 200)
    trap = api.post("/chart-of-accounts", {"code": "1103", "name": '=HYPERLINK("http://x.example")',
                                           "type": "asset", "parentId": books.ids["11"]}, key=books.key).json
    books.ids["1103"] = trap["id"]
    books.entry("2026-01-20", "1103", "1101", 1)
    books.entry("2026-01-21", "1101", "1103", 1)  # it moved, so it is listed (at 0)
    path = "/reports/balance-sheet?date=2026-02-28&compareDate=2025-12-31"
    sheet = books.report(path)

    def export(path, accept):
        answer = api.http.request("GET", path, headers={"authorization": f"Bearer {company_a.api_key}",
                                                        "accept": accept}, body=b"")
        assert answer.status_code == 200, answer.body[:300]
        return answer

    exported = export(path, "text/csv")
    assert exported.headers["Content-Type"].startswith("text/csv")
    assert 'filename="balance-general-2026-02-28.csv"' in exported.headers["Content-Disposition"]
    rows = list(csv.reader(io.StringIO(exported.body.decode("utf-8-sig"))))
    assert rows[0] == ["Código", "Cuenta", "Saldo al 2026-02-28", "Saldo al 2025-12-31"]
    by_name = {row[1]: row[2:] for row in rows[1:]}
    # the JSON's figures, with their cents: Caja 1000 (both dates), Bancos 500.10 (nothing in 2025)
    assert by_name["Caja"] == ["1000.00", "1000.00"] and by_name["Bancos"] == ["500.10", "0.00"]
    assert by_name["Total activo"] == [f"{sheet['assets']['total']:.2f}", f"{sheet['assets']['compareTotal']:.2f}"]
    assert by_name["Resultado del ejercicio"] == ["300.10", "0.00"]
    assert by_name["Total pasivo y patrimonio"] == ["1500.10", "1000.00"]
    # a name that a spreadsheet would run as a formula stays text, and caches key on Accept
    assert by_name["'=HYPERLINK(\"http://x.example\")"] == ["0.00", "0.00"]
    assert exported.headers["Vary"] == "Accept"

    xlsx = export(path, "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet")
    worksheet = openpyxl.load_workbook(io.BytesIO(xlsx.body)).active
    cells = list(worksheet.iter_rows(values_only=True))
    trap_cell = next(cell for row in worksheet.iter_rows() for cell in row if str(cell.value).startswith("=HYPER"))
    assert trap_cell.data_type == "s"  # a string, not a formula ("f")
    assert cells[0][0] == "Alpha S. de R.L." and cells[1][0] == "Balance general"
    numbers = {row[1]: row[2:4] for row in cells[5:] if row[1]}
    assert numbers["Bancos"] == (500.1, 0) and isinstance(numbers["Total activo"][0], float)  # numbers, not text
    assert numbers["Total activo"] == (1500.1, 1000)

    pdf = export("/reports/income-statement?startDate=2026-01-01&endDate=2026-02-28", "application/pdf")
    assert pdf.headers["Content-Type"] == "application/pdf"
    text = "".join(page.extract_text() for page in PdfReader(io.BytesIO(pdf.body)).pages)
    assert "Alpha S. de R.L." in text and "Estado de resultados" in text
    assert "Utilidad bruta" in text and "300.10" in text and "Resultado neto" in text
    # anything else is JSON
    assert api.get(path, key=company_a.api_key, headers={"Accept": "text/html"}).json["balanced"] is True
