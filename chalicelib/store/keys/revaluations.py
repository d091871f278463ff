"""Month-end revaluations (issue 44): a company's revaluations in one small partition (about one
a month), each keyed by its date, so a second one of a date is refused by the key itself and the
list is one Query, newest first."""
from __future__ import annotations

from chalicelib.store.keys.base import Key

REVALUATION = "REVAL"
# a partner-ledger movement of a revaluation (origin beside "D" documents and "P" payments)
REVALUATION_ORIGIN = "R"


def revaluations_partition(company_id: int) -> str:
    return f"C#{company_id}#REVALS"


def revaluation(company_id: int, date: str) -> Key:
    return {"PK": revaluations_partition(company_id), "SK": f"R#{date}"}


def voided_revaluation(company_id: int, date: str, revaluation_id: int) -> Key:
    """A voided revaluation, moved off its date's key (a new one of the date may be posted) and
    still listed with the others."""
    return {"PK": revaluations_partition(company_id), "SK": f"V#{date}#{revaluation_id}"}
