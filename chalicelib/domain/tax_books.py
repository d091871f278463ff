"""Honduras' ISV books (libro de ventas, libro de compras): one row per fiscal document of the
period with its taxable bases and ISV by rate. Credit notes count against the others (negative);
a cancelled document keeps its row, marked, with no amounts."""
from __future__ import annotations

from decimal import Decimal
from typing import Any, Iterable, Mapping

from chalicelib.domain.accounting import ZERO
from chalicelib.domain.documents import KINDS

SALES_BOOK_TYPES = ("01", "113", "06", "07")
PURCHASE_BOOK_TYPES = ("103", "104", "105", "106", "11")
BOOK_STATUSES = ("confirmed", "cancelled")  # drafts are not in the books
GENERAL, SPECIAL = Decimal("0.15"), Decimal("0.18")
AMOUNTS = ("exempt", "exonerated", "taxed15", "taxed18", "isv15", "isv18", "total")


def book_row(document: Mapping[str, Any], partner: Mapping[str, Any] | None) -> dict[str, Any]:
    kind = KINDS[document["type"]]
    sign = -1 if kind.balance < 0 else 1
    amounts = dict.fromkeys(AMOUNTS, ZERO)
    cancelled = document["status"] == "cancelled"
    if not cancelled:
        for line in document["lines"]:
            rate, base, tax = Decimal(line["taxRate"]), Decimal(line["subtotal"]), Decimal(line["tax"])
            if rate == 0:
                amounts["exempt"] += base
            elif rate == SPECIAL:
                amounts["taxed18"] += base
                amounts["isv18"] += tax
            else:
                amounts["taxed15"] += base
                amounts["isv15"] += tax
        amounts["total"] = Decimal(document["total"])
    cai = document.get("cai") or {}
    return {"documentId": int(document["id"]), "date": document["date"], "type": document["type"],
            "typeName": kind.name, "number": document.get("number"), "cai": cai.get("cai"),
            "businessPartnerId": int(document["businessPartnerId"]),
            "partnerTaxId": (partner or {}).get("taxId"), "partnerName": (partner or {}).get("name", ""),
            "status": document["status"], **{name: (sign * value) or ZERO for name, value in amounts.items()}}


def book_totals(rows: Iterable[Mapping[str, Any]]) -> dict[str, Decimal]:
    rows = list(rows)
    return {name: sum((row[name] for row in rows), ZERO) for name in AMOUNTS}
