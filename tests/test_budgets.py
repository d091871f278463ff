"""Budgets (issue 44): CRUD with its checks, budget against three months of actuals worked by hand
(the month and the year to date, variance and percentage), the cost-centre filter, the exports,
another company's budget and a seller's writes."""
from __future__ import annotations

import csv
import io
from decimal import Decimal

import pytest

from tests.dimension_support import cost_centres, pair
from tests.support import ORIGIN, Books
from tests.users_support import member

D = Decimal
REPORT = "/reports/budget-vs-actual"


@pytest.fixture
def books(api, company_a):
    books = Books(api, company_a, full=False)
    rent = api.post("/chart-of-accounts", {"code": "6101", "name": "Alquileres", "type": "expense"}, key=books.key)
    assert rent.status == 201, rent.text
    return Books.of(api, company_a, {**books.accounts, "6101": rent.json["id"]})


def line(books, code, month, amount, *dimensions):
    return {"chartOfAccountId": books[code], "month": month, "amount": amount,
            **({"dimensions": list(dimensions)} if dimensions else {})}


def create(books, body, expect=201):
    reply = books.api.post("/budgets", body, key=books.key)
    assert reply.status == expect, reply.text
    return reply.json


def report(books, query, expect=200, **headers):
    reply = books.api.get(f"{REPORT}?{query}", key=books.key, headers=headers or None)
    assert reply.status == expect, reply.text
    return reply.json


def base_budget(books):
    return {"name": "Base", "year": 2026, "lines": [
        line(books, "410101", 1, "1000.00"), line(books, "410101", 2, "1200.00"), line(books, "410101", 3, "1500.00"),
        line(books, "6199", 1, "400.00"), line(books, "6199", 2, "400.00"), line(books, "6199", 3, "450.00"),
        line(books, "110103", 3, "5000.00")]}  # a balance-sheet account: a row, never in the result's totals


def three_months(books):
    books.entry("2025-12-25", ("110101", 777, 0), ("410101", 0, 777))          # last year: not 2026's
    books.entry("2026-01-15", ("110101", 900, 0), ("410101", 0, 900))
    books.entry("2026-01-20", ("6199", 380, 0), ("110101", 0, 380))
    books.entry("2026-02-10", ("110101", 1350, 0), ("410101", 0, 1350))
    books.entry("2026-02-25", ("6199", 410, 0), ("110101", 0, 410))
    books.entry("2026-03-05", ("110101", 1200, 0), ("410101", 0, 1200))
    books.entry("2026-03-10", ("6101", 200, 0), ("110101", 0, 200))           # rent: never budgeted
    books.entry("2026-03-18", ("6199", 500, 0), ("110101", 0, 500))
    books.entry("2026-03-20", ("410101", 100, 0), ("110101", 0, 100))         # a return: March's sales net 1,100
    books.entry("2026-04-02", ("110101", 999, 0), ("410101", 0, 999))          # after March


def test_create_read_list_update_delete(api, books, company_a):
    budget = create(books, base_budget(books))
    assert (budget["name"], budget["year"], budget["lineCount"], budget["version"]) == ("Base", 2026, 7, 1)
    assert budget["lines"][0] == {"chartOfAccountId": books["410101"], "month": 1, "amount": D("1000.00"),
                                  "dimensions": []}
    assert api.get(f"/budgets/{budget['id']}", key=books.key).json == budget
    # another scenario of the same year; the same name in another year
    optimistic = create(books, {"name": "Optimista", "year": 2026, "lines": [line(books, "410101", 1, "1300.00")]})
    next_year = create(books, {"name": "Base", "year": 2027})
    listed = api.get("/budgets", key=books.key).json
    assert [(b["id"], b["lineCount"]) for b in listed["budgets"]] == [(budget["id"], 7), (optimistic["id"], 1),
                                                                     (next_year["id"], 0)]
    assert "lines" not in listed["budgets"][0] and listed["total"] == 3
    assert [b["id"] for b in api.get("/budgets?year=2027", key=books.key).json["budgets"]] == [next_year["id"]]
    # a name is taken within its year, whatever its case
    taken = books.api.post("/budgets", {"name": "BASE", "year": 2026}, key=books.key)
    assert (taken.status, taken.json["code"], taken.json["details"][0]["field"]) == (409, "BUDGET_NAME_TAKEN", "name")
    assert api.put(f"/budgets/{next_year['id']}", {"year": 2026}, key=books.key).status == 409
    # PUT: sparse, lines replace the whole list, under the version sent
    changed = api.put(f"/budgets/{optimistic['id']}", {"name": "Optimista 2", "version": 1,
                                                       "lines": [line(books, "6199", 12, "10.50")]}, key=books.key)
    assert changed.status == 200, changed.text
    assert (changed.json["name"], changed.json["version"], changed.json["lineCount"]) == ("Optimista 2", 2, 1)
    assert changed.json["lines"] == [{"chartOfAccountId": books["6199"], "month": 12, "amount": D("10.50"),
                                      "dimensions": []}]
    stale = api.put(f"/budgets/{optimistic['id']}", {"name": "Otro"}, key=books.key, headers={"If-Match": "1"})
    assert (stale.status, stale.json["code"]) == (409, "VERSION_CONFLICT")
    # the old name is free again, the new one taken
    assert create(books, {"name": "Optimista", "year": 2026})["name"] == "Optimista"
    assert books.api.post("/budgets", {"name": "optimista 2", "year": 2026}, key=books.key).status == 409
    assert api.delete(f"/budgets/{optimistic['id']}", key=books.key).status == 403  # an API key never deletes
    gone = api.delete(f"/budgets/{optimistic['id']}", cookie=api.login(company_a.email), origin=ORIGIN)
    assert (gone.status, gone.json) == (200, {"id": optimistic["id"], "deleted": True})
    assert api.get(f"/budgets/{optimistic['id']}", key=books.key).status == 404
    assert create(books, {"name": "Optimista 2", "year": 2026})["lineCount"] == 0  # its name freed too


@pytest.mark.parametrize("lines, field", [
    (lambda b: [line(b, "410101", 13, "1.00")], "lines[0].month"),
    (lambda b: [line(b, "410101", 0, "1.00")], "lines[0].month"),
    (lambda b: [line(b, "410101", 1, "-5.00")], "lines[0].amount"),
    (lambda b: [line(b, "410101", 1, "1.001")], "lines[0].amount"),
    (lambda b: [{"chartOfAccountId": 999_999, "month": 1, "amount": "1.00"}], "lines[0].chartOfAccountId"),
    (lambda b: [line(b, "410101", 1, "1.00"), line(b, "6199", 1, "1.00"), line(b, "410101", 1, "2.00")], "lines[2]"),
])
def test_bad_lines_are_refused_naming_the_line_and_nothing_is_written(api, books, lines, field):
    reply = books.api.post("/budgets", {"name": "Malo", "year": 2026, "lines": lines(books)}, key=books.key)
    assert reply.status == 400, reply.text
    assert [detail["field"] for detail in reply.json["details"]] == [field]
    assert api.get("/budgets", key=books.key).json["total"] == 0


def test_a_parent_account_or_an_inactive_one_is_refused(api, books):
    parent = api.post("/chart-of-accounts", {"code": "62", "name": "Gastos de venta", "type": "expense"},
                      key=books.key).json
    child = api.post("/chart-of-accounts", {"code": "6201", "name": "Publicidad", "type": "expense",
                                            "parentId": parent["id"]}, key=books.key).json
    refused = books.api.post("/budgets", {"name": "X", "year": 2026, "lines": [
        {"chartOfAccountId": parent["id"], "month": 1, "amount": "1.00"}]}, key=books.key)
    assert (refused.status, refused.json["code"]) == (400, "INVALID_ACCOUNT")  # as a journal line's account
    assert refused.json["details"][0]["field"] == "lines[0].chartOfAccountId"
    assert api.put(f"/chart-of-accounts/{child['id']}", {"isActive": False}, key=books.key).status == 200
    inactive = books.api.post("/budgets", {"name": "X", "year": 2026, "lines": [
        {"chartOfAccountId": child["id"], "month": 1, "amount": "1.00"}]}, key=books.key,
        headers={"Accept-Language": "es"})
    assert inactive.status == 400
    assert inactive.json["details"] == [{"field": "lines[0].chartOfAccountId", "message": "la cuenta está inactiva"}]


def test_budget_against_three_months_of_actuals(api, books):
    budget = create(books, base_budget(books))
    three_months(books)
    march = report(books, "year=2026&month=3")
    assert (march["budgetId"], march["budgetName"], march["year"], march["month"]) == (budget["id"], "Base", 2026, 3)
    rows = {row["code"]: row for row in march["rows"]}
    assert list(rows) == ["110103", "410101", "6101", "6199"]  # in code order; Caja is neither budgeted nor a result
    # Ventas, March: budget 1,500.00; actual 1,200.00 - 100.00 (the return) = 1,100.00 on its credit side;
    # variance 1,100.00 - 1,500.00 = -400.00; -400 / 1,500 * 100 = -26.666... -> -26.67
    # year to date: budget 1,000 + 1,200 + 1,500 = 3,700.00; actual 900 + 1,350 + 1,100 = 3,350.00 (December's
    # 777.00 is 2025's, April's 999.00 after March); variance -350.00; -350 / 3,700 * 100 = -9.459... -> -9.46
    assert figures(rows["410101"]) == ("1500.00", "1100.00", "-400.00", "-26.67", "3700.00", "3350.00", "-350.00",
                                       "-9.46")
    # Otros gastos: budget 450.00, actual 500.00, variance 50.00, 50 / 450 * 100 = 11.111... -> 11.11
    # to date: budget 400 + 400 + 450 = 1,250.00; actual 380 + 410 + 500 = 1,290.00; 40.00; 40 / 1,250 * 100 = 3.20
    assert figures(rows["6199"]) == ("450.00", "500.00", "50.00", "11.11", "1250.00", "1290.00", "40.00", "3.20")
    # Alquileres: no budget, 200.00 spent: no percentage of a budget of 0
    assert figures(rows["6101"]) == ("0.00", "200.00", "200.00", None, "0.00", "200.00", "200.00", None)
    # Bancos: 5,000.00 budgeted for March, nothing moved through it: -5,000.00, -100.00 %
    assert figures(rows["110103"]) == ("5000.00", "0.00", "-5000.00", "-100.00", "5000.00", "0.00", "-5000.00", "-100.00")
    assert rows["6101"]["type"] == "expense" and rows["410101"]["name"] == "Ventas gravadas"
    # the result (income less expenses; Bancos stays out): budget 1,500 - 450 = 1,050.00; actual 1,100 - 500 - 200
    # = 400.00; variance -650.00; -650 / 1,050 * 100 = -61.904... -> -61.90
    # to date: budget 3,700 - 1,250 = 2,450.00; actual 3,350 - 1,290 - 200 = 1,860.00; -590.00;
    # -590 / 2,450 * 100 = -24.081... -> -24.08
    assert figures(march["totals"]) == ("1050.00", "400.00", "-650.00", "-61.90", "2450.00", "1860.00", "-590.00",
                                        "-24.08")
    # January alone: Ventas budget 1,000.00, actual 900.00, -100.00, -10.00 %; the month is the year to date
    january = {row["code"]: row for row in report(books, "year=2026&month=1")["rows"]}
    assert figures(january["410101"]) == ("1000.00", "900.00", "-100.00", "-10.00") * 2
    assert "6101" not in january  # rent moved in March only


def figures(row):
    names = ("budget", "actual", "variance", "percentage", "yearToDateBudget", "yearToDateActual",
             "yearToDateVariance", "yearToDatePercentage")
    return tuple(None if row[name] is None else f"{D(row[name]):.2f}" for name in names)


def test_a_cost_centre_compares_its_own_lines_with_its_own_postings(api, table, company_a, books):
    centres = cost_centres(table, company_a.company_id, {"Sucursal": ["Centro", "Norte"]})
    centre, north = pair(centres, "Sucursal", "Centro"), pair(centres, "Sucursal", "Norte")
    budget = create(books, {"name": "Por sucursal", "year": 2026, "lines": [
        line(books, "410101", 2, "600.00", centre), line(books, "410101", 2, "400.00", north),
        line(books, "410101", 1, "300.00", centre), line(books, "410101", 2, "50.00")]})  # the last: no cost centre

    def entry(date, amount, *dimensions):
        body = {"date": date, "status": "posted", "lines": [
            {"chartOfAccountId": books["110101"], "debit": amount, "credit": 0},
            {"chartOfAccountId": books["410101"], "debit": 0, "credit": amount,
             **({"dimensions": list(dimensions)} if dimensions else {})}]}
        reply = api.post("/journal-entries", body, key=books.key)
        assert reply.status == 201, reply.text

    entry("2026-01-10", "280.00", centre)
    entry("2026-02-03", "650.00", centre)
    entry("2026-02-04", "390.00", north)
    entry("2026-02-05", "70.00")  # no cost centre
    centre_rows = report(books, f"year=2026&month=2&budgetId={budget['id']}&dimensionValueId={centres['Centro']}")
    assert centre_rows["dimensionValueId"] == centres["Centro"]
    # Centro, February: budget 600.00 (its line only), actual 650.00 (its posting only), 50.00, 50 / 600 = 8.33 %
    # to date: budget 300 + 600 = 900.00, actual 280 + 650 = 930.00, 30.00, 30 / 900 * 100 = 3.333... -> 3.33
    assert [figures(row) for row in centre_rows["rows"]] == [
        ("600.00", "650.00", "50.00", "8.33", "900.00", "930.00", "30.00", "3.33")]
    # the whole company: February's budget 600 + 400 + 50 = 1,050.00; actual 650 + 390 + 70 = 1,110.00; 60.00;
    # 60 / 1,050 * 100 = 5.714... -> 5.71; to date 1,350.00 against 1,390.00: 40.00, 2.962... -> 2.96
    whole = report(books, "year=2026&month=2")
    assert [figures(row) for row in whole["rows"]] == [
        ("1050.00", "1110.00", "60.00", "5.71", "1350.00", "1390.00", "40.00", "2.96")]
    unknown = books.api.get(f"{REPORT}?year=2026&month=2&dimensionValueId=999999", key=books.key)
    assert unknown.status == 400 and unknown.json["details"][0]["field"] == "dimensionValueId"


def test_a_budget_keeps_a_cost_centre_made_inactive_but_no_budget_newly_chooses_it(api, table, company_a, books):
    centres = cost_centres(table, company_a.company_id, {"Sucursal": ["Centro", "Norte"]})
    centre, north = pair(centres, "Sucursal", "Centro"), pair(centres, "Sucursal", "Norte")
    budget = create(books, {"name": "Por sucursal", "year": 2026, "lines": [line(books, "410101", 1, "300.00", centre)]})
    made_inactive = api.put(f"/dimensions/{centres['Sucursal']}/values/{centres['Centro']}", {"isActive": False},
                            key=books.key)
    assert made_inactive.status == 200, made_inactive.text
    # saved again with its own Centro line and a new Norte one: accepted
    lines = [line(books, "410101", 1, "350.00", centre), line(books, "410101", 2, "100.00", north)]
    saved = api.put(f"/budgets/{budget['id']}", {"lines": lines}, key=books.key)
    assert saved.status == 200, saved.text
    assert [(x["month"], x["dimensions"]) for x in saved.json["lines"]] == [(1, [centre]), (2, [north])]
    # another budget cannot choose it
    refused = books.api.post("/budgets", {"name": "Otro", "year": 2026, "lines": [line(books, "410101", 1, "1", centre)]},
                             key=books.key)
    assert (refused.status, refused.json["details"][0]["field"]) == (400, "lines[0].dimensions[0].valueId")


def test_which_budget_is_reported(api, books):
    assert books.api.get(f"{REPORT}?year=2026&month=1", key=books.key).status == 404  # no budget yet
    base = create(books, base_budget(books))
    assert report(books, "year=2026&month=1")["budgetId"] == base["id"]  # the year's only one
    other = create(books, {"name": "Optimista", "year": 2026})
    several = books.api.get(f"{REPORT}?year=2026&month=1", key=books.key)
    assert several.status == 400 and several.json["details"][0]["field"] == "budgetId"
    assert report(books, f"year=2026&month=1&budgetId={other['id']}")["rows"] == []
    wrong_year = books.api.get(f"{REPORT}?year=2025&month=1&budgetId={base['id']}", key=books.key)
    assert wrong_year.status == 400 and wrong_year.json["details"][0]["field"] == "budgetId"
    assert books.api.get(f"{REPORT}?year=2026&month=13", key=books.key).status == 400


def test_the_report_exports_as_csv_xlsx_and_pdf(api, books, company_a):
    import openpyxl
    from pypdf import PdfReader

    create(books, base_budget(books))
    three_months(books)

    def export(accept):
        answer = api.http.request("GET", f"{REPORT}?year=2026&month=3", body=b"", headers={
            "authorization": f"Bearer {company_a.api_key}", "accept": accept})
        assert answer.status_code == 200, answer.body[:300]
        return answer

    exported = export("text/csv")
    assert 'filename="presupuesto-contra-real-' in exported.headers["Content-Disposition"]
    rows = {row[1]: row[2:] for row in csv.reader(io.StringIO(exported.body.decode("utf-8-sig")))}
    # the JSON's figures above: Ventas' month, then its year to date
    assert rows["Ventas gravadas"] == ["1500.00", "1100.00", "-400.00", "-26.67", "3700.00", "3350.00", "-350.00",
                                       "-9.46"]
    assert rows["Resultado (ingresos menos costos y gastos)"][:4] == ["1050.00", "400.00", "-650.00", "-61.90"]
    xlsx = export("application/vnd.openxmlformats-officedocument.spreadsheetml.sheet")
    cells = list(openpyxl.load_workbook(io.BytesIO(xlsx.body)).active.iter_rows(values_only=True))
    assert any(row[1] == "Otros gastos" and row[2:4] == (450, 500) for row in cells)
    pdf = export("application/pdf")
    text = "".join(page.extract_text() for page in PdfReader(io.BytesIO(pdf.body)).pages)
    assert "Presupuesto contra real" in text and "Alquileres" in text


def test_another_companys_budget_is_not_found(api, books, company_b):
    budget = create(books, base_budget(books))
    for reply in (api.get(f"/budgets/{budget['id']}", key=company_b.api_key),
                  api.put(f"/budgets/{budget['id']}", {"name": "Mío"}, key=company_b.api_key),
                  api.delete(f"/budgets/{budget['id']}", cookie=api.login(company_b.email), origin=ORIGIN),
                  api.get(f"{REPORT}?year=2026&month=1&budgetId={budget['id']}", key=company_b.api_key)):
        assert reply.status == 404, reply.text
    assert api.get("/budgets", key=company_b.api_key).json["total"] == 0
    assert api.get(f"/budgets/{budget['id']}", key=books.key).json["name"] == "Base"


def test_a_seller_reads_budgets_but_does_not_write_them(api, table, books, company_a):
    budget = create(books, base_budget(books))
    _, cookie = member(api, table, company_a, "seller@alpha.hn", "seller")
    assert api.get(f"/budgets/{budget['id']}", cookie=cookie).status == 200
    assert api.get(f"{REPORT}?year=2026&month=1", cookie=cookie).status == 200
    for reply in (api.post("/budgets", {"name": "Del vendedor", "year": 2026}, cookie=cookie, origin=ORIGIN),
                  api.put(f"/budgets/{budget['id']}", {"name": "Otro"}, cookie=cookie, origin=ORIGIN),
                  api.delete(f"/budgets/{budget['id']}", cookie=cookie, origin=ORIGIN)):
        assert reply.status == 403, reply.text
    assert api.get(f"/budgets/{budget['id']}", key=books.key).json["version"] == 1
    assert api.get("/budgets", key=books.key).json["total"] == 1


def test_a_closed_year_keeps_its_actuals_out_of_the_closing_entry(api, books):
    retained = api.post("/chart-of-accounts", {"code": "3301", "name": "Utilidades retenidas", "type": "equity"},
                        key=books.key).json
    assert api.post("/account-determination-rules", {"operationType": "retained_earnings",
                                                     "chartOfAccountId": retained["id"]}, key=books.key).status == 201
    create(books, {"name": "Cierre", "year": 2025, "lines": [line(books, "410101", 12, "800.00"),
                                                            line(books, "6199", 12, "300.00")]})
    books.entry("2025-11-03", ("110101", 100, 0), ("410101", 0, 100))
    books.entry("2025-12-05", ("110101", 750, 0), ("410101", 0, 750))
    books.entry("2025-12-12", ("6199", 320, 0), ("110101", 0, 320))
    closed = api.post("/fiscal-years/2025/close", {}, key=books.key)
    assert closed.status == 200, closed.text
    # the closing entry (31 December) debits Ventas 850.00 and credits Otros gastos 320.00: left out, as the
    # income statement leaves it out
    december = report(books, "year=2025&month=12")
    rows = {row["code"]: row for row in december["rows"]}
    # Ventas: 750.00 against 800.00: -50.00, -50 / 800 * 100 = -6.25; to date 100 + 750 = 850.00: 50.00, 6.25
    assert figures(rows["410101"]) == ("800.00", "750.00", "-50.00", "-6.25", "800.00", "850.00", "50.00", "6.25")
    # Otros gastos: 320.00 against 300.00: 20.00, 20 / 300 * 100 = 6.666... -> 6.67 (the month is the year to date)
    assert figures(rows["6199"]) == ("300.00", "320.00", "20.00", "6.67") * 2
    # the result: budget 800 - 300 = 500.00; December 750 - 320 = 430.00: -70.00, -14.00 %; to date 850 - 320 =
    # 530.00: 30.00, 30 / 500 * 100 = 6.00
    assert figures(december["totals"]) == ("500.00", "430.00", "-70.00", "-14.00", "500.00", "530.00", "30.00", "6.00")


def test_a_budget_holds_2400_lines_within_dynamodbs_400_kb(api, table, company_a, books):
    projects = [f"P{number:03d}" for number in range(200)]
    centres = cost_centres(table, company_a.company_id, {"Proyecto": projects, "Sucursal": ["Centro"],
                                                         "Zona": ["Sur"], "Canal": ["Web"], "Vendedor": ["Ana"]})
    lines = [line(books, "410101", month, "1234567.89", pair(centres, "Proyecto", project))
             for month in range(1, 13) for project in projects]
    # 12 months x 200 projects = 2,400 lines, the most a budget takes
    assert len(lines) == 2400
    big = create(books, {"name": "Por proyecto", "year": 2026, "lines": lines})
    assert big["lineCount"] == 2400 and api.get(f"/budgets/{big['id']}", key=books.key).json["lines"] == big["lines"]
    one_more = books.api.post("/budgets", {"name": "Demasiado", "year": 2026,
                                           "lines": lines + [line(books, "6199", 1, "1.00")]}, key=books.key)
    assert one_more.status == 400 and one_more.json["details"][0]["field"] == "lines"
    # five cost centres on each line: the budget's answer (also what an Idempotency-Key keeps) passes 400 KB,
    # refused before anything is written
    others = [pair(centres, "Sucursal", "Centro"), pair(centres, "Zona", "Sur"), pair(centres, "Canal", "Web"),
              pair(centres, "Vendedor", "Ana")]
    crowded = [{**one, "dimensions": one["dimensions"] + others} for one in lines]
    refused = books.api.post("/budgets", {"name": "Cinco centros", "year": 2026, "lines": crowded}, key=books.key)
    assert refused.status == 400 and refused.json["details"][0]["field"] == "lines", refused.text
    assert api.get("/budgets", key=books.key).json["total"] == 1
