"""Cost centres in the reports (issue 44): movements of the postings carrying a dimension value,
read from the postings (each carries its line's `dimensionValueIds`)."""
from __future__ import annotations

from decimal import Decimal

import pytest

from chalicelib.domain.statements import Movements
from chalicelib.services.accounting import dimension_reports
from chalicelib.store import keys
from chalicelib.store.transaction import Transaction
from tests.support import SMALL_CHART, Books

SALES, RENT = 41, 61  # two account ids (the postings' partitions need no account item)
NORTH, SOUTH, PROJECT_X = 101, 102, 201  # NORTH and SOUTH: values of a "branch" dimension; PROJECT_X another's


def write_postings(table, company_id, postings):
    """postings: (account, date, entry, line, debit, credit, value ids or None), as the posting engine writes them."""
    transaction = Transaction(table)
    for account, date, entry, line, debit, credit, values in postings:
        item = {**keys.posting(company_id, account, date, entry, line), "itemType": "POSTING", "accountId": account,
                "date": date, "journalEntryId": entry, "line": line, "entryType": "manual",
                "debit": Decimal(debit), "credit": Decimal(credit)}
        if values:
            item["dimensionValueIds"] = values
        transaction.put(item)
    transaction.commit()


POSTINGS = (
    (SALES, "2026-03-05", 1, 1, "0", "1000.00", [NORTH]),
    (SALES, "2026-03-10", 2, 1, "0", "400.00", [SOUTH, PROJECT_X]),
    (SALES, "2026-03-12", 3, 1, "0", "250.50", None),
    (SALES, "2026-03-20", 4, 0, "100.00", "0", [NORTH, PROJECT_X]),  # a return in the north
    (RENT, "2026-03-31", 5, 0, "300.00", "0", [NORTH]),
    (RENT, "2026-03-31", 6, 0, "200.00", "0", [PROJECT_X]),
    (SALES, "2026-04-01", 7, 1, "0", "999.00", [NORTH]),  # after the span
    (SALES, "2026-02-28", 8, 1, "0", "888.00", [NORTH]),  # before it
)


def test_tagged_movements_sum_the_postings_carrying_the_value_within_the_span(table, company_a):
    write_postings(table, company_a.company_id, POSTINGS)
    north = dimension_reports.tagged_movements(table, company_a.company_id, [SALES, RENT], "2026-03-01",
                                               "2026-03-31", NORTH)
    # sales north: credit 1,000.00 (entry 1), debit 100.00 (entry 4); entries 7 and 8 outside March
    # rent north: debit 300.00 (entry 5)
    assert north == {SALES: Movements(Decimal("100.00"), Decimal("1000.00")), RENT: Movements(Decimal("300.00"))}
    project = dimension_reports.tagged_movements(table, company_a.company_id, [SALES, RENT], "2026-03-01",
                                                 "2026-03-31", PROJECT_X)
    # sales: credit 400.00 (entry 2), debit 100.00 (entry 4); rent: debit 200.00 (entry 6)
    assert project == {SALES: Movements(Decimal("100.00"), Decimal("400.00")), RENT: Movements(Decimal("200.00"))}
    # an account not asked for is not read
    assert dimension_reports.tagged_movements(table, company_a.company_id, [RENT], "2026-03-01", "2026-03-31",
                                              SOUTH) == {}


def test_unassigned_and_the_groups_of_a_dimension_add_up_to_every_posting(table, company_a):
    write_postings(table, company_a.company_id, POSTINGS)
    branch = [NORTH, SOUTH]
    unassigned = dimension_reports.untagged_movements(table, company_a.company_id, [SALES, RENT], "2026-03-01",
                                                      "2026-03-31", branch)
    # no branch: sales credit 250.50 (entry 3); rent debit 200.00 (entry 6, a project's only)
    assert unassigned == {SALES: Movements(Decimal("0"), Decimal("250.50")), RENT: Movements(Decimal("200.00"))}
    groups = dimension_reports.grouped_movements(table, company_a.company_id, [SALES, RENT], "2026-03-01",
                                                 "2026-03-31", branch)
    assert groups == {
        NORTH: {SALES: Movements(Decimal("100.00"), Decimal("1000.00")), RENT: Movements(Decimal("300.00"))},
        SOUTH: {SALES: Movements(Decimal("0"), Decimal("400.00"))},
        None: unassigned}
    # together: sales debit 100.00, credit 1,000.00 + 400.00 + 250.50 = 1,650.50; rent 300.00 + 200.00 = 500.00
    sales_credit = sum((group[SALES].credit for group in groups.values() if SALES in group), Decimal(0))
    rent_debit = sum((group[RENT].debit for group in groups.values() if RENT in group), Decimal(0))
    assert (sales_credit, rent_debit) == (Decimal("1650.50"), Decimal("500.00"))
    # within the project only: sales south credit 400.00, north debit 100.00; rent unassigned 200.00
    within = dimension_reports.grouped_movements(table, company_a.company_id, [SALES, RENT], "2026-03-01",
                                                 "2026-03-31", branch, within_value_id=PROJECT_X)
    assert within == {SOUTH: {SALES: Movements(Decimal("0"), Decimal("400.00"))},
                      NORTH: {SALES: Movements(Decimal("100.00"), Decimal("0"))},
                      None: {RENT: Movements(Decimal("200.00"))}}


# --- the reports through the API, entries with cost centres through POST /journal-entries ----------

CHART = SMALL_CHART + (("5101", "Costo de mercadería vendida", "cost"), ("3301", "Utilidades retenidas", "equity"))


@pytest.fixture
def books(api, company_a):
    return Books(api, company_a, full=False, chart=CHART, rules=(("retained_earnings", None, "3301"),))


@pytest.fixture
def centres(api, company_a):
    """Sucursal: TGU, SPS; Proyecto: Alfa. Answers ids by name."""
    ids = {}
    for name, values in (("Sucursal", [("TGU", "Tegucigalpa"), ("SPS", "San Pedro Sula")]), ("Proyecto", [("ALF", "Alfa")])):
        made = api.post("/dimensions", {"name": name, "values": [{"code": c, "name": n} for c, n in values]},
                        key=company_a.api_key)
        assert made.status == 201, made.text
        ids[name] = made.json["id"]
        ids.update({value["code"]: value["id"] for value in made.json["values"]})
    return ids


def entry(api, company, books, centres, date, *lines):
    """lines: (account code, debit, credit, [value codes])."""
    def dimensions(codes):
        return [{"dimensionId": centres["Proyecto" if code == "ALF" else "Sucursal"], "valueId": centres[code]}
                for code in codes]
    reply = api.post("/journal-entries", {"date": date, "status": "posted", "lines": [
        {"chartOfAccountId": books[code], "debit": debit, "credit": credit, **({"dimensions": dimensions(values)}
                                                                              if values else {})}
        for code, debit, credit, values in lines]}, key=company.api_key)
    assert reply.status == 201, reply.text


def march(api, company, books, centres):
    """The month: sales by branch (one also of the project), a sale of no branch, costs by branch,
    an expense of the project only, a return in Tegucigalpa; a sale in April, outside."""
    for date, lines in (
            ("2026-03-05", [("110101", 1000, 0, []), ("410101", 0, 1000, ["TGU"])]),
            ("2026-03-08", [("110101", 600, 0, []), ("410101", 0, 600, ["SPS", "ALF"])]),
            ("2026-03-10", [("110101", "250.50", 0, []), ("410101", 0, "250.50", [])]),
            ("2026-03-12", [("5101", 400, 0, ["TGU"]), ("5101", 180, 0, ["SPS"]), ("110101", 0, 580, [])]),
            ("2026-03-20", [("6199", "125.25", 0, ["ALF"]), ("110101", 0, "125.25", [])]),
            ("2026-03-25", [("410101", 100, 0, ["TGU"]), ("110101", 0, 100, [])]),
            ("2026-04-02", [("110101", 999, 0, []), ("410101", 0, 999, ["TGU"])])):
        entry(api, company, books, centres, date, *lines)


def income(api, company, query):
    reply = api.get(f"/reports/income-statement?startDate=2026-03-01&endDate=2026-03-31&{query}",
                    key=company.api_key)
    assert reply.status == 200, reply.text
    return reply.json


def amounts(values):
    return [Decimal(str(value)) for value in values]


def account_node(report, account_id):
    sections = [value for value in report.values() if isinstance(value, dict) and "accounts" in value]
    nodes = [node for section in sections for node in section["accounts"]]
    return next(node for node in nodes if node["chartOfAccountId"] == account_id)


def test_the_income_statement_by_branch_adds_up_to_the_whole(api, company_a, books, centres):
    march(api, company_a, books, centres)
    report = income(api, company_a, f"groupByDimensionId={centres['Sucursal']}")
    assert [(c["valueId"], c["code"]) for c in report["dimensionColumns"]] == [
        (centres["TGU"], "TGU"), (centres["SPS"], "SPS"), (None, None)]
    # what was not asked is not answered: no dimensionValueId
    assert (report["groupByDimensionName"], "dimensionValueId" in report) == ("Sucursal", False)
    # revenue (credit less debit): TGU 1,000.00 - 100.00 (return) = 900.00; SPS 600.00; no branch 250.50;
    # whole 1,000.00 + 600.00 + 250.50 - 100.00 = 1,750.50 = 900.00 + 600.00 + 250.50 (April's 999.00 outside)
    assert Decimal(str(report["revenue"]["total"])) == Decimal("1750.50")
    assert amounts(report["revenue"]["totalByDimension"]) == amounts(["900.00", "600.00", "250.50"])
    assert amounts(account_node(report, books["410101"])["balanceByDimension"]) == amounts(["900", "600", "250.50"])
    # cost of sales: TGU 400.00, SPS 180.00, none 0; whole 580.00
    assert amounts(report["costOfSales"]["totalByDimension"]) == amounts(["400", "180", "0"])
    # gross margin: TGU 900.00 - 400.00 = 500.00; SPS 600.00 - 180.00 = 420.00; none 250.50;
    # whole 1,750.50 - 580.00 = 1,170.50 = 500.00 + 420.00 + 250.50
    assert Decimal(str(report["grossMargin"])) == Decimal("1170.50")
    assert amounts(report["grossMarginByDimension"]) == amounts(["500.00", "420.00", "250.50"])
    # the project's expense of 125.25 has no branch: unassigned. Net: TGU 500.00, SPS 420.00,
    # none 250.50 - 125.25 = 125.25; whole 1,170.50 - 125.25 = 1,045.25 = 500.00 + 420.00 + 125.25
    assert amounts(account_node(report, books["6199"])["balanceByDimension"]) == amounts(["0", "0", "125.25"])
    assert Decimal(str(report["netResult"])) == Decimal("1045.25")
    assert amounts(report["netResultByDimension"]) == amounts(["500.00", "420.00", "125.25"])
    # the whole is the default answer's, which reads no posting and says nothing of dimensions
    plain = income(api, company_a, "")
    assert Decimal(str(plain["netResult"])) == Decimal("1045.25")
    assert not [key for key in plain if "imension" in key] and "totalByDimension" not in plain["revenue"]
    assert "balanceByDimension" not in plain["revenue"]["accounts"][0]
    assert plain.keys() == {"startDate", "endDate", "compareStartDate", "compareEndDate", "revenue", "costOfSales",
                            "grossMargin", "compareGrossMargin", "expenses", "operatingResult",
                            "compareOperatingResult", "otherIncome", "otherExpenses", "financialIncome",
                            "financialCosts", "financialResult", "compareFinancialResult", "resultBeforeTax",
                            "compareResultBeforeTax", "incomeTax", "netResult", "compareNetResult"}


def test_the_income_statement_of_one_cost_centre_and_within_it_by_branch(api, company_a, books, centres):
    march(api, company_a, books, centres)
    alfa = income(api, company_a, f"dimensionValueId={centres['ALF']}")
    # the project: revenue 600.00 (the 8th), no cost, expense 125.25: net 600.00 - 125.25 = 474.75
    assert (alfa["dimensionValueId"], alfa["dimensionValueName"]) == (centres["ALF"], "Alfa")
    assert "dimensionColumns" not in alfa and "netResultByDimension" not in alfa
    assert Decimal(str(alfa["revenue"]["total"])) == Decimal("600.00")
    assert Decimal(str(alfa["costOfSales"]["total"])) == 0
    assert Decimal(str(alfa["netResult"])) == Decimal("474.75")
    tgu = income(api, company_a, f"dimensionValueId={centres['TGU']}")
    # Tegucigalpa: 1,000.00 - 100.00 - 400.00 = 500.00, as its column above
    assert Decimal(str(tgu["netResult"])) == Decimal("500.00")
    both = income(api, company_a, f"dimensionValueId={centres['ALF']}&groupByDimensionId={centres['Sucursal']}")
    # within the project: SPS 600.00; TGU 0; no branch -125.25 (the expense); 600.00 + 0 - 125.25 = 474.75
    assert Decimal(str(both["netResult"])) == Decimal("474.75")
    assert amounts(both["netResultByDimension"]) == amounts(["0", "600.00", "-125.25"])


def test_the_trial_balance_by_branch_and_of_one_branch(api, company_a, books, centres):
    march(api, company_a, books, centres)
    reply = api.get(f"/journal-entries/trial-balance?date=2026-03-31&groupByDimensionId={centres['Sucursal']}",
                    key=company_a.api_key)
    assert reply.status == 200, reply.text
    trial = reply.json
    rows = {row["code"]: row for row in trial["accounts"]}
    # Caja carries no cost centre: debits 1,000.00 + 600.00 + 250.50 = 1,850.50 and credits
    # 580.00 + 125.25 + 100.00 = 805.25, all unassigned
    assert amounts(rows["110101"]["debitByDimension"]) == amounts(["0", "0", "1850.50"])
    assert amounts(rows["110101"]["creditByDimension"]) == amounts(["0", "0", "805.25"])
    # Ventas: TGU debit 100.00 credit 1,000.00 (balance 900.00); SPS credit 600.00; none credit 250.50
    assert amounts(rows["410101"]["balanceByDimension"]) == amounts(["900.00", "600.00", "250.50"])
    assert Decimal(str(rows["410101"]["balance"])) == Decimal("1750.50")
    # totals: debits 1,850.50 + 100.00 + 580.00 + 125.25 = 2,655.75 = credits 805.25 + 1,850.50;
    # by branch: debits TGU 100.00 + 400.00 = 500.00, SPS 180.00, none 1,850.50 + 125.25 = 1,975.75
    # (500.00 + 180.00 + 1,975.75 = 2,655.75); credits TGU 1,000.00, SPS 600.00, none 805.25 + 250.50 = 1,055.75
    assert Decimal(str(trial["totalDebit"])) == Decimal(str(trial["totalCredit"])) == Decimal("2655.75")
    assert amounts(trial["totalDebitByDimension"]) == amounts(["500.00", "180.00", "1975.75"])
    assert amounts(trial["totalCreditByDimension"]) == amounts(["1000.00", "600.00", "1055.75"])
    one = api.get(f"/journal-entries/trial-balance?date=2026-03-31&dimensionValueId={centres['TGU']}",
                  key=company_a.api_key).json
    # Tegucigalpa alone: Ventas debit 100.00 credit 1,000.00; Costo debit 400.00
    assert {row["code"]: (Decimal(str(row["debit"])), Decimal(str(row["credit"]))) for row in one["accounts"]} == {
        "410101": (Decimal("100.00"), Decimal("1000.00")), "5101": (Decimal("400.00"), Decimal("0"))}
    plain = api.get("/journal-entries/trial-balance?date=2026-03-31", key=company_a.api_key).json
    assert plain.keys() == {"date", "accounts", "totalDebit", "totalCredit", "totalDebitBalance",
                            "totalCreditBalance"}
    assert "debitByDimension" not in plain["accounts"][0]


def test_a_closed_years_closing_entry_is_not_counted_as_unassigned(api, company_a, books, centres):
    # 2025: sales of 300.00 in Tegucigalpa and 50.00 of no branch, then the year closed: its closing
    # entry (no cost centre) debits Ventas 350.00, which the income statement leaves out
    entry(api, company_a, books, centres, "2025-06-01", ("110101", 300, 0, []), ("410101", 0, 300, ["TGU"]))
    entry(api, company_a, books, centres, "2025-06-02", ("110101", 50, 0, []), ("410101", 0, 50, []))
    assert api.post("/fiscal-years/2025/close", {}, key=company_a.api_key).status == 200
    report = api.get(f"/reports/income-statement?startDate=2025-01-01&endDate=2025-12-31"
                     f"&groupByDimensionId={centres['Sucursal']}", key=company_a.api_key).json
    # whole 350.00 = TGU 300.00 + SPS 0 + none 50.00
    assert Decimal(str(report["netResult"])) == Decimal("350.00")
    assert amounts(report["netResultByDimension"]) == amounts(["300.00", "0", "50.00"])


def test_the_income_statement_by_branch_exported_has_a_column_per_branch_and_the_total(api, company_a, books,
                                                                                       centres):
    march(api, company_a, books, centres)
    answer = api.http.request("GET", f"/reports/income-statement?startDate=2026-03-01&endDate=2026-03-31"
                              f"&groupByDimensionId={centres['Sucursal']}",
                              headers={"authorization": f"Bearer {company_a.api_key}", "accept": "text/csv"}, body=b"")
    assert answer.status_code == 200, answer.body[:300]
    lines = answer.body.decode("utf-8-sig").splitlines()
    heading = next(line for line in lines if line.startswith("Código"))
    assert heading == "Código,Cuenta,TGU Tegucigalpa,SPS San Pedro Sula,Sin asignar,Total"
    net = next(line for line in lines if "Resultado neto" in line)
    assert net.endswith("500.00,420.00,125.25,1045.25"), net


def test_bad_dimension_questions_are_refused(api, company_a, company_b, books, centres):
    key = company_a.api_key
    for query, field in ((f"groupByDimensionId={centres['Sucursal']}&compareStartDate=2025-03-01"
                          "&compareEndDate=2025-03-31", "groupByDimensionId"),
                         ("dimensionValueId=999999", "dimensionValueId"),
                         ("groupByDimensionId=999999", "groupByDimensionId")):
        reply = api.get(f"/reports/income-statement?startDate=2026-03-01&endDate=2026-03-31&{query}", key=key)
        assert reply.status == 400 and reply.json["details"][0]["field"] == field, reply.text
    # another company's value is no value of this one
    reply = api.get(f"/journal-entries/trial-balance?dimensionValueId={centres['TGU']}", key=company_b.api_key)
    assert reply.status == 400 and reply.json["details"][0]["field"] == "dimensionValueId"
    spanish = api.get("/journal-entries/trial-balance?groupByDimensionId=999999", key=key,
                      headers={"Accept-Language": "es"})
    assert spanish.json["details"][0]["message"] == "no existe esa dimensión"
