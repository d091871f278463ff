"""A card gateway's fee in the books (issue 43; the books helper writes its body): booked in the
payment's own transaction, when the provider's confirmation is booked."""
from __future__ import annotations

from typing import Any

from chalicelib.services.accounting.posting import JournalWrites
from chalicelib.services.commands import Command
from chalicelib.store.transaction import Transaction


def book_fee_into(command: Command, transaction: Transaction, writes: JournalWrites, gateway: dict[str, Any],
                  payment: dict[str, Any]) -> dict[str, Any]:
    """The fields it set on the payment ({} when the gateway charges nothing)."""
    return {}
