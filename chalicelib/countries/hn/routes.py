"""Honduras' own routes: the ISV sales and purchase books and a month's ISV summary (JSON, or CSV,
XLSX or PDF by Accept)."""
from __future__ import annotations

from typing import Any

from chalice.app import Blueprint

from chalicelib.api.exports import report_answer
from chalicelib.api.routing import Call, endpoint
from chalicelib.exports import REPORT_TYPES

blueprint = Blueprint(__name__)
M = "chalicelib.countries.hn.models:"
STATEMENTS = "chalicelib.models.statements:"
REPORTS = "Reports"


@endpoint(blueprint, "GET", "/reports/sales-book", summary="Honduras: the sales book (libro de ventas) of a period",
          tag=REPORTS, query=STATEMENTS + "BookQuery", response=M + "TaxBook", exports=REPORT_TYPES)
def sales_book(call: Call) -> Any:
    return _book(call, "sales")


@endpoint(blueprint, "GET", "/reports/purchase-book", summary="Honduras: the purchase book (libro de compras) of a "
          "period", tag=REPORTS, query=STATEMENTS + "BookQuery", response=M + "TaxBook", exports=REPORT_TYPES)
def purchase_book(call: Call) -> Any:
    return _book(call, "purchases")


def _book(call: Call, which: str) -> Any:
    from chalicelib.countries.hn.services import isv_books

    report = isv_books.isv_book(call.command.table, call.principal.company_id, which, call.query.start_date,
                            call.query.end_date)
    return report_answer(call, report, isv_books.isv_book_table(isv_books.BOOKS[which][0]))


@endpoint(blueprint, "GET", "/reports/isv-summary", summary="Honduras: a month's ISV figures (output and input "
          "tax, credit brought and carried forward)", tag=REPORTS, query=M + "IsvSummaryQuery", response=M + "IsvSummary",
          exports=REPORT_TYPES)
def isv_summary(call: Call) -> Any:
    from chalicelib.countries.hn.services import isv_books

    report = isv_books.isv_summary(call.command.table, call.principal.company_id, call.query.month)
    return report_answer(call, report, isv_books.isv_summary_table)
