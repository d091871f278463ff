"""Payment gateways: their configuration, the providers' notifications decided or pending, refunds
and payouts through them (services/integrations/gateway_*.py)."""
from __future__ import annotations

from collections.abc import Mapping
from decimal import Decimal
from typing import Any

from chalicelib.errors import ApiError
from chalicelib.store import keys
from chalicelib.store.table import Table
from chalicelib.store.transaction import Transaction


def delete_unless_links_may_be_paid(transaction: Transaction, gateway: keys.Key, seen_version: int,
                                    last_link_expired_by: str) -> None:
    """The gateway, as read, whose newest link expired by `last_link_expired_by` (none may still be
    paid or notified)."""
    transaction.delete(gateway,
                       condition="#v = :v AND (attribute_not_exists(lastLinkExpiresAt) OR lastLinkExpiresAt <= :now)",
                       names={"#v": "version"}, values={":v": seen_version, ":now": last_link_expired_by})


def keep_until_link_expires(transaction: Transaction, gateway: keys.Key, expires_at: str,
                            on_inactive: ApiError) -> None:
    """An active gateway's newest link expires at `expires_at`: the gateway stays while it may be paid."""
    transaction.update(gateway, "SET lastLinkExpiresAt = :expires", condition="isActive = :yes",
                       values={":expires": expires_at, ":yes": True}, on_fail=on_inactive)


def replace_pending_decision(transaction: Transaction, decision: dict[str, Any], pending: str) -> None:
    """The decision in place of the one read, while that is still `pending`."""
    transaction.put(decision, condition="#status = :pending", names={"#status": "status"},
                    values={":pending": pending})


def pending_page(table: Table, limit: int,
                 start: dict[str, Any] | None) -> tuple[list[dict[str, Any]], dict[str, Any] | None]:
    """A page of the notifications waiting for a recheck, oldest first, and where the next begins."""
    items: list[dict[str, Any]]
    items, following = table.query(partition=("PK", keys.GATEWAY_PENDING_PARTITION), limit=limit, consistent=True,
                                   start_key=start)
    return items, following


def count_failed_recheck(table: Table, pending: keys.Key) -> None:
    """One more failed run on a pending notification still there."""
    table.update_if(pending, "ADD attempts :one", condition="attribute_exists(PK)", values={":one": 1})


def note_refund(table: Table, payment: keys.Key, refunded: Mapping[str, Any]) -> None:
    """How a payment was refunded, on the payment unless it is gone or cancelled."""
    note = Transaction(table)
    note.set_fields(payment, refunded, condition="attribute_exists(PK) AND #status <> :cancelled",
                    names={"#status": "status"}, values={":cancelled": "cancelled"})
    note.commit()


def hold_for_payout(transaction: Transaction, clearing_account: keys.Key, amount: Decimal,
                    on_short: ApiError) -> None:
    """The clearing account, active, still holds `amount` when this commits (two payouts at once
    never take more than it holds): a condition on the account's one update."""
    transaction.accumulate(clearing_account, {"balance": Decimal(0)},
                           condition="attribute_exists(PK) AND isActive = :yes AND balance >= :needed",
                           values={":needed": amount, ":yes": True}, on_fail=on_short)
