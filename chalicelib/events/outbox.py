"""Outbox: a command's transaction writes the event item; the table stream carries it to the
webhook fan-out. The payload has the spec's shape (Events section)."""
from __future__ import annotations

import uuid
from typing import Any

from chalicelib import clock
from chalicelib.store import keys
from chalicelib.store.transaction import Transaction

RETENTION_SECONDS = 30 * 24 * 3600

DOCUMENT_CREATED = "document.created"
DOCUMENT_CONFIRMED = "document.confirmed"
DOCUMENT_DTE_ACCEPTED = "document.dte_accepted"
DOCUMENT_CANCELLED = "document.cancelled"
DOCUMENT_DTE_INVALIDATED = "document.dte_invalidated"
PRODUCT_CREATED = "product.created"
PRODUCT_UPDATED = "product.updated"
BUSINESS_PARTNER_CREATED = "business_partner.created"
BUSINESS_PARTNER_UPDATED = "business_partner.updated"
PAYMENT_CREATED = "payment.created"
PAYMENT_CONFIRMED = "payment.confirmed"
INVENTORY_ADJUSTMENT_CREATED = "inventory_adjustment.created"
INVENTORY_TRANSFER_CREATED = "inventory_transfer.created"
STATEMENT_IMPORTED = "statement.imported"
STATEMENT_LINE_MATCHED = "statement_line.matched"
WEBHOOK_TEST = "webhook.test"

EVENT_KINDS = (DOCUMENT_CREATED, DOCUMENT_CONFIRMED, DOCUMENT_DTE_ACCEPTED, DOCUMENT_DTE_INVALIDATED, DOCUMENT_CANCELLED,
               PRODUCT_CREATED, PRODUCT_UPDATED, BUSINESS_PARTNER_CREATED, BUSINESS_PARTNER_UPDATED,
               PAYMENT_CREATED, PAYMENT_CONFIRMED, INVENTORY_ADJUSTMENT_CREATED, INVENTORY_TRANSFER_CREATED,
               STATEMENT_IMPORTED, STATEMENT_LINE_MATCHED, WEBHOOK_TEST)


def payload(event: str, company_id: int, resource_type: str, resource_id: int,
            data: dict[str, Any], occurred_at: str) -> dict[str, Any]:
    return {"event": event, "companyId": company_id, "resourceType": resource_type,
            "resourceId": resource_id, "occurredAt": occurred_at, "data": data}


def emit(transaction: Transaction, event: str, company_id: int, resource_type: str,
         resource_id: int, data: dict[str, Any]) -> dict[str, Any]:
    """Adds the event item to the command's transaction and returns its payload."""
    if event not in EVENT_KINDS:
        raise ValueError(f"unknown event kind {event}")
    occurred_at = clock.now_iso()
    event_id = uuid.uuid4().hex
    body = payload(event, company_id, resource_type, resource_id, data, occurred_at)
    transaction.put_new({**keys.outbox_event(company_id, occurred_at, event_id), "itemType": "EVENT",
                         "eventId": event_id, "payload": body,
                         "expiresAt": clock.epoch_seconds() + RETENTION_SECONDS})
    return body
