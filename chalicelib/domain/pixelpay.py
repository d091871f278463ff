"""PixelPay (Honduras; HNL and USD) on the wire, no I/O (issue 43): the request headers and bodies
of its transaction API, the hosted payment page's address, the `payment_hash` that signs a
result, and reading a result (the callback the hosted page posts, the status call's answer).

Documented (docs/gateways.md "PixelPay" gives each source): `x-auth-key`, `x-auth-hash` = MD5 of
the secret key, `x-auth-user` = SHA-512 of the merchant user's e-mail; `POST
/api/v2/transaction/{status,void}`; the hosted page's `_key, _callback, _cancel, _complete,
_order_id, _order_date, _order_content`; `payment_hash` = MD5(`order_id|key_id|secret`); the
SDK's TransactionResult field names. Assumed (not documented, kept to): the hosted page's path and
its amount, currency and customer fields, the callback's body, the status answer's fields, and
`void_signature` = SHA-512(`email|order_id|secret`) (the SDK's one test of it)."""
from __future__ import annotations

import base64
import datetime as _dt
import hashlib
import hmac
import ipaddress
import json
import re
import urllib.parse
from dataclasses import dataclass
from decimal import ROUND_DOWN, Decimal, InvalidOperation
from typing import Any, Mapping

from chalicelib.domain.gateways import ProviderNotification, json_object
from chalicelib.domain.money import MAX_AMOUNT
from chalicelib.errors import ValidationFailed

PROVIDER = "pixelpay"
CURRENCIES = ("HNL", "USD")
# the public sandbox's fixed credentials (every SDK's setupSandbox)
SANDBOX_KEY_ID = "1234567890"
SANDBOX_SECRET = "@s4ndb0x-abcd-1234-n1l4-p1x3l"
SALE_PATH = "/api/v2/transaction/sale"
STATUS_PATH = "/api/v2/transaction/status"
VOID_PATH = "/api/v2/transaction/void"
HOSTED_PAGE_PATH = "/hosted/payment/other"
# the hosts a production gateway's own `endpoint` may name: PixelPay's and its subdomains (a
# merchant's, such as banrural.pixelpay.app), plus those a setting allows (PIXELPAY_ALLOWED_HOSTS)
PIXELPAY_HOST = "pixelpay.app"
_HOST_LABEL = re.compile(r"(?!-)[a-z0-9-]{1,63}(?<!-)")
# PixelPay's own clock: Honduras, UTC-6 all year (no daylight saving)
HONDURAS = _dt.timezone(_dt.timedelta(hours=-6), "America/Tegucigalpa")

CENT = Decimal("0.01")
_MD5_HEX = re.compile(r"[0-9a-fA-F]{32}")
_PAYMENT_UUID = re.compile(r"[\x21-\x7e]{1,200}")
_CURRENCY = re.compile(r"[A-Za-z]{3}")
_DATE = re.compile(r"\d{4}-\d{2}-\d{2}")
_TIME = re.compile(r"\d{2}:\d{2}(:\d{2})?")


# --- credentials and requests ---------------------------------------------------------------

def md5_hex(text: str) -> str:
    return hashlib.md5(text.encode()).hexdigest()  # noqa: S324 (PixelPay's documented scheme, not our security)


def sha512_hex(text: str) -> str:
    return hashlib.sha512(text.encode()).hexdigest()


def auth_headers(key_id: str, secret: str, user_email: str | None = None) -> dict[str, str]:
    """The headers of every API call; `x-auth-user` (who signs a void) only when a user is given."""
    headers = {"x-auth-key": key_id, "x-auth-hash": md5_hex(secret)}
    if user_email:
        headers["x-auth-user"] = sha512_hex(user_email)
    return headers


def base_url(test_mode: bool, endpoint: str | None, production_url: str, sandbox_url: str) -> str:
    """Test mode speaks to the sandbox; production to the merchant's own host if it has one."""
    if test_mode:
        return sandbox_url.rstrip("/")
    return (endpoint or production_url).rstrip("/")


def endpoint_problem(endpoint: str, allowed_hosts: tuple[str, ...] = ()) -> str | None:
    """Why a gateway's own `endpoint` cannot be PixelPay's host, or None. Production calls send it
    PixelPay's credential (x-auth-hash is MD5 of the secret) and the void signature: only https to
    pixelpay.app or a subdomain (or a host `allowed_hosts` names, or a subdomain of one), by name,
    on port 443, nothing after the host but "/"."""
    problem = "must be an https address of PixelPay by its name: pixelpay.app or one of its subdomains"
    try:
        parts = urllib.parse.urlsplit(endpoint)
        port = parts.port
    except ValueError:
        return problem
    host = (parts.hostname or "").rstrip(".")
    if (parts.scheme != "https" or parts.username is not None or parts.password is not None
            or port not in (None, 443) or parts.path not in ("", "/") or parts.query or parts.fragment
            or "@" in parts.netloc or not host):
        return problem
    labels = host.split(".")
    if len(labels) < 2 or not all(_HOST_LABEL.fullmatch(label) for label in labels) or labels[-1].isdigit() \
            or _is_ip_literal(host):
        return problem
    trusted = (PIXELPAY_HOST, *(allowed.strip().lower().rstrip(".") for allowed in allowed_hosts if allowed.strip()))
    if not any(host == name or host.endswith("." + name) for name in trusted):
        return problem
    return None


def _is_ip_literal(host: str) -> bool:
    try:
        ipaddress.ip_address(host)
    except ValueError:
        return False
    return True


def environment(test_mode: bool) -> str:
    """The body's `env`: the sandbox refuses its key without `sandbox`."""
    return "sandbox" if test_mode else "live"


def _body(test_mode: bool, fields: dict[str, Any]) -> dict[str, Any]:
    return {**fields, "env": environment(test_mode), "lang": "es"}


def status_body(test_mode: bool, payment_uuid: str) -> dict[str, Any]:
    return _body(test_mode, {"payment_uuid": payment_uuid})


def void_signature(user_email: str, order_id: str, secret: str) -> str:
    """SHA-512 of `email|order_id|secret`, lowercase hex: the SDK's only evidence (its test "Void
    Transaction with signature"); to verify against the sandbox."""
    return sha512_hex(f"{user_email}|{order_id}|{secret}")


def void_body(test_mode: bool, payment_uuid: str, order_id: str, reason: str, user_email: str,
              secret: str) -> dict[str, Any]:
    return _body(test_mode, {"payment_uuid": payment_uuid, "void_reason": reason[:200],
                             "void_signature": void_signature(user_email, order_id, secret)})


def amount_text(amount: Decimal) -> str:
    """The SDK's parseAmount: a string with 2 decimals ("1150.00")."""
    return str(amount.quantize(CENT))


@dataclass(frozen=True)
class HostedPayment:
    key_id: str
    order_id: str
    amount: Decimal
    currency: str
    description: str
    callback_url: str
    cancel_url: str
    complete_url: str
    ordered_at: _dt.datetime
    customer_name: str | None = None
    customer_email: str | None = None


def hosted_page_url(base: str, payment: HostedPayment) -> str:
    """The hosted payment page with the order in its query. `_order_content` is base64 of the JSON
    items (the SDK's Item: code, title, price, qty, tax, total); `_order_date` is "dd-mm-yy hh:mm"
    in Honduras time."""
    amount = amount_text(payment.amount)
    item = {"code": payment.order_id, "title": payment.description[:120], "price": amount, "qty": 1,
            "tax": "0.00", "total": amount}
    fields = {"_key": payment.key_id, "_callback": payment.callback_url, "_cancel": payment.cancel_url,
              "_complete": payment.complete_url, "_order_id": payment.order_id,
              "_order_date": payment.ordered_at.astimezone(HONDURAS).strftime("%d-%m-%y %H:%M"),
              "_order_content": base64.b64encode(json.dumps([item]).encode()).decode(),
              "_amount": amount, "_currency": payment.currency}
    if payment.customer_email:
        fields["_email"] = payment.customer_email
    if payment.customer_name:
        first, _, last = payment.customer_name.strip().partition(" ")
        fields["_first_name"] = first
        if last.strip():
            fields["_last_name"] = last.strip()
    return f"{base.rstrip('/')}{HOSTED_PAGE_PATH}?{urllib.parse.urlencode(fields)}"


# --- payment_hash ---------------------------------------------------------------------------------

def payment_hash(order_id: str, key_id: str, secret: str) -> str:
    """MD5 of `order_id|key_id|secret` (the raw secret), lowercase hex: the SDK's verifyPaymentHash."""
    return md5_hex(f"{order_id}|{key_id}|{secret}")


def payment_hash_matches(sent: str, order_id: str, key_id: str, secret: str) -> bool:
    """Never with an empty secret: anyone can compute that hash."""
    sent = sent.strip()
    return bool(secret) and bool(_MD5_HEX.fullmatch(sent)) and hmac.compare_digest(payment_hash(order_id, key_id, secret),
                                                                   sent.lower())


# --- reading a result -----------------------------------------------------------------------------

def result_fields(raw_body: bytes, content_type: str | None) -> dict[str, Any]:
    """The callback's fields: a JSON object, or an x-www-form-urlencoded form (the hosted page's
    own format); 400 when neither."""
    kind = (content_type or "").split(";")[0].strip().lower()
    if kind == "application/x-www-form-urlencoded":
        try:
            text = raw_body.decode("utf-8")
        except UnicodeDecodeError:
            raise ValidationFailed.for_field("body", "must be a JSON object or a UTF-8 form") from None
        return dict(urllib.parse.parse_qsl(text, keep_blank_values=True))
    return json_object(raw_body, "must be a JSON object or a UTF-8 form")


def sent_payment_hash(fields: Mapping[str, Any]) -> str | None:
    value = fields.get("payment_hash")
    return value.strip() or None if isinstance(value, str) else None


def parse_callback(raw_body: bytes, content_type: str | None) -> ProviderNotification:
    """What the hosted page's callback claims, in TransactionResult's names plus `order_id` (our
    link). Unknown fields are accepted; a malformed known one is 400 naming it."""
    fields = result_fields(raw_body, content_type)
    approved = _flag(fields, "response_approved", required=True)
    return ProviderNotification(
        provider=PROVIDER, link_id=_text(fields, "order_id"),
        transaction_id=_payment_uuid(fields), approved=bool(approved),
        amount=_result_amount(fields), currency=_optional_currency(fields, "order_currency"),
        paid_at=_paid_at(fields))


@dataclass(frozen=True)
class StatusReading:
    """The status call's answer about one transaction (its `data`, TransactionResult's names)."""
    payment_uuid: str | None
    order_id: str | None
    approved: bool
    amount: Decimal | None
    currency: str | None
    paid_at: _dt.datetime | None
    authorization: str | None
    message: str | None


class StatusUnreadable(ValueError):
    """The status answer does not say what confirming needs: nothing is confirmed on it."""


def read_status(answer: Any) -> StatusReading:
    """The status answer `{success, message, data: {...}}`. Its fields are not documented: we read
    TransactionResult's and require `response_approved`, and for an approval also the amount
    (`transaction_approved_amount`, else `transaction_amount`), `order_currency` and `order_id`."""
    if not isinstance(answer, dict) or not isinstance(answer.get("data"), dict):
        raise StatusUnreadable("data")
    data, message = answer["data"], answer.get("message")
    try:
        approved = _flag(data, "response_approved", required=True)
        amount = _result_amount(data)
        currency = _optional_currency(data, "order_currency")
        paid_at = _paid_at(data)
        uuid = _payment_uuid(data) if data.get("payment_uuid") is not None else None
        order_id = _text(data, "order_id") if data.get("order_id") is not None else None
    except ValidationFailed as refused:
        raise StatusUnreadable(refused.details[0]["field"] if refused.details else "data") from None
    if approved and amount is None:
        raise StatusUnreadable("transaction_approved_amount")
    if approved and currency is None:
        raise StatusUnreadable("order_currency")
    if approved and order_id is None:  # payment_hash signs the link, not the money: only this ties them
        raise StatusUnreadable("order_id")
    authorization = data.get("transaction_auth")
    return StatusReading(payment_uuid=uuid, order_id=order_id, approved=bool(approved), amount=amount,
                         currency=currency, paid_at=paid_at,
                         authorization=str(authorization) if authorization not in (None, "") else None,
                         message=message if isinstance(message, str) else None)


def answer_message(answer: Any) -> str:
    """PixelPay's own words about a refusal: its JSON `message`, at most 300 characters; never the
    text of an answer that is not PixelPay's JSON (a host that is not PixelPay's must not have its
    page read back through our errors)."""
    message = answer.get("message") if isinstance(answer, dict) else None
    return message.strip()[:300] if isinstance(message, str) and message.strip() else "-"


def _text(fields: Mapping[str, Any], name: str) -> str:
    value = fields.get(name)
    if isinstance(value, int) and not isinstance(value, bool):
        value = str(value)  # a numeric order id
    if not isinstance(value, str) or not 0 < len(value.strip()) <= 200:
        raise ValidationFailed.for_field(name, "required: PixelPay text of 1 to 200 characters")
    return value.strip()


def _payment_uuid(fields: Mapping[str, Any]) -> str:
    value = _text(fields, "payment_uuid")
    if not _PAYMENT_UUID.fullmatch(value):
        raise ValidationFailed.for_field("payment_uuid", "PixelPay's transaction id: visible ASCII characters only")
    return value


def _flag(fields: Mapping[str, Any], name: str, *, required: bool) -> bool | None:
    value = fields.get(name)
    if value is None and not required:
        return None
    if isinstance(value, bool):
        return value
    if isinstance(value, int) and value in (0, 1):
        return bool(value)
    if isinstance(value, str) and value.strip().lower() in ("true", "1", "false", "0"):
        return value.strip().lower() in ("true", "1")
    raise ValidationFailed.for_field(name, "required: true or false")


def _amount(fields: Mapping[str, Any], name: str) -> Decimal | None:
    value = fields.get(name)
    if value is None or value == "":
        return None
    if isinstance(value, bool) or not isinstance(value, (int, Decimal, str)):
        raise ValidationFailed.for_field(name, "a PixelPay amount: a number with at most 2 decimals")
    try:
        amount = Decimal(value.strip() if isinstance(value, str) else value)
    except InvalidOperation:
        raise ValidationFailed.for_field(name, "a PixelPay amount: a number with at most 2 decimals") from None
    if not amount.is_finite() or not 0 <= amount <= MAX_AMOUNT or amount != amount.quantize(CENT, ROUND_DOWN):
        raise ValidationFailed.for_field(name, "a PixelPay amount: a number with at most 2 decimals")
    return amount.quantize(CENT) if amount > 0 else None


def _result_amount(fields: Mapping[str, Any]) -> Decimal | None:
    """What was charged: the approved amount, else the amount asked (a decline approves nothing)."""
    approved = _amount(fields, "transaction_approved_amount")
    asked = _amount(fields, "transaction_amount")
    return approved if approved is not None else asked


def _optional_currency(fields: Mapping[str, Any], name: str) -> str | None:
    value = fields.get(name)
    if value is None or value == "":
        return None
    if not isinstance(value, str) or not _CURRENCY.fullmatch(value.strip()):
        raise ValidationFailed.for_field(name, "a 3-letter currency code PixelPay writes (HNL, USD)")
    return value.strip().upper()


def _paid_at(fields: Mapping[str, Any]) -> _dt.datetime | None:
    """`transaction_date` ("YYYY-MM-DD", or a whole ISO 8601 moment) and `transaction_time`
    ("HH:MM[:SS]"), in Honduras time unless the moment names its zone. Neither: None."""
    day, time = fields.get("transaction_date"), fields.get("transaction_time")
    if day in (None, ""):
        return None
    if not isinstance(day, str):
        raise ValidationFailed.for_field("transaction_date", "a PixelPay date: YYYY-MM-DD")
    day = day.strip()
    try:
        if _DATE.fullmatch(day):
            if time in (None, ""):
                time = "00:00:00"
            if not isinstance(time, str) or not _TIME.fullmatch(time.strip()):
                raise ValidationFailed.for_field("transaction_time", "a PixelPay time: HH:MM:SS")
            try:
                _dt.time.fromisoformat(time.strip())
            except ValueError:  # 99:99: the time is wrong, not the date
                raise ValidationFailed.for_field("transaction_time", "a PixelPay time: HH:MM:SS") from None
            moment = _dt.datetime.fromisoformat(f"{day}T{time.strip()}")
        else:
            moment = _dt.datetime.fromisoformat(day)
    except ValueError:
        raise ValidationFailed.for_field("transaction_date", "a PixelPay date: YYYY-MM-DD") from None
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=HONDURAS)
    try:
        return moment.astimezone(_dt.timezone.utc)
    except OverflowError:
        raise ValidationFailed.for_field("transaction_date", "a PixelPay date: YYYY-MM-DD") from None
