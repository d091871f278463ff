"""Budgets (issue 44): monthly amounts per account (and cost centre) for a year, several a year
(scenarios); read by every role that reads the books, written with the books' permission. Budget
against actual is a report: JSON, or CSV, XLSX or PDF by Accept. See services/accounting/budgets.py."""
from __future__ import annotations

from typing import Any

from chalice import Blueprint

from chalicelib.api.exports import report_answer
from chalicelib.api.routing import Call, endpoint, page_body
from chalicelib.domain.roles import ACCOUNTING
from chalicelib.exports import REPORT_TYPES

blueprint = Blueprint(__name__)
TAG = "Budgets"
M = "chalicelib.models.budgets:"
BASE = "/budgets"
ONE = BASE + "/{id}"


@endpoint(blueprint, "GET", BASE, summary="The company's budgets (without their lines), by year", tag=TAG,
          query=M + "BudgetListQuery", response=M + "BudgetList")
def list_budgets(call: Call) -> Any:
    from chalicelib.services.accounting import budgets

    query = call.query
    return page_body("budgets", budgets.list_budgets(call.command.table, call.principal.company_id, query.year,
                                                     query.page, query.limit))


@endpoint(blueprint, "GET", ONE, summary="One budget with its lines", tag=TAG, response=M + "Budget")
def get_budget(call: Call) -> Any:
    from chalicelib.services.accounting import budgets

    return budgets.get_budget(call.command.table, call.principal.company_id, call.ids["id"])


@endpoint(blueprint, "POST", BASE, summary="Create a budget: a monthly amount per account (and cost centre) for "
          "a year", tag=TAG, body=M + "BudgetCreate", response=M + "Budget", permission=ACCOUNTING)
def create_budget(call: Call) -> Any:
    from chalicelib.services.accounting import budgets

    return budgets.create_budget(call.command, call.body.model_dump(by_alias=True))


@endpoint(blueprint, "PUT", ONE, summary="Update a budget (sparse; `lines` replaces the whole list)", tag=TAG,
          body=M + "BudgetUpdate", response=M + "Budget", permission=ACCOUNTING, versioned=True)
def update_budget(call: Call) -> Any:
    from chalicelib.services.accounting import budgets

    return budgets.update_budget(call.command, call.ids["id"], call.changes(), call.expected_version())


@endpoint(blueprint, "DELETE", ONE, summary="Delete a budget", tag=TAG, response="chalicelib.models.accounting:Deleted",
          permission=ACCOUNTING)
def delete_budget(call: Call) -> Any:
    from chalicelib.services.accounting import budgets

    return budgets.delete_budget(call.command, call.ids["id"])


@endpoint(blueprint, "GET", "/reports/budget-vs-actual", summary="Budget against actual for a month and the year "
          "to date, per account and for the result", tag="Reports", query=M + "BudgetVsActualQuery",
          response=M + "BudgetVsActual", exports=REPORT_TYPES)
def budget_vs_actual(call: Call) -> Any:
    from chalicelib.services.accounting import budget_report

    query = call.query
    report = budget_report.budget_vs_actual(call.command.table, call.principal.company_id, query.year, query.month,
                                            query.budget_id, query.dimension_value_id)
    return report_answer(call, report, budget_report.budget_vs_actual_table)
