"""Outbound webhooks. Subscriptions (web app only) name a URL and the events they want; the
fan-out turns each new outbox event into one delivery per matching active subscription (a
record and a queue message, idempotent when the stream replays); the deliverer POSTs the
delivery's exact body, signed, and records every attempt. Failures come back after an
exponential backoff (the message's visibility); after the fourth the queue's redrive policy
moves the message to the dead-letter queue."""
from __future__ import annotations

import socket
from typing import Any, Callable

from chalicelib import clock, jsoncodec
from chalicelib.auth import sealing
from chalicelib.domain import webhook_urls
from chalicelib.domain import webhooks as webhook_rules
from chalicelib.errors import ApiError, NotFound, ValidationFailed
from chalicelib.events import outbox
from chalicelib.events.queue import DeliveryQueue
from chalicelib.messages.phrases import Phrase
from chalicelib.observability import record_delivery
from chalicelib.services import records
from chalicelib.services.commands import Command
from chalicelib.services.integrations import webhook_http
from chalicelib.settings import get_settings
from chalicelib.store import keys
from chalicelib.store.listing import Page, partition_page
from chalicelib.store.repositories import webhooks as stored_webhooks
from chalicelib.store.table import Table
from chalicelib.store.transaction import Transaction

# what a subscription's signing secret is sealed for (chalicelib/auth/sealing.py)
SECRET_PURPOSE = "webhook-secret"
# webhook.test is sent only by the test button: nobody subscribes to it
SUBSCRIBABLE_EVENTS = tuple(event for event in outbox.EVENT_KINDS if event != outbox.WEBHOOK_TEST)
PENDING, RETRYING, DELIVERED, FAILED, SKIPPED = "pending", "retrying", "delivered", "failed", "skipped"
RETENTION_SECONDS = 30 * 24 * 3600
EXCERPT_CHARS = 256
Sender = Callable[..., webhook_http.DeliveryResult]


class _AlreadyThere(ApiError):
    """The delivery record exists: the stream delivered this event before."""


# --- subscriptions ----------------------------------------------------------------------------------

def webhook_view(item: dict[str, Any]) -> dict[str, Any]:
    """A subscription as listed: never its secret."""
    return {name: value for name, value in item.items() if name not in ("secret", "sealedSecret")}


def list_webhooks(table: Table, company_id: int, page: int, limit: int) -> Page:
    found = records.small_page(records.small_records(table, company_id, keys.WEBHOOK), page, limit)
    return Page(items=[webhook_view(item) for item in found.items], total=found.total, page=page, limit=limit,
                        next_cursor=None)


def _subscription(table: Table, company_id: int, webhook_id: int) -> dict[str, Any]:
    return records.get_small_record(table, company_id, keys.WEBHOOK, webhook_id, "Webhook")


def get_webhook(table: Table, company_id: int, webhook_id: int) -> dict[str, Any]:
    return webhook_view(_subscription(table, company_id, webhook_id))


# how subscription URLs are resolved when they are saved (tests put a fake resolver here)
resolve_host: Callable[..., Any] = socket.getaddrinfo


def _checked_url(url: str) -> str:
    """The URL's form, and the addresses its name has now: none may be private (a name that does
    not resolve yet is accepted; every send checks again)."""
    allow_insecure = get_settings().allow_insecure_webhooks
    parsed = webhook_urls.check_url(url, allow_insecure)
    try:
        webhook_http.resolve_and_check(parsed.host, parsed.port, allow_insecure, resolver=resolve_host)
    except webhook_http.BlockedAddress as blocked:
        raise ValidationFailed.for_field("url", Phrase("the name resolves to a {} address", blocked.reason)) from None
    except webhook_http.UnresolvableHost:
        pass
    return parsed.url


def create_webhook(command: Command, fields: dict[str, Any]) -> dict[str, Any]:
    """The signing secret is in this answer only; an Idempotency-Key replay shows it as null."""
    secret = webhook_rules.new_secret()
    item = records.new_small_record(command.table, command.company_id, keys.WEBHOOK, {
        **fields, "url": _checked_url(fields["url"]), "events": list(dict.fromkeys(fields["events"])),
        "sealedSecret": sealing.seal_text(secret, command.company_id, SECRET_PURPOSE)})
    transaction = command.transaction()
    transaction.put_new(item)
    return command.commit(transaction, {**webhook_view(item), "secret": secret}, replay={**webhook_view(item), "secret": None})


def update_webhook(command: Command, webhook_id: int, changes: dict[str, Any],
                   expected_version: int | None) -> dict[str, Any]:
    current = _subscription(command.table, command.company_id, webhook_id)
    if changes.get("url") is not None:
        changes = {**changes, "url": _checked_url(changes["url"])}
    if changes.get("events") is not None:
        changes = {**changes, "events": list(dict.fromkeys(changes["events"]))}
    updated = records.update_item(command, keys.small_record(command.company_id, keys.WEBHOOK, webhook_id), current,
                                  changes, expected_version)
    return webhook_view(updated)


def delete_webhook(command: Command, webhook_id: int) -> dict[str, Any]:
    """Its delivery records expire with their TTL; their history goes with the subscription."""
    _subscription(command.table, command.company_id, webhook_id)
    transaction = command.transaction()
    stored_webhooks.delete_subscription(transaction, command.company_id, webhook_id, NotFound("Webhook not found."))
    return command.commit(transaction, {"id": webhook_id, "deleted": True})


# --- fan-out ------------------------------------------------------------------------------------------

# A batch of new deliveries is written this many records per transaction, and queued this many
# messages per SendMessageBatch (SQS's maximum): a burst of events costs a few calls, not three each.
RECORDS_PER_TRANSACTION = 25
MESSAGES_PER_SEND = 10


def fan_out(table: Table, queue: DeliveryQueue, events: list[dict[str, Any]]) -> int:
    """New outbox items -> one delivery per active subscription that wants the event. Returns
    how many deliveries were queued."""
    subscriptions: dict[int, list[dict[str, Any]]] = {}
    wanted: list[dict[str, Any]] = []
    for event in events:
        payload = event["payload"]
        company_id = int(payload["companyId"])
        if company_id not in subscriptions:
            subscriptions[company_id] = [item for item in records.small_records(table, company_id, keys.WEBHOOK)
                                         if item.get("isActive", True)]
        body = jsoncodec.dumps(payload)
        wanted += [_delivery_record(company_id, int(subscription["id"]), event["eventId"], payload, body)
                   for subscription in subscriptions[company_id] if payload["event"] in subscription.get("events", [])]
    queued = 0
    for start in range(0, len(wanted), RECORDS_PER_TRANSACTION):
        to_send = _create_records(table, wanted[start:start + RECORDS_PER_TRANSACTION])
        for first in range(0, len(to_send), MESSAGES_PER_SEND):
            _send(table, queue, to_send[first:first + MESSAGES_PER_SEND])
        queued += len(to_send)
    return queued


def _delivery_record(company_id: int, webhook_id: int, event_id: str, payload: dict[str, Any],
                     body: str) -> dict[str, Any]:
    delivery_id = webhook_rules.delivery_id(event_id, webhook_id, payload["occurredAt"])
    return {**keys.webhook_delivery(company_id, webhook_id, delivery_id), "itemType": "WEBHOOK_DELIVERY",
            "id": delivery_id, "webhookId": webhook_id, "companyId": company_id, "eventId": event_id,
            "event": payload["event"], "resourceType": payload["resourceType"], "resourceId": payload["resourceId"],
            "occurredAt": payload["occurredAt"], "body": body, "status": PENDING, "attemptCount": 0,
            "attempts": [], "enqueued": False, "createdAt": clock.now_iso(),
            "expiresAt": clock.epoch_seconds() + RETENTION_SECONDS}


def _create_records(table: Table, wanted: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Each record under a condition that it is new; returns those whose message is still to
    send. A replayed stream record finds its record there and sends nothing more, unless the
    first run died before its message was sent. All in one transaction when none exists yet
    (the usual case); one by one when the stream replays."""
    transaction = Transaction(table)
    for record in wanted:
        transaction.put_new(record, on_fail=_AlreadyThere())
    try:
        transaction.commit()
        return wanted
    except _AlreadyThere:
        pass
    to_send = []
    for record in wanted:
        try:
            Transaction(table).put_new(record, on_fail=_AlreadyThere()).commit()
            to_send.append(record)
        except _AlreadyThere:
            existing = table.get(keys.webhook_delivery(int(record["companyId"]), int(record["webhookId"]), record["id"]))
            if existing is not None and not existing.get("enqueued"):
                to_send.append(existing)
    return to_send


def _send(table: Table, queue: DeliveryQueue, deliveries: list[dict[str, Any]]) -> None:
    """Queues the messages, then marks their records enqueued (a crash between the two sends a
    message again on the stream's retry: the deliverer skips a delivered record)."""
    queue.send_batch([{"companyId": int(d["companyId"]), "webhookId": int(d["webhookId"]), "deliveryId": d["id"]}
                      for d in deliveries])
    stored_webhooks.mark_enqueued(table, deliveries)


# --- delivery -----------------------------------------------------------------------------------------

def deliver(table: Table, queue: DeliveryQueue, message: dict[str, Any], *, receive_count: int,
            receipt_handle: str, send: Sender | None = None) -> bool:
    """One attempt of one delivery. True: the message is done with (delivered, or nothing to
    deliver any more). False: it stays on the queue, back after the backoff for the next
    attempt, or, after the last, for the redrive policy to move it to the dead-letter queue."""
    company_id, webhook_id = int(message["companyId"]), int(message["webhookId"])
    key = keys.webhook_delivery(company_id, webhook_id, str(message["deliveryId"]))
    delivery = table.get(key)
    if delivery is None or delivery["status"] == DELIVERED \
            or int(message.get("generation", 0)) != int(delivery.get("generation", 0)):
        return True  # done, or a message a redelivery has replaced
    subscription = table.get(keys.small_record(company_id, keys.WEBHOOK, webhook_id))
    if subscription is None or not subscription.get("isActive", True):
        stored_webhooks.set_status(table, key, SKIPPED)
        return True
    settings = get_settings()
    body = delivery["body"].encode()
    headers = webhook_rules.delivery_headers(sealing.opened_text(subscription, company_id, SECRET_PURPOSE),
                                     delivery["event"], delivery["id"],
                                     clock.epoch_seconds(), body)
    result = (send or webhook_http.post)(subscription["url"], body, headers, timeout=settings.webhook_timeout_seconds,
                  allow_insecure=settings.allow_insecure_webhooks)
    last = receive_count >= webhook_rules.MAX_ATTEMPTS
    status = DELIVERED if result.ok else FAILED if last else RETRYING
    attempt = {"attempt": int(delivery.get("attemptCount", 0)) + 1, "at": clock.now_iso(),
               "statusCode": result.status, "durationMs": result.duration_ms, "error": result.error,
               "responseExcerpt": (result.response_excerpt or "")[:EXCERPT_CHARS] or None}
    stored_webhooks.add_attempt(table, key, attempt, status)
    record_delivery(result.ok, result.duration_ms)
    if result.ok:
        return True
    # the last failure comes back at once, for the redrive to move it to the dead-letter queue
    queue.delay(receipt_handle, 0 if last else webhook_rules.backoff_seconds(settings.webhook_backoff_base_seconds,
                                                                         receive_count))
    return False


# --- history, redelivery and the test send -----------------------------------------------------------

def delivery_view(item: dict[str, Any]) -> dict[str, Any]:
    return {"id": item["id"], "webhookId": item["webhookId"], "event": item["event"],
            "resourceType": item.get("resourceType"), "resourceId": item.get("resourceId"),
            "occurredAt": item["occurredAt"], "status": item["status"], "attemptCount": item.get("attemptCount", 0),
            "attempts": item.get("attempts", []), "lastAttemptAt": item.get("lastAttemptAt"),
            "createdAt": item["createdAt"], "payload": jsoncodec.loads(item["body"])}


def list_deliveries(table: Table, company_id: int, webhook_id: int, limit: int, cursor: str | None) -> dict[str, Any]:
    """Newest first, a page of `limit` and the cursor of the next."""
    _subscription(table, company_id, webhook_id)
    items, next_cursor = partition_page(table, keys.webhook_deliveries_partition(company_id, webhook_id), limit, cursor,
                                        newest_first=True)
    return {"deliveries": [delivery_view(item) for item in items], "limit": limit, "nextCursor": next_cursor}


def _require_active(subscription: dict[str, Any]) -> dict[str, Any]:
    if not subscription.get("isActive", True):
        raise ApiError("The webhook is inactive; activate it first.", code="WEBHOOK_INACTIVE")
    return subscription


def redeliver(table: Table, queue: Callable[[], DeliveryQueue], company_id: int, webhook_id: int,
              delivery_id: str) -> dict[str, Any]:
    """The same delivery (id, body) sent again: four more attempts if it needs them. `queue`
    is only reached once the delivery is known."""
    subscription = _subscription(table, company_id, webhook_id)
    key = keys.webhook_delivery(company_id, webhook_id, delivery_id)
    delivery = table.get(key) if webhook_rules.is_delivery_id(delivery_id) else None
    if delivery is None:
        raise NotFound("Delivery not found.")
    _require_active(subscription)
    if delivery["status"] not in (DELIVERED, FAILED, SKIPPED):
        raise ApiError("The delivery is still being attempted; redeliver it once it has finished.",
                       code="DELIVERY_IN_PROGRESS")
    generation = int(delivery.get("generation", 0)) + 1
    # a new generation: any message of an earlier one still on the queue is dropped unsent
    stored_webhooks.start_generation(table, key, delivery["status"], PENDING, generation,
                                     ApiError("The delivery changed meanwhile; try again.", code="DELIVERY_IN_PROGRESS"))
    queue().send({"companyId": company_id, "webhookId": webhook_id, "deliveryId": delivery_id,
                  "generation": generation})
    return delivery_view({**delivery, "status": PENDING})


def send_test(table: Table, queue: Callable[[], DeliveryQueue], company_id: int, webhook_id: int) -> dict[str, Any]:
    """A `webhook.test` event for this subscription alone, whatever it subscribes to."""
    subscription = _require_active(_subscription(table, company_id, webhook_id))
    occurred_at = clock.now_iso()
    event_id = f"test-{clock.epoch_seconds()}-{webhook_id}-{occurred_at}"
    payload = outbox.payload(outbox.WEBHOOK_TEST, company_id, "webhook", webhook_id,
                             {"id": webhook_id, "name": subscription.get("name"), "url": subscription["url"]},
                             occurred_at)
    record = _delivery_record(company_id, webhook_id, event_id, payload, jsoncodec.dumps(payload))
    _create_records(table, [record])  # the event id is new: so is its delivery
    _send(table, queue(), [record])
    return delivery_view(record)
