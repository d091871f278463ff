"""Idempotency records: a command's stored answer, replayed for the same key while it lives."""
from __future__ import annotations

from typing import Any

from chalicelib.store.transaction import Transaction


def remember_answer(transaction: Transaction, record: dict[str, Any], now: int) -> None:
    """Stored unless a live record of the key is there: a concurrent twin that commits first fails
    this condition, and the command then runs again and finds the answer to replay."""
    transaction.put(record, condition="attribute_not_exists(PK) OR expiresAt <= :now", values={":now": now})
