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
    from chalicelib.services import credits

    return credits.summary(call.command.table, call.principal.company_id, "client", call.ids["businessPartnerId"])


@endpoint(blueprint, "GET", "/credits/supplier/{businessPartnerId}/summary", summary="What is owed to a supplier",
          tag=TAG, response=SUMMARY)
def supplier_summary(call: Call) -> Any:
    from chalicelib.services import credits

    return credits.summary(call.command.table, call.principal.company_id, "supplier", call.ids["businessPartnerId"])
