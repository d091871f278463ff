"""The income statement in NIIF para PYMES' shape (Sección 5): revenue, cost of sales, gross
margin, operating expenses, operating result, then other income and expenses and the financial
items (exchange differences among them), the result before tax, income tax and the net result.
Every figure worked by hand in the comments."""
from __future__ import annotations

import csv
import io
from decimal import Decimal

import pytest

from chalicelib.countries.hn import chart as honduran_chart
from chalicelib.countries.sv import chart as salvadoran_chart
from chalicelib.domain import statements
from chalicelib.services.accounting.default_chart import standard_sections
from tests.test_foreign_currency import dollar_bank, pay, rate, shop  # noqa: F401  (shop is a fixture)
from tests.test_sv_chart import chart_of

D = Decimal
PERIOD = "/reports/income-statement?startDate=2026-03-01&endDate=2026-03-31"

# (date, debit code, credit code, amount) on Honduras' standard chart, 110101 being Caja general
BOOK = (
    ("2026-03-02", "110101", "410101", "1000.00"),  # a cash sale (Ventas gravadas)
    ("2026-03-02", "5101", "110101", "600.00"),     # its cost (Costo de mercadería vendida)
    ("2026-03-05", "6104", "110101", "150.00"),     # the rent (Alquileres), an operating expense
    ("2026-03-10", "110101", "4202", "40.00"),      # an exchange gain (Diferencial cambiario a favor)
    ("2026-03-12", "6303", "110101", "15.00"),      # an exchange loss (Diferencial cambiario en contra)
    ("2026-03-15", "110101", "4203", "30.00"),      # other income (Otros ingresos)
    ("2026-03-20", "6301", "110101", "20.00"),      # bank interest (Intereses bancarios)
    ("2026-03-25", "6499", "110101", "10.00"),      # another expense (Otros gastos no operacionales)
    ("2026-03-31", "6501", "210204", "50.00"),      # the year's income tax, owed (ISR por pagar)
)


class StandardBooks:
    def __init__(self, api, company):
        self.api, self.key = api, company.api_key
        assert api.post("/chart-of-accounts/import-default", key=self.key).status == 201
        self.accounts = chart_of(api, self.key)

    def entry(self, date, debit_code, credit_code, amount):
        reply = self.api.post("/journal-entries", {"date": date, "status": "posted", "lines": [
            {"chartOfAccountId": self.accounts[debit_code]["id"], "debit": amount},
            {"chartOfAccountId": self.accounts[credit_code]["id"], "credit": amount}]}, key=self.key)
        assert reply.status == 201, reply.text

    def report(self, path=PERIOD, accept=None):
        headers = {"authorization": f"Bearer {self.key}"}
        if accept:
            headers["accept"] = accept
        answer = self.api.http.request("GET", path, headers=headers, body=b"")
        assert answer.status_code == 200, answer.body[:300]
        return answer


def _codes(section):
    """{code: balance} of every account in a section's tree."""
    found = {}
    for node in section["accounts"]:
        found[node["code"]] = D(str(node["balance"]))
        found.update(_codes(node))
    return found


@pytest.fixture
def books(api, company_a):
    books = StandardBooks(api, company_a)
    for line in BOOK:
        books.entry(*line)
    return books


def test_each_subtotal_of_a_hand_worked_book(books):
    report = books.api.get(PERIOD, key=books.key).json
    figure = lambda name: D(str(report[name]))  # noqa: E731
    total = lambda name: D(str(report[name]["total"]))  # noqa: E731
    # revenue: the sale alone, 1,000.00 (the exchange gain and the other income are not sales)
    assert total("revenue") == D("1000.00") and _codes(report["revenue"]) == {
        "4": D("1000.00"), "41": D("1000.00"), "4101": D("1000.00"), "410101": D("1000.00")}
    assert total("costOfSales") == D("600.00")
    # grossMargin = revenue - cost of sales = 1,000.00 - 600.00 = 400.00
    assert figure("grossMargin") == D("400.00")
    # operating expenses: the rent, 150.00; operatingResult = 400.00 - 150.00 = 250.00
    assert total("expenses") == D("150.00") and _codes(report["expenses"])["6104"] == D("150.00")
    assert figure("operatingResult") == D("250.00")
    # other income 30.00 (4203 under 42 Otros ingresos); other expenses 10.00 (6499 under 64)
    assert total("otherIncome") == D("30.00") and _codes(report["otherIncome"]) == {"42": D("30.00"),
                                                                                      "4203": D("30.00")}
    assert total("otherExpenses") == D("10.00") and _codes(report["otherExpenses"])["6499"] == D("10.00")
    # financial income: the exchange gain 40.00; financial costs: interest 20.00 + the exchange loss 15.00 = 35.00
    assert total("financialIncome") == D("40.00") and _codes(report["financialIncome"]) == {"4202": D("40.00")}
    assert total("financialCosts") == D("35.00") and _codes(report["financialCosts"]) == {
        "63": D("35.00"), "6301": D("20.00"), "6303": D("15.00")}
    # financialResult = 40.00 - 35.00 = 5.00
    assert figure("financialResult") == D("5.00")
    # resultBeforeTax = operatingResult + other income - other expenses + financial items
    #                 = 250.00 + 30.00 - 10.00 + 5.00 = 275.00
    assert figure("resultBeforeTax") == D("275.00")
    # netResult = resultBeforeTax - income tax = 275.00 - 50.00 = 225.00
    assert total("incomeTax") == D("50.00") and figure("netResult") == D("225.00")
    # the same as every income account's credits less every cost and expense's debits:
    # 1,000 + 40 + 30 - 600 - 150 - 15 - 20 - 10 - 50 = 225.00, the year's result on the balance sheet
    sheet = books.api.get("/reports/balance-sheet?date=2026-03-31", key=books.key).json
    assert D(str(sheet["equity"]["currentYearResult"])) == D("225.00") and sheet["balanced"]
    # no comparison asked: every compare figure is null
    assert all(report[f"compare{name[0].upper()}{name[1:]}"] is None
               for name in ("grossMargin", "operatingResult", "financialResult", "resultBeforeTax", "netResult"))


def test_an_account_placed_by_hand_and_one_placed_again_by_default(books):
    """An explicit statementSection moves an account (and its sub-accounts); null gives the
    default back: for an account of the standard chart, where that chart places its code."""
    put = lambda code, body: books.api.put(f"/chart-of-accounts/{books.accounts[code]['id']}", body,  # noqa: E731
                                           key=books.key)
    # imported, nothing stored: the standard chart's code places them (4202 financial income; 6303 follows 63,
    # financial costs), so a later change of the country's chart reaches every company
    assert books.accounts["4202"]["statementSection"] is None and books.accounts["6303"]["statementSection"] is None
    moved = put("63", {"statementSection": "other_expenses"})
    assert moved.status == 200 and moved.json["statementSection"] == "other_expenses"
    placed = put("4202", {"statementSection": "other_income"})
    assert placed.status == 200 and placed.json["statementSection"] == "other_income"
    cleared = put("4202", {"statementSection": None})
    assert cleared.status == 200 and cleared.json["statementSection"] is None
    report = books.api.get(PERIOD, key=books.key).json
    # 63 and its sub-accounts (interest 20.00, the exchange loss 15.00) are now other expenses: 10.00 + 35.00
    assert D(str(report["otherExpenses"]["total"])) == D("45.00")
    assert D(str(report["financialCosts"]["total"])) == 0
    # 4202 without a place of its own: its code's place in Honduras' standard chart, financial income
    assert D(str(report["financialIncome"]["total"])) == D("40.00")
    # the result before tax is the same: 250.00 + 30.00 - 45.00 + 40.00 = 275.00
    assert D(str(report["resultBeforeTax"])) == D("275.00") and D(str(report["netResult"])) == D("225.00")


def test_a_place_only_for_result_accounts_and_only_a_known_one(api, company_a):
    def post(body):
        return api.post("/chart-of-accounts", body, key=company_a.api_key)

    asset = post({"code": "1101", "name": "Caja", "type": "asset", "statementSection": "revenue"})
    assert (asset.status, asset.json["details"][0]["field"]) == (400, "statementSection")
    unknown = post({"code": "4299", "name": "Otros", "type": "income", "statementSection": "extraordinary"})
    assert (unknown.status, unknown.json["details"][0]["field"]) == (400, "statementSection")
    spanish = api.post("/chart-of-accounts", {"code": "1101", "name": "Caja", "type": "asset",
                                              "statementSection": "revenue"}, key=company_a.api_key,
                       headers={"Accept-Language": "es"})
    assert "estado de resultados" in spanish.json["details"][0]["message"]
    income = post({"code": "4299", "name": "Otros", "type": "income", "statementSection": "other_income"})
    assert income.status == 201 and income.json["statementSection"] == "other_income"
    # an account with a place cannot become an asset while it keeps it
    turned = api.put(f"/chart-of-accounts/{income.json['id']}", {"type": "asset"}, key=company_a.api_key)
    assert (turned.status, turned.json["details"][0]["field"]) == (400, "statementSection")
    assert api.get("/chart-of-accounts?limit=10", key=company_a.api_key).json["accounts"][0]["type"] == "income"


def test_an_exchange_gain_the_engine_posts_is_no_longer_revenue(shop):  # noqa: F811
    """A chart built by hand before accounts had a place (4202 and 6303 at the top, no
    statementSection): the codes' places in Honduras' standard chart put the exchange gain below
    the operating result, not in revenue or the gross margin."""
    rate(shop, "2026-11-02", "24.50")
    rate(shop, "2026-11-10", "25.00")
    _, transfer = dollar_bank(shop)
    invoice = shop.document("01", [(shop.service, 1, 100)], currency="USD")  # USD 100 at 24.50: revenue 2,450.00
    pay(shop, invoice["id"], paymentMethodId=transfer["id"], amount="115.00", paymentDate="2026-11-10")
    # USD 115 at 25.00 = 2,875.00 against 2,817.50 carried: 57.50 gained on 4202
    report = shop.api.get("/reports/income-statement?startDate=2026-11-01&endDate=2026-11-30", key=shop.key).json
    assert D(str(report["revenue"]["total"])) == D("2450.00") and "4202" not in _codes(report["revenue"])
    # a service has no cost: grossMargin = operatingResult = 2,450.00 (today's main said 2,507.50)
    assert D(str(report["grossMargin"])) == D(str(report["operatingResult"])) == D("2450.00")
    assert _codes(report["financialIncome"]) == {"4202": D("57.50")}
    # resultBeforeTax = netResult = 2,450.00 + 57.50 = 2,507.50
    assert D(str(report["resultBeforeTax"])) == D(str(report["netResult"])) == D("2507.50")


def test_the_exports_carry_the_same_sections(books):
    import openpyxl
    from pypdf import PdfReader

    rows = list(csv.reader(io.StringIO(books.report(accept="text/csv").body.decode("utf-8-sig"))))
    labels = [row[1] for row in rows[1:]]
    values = {row[1]: row[2] for row in rows[1:]}
    # the sections in NIIF para PYMES' order, each figure as in the JSON (worked out above)
    order = ["INGRESOS DE ACTIVIDADES ORDINARIAS", "COSTO DE VENTAS", "Utilidad bruta", "GASTOS DE OPERACIÓN",
             "Resultado de operación", "OTROS INGRESOS", "OTROS GASTOS", "INGRESOS FINANCIEROS", "COSTOS FINANCIEROS",
             "Resultado financiero", "Resultado antes de impuestos", "IMPUESTO SOBRE LA RENTA", "Resultado neto"]
    assert [label for label in labels if label in order] == order
    assert (values["Utilidad bruta"], values["Resultado de operación"], values["Resultado financiero"],
            values["Resultado antes de impuestos"], values["Resultado neto"]) == (
            "400.00", "250.00", "5.00", "275.00", "225.00")
    assert (values["Total ingresos de actividades ordinarias"], values["Total otros ingresos"],
            values["Total ingresos financieros"], values["Total costos financieros"],
            values["Total impuesto sobre la renta"]) == ("1000.00", "30.00", "40.00", "35.00", "50.00")
    # the exchange gain sits under the financial income, after the operating result
    assert labels.index("INGRESOS FINANCIEROS") < labels.index("Diferencial cambiario a favor") < \
        labels.index("COSTOS FINANCIEROS")

    xlsx = books.report(accept="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet")
    cells = {row[1]: row[2] for row in openpyxl.load_workbook(io.BytesIO(xlsx.body)).active.iter_rows(values_only=True)
             if row[1]}
    assert (cells["Resultado antes de impuestos"], cells["Resultado neto"]) == (275, 225)

    pdf = books.report(accept="application/pdf")
    text = "".join(page.extract_text() for page in PdfReader(io.BytesIO(pdf.body)).pages)
    for label in ("INGRESOS FINANCIEROS", "Resultado antes de impuestos", "IMPUESTO SOBRE LA RENTA", "275.00",
                  "225.00"):
        assert label in text, label


@pytest.mark.parametrize("chart", [honduran_chart, salvadoran_chart], ids=["HN", "SV"])
def test_each_standard_chart_places_its_exchange_differences_and_has_an_income_tax(chart):
    country = "HN" if chart is honduran_chart else "SV"
    places = standard_sections(country)
    rules = {operation: code for operation, document_type, code in chart.RULES if document_type is None}
    assert places[rules["fx_gain"]][1] == statements.FINANCIAL_INCOME
    assert places[rules["fx_loss"]][1] == statements.FINANCIAL_COSTS
    assert places[rules["revenue"]][1] == statements.REVENUE
    assert places[rules["cost_of_sales"]][1] == statements.COST_OF_SALES
    every = {section for _, section, _ in places.values()}
    assert every == set(statements.STATEMENT_SECTIONS)  # each section has accounts to post to
    # what the chart names is a known section on an income, cost or expense account
    assert set(chart.STATEMENT_SECTIONS.values()) <= set(statements.STATEMENT_SECTIONS)
    assert set(chart.STATEMENT_SECTIONS) <= set(places)
