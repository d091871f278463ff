"""Honduras' ISV books (libro de ventas, libro de compras): one row per fiscal document of the
period with its taxable bases and ISV by rate. Credit notes count against the others (negative);
a cancelled document keeps its row, marked, with no amounts."""
from __future__ import annotations

from decimal import Decimal
from typing import Any, Iterable, Mapping

from chalicelib.domain import taxes
from chalicelib.domain.accounting import ZERO
from chalicelib.domain.document_types import PURCHASES
from chalicelib.domain.documents import KINDS, WITHHOLDING_CERTIFICATE
from chalicelib.domain.tax_books import book_sign

SPECIAL = Decimal("0.18")
AMOUNTS = ("exempt", "exonerated", "taxed15", "taxed18", "isv15", "isv18", "total")


def book_row(document: Mapping[str, Any], partner: Mapping[str, Any] | None) -> dict[str, Any]:
    """`document` as booked (domain/currency.as_booked: in the company's currency, a dollar
    invoice's lempiras). A purchase is entered under the supplier's number and CAI (what the supplier printed), when
    the document records them; `internalNumber` is ours either way."""
    kind = KINDS[document["type"]]
    sign = book_sign(document)
    amounts = dict.fromkeys(AMOUNTS, ZERO)
    cancelled = document["status"] == "cancelled"
    if not cancelled:
        for line in document["lines"]:
            rate, base, tax = Decimal(line["taxRate"]), Decimal(line["subtotal"]), Decimal(line["tax"])
            treatment = taxes.treatment_of(line)
            if treatment == taxes.EXONERATED:
                amounts["exonerated"] += base
            elif treatment != taxes.TAXED:
                amounts["exempt"] += base
            elif rate == SPECIAL:
                amounts["taxed18"] += base
                amounts["isv18"] += tax
            else:
                amounts["taxed15"] += base
                amounts["isv15"] += tax
        amounts["total"] = Decimal(document["total"])
    purchase = kind.module == PURCHASES
    cai = (document.get("supplierCai") if purchase else (document.get("cai") or {}).get("cai"))
    number = (document.get("supplierDocumentNumber") if purchase else None) or document.get("number")
    return {"documentId": int(document["id"]), "date": document["date"], "type": document["type"],
            "typeName": kind.name, "number": number, "internalNumber": document.get("number"), "cai": cai,
            "businessPartnerId": int(document["businessPartnerId"]),
            "partnerTaxId": (partner or {}).get("taxId"), "partnerName": (partner or {}).get("name", ""),
            "status": document["status"], **{name: (sign * value) or ZERO for name, value in amounts.items()},
            **{name: (document.get("exoneration") or {}).get(name) for name in taxes.EXONERATION_FIELDS}}


def book_totals(rows: Iterable[Mapping[str, Any]]) -> dict[str, Decimal]:
    rows = list(rows)
    return {name: sum((row[name] for row in rows), ZERO) for name in AMOUNTS}


def withheld(documents: Iterable[Mapping[str, Any]], tax: str, side: str) -> Decimal:
    """The total of the confirmed withholding certificates (05) for `tax` on `side` among
    `documents` (as booked)."""
    return sum((Decimal(item["total"]) for item in documents
                if item["type"] == WITHHOLDING_CERTIFICATE and item["status"] == "confirmed"
                and (item.get("withholding") or {}) == {"tax": tax, "side": side}), ZERO)
