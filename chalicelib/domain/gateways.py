"""Payment gateways' rules, no I/O: payment link ids, secrets' fingerprints, what a provider's
confirmed payment must match to be booked. The providers' own formats and signatures are in
domain/pixelpay.py and domain/wompi.py (docs/gateways.md)."""
from __future__ import annotations

import base64
import datetime as _dt
import hashlib
import re
import secrets
from dataclasses import dataclass
from decimal import Decimal
from typing import Any

from chalicelib import jsoncodec
from chalicelib.errors import ApiError, MalformedJson, ValidationFailed
from chalicelib.messages.phrases import Phrase

MIN_SECRET_LENGTH = 16
# how long after a link expires a notification of a payment made in time may still arrive
# (providers retry for days): the gateway, whose secret verifies it, is kept that long
LATE_NOTIFICATION_HOURS = 7 * 24

LINK_PREFIX = "pl_"
_LINK_ID = re.compile(r"pl_[a-z2-7]{24}")
CENT = Decimal("0.01")
PRODUCTION = "production"


class SignatureRefused(ApiError):
    """A notification the provider's scheme does not authenticate (the adapters raise it): 401."""
    code = "INVALID_SIGNATURE"
    message = "The notification's signature does not match."


def new_link_id() -> str:
    """`pl_` and 120 random bits in lowercase base32: unguessable, and safe in a URL."""
    return LINK_PREFIX + base64.b32encode(secrets.token_bytes(15)).decode().lower()


def secret_fingerprint(secret: str) -> str:
    """Tells which secret is set without revealing any of it."""
    return "sha256:" + hashlib.sha256(secret.encode()).hexdigest()[:12]


def is_link_id(text: str) -> bool:
    return _LINK_ID.fullmatch(text) is not None


# --- payment links --------------------------------------------------------------------------------

def link_amount(requested: Decimal | None, pending: Decimal) -> Decimal:
    """What a link asks for: the document's pending unless told, and more than 0 (the payment
    rules check it against the pending)."""
    amount = pending if requested is None else requested
    if amount <= 0:
        raise ValidationFailed.for_field("amount", "must be greater than 0")
    return amount


def link_expired(expires_at: _dt.datetime, paid_at: _dt.datetime) -> bool:
    """A link is judged by when the gateway says the customer paid, not when the notification
    arrives: a gateway retrying for days still lands a payment made in time."""
    return paid_at > expires_at


# --- issue 43: the card gateways' notifications, whatever the provider -----------------------------

@dataclass(frozen=True)
class ProviderNotification:
    """What a provider's notification claims, parsed (domain/pixelpay.py, domain/wompi.py):
    nothing is booked on it alone; the provider's status call confirms it first. `link_id` is
    our link (the provider's order reference); a field the provider does not send is None."""
    provider: str
    link_id: str
    transaction_id: str
    approved: bool
    amount: Decimal | None = None
    currency: str | None = None
    paid_at: _dt.datetime | None = None
    live: bool | None = None


def mismatch(*, asked: Decimal, currency: str, mode: str, paid: Decimal, paid_currency: str,
             live: bool) -> ApiError | None:
    """Why a payment the provider confirmed is not the one its link asks for, or None: exactly what
    the link still asks (the customer pays the amount the provider's page shows), in its currency;
    real money only through a gateway in production mode, test money only in test mode. The
    refusal is recorded with its code, never raised."""
    if paid_currency.upper() != currency.upper():
        return ApiError(Phrase("The payment is in {}, the link in {}.",
                               paid_currency, currency), code="CURRENCY_MISMATCH")
    paid, asked = Decimal(paid).quantize(CENT), Decimal(asked).quantize(CENT)
    if paid != asked:
        return ApiError(Phrase("The payment of {} is not the {} the link asks for.",
                               paid, asked), code="AMOUNT_MISMATCH")
    if live != (mode == PRODUCTION):
        return ApiError(Phrase("A payment of live={} through a gateway in {} mode.", live, mode), code="MODE_MISMATCH")
    return None


def json_object(raw_body: bytes, refusal: str = "must be a JSON object") -> dict[str, Any]:
    """A provider's notification body as a JSON object: 400 MALFORMED_JSON, or VALIDATION_ERROR
    on `body` with `refusal` when it is JSON but no object."""
    try:
        payload = jsoncodec.loads(raw_body)
    except (ValueError, UnicodeDecodeError, RecursionError):
        raise MalformedJson() from None
    if not isinstance(payload, dict):
        raise ValidationFailed.for_field("body", refusal)
    return payload
