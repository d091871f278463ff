"""Budget against actual (issue 44) for a month and the year to date. The actual comes from the
monthly balances (one Query, as the statements read them), the year's closing entries left out as
the income statement leaves them out; with a cost-centre value, from the postings carrying it
(services/accounting/dimension_reports.py), and only the budget lines naming that value count."""
from __future__ import annotations

import calendar
from decimal import Decimal
from typing import Any

from chalicelib.domain import accounting
from chalicelib.domain import budgets as budget_rules
from chalicelib.domain.report_table import Column, ReportTable, amount
from chalicelib.domain.statements import RESULT_TYPES, Movements
from chalicelib.errors import NotFound, ValidationFailed
from chalicelib.services.accounting import budgets, chart, dimension_reports, dimensions, fiscal_years
from chalicelib.services.accounting.reports import month_balances_through
from chalicelib.store.table import Table

Span = dict[int, Movements]


def budget_vs_actual(table: Table, company_id: int, year: int, month: int, budget_id: int | None,
                     value_id: int | None) -> dict[str, Any]:
    budget = budgets.get_budget(table, company_id, _chosen(table, company_id, year, budget_id))
    if value_id is not None and value_id not in dimensions.values_by_id(dimensions.dimension_items(table, company_id)):
        raise ValidationFailed.for_field("dimensionValueId", "no such dimension value")
    accounts = {int(item["id"]): item for item in chart.all_accounts(table, company_id)}
    planned = budget_rules.budgeted(budget["lines"], month, value_id)
    year_start, month_start = f"{year}-01-01", f"{year}-{month:02d}-01"
    month_end = f"{year}-{month:02d}-{calendar.monthrange(year, month)[1]:02d}"
    if value_id is None:
        in_month, to_date = _from_balances(table, company_id, month_start, month_end)
    else:
        in_month, to_date = _from_postings(table, company_id, accounts, planned[2], year_start, month_start,
                                           month_end, value_id)
    rows, totals = budget_rules.comparison(accounts, planned, _natural(accounts, in_month), _natural(accounts, to_date))
    return {"budgetId": budget["id"], "budgetName": budget["name"], "year": year, "month": month,
            "dimensionValueId": value_id, "rows": rows, "totals": totals}


def _chosen(table: Table, company_id: int, year: int, budget_id: int | None) -> int:
    """The budget asked for (it must be of that year), else the year's only one."""
    every = budgets.headers(table, company_id)
    if budget_id is not None:
        chosen = next((item for item in every if int(item["id"]) == budget_id), None)
        if chosen is None:
            raise NotFound("Budget not found.")
        if int(chosen["year"]) != year:
            raise ValidationFailed.for_field("budgetId", "the budget is of another year")
        return budget_id
    of_year = [item for item in every if int(item["year"]) == year]
    if not of_year:
        raise NotFound("The year has no budget.")
    if len(of_year) > 1:
        raise ValidationFailed.for_field("budgetId", "the year has several budgets: name one")
    return int(of_year[0]["id"])


def _from_balances(table: Table, company_id: int, month_start: str, month_end: str) -> tuple[Span, Span]:
    months = month_balances_through(table, company_id, month_end)
    years = fiscal_years.list_fiscal_years(table, company_id)
    year_start = f"{month_start[:4]}-01-01"
    return tuple(_without_closing(table, company_id, years, start, month_end, {  # type: ignore[return-value]
        account: Movements(*accounting.totals_through(balances, month_end))
        - Movements(*accounting.totals_through(balances, accounting.previous_day(start)))
        for account, balances in months.items()}) for start in (month_start, year_start))


def _without_closing(table: Table, company_id: int, years: list[dict[str, Any]], start: str, end: str,
                     span: Span) -> Span:
    """A closed year's revenue and expenses stay in its December: its closing entries (and their
    reversals) are left out, as the income statement does."""
    for account, (debit, credit) in fiscal_years.closing_movements(table, company_id, years, start, end).items():
        span[account] = span.get(account, Movements()) - Movements(debit, credit)
    return span


def _from_postings(table: Table, company_id: int, accounts: dict[int, dict[str, Any]], named: set[int],
                   year_start: str, month_start: str, month_end: str, value_id: int) -> tuple[Span, Span]:
    """The postings carrying the value: of the accounts budgeted and of every income, cost and
    expense account that has postings. The months before and the month are read apart (no posting
    twice) and added up for the year to date. Closing entries carry no cost centre."""
    wanted = sorted(named | {account for account, item in accounts.items()
                             if item["type"] in RESULT_TYPES and int(item.get("postingCount", 0)) > 0})
    in_month = dimension_reports.tagged_movements(table, company_id, wanted, month_start, month_end, value_id)
    before = ({} if month_start == year_start else dimension_reports.tagged_movements(
        table, company_id, wanted, year_start, accounting.previous_day(month_start), value_id))
    to_date = {account: Movements(before.get(account, Movements()).debit + in_month.get(account, Movements()).debit,
                                  before.get(account, Movements()).credit + in_month.get(account, Movements()).credit)
               for account in set(before) | set(in_month)}
    return in_month, to_date


def _natural(accounts: dict[int, dict[str, Any]], span: Span) -> dict[int, Decimal]:
    return {account: accounting.natural_balance(accounts[account]["type"], moved.debit, moved.credit)
            for account, moved in span.items() if account in accounts}


# --- as a table, for the CSV, XLSX and PDF exports -----------------------------------------------

FIGURES = (("budget", "Presupuesto"), ("actual", "Real"), ("variance", "Variación"), ("percentage", "%"))


def budget_vs_actual_table(report: dict[str, Any]) -> ReportTable:
    month = f"{report['year']}-{report['month']:02d}"
    subtitle = f"{report['budgetName']}: {month} y acumulado del año" + (
        f" (valor de dimensión {report['dimensionValueId']})" if report["dimensionValueId"] is not None else "")
    columns = [Column(f"{title} {month}", "amount") for _, title in FIGURES] + [
        Column(f"{title} acumulado", "amount") for _, title in FIGURES]
    table = ReportTable("Presupuesto contra real", subtitle, (Column("Código"), Column("Cuenta", weight=4), *columns),
                        filename=f"presupuesto-contra-real-{report['budgetId']}-{month}")
    for row in report["rows"]:
        table.add(row["code"], row["name"], *_cells(row))
    table.add("", "Resultado (ingresos menos costos y gastos)", *_cells(report["totals"]), emphasis=True)
    return table


def _cells(figures: dict[str, Any]) -> list[Any]:
    to_date = {"budget": "yearToDateBudget", "actual": "yearToDateActual", "variance": "yearToDateVariance",
               "percentage": "yearToDatePercentage"}
    return [amount(figures[name]) for name, _ in FIGURES] + [amount(figures[to_date[name]]) for name, _ in FIGURES]
