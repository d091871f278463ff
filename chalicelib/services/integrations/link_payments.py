"""What a payment link counts as paid: each payment through it adds to its `paidTotal` (the link
is `paid` once that reaches its amount), and a cancelled one gives its amount back (the link asks
for it again), in the transaction of the payment or of its cancellation."""
from __future__ import annotations

from decimal import Decimal
from typing import Any

from chalicelib.domain.records import PaymentRecord
from chalicelib.store import keys
from chalicelib.store.repositories import payment_links as stored_links
from chalicelib.store.table import Table
from chalicelib.store.transaction import Transaction

ACTIVE, PAID = "active", "paid"


def count_payment(transaction: Transaction, link: dict[str, Any], amount: Decimal, payment_id: int) -> None:
    """On the version read, so two payments through one link add up. `lastPaymentId` is a trace for
    an operator (the newest payment the link counted): nothing reads it to decide, and a
    cancellation leaves it (the payment it names says it is cancelled; clearing it would race
    with a payment counted meanwhile)."""
    paid = Decimal(link.get("paidTotal", 0)) + amount
    stored_links.count_payment(transaction, link["id"], link["version"], paid,
                               PAID if paid >= Decimal(link["amount"]) else ACTIVE, payment_id)


def give_back(table: Table, transaction: Transaction, payment: PaymentRecord) -> None:
    """A cancelled payment that came through a link: its amount off the link's paid total, by an
    atomic ADD (a payment or another cancellation meanwhile adds up with it; the version moves,
    so a notification that read the link before runs again). The link asks for money again, so it
    is `active`: what it counted never passed its amount, and this takes a positive amount off."""
    link_id = payment.get("paymentLinkId")
    if not link_id or table.get(keys.payment_link(link_id)) is None:
        return
    stored_links.give_back(transaction, link_id, Decimal(payment["amount"]), ACTIVE)
