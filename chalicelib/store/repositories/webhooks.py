"""Webhook subscriptions and their deliveries (services/integrations/webhooks.py)."""
from __future__ import annotations

from typing import Any

from chalicelib.errors import ApiError
from chalicelib.store import keys
from chalicelib.store.table import Table
from chalicelib.store.transaction import Transaction


def delete_subscription(transaction: Transaction, company_id: int, webhook_id: int, on_missing: ApiError) -> None:
    transaction.delete(keys.small_record(company_id, keys.WEBHOOK, webhook_id), condition="attribute_exists(PK)",
                       on_fail=on_missing)


def mark_enqueued(table: Table, deliveries: list[dict[str, Any]]) -> None:
    """These deliveries' messages are on the queue (one transaction)."""
    transaction = Transaction(table)
    for delivery in deliveries:
        transaction.update(keys.webhook_delivery(int(delivery["companyId"]), int(delivery["webhookId"]), delivery["id"]),
                           "SET enqueued = :yes", values={":yes": True})
    transaction.commit()


def set_status(table: Table, delivery: keys.Key, status: str) -> None:
    Transaction(table).update(delivery, "SET #status = :status", names={"#status": "status"},
                              values={":status": status}).commit()


def add_attempt(table: Table, delivery: keys.Key, attempt: dict[str, Any], status: str) -> None:
    """One more attempt on the delivery's history (at `attempt["at"]`), and the status it left."""
    Transaction(table).update(
        delivery, "SET attempts = list_append(if_not_exists(attempts, :none), :attempt), #status = :status, "
                  "lastAttemptAt = :at ADD attemptCount :one",
        names={"#status": "status"},
        values={":none": [], ":attempt": [attempt], ":status": status, ":at": attempt["at"], ":one": 1}).commit()


def start_generation(table: Table, delivery: keys.Key, seen_status: str, status: str, generation: int,
                     on_changed: ApiError) -> None:
    """The delivery, still in the status read, in a new generation (an earlier one's message still
    on the queue is dropped unsent)."""
    Transaction(table).update(delivery, "SET #status = :pending, generation = :next", names={"#status": "status"},
                              condition="#status = :seen",
                              values={":pending": status, ":next": generation, ":seen": seen_status},
                              on_fail=on_changed).commit()
