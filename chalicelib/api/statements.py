"""Financial statements (read by every role that reads the books): JSON, or CSV, XLSX or PDF by
Accept."""
from __future__ import annotations

from typing import Any

from chalice import Blueprint

from chalicelib.api.exports import report_answer
from chalicelib.api.routing import Call, endpoint
from chalicelib.exports import REPORT_TYPES

blueprint = Blueprint(__name__)
M = "chalicelib.models.statements:"
REPORTS = "Reports"


@endpoint(blueprint, "GET", "/reports/balance-sheet", summary="Balance sheet at a date (assets = liabilities + "
          "equity, the year's result in equity)", tag=REPORTS, query=M + "BalanceSheetQuery", response=M + "BalanceSheet", exports=REPORT_TYPES)
def balance_sheet(call: Call) -> Any:
    from chalicelib.services.accounting import statements

    report = statements.balance_sheet(call.command.table, call.principal.company_id, call.query.date,
                                      call.query.compare_date)
    return report_answer(call, report, statements.balance_sheet_table)


@endpoint(blueprint, "GET", "/reports/income-statement", summary="Income statement of a period (NIIF para "
          "PYMES): gross margin, operating result, result before tax, net result; of one cost centre, or by a "
          "dimension's values", tag=REPORTS, query=M + "IncomeStatementQuery",
          response=M + "IncomeStatement", exports=REPORT_TYPES)
def income_statement(call: Call) -> Any:
    from chalicelib.services.accounting import statements

    query = call.query
    report = statements.income_statement(call.command.table, call.principal.company_id, query.start_date,
                                         query.end_date, query.compare_start_date, query.compare_end_date,
                                         query.dimension_value_id, query.group_by_dimension_id)
    return report_answer(call, report, statements.income_statement_table)


@endpoint(blueprint, "GET", "/reports/cash-flow", summary="Statement of cash flows of a period (NIIF para PYMES, "
          "indirect method): operating, investing and financing activities; opening + net flow = closing cash",
          tag=REPORTS, query="chalicelib.models.cash_flow:CashFlowQuery", response="chalicelib.models.cash_flow:CashFlow",
          exports=REPORT_TYPES)
def cash_flow(call: Call) -> Any:
    from chalicelib.services.accounting import cash_flow

    query = call.query
    report = cash_flow.cash_flow_statement(call.command.table, call.principal.company_id, query.start_date,
                                           query.end_date, query.compare_start_date, query.compare_end_date)
    return report_answer(call, report, cash_flow.cash_flow_table)



@endpoint(blueprint, "GET", "/reports/aged-receivables", summary="What each customer owes at a date, by days past "
          "due", tag=REPORTS, query=M + "AgedQuery", response=M + "AgedBalances", exports=REPORT_TYPES)
def aged_receivables(call: Call) -> Any:
    return _aged(call, "receivables")


@endpoint(blueprint, "GET", "/reports/aged-payables", summary="What the company owes each supplier at a date, by "
          "days past due", tag=REPORTS, query=M + "AgedQuery", response=M + "AgedBalances", exports=REPORT_TYPES)
def aged_payables(call: Call) -> Any:
    return _aged(call, "payables")


def _aged(call: Call, which: str) -> Any:
    from chalicelib.services.accounting import aging

    report = aging.aged_balances(call.command.table, call.principal.company_id, which, call.query.date)
    return report_answer(call, report, aging.aged_table(which))
