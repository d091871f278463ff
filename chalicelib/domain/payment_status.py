"""A document's payment status as people look for it: unpaid, partially paid, paid or overdue.

Read from what the document stores (`pending`, `total`, `dueDate`) and the company's today, when
the document is read, never stored: "overdue" becomes true overnight with nothing written, so a
stored value would be wrong the morning after its due date until something rewrote it."""
from __future__ import annotations

from decimal import Decimal
from typing import Any, Mapping

from chalicelib.domain.documents import CONFIRMED, KINDS, overdue_days

UNPAID, PARTIALLY_PAID, PAID, OVERDUE = "unpaid", "partially_paid", "paid", "overdue"
PAYMENT_STATUSES = (UNPAID, PARTIALLY_PAID, PAID, OVERDUE)


def carries_balance(document_type: str) -> bool:
    """Invoices, notes, purchases, expenses and opening balances: what adds to or takes from a
    partner's balance. Quotes, orders, deliveries and withholding certificates owe nothing."""
    kind = KINDS.get(document_type)
    return kind is not None and kind.balance != 0


def payment_status(document: Mapping[str, Any], today: str) -> str | None:
    """None for a draft or cancelled document and for a type that carries no balance.

    `pending` 0 is paid (a credit note: applied or refunded in full); a pending amount past its
    due date (`dueDate` before `today`, the company's date) is overdue; else partially paid while
    something was paid (0 < pending < total), unpaid otherwise. A credit note (06, 105) is money
    the company gives back or takes off: it is applied, not overdue."""
    if document.get("status") != CONFIRMED or not carries_balance(document["type"]):
        return None
    pending = Decimal(str(document.get("pending", 0)))
    if pending <= 0:
        return PAID
    due_date = document.get("dueDate")
    if KINDS[document["type"]].balance > 0 and due_date and due_date < today:
        return OVERDUE
    return PARTIALLY_PAID if pending < Decimal(str(document["total"])) else UNPAID


def days_overdue(document: Mapping[str, Any], today: str) -> int:
    """Whole days between the due date and today for an overdue document, else 0 (the credit
    control's count, `overdue_days`, of this one document)."""
    if payment_status(document, today) != OVERDUE:
        return 0
    return overdue_days([document["dueDate"]], today)
