"""Payment gateways' inbound notifications, no I/O: the two providers' payload formats and
signature schemes (docs/gateways.md describes both on the wire) and payment link ids."""
from __future__ import annotations

import base64
import datetime as _dt
import hashlib
import hmac
import re
import secrets
from dataclasses import dataclass
from decimal import Decimal
from typing import Any, Mapping

from chalicelib import jsoncodec
from chalicelib.domain.money import MAX_AMOUNT
from chalicelib.errors import ApiError, MalformedJson, ValidationFailed

GATEWAY_A, GATEWAY_B = "gateway-a", "gateway-b"
PROVIDERS = (GATEWAY_A, GATEWAY_B)
# the events that say money was collected; any other event is acknowledged and ignored
COLLECTED_EVENT = {GATEWAY_A: "payment.succeeded", GATEWAY_B: "charge.completed"}
SIGNATURE_HEADER = {GATEWAY_A: "X-Gateway-A-Signature", GATEWAY_B: "Gateway-B-Signature"}
MIN_SECRET_LENGTH = 16
# gateway-b signs a timestamp with the body: an older (or later) signature is a replay
TIMESTAMP_TOLERANCE_SECONDS = 300
# how long after a link expires a notification of a payment made in time may still arrive
# (gateways retry for days): the gateway, whose secret verifies it, is kept that long
LATE_NOTIFICATION_HOURS = 7 * 24

LINK_PREFIX = "pl_"
_LINK_ID = re.compile(r"pl_[a-z2-7]{24}")
_TRANSACTION_ID = re.compile(r"[\x21-\x7e]{1,200}")
_DECIMAL_TEXT = re.compile(r"\d{1,12}(\.\d{1,2})?")  # at most MAX_AMOUNT's 12 digits
_CURRENCY = re.compile(r"[A-Za-z]{3}")
_HEX_SHA256 = re.compile(r"[0-9a-fA-F]{64}")
CENT = Decimal("0.01")


class SignatureRefused(ApiError):
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


@dataclass(frozen=True)
class Notification:
    provider: str
    event: str
    link_id: str
    transaction_id: str
    amount: Decimal
    currency: str
    paid_at: _dt.datetime

    @property
    def collected(self) -> bool:
        return self.event == COLLECTED_EVENT[self.provider]


def parse_notification(provider: str, raw_body: bytes) -> Notification:
    """The provider's payload as a Notification; anything else is 400 (MALFORMED_JSON or
    VALIDATION_ERROR naming the field). Unknown fields are accepted: gateways add fields."""
    try:
        payload = jsoncodec.loads(raw_body)
    except (ValueError, UnicodeDecodeError, RecursionError):
        raise MalformedJson() from None
    if not isinstance(payload, dict):
        raise ValidationFailed.for_field("body", "must be a JSON object")
    return _parse_gateway_a(payload) if provider == GATEWAY_A else _parse_gateway_b(payload)


def notification_schema(provider: str) -> dict[str, Any]:
    """The JSON schema of what parse_notification accepts (for the OpenAPI document)."""
    text = {"type": "string", "minLength": 1, "maxLength": 200}
    transaction_id = {"type": "string", "pattern": f"^{_TRANSACTION_ID.pattern}$"}
    currency = {"type": "string", "pattern": f"^{_CURRENCY.pattern}$"}

    def shape(required: dict[str, Any]) -> dict[str, Any]:
        return {"type": "object", "required": list(required), "properties": required}

    if provider == GATEWAY_A:
        return shape({"event": text, "data": shape({
            "linkId": text, "transactionId": transaction_id, "currency": currency,
            "amount": {"type": "string", "pattern": f"^(?=.*[1-9]){_DECIMAL_TEXT.pattern}$"},  # not zero
            "paidAt": {"type": "string", "format": "date-time", "description": "with its time zone"}})})
    return shape({"type": text, "charge": shape({
        "reference": text, "id": transaction_id, "currency": currency,
        "amountCents": {"type": "integer", "minimum": 1, "maximum": int(MAX_AMOUNT * 100)},
        "created": {"type": "integer", "minimum": 1, "maximum": 10 ** 11 - 1, "description": "Unix time in seconds"}})})


def _parse_gateway_a(payload: dict[str, Any]) -> Notification:
    data = _object(payload, "data", "data")
    amount_text = _text(data, "amount", "data.amount")
    if not _DECIMAL_TEXT.fullmatch(amount_text):
        raise ValidationFailed.for_field("data.amount", "a decimal string with at most 2 decimals, e.g. \"12.34\"")
    return Notification(provider=GATEWAY_A, event=_text(payload, "event", "event"),
                        link_id=_text(data, "linkId", "data.linkId"),
                        transaction_id=_transaction_id(data, "transactionId", "data.transactionId"),
                        amount=_money(Decimal(amount_text), "data.amount"),
                        currency=_currency(data, "data.currency"),
                        paid_at=_timestamp(data, "paidAt", "data.paidAt"))


def _parse_gateway_b(payload: dict[str, Any]) -> Notification:
    charge = _object(payload, "charge", "charge")
    cents = jsoncodec.whole_number(charge.get("amountCents"))
    if not isinstance(cents, int) or isinstance(cents, bool):
        raise ValidationFailed.for_field("charge.amountCents", "an integer number of cents")
    created = jsoncodec.whole_number(charge.get("created"))
    if not isinstance(created, int) or isinstance(created, bool) or not 0 < created < 10 ** 11:
        raise ValidationFailed.for_field("charge.created", "Unix time in seconds")
    return Notification(provider=GATEWAY_B, event=_text(payload, "type", "type"),
                        link_id=_text(charge, "reference", "charge.reference"),
                        transaction_id=_transaction_id(charge, "id", "charge.id"),
                        amount=_money(Decimal(cents) * CENT, "charge.amountCents"),
                        currency=_currency(charge, "charge.currency"),
                        paid_at=_dt.datetime.fromtimestamp(created, _dt.timezone.utc))


def _object(payload: dict[str, Any], name: str, field: str) -> dict[str, Any]:
    value = payload.get(name)
    if not isinstance(value, dict):
        raise ValidationFailed.for_field(field, "required: an object")
    return value


def _text(payload: dict[str, Any], name: str, field: str) -> str:
    value = payload.get(name)
    if not isinstance(value, str) or not 0 < len(value) <= 200:
        raise ValidationFailed.for_field(field, "required: a string of 1 to 200 characters")
    return value


def _transaction_id(payload: dict[str, Any], name: str, field: str) -> str:
    value = _text(payload, name, field)
    if not _TRANSACTION_ID.fullmatch(value):
        raise ValidationFailed.for_field(field, "visible ASCII characters only")
    return value


def _money(amount: Decimal, field: str) -> Decimal:
    if not 0 < amount <= MAX_AMOUNT:
        raise ValidationFailed.for_field(field, f"must be greater than 0 and at most {MAX_AMOUNT}")
    return amount.quantize(CENT)


def _currency(payload: dict[str, Any], field: str) -> str:
    value = payload.get("currency")
    if not isinstance(value, str) or not _CURRENCY.fullmatch(value):
        raise ValidationFailed.for_field(field, "required: a 3-letter ISO 4217 code")
    return value.upper()


def _timestamp(payload: dict[str, Any], name: str, field: str) -> _dt.datetime:
    value = _text(payload, name, field)
    try:
        moment = _dt.datetime.fromisoformat(value)
        if moment.tzinfo is None:
            raise ValueError("no time zone")
        return moment.astimezone(_dt.timezone.utc)
    except (ValueError, OverflowError):  # OverflowError: the year 1 moved to UTC
        raise ValidationFailed.for_field(field, "an ISO 8601 timestamp with its time zone") from None


# --- signatures -------------------------------------------------------------------------------------

def gateway_a_signature(secret: str, raw_body: bytes) -> str:
    """Lowercase hex HMAC-SHA256 of the exact body, keyed with the secret's UTF-8 bytes."""
    return hmac.new(secret.encode(), raw_body, hashlib.sha256).hexdigest()


def gateway_b_signature(secret: str, timestamp: int, raw_body: bytes) -> str:
    """Lowercase hex HMAC-SHA256 of `{timestamp}.{body}`: the timestamp is signed with the body."""
    return hmac.new(secret.encode(), f"{timestamp}.".encode() + raw_body, hashlib.sha256).hexdigest()


def verify_signature(provider: str, secret: str, raw_body: bytes, headers: Mapping[str, str], now: int) -> None:
    """Raises SignatureRefused (401) unless the provider's signature header signs these exact
    bytes with this secret (and, for gateway-b, a timestamp within the tolerance of `now`).
    `headers` has lowercase names."""
    header = SIGNATURE_HEADER[provider]
    sent = (headers.get(header.lower()) or "").strip()
    if not sent:
        raise SignatureRefused(f"The {header} header is required.", code="SIGNATURE_REQUIRED")
    if len(secret) < MIN_SECRET_LENGTH:  # never verify against an empty or weak key
        raise SignatureRefused()
    if provider == GATEWAY_A:
        if not _matches(gateway_a_signature(secret, raw_body), [sent]):
            raise SignatureRefused()
        return
    timestamp, candidates = _gateway_b_header(sent, header)
    if not _matches(gateway_b_signature(secret, timestamp, raw_body), candidates):
        raise SignatureRefused()
    if abs(now - timestamp) > TIMESTAMP_TOLERANCE_SECONDS:
        raise SignatureRefused(f"The signature's timestamp is more than {TIMESTAMP_TOLERANCE_SECONDS} seconds "
                               "away from now: a replay, or a clock far off.", code="SIGNATURE_EXPIRED")


def _gateway_b_header(value: str, header: str) -> tuple[int, list[str]]:
    """`t=<unix seconds>,v1=<hex>[,v1=<hex>...]`: several v1 while the gateway rotates its secret."""
    timestamp, candidates = None, []
    for part in value.split(","):
        name, _, item = part.strip().partition("=")
        if name == "t" and item.isascii() and item.isdigit() and len(item) <= 12:  # 0-9 only: int() reads others
            timestamp = int(item)
        elif name == "v1":
            candidates.append(item)
    if timestamp is None or not candidates:
        raise SignatureRefused(f"The {header} header must be t=<unix seconds>,v1=<hex>.")
    return timestamp, candidates


def _matches(expected: str, candidates: list[str]) -> bool:
    return any(_HEX_SHA256.fullmatch(candidate) and hmac.compare_digest(expected, candidate.lower())
               for candidate in candidates)


# --- payment links --------------------------------------------------------------------------------

def link_amount(requested: Decimal | None, pending: Decimal) -> Decimal:
    """What a link asks for: the document's pending unless told, and more than 0 (the payment
    rules check it against the pending)."""
    amount = pending if requested is None else requested
    if amount <= 0:
        raise ValidationFailed.for_field("amount", "must be greater than 0")
    return amount


# How far behind ours a gateway's clock may be: a payment dated before its link was created is
# otherwise impossible (a bogus or back-dated payload), refused as invalid.
CLOCK_SKEW = _dt.timedelta(minutes=5)
# The field of each provider's payload that dates the payment.
PAID_AT_FIELD = {GATEWAY_A: "data.paidAt", GATEWAY_B: "charge.created"}


def paid_before_link(created_at: _dt.datetime, paid_at: _dt.datetime) -> bool:
    return paid_at < created_at - CLOCK_SKEW


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
