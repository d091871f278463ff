"""Month-end revaluation of foreign-currency items (issue 44): services/accounting/revaluation.py."""
from __future__ import annotations

from typing import Any

from chalice import Blueprint

from chalicelib.api.routing import ACCOUNTING, Call, endpoint

blueprint = Blueprint(__name__)
M = "chalicelib.models.revaluations:"
TAG = "Revaluations"


@endpoint(blueprint, "POST", "/revaluations", summary="Revalue the open foreign-currency receivables, payables and "
          "bank balances at the date's rate: one entry of unrealised differences dated that day and its reversal the "
          "next (dryRun: what it would post, written nowhere)", tag=TAG, body=M + "RevaluationCreate",
          response=M + "Revaluation", permission=ACCOUNTING, also_answers=(200,))
def create_revaluation(call: Call) -> Any:
    from chalicelib.services.accounting import revaluation

    return revaluation.revalue(call.command, call.body.model_dump(by_alias=True))


@endpoint(blueprint, "GET", "/revaluations", summary="The company's revaluations, newest first", tag=TAG,
          response=M + "RevaluationList")
def list_revaluations(call: Call) -> Any:
    from chalicelib.services.accounting import revaluation

    found = revaluation.list_revaluations(call.command.table, call.principal.company_id)
    return {"data": found, "total": len(found)}


@endpoint(blueprint, "GET", "/revaluations/{id}", summary="A revaluation with its lines and entries", tag=TAG,
          response=M + "Revaluation")
def get_revaluation(call: Call) -> Any:
    from chalicelib.services.accounting import revaluation

    return revaluation.get_revaluation(call.command.table, call.principal.company_id, call.ids["id"])


@endpoint(blueprint, "POST", "/revaluations/{id}/void", summary="Void a revaluation: its entries and their reversals "
          "reversed on their own days, its partners' ledger movements undone, its date free for a new one "
          "(idempotent: a voided one answers as it is)", tag=TAG, response=M + "Revaluation", status=200,
          permission=ACCOUNTING)
def void_revaluation(call: Call) -> Any:
    from chalicelib.services.accounting import revaluation

    return revaluation.void_revaluation(call.command, call.ids["id"])
