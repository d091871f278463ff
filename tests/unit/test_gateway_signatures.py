"""The two gateways' notification formats and signatures, checked against HMACs computed here
over the exact bytes sent."""
from __future__ import annotations

import datetime as dt
import hashlib
import hmac
import json
from decimal import Decimal

import pytest

from chalicelib.domain import gateways as gateway_rules
from chalicelib.errors import ApiError

SECRET = "gw_test_secret_0123456789abcdef"
NOW = 1_793_000_000
# compact and with a non-ASCII character: the bytes signed are the bytes sent, nothing re-encoded
A_BODY = ('{"event":"payment.succeeded","data":{"linkId":"pl_abcdefghijklmnopqrstuvwx","transactionId":"txa_1",'
          '"amount":"12.30","currency":"hnl","paidAt":"2026-11-03T10:00:00Z","payer":"José"}}').encode()
B_BODY = json.dumps({"type": "charge.completed", "charge": {"id": "ch_9", "reference": "pl_abcdefghijklmnopqrstuvwx",
                                                            "amountCents": 1234, "currency": "HNL",
                                                            "created": NOW - 60}}, indent=2).encode()


def hmac_hex(message: bytes, secret: str = SECRET) -> str:
    return hmac.new(secret.encode("utf-8"), message, hashlib.sha256).hexdigest()


def a_headers(signature: str) -> dict[str, str]:
    return {"x-gateway-a-signature": signature}


def b_headers(timestamp: int, *signatures: str) -> dict[str, str]:
    return {"gateway-b-signature": ",".join([f"t={timestamp}"] + [f"v1={s}" for s in signatures])}


def refused_code(provider: str, body: bytes, headers: dict[str, str], secret: str = SECRET, now: int = NOW) -> str:
    with pytest.raises(ApiError) as refused:
        gateway_rules.verify_signature(provider, secret, body, headers, now)
    assert refused.value.status == 401
    return refused.value.code


def test_gateway_a_accepts_the_hmac_of_the_exact_body():
    expected = hmac_hex(A_BODY)
    assert gateway_rules.gateway_a_signature(SECRET, A_BODY) == expected
    gateway_rules.verify_signature(gateway_rules.GATEWAY_A, SECRET, A_BODY, a_headers(expected), NOW)
    gateway_rules.verify_signature(gateway_rules.GATEWAY_A, SECRET, A_BODY, a_headers(expected.upper()), NOW)


def test_gateway_a_refuses_a_tampered_body_another_secret_and_a_missing_header():
    signature = hmac_hex(A_BODY)
    tampered = A_BODY.replace(b'"12.30"', b'"99.30"')
    assert refused_code(gateway_rules.GATEWAY_A, tampered, a_headers(signature)) == "INVALID_SIGNATURE"
    # the same JSON re-serialized is other bytes: it is not what was signed
    reformatted = json.dumps(json.loads(A_BODY)).encode()
    assert refused_code(gateway_rules.GATEWAY_A, reformatted, a_headers(signature)) == "INVALID_SIGNATURE"
    assert refused_code(gateway_rules.GATEWAY_A, A_BODY, a_headers(hmac_hex(A_BODY, SECRET + "x"))) == "INVALID_SIGNATURE"
    assert refused_code(gateway_rules.GATEWAY_A, A_BODY, a_headers("sha256=" + signature)) == "INVALID_SIGNATURE"
    assert refused_code(gateway_rules.GATEWAY_A, A_BODY, {}) == "SIGNATURE_REQUIRED"
    assert refused_code(gateway_rules.GATEWAY_A, A_BODY, a_headers("   ")) == "SIGNATURE_REQUIRED"
    # gateway-b's header on gateway-a's route is no signature at all
    assert refused_code(gateway_rules.GATEWAY_A, A_BODY, b_headers(NOW, signature)) == "SIGNATURE_REQUIRED"


def test_gateway_b_signs_the_timestamp_with_the_body():
    timestamp = NOW - 10
    expected = hmac_hex(f"{timestamp}.".encode() + B_BODY)
    assert gateway_rules.gateway_b_signature(SECRET, timestamp, B_BODY) == expected
    gateway_rules.verify_signature(gateway_rules.GATEWAY_B, SECRET, B_BODY, b_headers(timestamp, expected), NOW)
    # while the gateway rotates its secret it sends one signature per secret
    gateway_rules.verify_signature(gateway_rules.GATEWAY_B, SECRET, B_BODY,
                           b_headers(timestamp, hmac_hex(f"{timestamp}.".encode() + B_BODY, "old" + SECRET), expected),
                           NOW)
    # the body signed alone (gateway-a's scheme) is not gateway-b's signature
    assert refused_code(gateway_rules.GATEWAY_B, B_BODY, b_headers(timestamp, hmac_hex(B_BODY))) == "INVALID_SIGNATURE"
    # moving the signature to another timestamp breaks it
    assert refused_code(gateway_rules.GATEWAY_B, B_BODY, b_headers(timestamp + 1, expected)) == "INVALID_SIGNATURE"
    tampered = B_BODY.replace(b"1234", b"9234")
    assert refused_code(gateway_rules.GATEWAY_B, tampered, b_headers(timestamp, expected)) == "INVALID_SIGNATURE"


def test_gateway_b_refuses_stale_or_future_timestamps_and_malformed_headers():
    for offset in (gateway_rules.TIMESTAMP_TOLERANCE_SECONDS + 1, -gateway_rules.TIMESTAMP_TOLERANCE_SECONDS - 1):
        timestamp = NOW - offset
        signed = hmac_hex(f"{timestamp}.".encode() + B_BODY)
        assert refused_code(gateway_rules.GATEWAY_B, B_BODY, b_headers(timestamp, signed)) == "SIGNATURE_EXPIRED"
    edge = NOW - gateway_rules.TIMESTAMP_TOLERANCE_SECONDS
    gateway_rules.verify_signature(gateway_rules.GATEWAY_B, SECRET, B_BODY, b_headers(edge, hmac_hex(f"{edge}.".encode() + B_BODY)), NOW)
    signed = hmac_hex(f"{NOW}.".encode() + B_BODY)
    for header in (f"v1={signed}", f"t={NOW}", f"t=abc,v1={signed}", signed):
        assert refused_code(gateway_rules.GATEWAY_B, B_BODY, {"gateway-b-signature": header}) == "INVALID_SIGNATURE", header
    assert refused_code(gateway_rules.GATEWAY_B, B_BODY, {}) == "SIGNATURE_REQUIRED"


def test_an_empty_secret_never_verifies():
    assert refused_code(gateway_rules.GATEWAY_A, A_BODY, a_headers(hmac_hex(A_BODY, "")), secret="") == "INVALID_SIGNATURE"


def test_payloads_parse_to_one_notification_shape():
    a = gateway_rules.parse_notification(gateway_rules.GATEWAY_A, A_BODY)
    assert (a.event, a.link_id, a.transaction_id, a.amount, a.currency, a.collected) == (
        "payment.succeeded", "pl_abcdefghijklmnopqrstuvwx", "txa_1", Decimal("12.30"), "HNL", True)
    assert a.paid_at == dt.datetime(2026, 11, 3, 10, tzinfo=dt.timezone.utc)
    b = gateway_rules.parse_notification(gateway_rules.GATEWAY_B, B_BODY)
    assert (b.event, b.link_id, b.transaction_id, b.amount, b.currency, b.collected) == (
        "charge.completed", "pl_abcdefghijklmnopqrstuvwx", "ch_9", Decimal("12.34"), "HNL", True)
    assert b.paid_at == dt.datetime.fromtimestamp(NOW - 60, dt.timezone.utc)
    failed = gateway_rules.parse_notification(gateway_rules.GATEWAY_B, B_BODY.replace(b"charge.completed", b"charge.failed"))
    assert not failed.collected


@pytest.mark.parametrize("provider, body, field", [
    (gateway_rules.GATEWAY_A, b"{not json", None),
    (gateway_rules.GATEWAY_A, b"[]", "body"),
    (gateway_rules.GATEWAY_A, b'{"event":"payment.succeeded"}', "data"),
    (gateway_rules.GATEWAY_A, A_BODY.replace(b'"12.30"', b"12.30"), "data.amount"),
    (gateway_rules.GATEWAY_A, A_BODY.replace(b'"12.30"', b'"12.345"'), "data.amount"),
    (gateway_rules.GATEWAY_A, A_BODY.replace(b'"12.30"', b'"0.00"'), "data.amount"),
    (gateway_rules.GATEWAY_A, A_BODY.replace(b'"2026-11-03T10:00:00Z"', b'"2026-11-03T10:00:00"'), "data.paidAt"),
    (gateway_rules.GATEWAY_A, A_BODY.replace(b'"2026-11-03T10:00:00Z"', b'"0001-01-01T00:00:00+14:00"'), "data.paidAt"),
    (gateway_rules.GATEWAY_A, A_BODY.replace(b'"hnl"', b'"lempira"'), "data.currency"),
    (gateway_rules.GATEWAY_A, A_BODY.replace(b'"txa_1"', b'"tx a"'), "data.transactionId"),
    (gateway_rules.GATEWAY_B, B_BODY.replace(b"1234", b"12.34"), "charge.amountCents"),
    (gateway_rules.GATEWAY_B, B_BODY.replace(b"1234", b"true"), "charge.amountCents"),
    (gateway_rules.GATEWAY_B, B_BODY.replace(b"1234", b"-5"), "charge.amountCents"),
    (gateway_rules.GATEWAY_B, B_BODY.replace(b'"reference"', b'"ref"'), "charge.reference"),
    (gateway_rules.GATEWAY_B, A_BODY, "charge"),
])
def test_malformed_payloads_are_400_naming_the_field(provider, body, field):
    with pytest.raises(ApiError) as refused:
        gateway_rules.parse_notification(provider, body)
    assert refused.value.status == 400
    if field is None:
        assert refused.value.code == "MALFORMED_JSON"
    else:
        assert refused.value.details[0]["field"] == field


def test_link_ids_are_unguessable_and_recognizable():
    ids = {gateway_rules.new_link_id() for _ in range(200)}
    assert len(ids) == 200
    assert all(gateway_rules.is_link_id(link_id) and len(link_id) == 27 for link_id in ids)
    assert not gateway_rules.is_link_id("pl_" + "A" * 24) and not gateway_rules.is_link_id("KEY#x")


def test_link_amounts_default_to_the_pending_total_and_are_positive():
    assert gateway_rules.link_amount(None, Decimal("115.00")) == Decimal("115.00")
    assert gateway_rules.link_amount(Decimal("15.00"), Decimal("115.00")) == Decimal("15.00")
    with pytest.raises(ApiError) as zero:
        gateway_rules.link_amount(Decimal(0), Decimal("115.00"))
    assert zero.value.code == "VALIDATION_ERROR"
