"""Partner credit: summaries of what clients owe and what is owed to suppliers."""
from __future__ import annotations

from typing import Any

from chalice import Blueprint

from chalicelib.api.routing import Call, endpoint

blueprint = Blueprint(__name__)
TAG = "Credits"
SUMMARY = "chalicelib.models.credits:CreditSummary"


@endpoint(blueprint, "GET", "/credits/client/{businessPartnerId}/summary", summary="What a client owes: balance, "
          "credit limit, available, overdue days, open documents", tag=TAG, response=SUMMARY)
def client_summary(call: Call) -> Any:
    from chalicelib.services.sales_purchases import credits

    return credits.summary(call.command.table, call.principal.company_id, "client", call.ids["businessPartnerId"])


@endpoint(blueprint, "GET", "/credits/supplier/{businessPartnerId}/summary", summary="What is owed to a supplier",
          tag=TAG, response=SUMMARY)
def supplier_summary(call: Call) -> Any:
    from chalicelib.services.sales_purchases import credits

    return credits.summary(call.command.table, call.principal.company_id, "supplier", call.ids["businessPartnerId"])


def _statement(call: Call, side: str) -> Any:
    from chalicelib.services.sales_purchases import credits

    query = call.query
    return credits.statement(call.command.table, call.principal.company_id, side, call.ids["businessPartnerId"],
                             query.start_date, query.end_date, query.limit, query.cursor)



STATEMENT_QUERY = "chalicelib.models.accounting:DatedPageQuery"
STATEMENT = "chalicelib.models.credits:CreditStatement"
MOVEMENTS = "chalicelib.models.credits:CreditMovements"


@endpoint(blueprint, "GET", "/credits/client/{businessPartnerId}/statement", summary="A client's statement: opening "
          "balance, movements with running balance, closing balance", tag=TAG, query=STATEMENT_QUERY, response=STATEMENT)
def client_statement(call: Call) -> Any:
    return _statement(call, "client")


@endpoint(blueprint, "GET", "/credits/supplier/{businessPartnerId}/statement", summary="A supplier's statement",
          tag=TAG, query=STATEMENT_QUERY, response=STATEMENT)
def supplier_statement(call: Call) -> Any:
    return _statement(call, "supplier")


@endpoint(blueprint, "GET", "/credits/client/{businessPartnerId}/movements", summary="Movements of a client's "
          "balance, with the running balance", tag=TAG, query=STATEMENT_QUERY, response=MOVEMENTS)
def client_movements(call: Call) -> Any:
    return _statement(call, "client")


@endpoint(blueprint, "GET", "/credits/supplier/{businessPartnerId}/movements", summary="Movements of a supplier's "
          "balance, with the running balance", tag=TAG, query=STATEMENT_QUERY, response=MOVEMENTS)
def supplier_movements(call: Call) -> Any:
    return _statement(call, "supplier")
