"""The statement of cash flows (issue 44, NIIF para PYMES Sección 7, indirect method): a month
with a sale on credit, a collection, a purchase of equipment and a loan, worked by hand below
(not copied from the output), its comparison column, an account's own cashFlowCategory, the
exports, bad input and another company's books."""
from __future__ import annotations

import csv
import io
from collections import Counter

from tests.documents_support import Shop
from tests.support import Books
from tests.test_call_budget import calls, measure  # noqa: F401  (calls is a fixture)
from tests.test_revaluation import MONTH_END, revalue
from tests.test_revaluation import shop as dollar_books  # noqa: F401  (a fixture: USD at 24.50, 24.80 on 30 Nov)

PERIOD = "startDate=2026-01-01&endDate=2026-01-31&compareStartDate=2025-12-01&compareEndDate=2025-12-31"


def _report(books: Books, query: str = PERIOD) -> dict:
    reply = books.api.get(f"/reports/cash-flow?{query}", key=books.key)
    assert reply.status == 200, reply.text
    return reply.json


def _lines(section: dict) -> list[tuple]:
    return [(line["key"], line["code"], line["amount"], line["compareAmount"]) for line in section["lines"]]


def _a_month(api, company) -> Books:
    """The Honduran standard chart (cash: 1101's accounts, among them the cash/bank rules' 110101
    and 110103) and a bank account whose ledger, 1900, is outside 1101: cash because a bank account
    stands on it. The sale and its collection are a real invoice and payment."""
    shop = Shop(api, company, standard_chart=True)
    books = shop.books
    ledger = api.post("/chart-of-accounts", {"code": "1900", "name": "Banco de Occidente", "type": "asset"},
                      key=books.key)
    assert ledger.status == 201, ledger.text
    books.accounts["1900"] = ledger.json["id"]
    shop.created("/bank-accounts", {"name": "Occidente", "openingBalance": "1000.00",
                                    "openingBalanceDate": "2025-12-01", "chartOfAccountId": books["1900"]})
    # ... Dr 1900 1,000 / Cr 3401 Patrimonio de apertura 1,000
    # December 2025 (the comparison column)
    books.entry("2025-12-01", ("110103", 50000, 0), ("3101", 0, 50000))   # the owners pay in 50,000
    books.entry("2025-12-15", ("110101", 5000, 0), ("4103", 0, 5000))     # a service paid in cash
    books.entry("2025-12-20", ("6104", 2000, 0), ("110103", 0, 2000))     # rent paid from the bank
    # January 2026: a sale on credit, 100 hours at 100 + 15 % ISV = 11,500
    # (Dr 110201 Clientes 11,500 / Cr 410101 Ventas gravadas 10,000, Cr 210201 ISV por pagar 1,500)
    invoice = shop.document("01", [(shop.service, 100, 100)], date="2026-01-05")
    cash = shop.created("/payments/methods", {"name": "Efectivo", "isCashMethod": True})
    paid = api.post(f"/payments/documents/{invoice['id']}/payments", {  # 6,000 of it collected in cash
        "paymentMethodId": cash["id"], "amount": 6000, "paymentDate": "2026-01-12"}, key=books.key)
    assert paid.status == 201, paid.text  # Dr 110101 Caja general 6,000 / Cr 110201 Clientes 6,000
    books.entry("2026-01-15", ("120104", 24000, 0), ("110103", 0, 24000))  # a computer bought, paid
    books.entry("2026-01-20", ("110103", 30000, 0), ("2201", 0, 30000))   # a long-term bank loan
    books.entry("2026-01-31", ("6108", 400, 0), ("120106", 0, 400))       # the month's depreciation
    books.entry("2026-02-03", ("110103", 999, 0), ("4103", 0, 999))       # after the period: nowhere
    return books


def test_a_month_worked_by_hand_with_its_comparison(api, company_a):
    books = _a_month(api, company_a)
    report = _report(books)
    assert (report["startDate"], report["endDate"], report["compareStartDate"], report["compareEndDate"]) == (
        "2026-01-01", "2026-01-31", "2025-12-01", "2025-12-31")
    # net result: January 10,000 of sales - 400 of depreciation = 9,600; December 5,000 - 2,000 rent = 3,000
    assert (report["netResult"], report["compareNetResult"]) == (9600, 3000)
    income = books.api.get(f"/reports/income-statement?{PERIOD}", key=books.key).json  # the same figure
    assert (income["netResult"], income["compareNetResult"]) == (9600, 3000)
    operating = report["operatingActivities"]
    assert _lines(operating) == [
        ("netResult", None, 9600, 3000),
        ("adjustment", "120106", 400, 0),          # depreciation moved no cash: added back
        ("workingCapital", "110201", -5500, 0),    # receivables rose 11,500 - 6,000 = 5,500 (not collected)
        ("workingCapital", "210201", 1500, 0),     # ISV owed rose 1,500 (not yet paid)
    ]
    # 9,600 + 400 - 5,500 + 1,500 = 6,000: exactly the collection; December: the 3,000 of result, all cash
    assert (operating["total"], operating["compareTotal"]) == (6000, 3000)
    assert operating["lines"][0]["label"] == "Resultado neto del periodo"
    assert operating["lines"][1]["label"] == "Depreciación acumulada"
    investing = report["investingActivities"]
    assert _lines(investing) == [("investing", "120104", -24000, 0)]   # the computer
    assert (investing["total"], investing["compareTotal"]) == (-24000, 0)
    financing = report["financingActivities"]
    assert _lines(financing) == [("financing", "2201", 30000, 0),      # the loan
                                 ("financing", "3101", 0, 50000),      # December's capital
                                 ("financing", "3401", 0, 1000)]       # the bank account's opening balance
    assert (financing["total"], financing["compareTotal"]) == (30000, 51000)
    # January: 6,000 - 24,000 + 30,000 = 12,000; December: 3,000 + 0 + 51,000 = 54,000
    assert (report["netCashFlow"], report["compareNetCashFlow"]) == (12000, 54000)
    # cash on 31 Dec 2025: Caja 5,000 + Bancos 50,000 - 2,000 + Occidente 1,000 = 54,000 (nothing before December)
    assert (report["openingCash"], report["compareOpeningCash"]) == (54000, 0)
    # on 31 Jan: Caja 5,000 + 6,000 + Bancos 48,000 - 24,000 + 30,000 + Occidente 1,000 = 66,000 (the 999 of
    # February is after it)
    assert (report["closingCash"], report["compareClosingCash"]) == (66000, 54000)
    assert report["balanced"] is True
    # without a comparison the compare figures are null; the period defaults to the year to date
    alone = _report(Books.of(api, company_a, {}), "endDate=2026-01-31")
    assert (alone["startDate"], alone["netCashFlow"], alone["compareNetCashFlow"]) == ("2026-01-01", 12000, None)
    assert alone["operatingActivities"]["lines"][0]["compareAmount"] is None


def test_an_accounts_own_category_moves_its_line_and_the_statement_still_balances(api, company_a):
    books = Books(api, company_a)
    books.entry("2026-03-01", ("110103", 10000, 0), ("2201", 0, 10000))   # a loan
    books.entry("2026-03-31", ("6301", 100, 0), ("110103", 0, 100))       # its interest, paid
    books.entry("2026-03-31", ("1203", 500, 0), ("110103", 0, 500))       # a deposit given
    default = _report(books, "startDate=2026-03-01&endDate=2026-03-31")
    # by default the interest is in the net result (-100, operating) and the deposit (under 12) investing
    assert default["operatingActivities"]["total"] == -100
    assert _lines(default["investingActivities"]) == [("investing", "1203", -500, None)]
    for code, category in (("6301", "financing"), ("1203", "operating")):
        reply = api.put(f"/chart-of-accounts/{books[code]}", {"cashFlowCategory": category}, key=books.key)
        assert (reply.status, reply.json["cashFlowCategory"]) == (200, category), reply.text
    moved = _report(books, "startDate=2026-03-01&endDate=2026-03-31")
    # interest paid as financing (Sección 7.14): taken out of operating (+100), into financing (-100)
    assert _lines(moved["operatingActivities"]) == [("netResult", None, -100, None), ("adjustment", "6301", 100, None),
                                                    ("workingCapital", "1203", -500, None)]
    assert moved["operatingActivities"]["total"] == -500  # -100 + 100 - 500
    assert moved["investingActivities"] == {"total": 0, "compareTotal": None, "lines": []}
    assert _lines(moved["financingActivities"]) == [("financing", "2201", 10000, None), ("financing", "6301", -100, None)]
    # either way: 10,000 - 100 - 500 = 9,400 of cash, from 0
    for report in (default, moved):
        assert (report["netCashFlow"], report["openingCash"], report["closingCash"], report["balanced"]) == (
            9400, 0, 9400, True)
    # null places it again by default; only an asset can be cash
    reply = api.put(f"/chart-of-accounts/{books['6301']}", {"cashFlowCategory": None}, key=books.key)
    assert reply.status == 200 and reply.json["cashFlowCategory"] is None
    refused = api.put(f"/chart-of-accounts/{books['2201']}", {"cashFlowCategory": "cash"}, key=books.key)
    assert (refused.status, refused.json["details"][0]["field"]) == (400, "cashFlowCategory"), refused.text
    made = api.post("/chart-of-accounts", {"code": "1910", "name": "Caja de la sucursal", "type": "asset",
                                           "cashFlowCategory": "cash"}, key=books.key)
    assert (made.status, made.json["cashFlowCategory"]) == (201, "cash"), made.text


def test_a_statement_costs_a_fixed_number_of_reads_whatever_the_books_hold(api, calls, company_a):  # noqa: F811
    books = Books(api, company_a)
    for month in range(1, 13):
        for _ in range(3):
            books.entry(f"2026-{month:02d}-15", ("110103", 10, 0), ("3101", 0, 10))
    # the balances, the chart, the year locks, the rules, the bank accounts and the revaluations; the
    # company (its country)
    assert measure(calls, lambda: api.get("/reports/cash-flow?startDate=2026-01-01&endDate=2026-12-31"
                                          "&compareStartDate=2025-01-01&compareEndDate=2025-12-31",
                                          key=books.key)) == Counter({"Query": 6, "GetItem": 1})


def test_bad_periods_are_400_and_another_company_sees_only_its_books(api, company_a, company_b):
    books = Books(api, company_a)
    books.entry("2026-01-12", ("110103", 6000, 0), ("3101", 0, 6000))
    for query, field in (("startDate=2026-03-01&endDate=2026-02-01", "startDate"),
                         ("compareStartDate=2025-01-01", "compareEndDate"),
                         ("startDate=2026-02-30", "startDate")):
        reply = api.get(f"/reports/cash-flow?{query}", key=books.key)
        assert (reply.status, reply.json["code"], reply.json["details"][0]["field"]) == (
            400, "VALIDATION_ERROR", field), query
    # cash flow reads no cost centre: a dimension filter is refused as any unknown parameter, not ignored
    for query, field in (("dimensionValueId=1", "dimensionValueId"), ("groupByDimensionId=1", "groupByDimensionId")):
        reply = api.get(f"/reports/cash-flow?{query}", key=books.key)
        assert (reply.status, reply.json["details"][0]["field"]) == (400, field), (query, reply.text)
    other = api.get("/reports/cash-flow?startDate=2026-01-01&endDate=2026-12-31", key=company_b.api_key).json
    assert (other["netCashFlow"], other["closingCash"], other["financingActivities"]["lines"]) == (0, 0, [])
    mine = _report(books, "startDate=2026-01-01&endDate=2026-12-31")
    assert (mine["netCashFlow"], mine["closingCash"]) == (6000, 6000)


def test_the_statement_exports_as_csv_xlsx_and_pdf(api, company_a):
    import openpyxl
    from pypdf import PdfReader

    _a_month(api, company_a)

    def export(accept):
        answer = api.http.request("GET", f"/reports/cash-flow?{PERIOD}", body=b"", headers={
            "authorization": f"Bearer {company_a.api_key}", "accept": accept})
        assert answer.status_code == 200, answer.body[:300]
        return answer

    exported = export("text/csv")
    assert 'filename="estado-de-flujos-de-efectivo-2026-01-01-2026-01-31.csv"' in exported.headers[
        "Content-Disposition"]
    rows = list(csv.reader(io.StringIO(exported.body.decode("utf-8-sig"))))
    assert rows[0] == ["Código", "Cuenta", "Periodo 2026-01-01 a 2026-01-31", "Periodo 2025-12-01 a 2025-12-31"]
    # the hand-worked figures above, with their cents, in the statement's order
    assert rows[1:] == [
        ["", "ACTIVIDADES DE OPERACIÓN", "", ""],
        ["", "Resultado neto del periodo", "9600.00", "3000.00"],
        ["", "Ajustes por partidas que no representan movimientos de efectivo", "", ""],
        ["120106", "Depreciación acumulada", "400.00", "0.00"],
        ["", "Cambios en el capital de trabajo", "", ""],
        ["110201", "Clientes", "-5500.00", "0.00"],
        ["210201", "ISV por pagar", "1500.00", "0.00"],
        ["", "Flujo neto de actividades de operación", "6000.00", "3000.00"],
        ["", "ACTIVIDADES DE INVERSIÓN", "", ""],
        ["120104", "Equipo de cómputo", "-24000.00", "0.00"],
        ["", "Flujo neto de actividades de inversión", "-24000.00", "0.00"],
        ["", "ACTIVIDADES DE FINANCIAMIENTO", "", ""],
        ["2201", "Préstamos bancarios a largo plazo", "30000.00", "0.00"],
        ["3101", "Capital social", "0.00", "50000.00"],
        ["3401", "Patrimonio de apertura", "0.00", "1000.00"],
        ["", "Flujo neto de actividades de financiamiento", "30000.00", "51000.00"],
        ["", "Aumento (disminución) neto del efectivo", "12000.00", "54000.00"],
        ["", "Efectivo al inicio del periodo", "54000.00", "0.00"],
        ["", "Efectivo al final del periodo", "66000.00", "54000.00"],
    ]
    xlsx = export("application/vnd.openxmlformats-officedocument.spreadsheetml.sheet")
    cells = list(openpyxl.load_workbook(io.BytesIO(xlsx.body)).active.iter_rows(values_only=True))
    assert cells[1][0] == "Estado de flujos de efectivo"
    numbers = {row[1]: row[2:4] for row in cells[5:] if row[1]}
    assert numbers["Efectivo al final del periodo"] == (66000, 54000)
    pdf = export("application/pdf")
    text = "".join(page.extract_text() for page in PdfReader(io.BytesIO(pdf.body)).pages)
    assert "Estado de flujos de efectivo" in text and "método indirecto" in text
    assert "Efectivo al final del periodo" in text and ("66,000.00" in text or "66000.00" in text)


def test_a_revalued_dollar_bank_shows_the_exchange_rate_effect_apart_from_operating(api, dollar_books):  # noqa: F811
    """NIIF para PYMES 7.13: the month-end revaluation moves the dollar bank's ledger with no cash
    flowing; its gain is in the net result, taken out of operating and shown as the effect."""
    shop = dollar_books
    shop.books.accounts["3101"] = shop.created("/chart-of-accounts", {"code": "3101", "name": "Capital social",
                                                                      "type": "equity"})["id"]
    bank = shop.created("/bank-accounts", {"name": "Cuenta en dólares", "currency": "USD", "openingBalance": 0,
                                           "openingBalanceDate": "2026-11-01",
                                           "chartOfAccountId": shop.books["110104"]})
    deposit = api.post(f"/bank-accounts/{bank['id']}/transactions", {   # the owners pay in USD 1,000.00
        "type": "deposit", "amount": "1000.00", "transactionDate": "2026-11-03",
        "chartOfAccountId": shop.books["3101"]}, key=shop.key)
    assert deposit.status == 201, deposit.text   # at 24.50: Dr 110104 24,500.00 / Cr 3101 24,500.00
    done = revalue(shop)   # 30 Nov at 24.80: 1,000.00 x 24.80 = 24,800.00 - 24,500.00 = +300.00
    assert [(line["kind"], line["difference"]) for line in done["lines"]] == [("bank", 300)]
    # November, compared with December (the reversal on the 1st: Dr 4205 300 / Cr 110104 300)
    report = _report(shop.books, f"startDate=2026-11-01&endDate={MONTH_END}"
                                 "&compareStartDate=2026-12-01&compareEndDate=2026-12-31")
    # net result: November the 300.00 gained; December the reversal's -300.00
    assert (report["netResult"], report["compareNetResult"]) == (300, -300)
    operating = report["operatingActivities"]
    assert _lines(operating) == [("netResult", None, 300, -300),
                                 ("adjustment", None, -300, 300)]   # the exchange difference moved no cash
    assert operating["lines"][1]["label"] == "Diferencial cambiario no realizado del efectivo"
    assert (operating["total"], operating["compareTotal"]) == (0, 0)   # 300 - 300; -300 + 300
    assert _lines(report["financingActivities"]) == [("financing", "3101", 24500, 0)]
    # net flow: November 0 + 0 + 24,500 = 24,500; December nothing moved: 0
    assert (report["netCashFlow"], report["compareNetCashFlow"]) == (24500, 0)
    # the effect: the revaluation on November's last day counts there, its reversal on 1 December
    # (the day after) in December: +300.00 and -300.00
    assert (report["exchangeRateEffect"], report["compareExchangeRateEffect"]) == (300, -300)
    # November: 0 + 24,500 + 300 = 24,800.00 (USD 1,000.00 at 24.80); December: 24,800 + 0 - 300 = 24,500.00
    assert (report["openingCash"], report["closingCash"]) == (0, 24800)
    assert (report["compareOpeningCash"], report["compareClosingCash"]) == (24800, 24500)
    assert report["balanced"] is True
    # a period ending the day before the revaluation has no effect; one holding both days, +300 - 300 = 0
    before = _report(shop.books, "startDate=2026-11-01&endDate=2026-11-29")
    both = _report(shop.books, "startDate=2026-11-01&endDate=2026-12-31")
    assert (before["exchangeRateEffect"], both["exchangeRateEffect"]) == (0, 0)
    assert [line["key"] for line in both["operatingActivities"]["lines"]] == ["netResult"]   # 300 - 300 = 0
    assert (both["closingCash"], both["balanced"]) == (24500, True)
    # the exports show the line between the net flow and the opening cash
    answer = api.http.request("GET", f"/reports/cash-flow?startDate=2026-11-01&endDate={MONTH_END}", body=b"",
                              headers={"authorization": f"Bearer {shop.key}", "accept": "text/csv"})
    rows = list(csv.reader(io.StringIO(answer.body.decode("utf-8-sig"))))
    assert rows[2:4] == [["", "Resultado neto del periodo", "300.00"],
                         ["", "Ajustes por partidas que no representan movimientos de efectivo", ""]]
    assert rows[-4:] == [["", "Aumento (disminución) neto del efectivo", "24500.00"],
                         ["", "Efecto de las variaciones en las tasas de cambio sobre el efectivo", "300.00"],
                         ["", "Efectivo al inicio del periodo", "0.00"],
                         ["", "Efectivo al final del periodo", "24800.00"]]
