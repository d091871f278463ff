"""Outbound webhook rules, no I/O: signing secrets, the signatures of a delivery (the spec's
`X-Service-Signature` and Standard Webhooks'), the delivery's headers, its id and the retry
backoff."""
from __future__ import annotations

import base64
import hashlib
import hmac
import re
import secrets
import uuid

SECRET_PREFIX = "whsec_"
USER_AGENT = "Service-Webhooks/1.0"
# One try and three retries: the queue's redrive policy (maxReceiveCount) says the same.
MAX_ATTEMPTS = 4
MAX_BACKOFF_SECONDS = 12 * 3600  # SQS's limit for a message's visibility timeout
_DELIVERY_ID = re.compile(r"dlv_\d{1,20}_[0-9a-f]{20}")
_DELIVERY_NAMESPACE = uuid.UUID("5c7d2f8e-9a51-4c1b-8f0e-3b6d2a9c4e17")


def new_secret() -> str:
    """`whsec_` and 32 random bytes in base64: the form Standard Webhooks libraries accept."""
    return SECRET_PREFIX + base64.b64encode(secrets.token_bytes(32)).decode()


def service_signature(secret: str, body: bytes) -> str:
    """The spec's header: lowercase hex HMAC-SHA256 of the exact body, keyed with the secret as
    shown at creation (its UTF-8 bytes)."""
    return "sha256=" + hmac.new(secret.encode(), body, hashlib.sha256).hexdigest()


def standard_signature(secret: str, message_id: str, timestamp: int, body: bytes) -> str:
    """Standard Webhooks: base64 HMAC-SHA256 of `id.timestamp.body`, keyed with the secret's
    base64 part decoded."""
    key = base64.b64decode(secret.removeprefix(SECRET_PREFIX))
    signed = f"{message_id}.{timestamp}.".encode() + body
    return "v1," + base64.b64encode(hmac.new(key, signed, hashlib.sha256).digest()).decode()


def delivery_headers(secret: str, event: str, delivery_id: str, timestamp: int, body: bytes) -> dict[str, str]:
    return {"Content-Type": "application/json", "User-Agent": USER_AGENT, "X-Service-Event": event,
            "X-Service-Delivery-Id": delivery_id, "X-Service-Signature": service_signature(secret, body),
            "webhook-id": delivery_id, "webhook-timestamp": str(timestamp),
            "webhook-signature": standard_signature(secret, delivery_id, timestamp, body)}


def delivery_id(event_id: str, webhook_id: int, occurred_at: str) -> str:
    """The same for an event and a subscription however often the stream replays it; ids sort
    by the event's time, so a subscription's deliveries list newest first from their keys."""
    stamp = "".join(character for character in occurred_at if character.isdigit())
    return f"dlv_{stamp}_{uuid.uuid5(_DELIVERY_NAMESPACE, f'{event_id}:{webhook_id}').hex[:20]}"


def is_delivery_id(text: str) -> bool:
    return _DELIVERY_ID.fullmatch(text) is not None


def backoff_seconds(base: float, failed_attempts: int) -> int:
    """Before retry n (after n failed attempts): base x 2^(n-1), at least a second."""
    return int(min(MAX_BACKOFF_SECONDS, max(1.0, base * 2 ** max(0, failed_attempts - 1))))
