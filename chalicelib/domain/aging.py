"""Aged balances: what each partner owes (or is owed) at a date, by how long it is past due."""
from __future__ import annotations

import datetime
from decimal import Decimal
from typing import Any, Iterable, Mapping

from chalicelib.domain.accounting import ZERO

BUCKETS = ("current", "days1To30", "days31To60", "days61To90", "over90")


def bucket(as_of: str, due_date: str) -> str:
    overdue = (datetime.date.fromisoformat(as_of) - datetime.date.fromisoformat(due_date)).days
    if overdue <= 0:
        return "current"
    if overdue <= 30:
        return "days1To30"
    if overdue <= 60:
        return "days31To60"
    return "days61To90" if overdue <= 90 else "over90"


def open_amounts(movements: Iterable[Mapping[str, Any]]) -> dict[int, Decimal]:
    """Per document, what its partner-ledger movements (its own charge, the payments against it,
    their reversals) leave open; documents left at zero are dropped. A credit note is open as a
    negative amount until it is refunded (applied to an invoice, it lowers neither ledger line:
    the partner's balance moved when the note was confirmed)."""
    totals: dict[int, Decimal] = {}
    for movement in movements:
        for document_id, amount in _base_changes(movement):
            totals[document_id] = totals.get(document_id, ZERO) + amount
    return {document_id: amount for document_id, amount in totals.items() if amount}


def _base_changes(movement: Mapping[str, Any]) -> list[tuple[int, Decimal]]:
    """(document, change in the company's currency) of one movement: a month-end revaluation's
    (issue 44) names each document it revalued under `revaluedDocuments` (id -> change)."""
    if movement.get("revaluedDocuments") is not None:
        return [(int(document_id), Decimal(amount)) for document_id, amount in movement["revaluedDocuments"].items()]
    return [(int(movement["documentId"]), Decimal(movement["charge"]) - Decimal(movement["credit"]))]


def open_in_currency(movements: Iterable[Mapping[str, Any]]) -> dict[int, Decimal]:
    """Per document, what is open in the document's own currency: a foreign-currency document's
    movements carry `amountInCurrency` (signed as the movement); the others are in the company's."""
    totals: dict[int, Decimal] = {}
    for movement in movements:
        if movement.get("revaluedDocuments") is not None:
            continue   # a revaluation moves the company's currency only
        document_id = int(movement["documentId"])
        signed = Decimal(movement["charge"]) - Decimal(movement["credit"])
        if movement.get("amountInCurrency") is not None:
            signed = Decimal(movement["amountInCurrency"])
        totals[document_id] = totals.get(document_id, ZERO) + signed
    return totals


def partner_row(as_of: str, partner: Mapping[str, Any], open_documents: list[tuple[Mapping[str, Any], Decimal]],
                in_currency: Mapping[int, Decimal] | None = None) -> dict[str, Any]:
    """`open` is in the company's currency (what the buckets add); a document's `openInCurrency`
    (also `foreignPending`) in its own `currency`; the partner's `currency` and `foreignPending`
    when its open documents share one currency (else null: amounts in two currencies do not add)."""
    row: dict[str, Any] = {"businessPartnerId": int(partner["id"]), "name": partner.get("name", ""),
                           "taxId": partner.get("taxId"), **dict.fromkeys(BUCKETS, ZERO), "total": ZERO,
                           "documents": []}
    for document, amount in sorted(open_documents, key=lambda pair: (_due(pair[0]), int(pair[0]["id"]))):
        due = _due(document)
        column = bucket(as_of, due)
        row[column] += amount
        row["total"] += amount
        row["documents"].append({"documentId": int(document["id"]), "type": document["type"],
                                 "number": document.get("number"), "date": document["date"], "dueDate": due,
                                 "daysOverdue": max(0, (datetime.date.fromisoformat(as_of)
                                                        - datetime.date.fromisoformat(due)).days), "bucket": column,
                                 "open": amount, "currency": document.get("currency"),
                                 "openInCurrency": (in_currency or {}).get(int(document["id"]), amount)})
    for document in row["documents"]:
        document["foreignPending"] = document["openInCurrency"]
    currencies = {document["currency"] for document in row["documents"]}
    single = len(currencies) == 1 and None not in currencies
    row["currency"] = currencies.pop() if single else None
    row["foreignPending"] = sum((document["openInCurrency"] for document in row["documents"]), ZERO) if single else None
    return row


def _due(document: Mapping[str, Any]) -> str:
    return str(document.get("dueDate") or document["date"])
