"""What every country's tax books share: which documents are in them (sales and purchase types,
statuses), how a document counts (credit notes and reversals against the others) and the lines as
the books read them. A country's own rows are its pack's (countries/<cc>/domain)."""
from __future__ import annotations

from decimal import Decimal
from typing import Any, Iterable, Mapping

from chalicelib.domain import taxes
from chalicelib.domain.accounting import ZERO
from chalicelib.domain.documents import KINDS

SALES_BOOK_TYPES = ("01", "113", "06", "07")
PURCHASE_BOOK_TYPES = ("103", "104", "105", "106", "11")
BOOK_TYPES = SALES_BOOK_TYPES + PURCHASE_BOOK_TYPES
BOOK_STATUSES = ("confirmed", "cancelled")  # drafts are not in the books
# A row's status: the reversal, in a later month, of a document booked in an earlier one (its
# cancellation, or a purchase invoice unconfirmed): its amounts count against that later month.
REVERSAL = "reversal"


def book_sign(document: Mapping[str, Any]) -> int:
    """Credit notes count against the others, and a reversal against what it reverses."""
    sign = -1 if KINDS[document["type"]].balance < 0 else 1
    return -sign if document["status"] == REVERSAL else sign


def reversed_later(document: Mapping[str, Any]) -> bool:
    """A document cancelled in a later month than its own: its books show it through the two
    corrections its cancellation recorded, not as it is now."""
    return bool(document["status"] == "cancelled"
                and document.get("reversalDate", document["date"])[:7] != document["date"][:7])


def condensed_lines(lines: Iterable[Mapping[str, Any]]) -> list[dict[str, Any]]:
    """A document's lines as the books read them: bases and tax by rate and treatment."""
    merged: dict[tuple[Decimal, str], dict[str, Any]] = {}
    for line in lines:
        rate, treatment = Decimal(line["taxRate"]), taxes.treatment_of(line)
        entry = merged.setdefault((rate, treatment), {"taxRate": rate, "taxTreatment": treatment,
                                                     "subtotal": ZERO, "tax": ZERO})
        entry["subtotal"] += Decimal(line["subtotal"])
        entry["tax"] += Decimal(line["tax"])
    return list(merged.values())
