"""Each partner's receivable and payable as a ledger of its own: one movement for every change
of the balance (a document confirmed or reversed, a payment registered or cancelled) and
monthly totals with per-day figures, written in the transaction that moves the balance.
Statements read the months and one page of movements, whatever the partner's history."""
from __future__ import annotations

from decimal import Decimal
from typing import Any

from chalicelib.domain.accounting import ZERO, day_of, month_of
from chalicelib.services.accounting.posting import add_month_totals
from chalicelib.store import keys
from chalicelib.store.transaction import Transaction

DOCUMENT_ORIGIN, PAYMENT_ORIGIN = "D", "P"


def record_movement(transaction: Transaction, company_id: int, *, partner_id: int, side: str, date: str,
                    amount: Decimal, origin: str, origin_id: int, version: int, details: dict[str, Any]) -> None:
    """`amount` raises what is owed when positive (a charge) and lowers it when negative (a
    credit: payments, credit notes, applied advances, reversals of charges)."""
    charge, credit = (amount, ZERO) if amount > 0 else (ZERO, -amount)
    movement = {**keys.partner_movement(company_id, partner_id, side, date, origin, origin_id, version),
                "itemType": "PARTNER_MOVEMENT", "date": date, "charge": charge, "credit": credit, **details}
    transaction.put_new({name: value for name, value in movement.items() if value is not None})
    add_month_totals(transaction, keys.partner_month_balance(company_id, partner_id, side, month_of(date)),
                     month_of(date), charge, credit, {day_of(date): (charge, credit)},
                     {"itemType": "PARTNER_BALANCE"})
