"""Bank statements (issue 42): acting on a statement line (services/statements/matching.py)."""
from __future__ import annotations

from typing import Any

from chalice import Blueprint

from chalicelib.api.routing import Call, endpoint

blueprint = Blueprint(__name__)
TAG = "Bank statements"
LINE = "/bank-accounts/{accountId}/statement-lines/{lineId}"
ANSWER = "chalicelib.models.bank_statements:StatementLine"


@endpoint(blueprint, "POST", LINE + "/match", summary="Match a statement line: to a bank transaction, to the "
          "documents it pays, to a new bank transaction or to a transfer between own accounts", tag=TAG,
          body="chalicelib.models.statement_matching:MatchRequest", response=ANSWER, status=200)
def match_line(call: Call) -> Any:
    from chalicelib.services.statements import matching

    return matching.match_line(call.command, call.ids["accountId"], call.ids["lineId"],
                               call.body.model_dump(by_alias=True, exclude_none=True))


@endpoint(blueprint, "POST", LINE + "/unmatch", summary="Undo a statement line's match: what it made cancelled or "
          "reversed, the line unmatched again", tag=TAG, response=ANSWER, status=200)
def unmatch_line(call: Call) -> Any:
    from chalicelib.services.statements import matching

    return matching.unmatch_line(call.command, call.ids["accountId"], call.ids["lineId"])


@endpoint(blueprint, "POST", LINE + "/ignore", summary="Ignore an unmatched statement line", tag=TAG,
          response=ANSWER, status=200)
def ignore_line(call: Call) -> Any:
    from chalicelib.services.statements import matching

    return matching.ignore_line(call.command, call.ids["accountId"], call.ids["lineId"])


@endpoint(blueprint, "POST", LINE + "/unignore", summary="Restore an ignored statement line to unmatched", tag=TAG,
          response=ANSWER, status=200)
def unignore_line(call: Call) -> Any:
    from chalicelib.services.statements import matching

    return matching.unignore_line(call.command, call.ids["accountId"], call.ids["lineId"])
