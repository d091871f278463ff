"""Financial statements (read by every role that reads the books)."""
from __future__ import annotations

from typing import Any

from chalice import Blueprint

from chalicelib.api.routing import Call, endpoint

blueprint = Blueprint(__name__)
M = "chalicelib.models.statements:"
REPORTS = "Reports"


@endpoint(blueprint, "GET", "/reports/balance-sheet", summary="Balance sheet at a date (assets = liabilities + "
          "equity, the year's result in equity)", tag=REPORTS, query=M + "BalanceSheetQuery", response=M + "BalanceSheet")
def balance_sheet(call: Call) -> Any:
    from chalicelib.services import statements

    return statements.balance_sheet(call.command.table, call.principal.company_id, call.query.date,
                                    call.query.compare_date)


@endpoint(blueprint, "GET", "/reports/income-statement", summary="Income statement of a period: revenue, cost of "
          "sales, gross margin, expenses, result", tag=REPORTS, query=M + "IncomeStatementQuery",
          response=M + "IncomeStatement")
def income_statement(call: Call) -> Any:
    from chalicelib.services import statements

    query = call.query
    return statements.income_statement(call.command.table, call.principal.company_id, query.start_date,
                                       query.end_date, query.compare_start_date, query.compare_end_date)
