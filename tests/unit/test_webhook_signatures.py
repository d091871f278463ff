"""Delivery signatures against independent computations, delivery ids and the backoff."""
from __future__ import annotations

import base64
import hashlib
import hmac

from chalicelib.domain import webhooks

SECRET = "whsec_" + base64.b64encode(bytes(range(32))).decode()
BODY = '{"event":"payment.created","companyId":7,"data":{"name":"Pañalera Ñandú"}}'.encode()


def test_the_service_signature_is_the_hex_hmac_of_the_exact_bytes_keyed_with_the_whole_secret():
    expected = hmac.new(SECRET.encode("utf-8"), BODY, hashlib.sha256).hexdigest()
    assert webhooks.service_signature(SECRET, BODY) == f"sha256={expected}"
    # one byte more (a space, a reordered key) is another signature
    assert webhooks.service_signature(SECRET, BODY + b" ") != f"sha256={expected}"


def test_the_standard_webhooks_signature_signs_id_timestamp_and_body_with_the_decoded_key():
    signed = b"dlv_1_abc.1700000000." + BODY
    expected = base64.b64encode(hmac.new(bytes(range(32)), signed, hashlib.sha256).digest()).decode()
    assert webhooks.standard_signature(SECRET, "dlv_1_abc", 1700000000, BODY) == f"v1,{expected}"
    headers = webhooks.delivery_headers(SECRET, "payment.created", "dlv_1_abc", 1700000000, BODY)
    assert headers == {"Content-Type": "application/json", "User-Agent": "Service-Webhooks/1.0",
                       "X-Service-Event": "payment.created", "X-Service-Delivery-Id": "dlv_1_abc",
                       "X-Service-Signature": webhooks.service_signature(SECRET, BODY),
                       "webhook-id": "dlv_1_abc", "webhook-timestamp": "1700000000",
                       "webhook-signature": f"v1,{expected}"}


def test_new_secrets_are_random_32_bytes():
    first, second = webhooks.new_secret(), webhooks.new_secret()
    assert first != second and len(base64.b64decode(first.removeprefix("whsec_"))) == 32


def test_delivery_ids_are_stable_per_event_and_subscription_and_sort_by_time():
    one = webhooks.delivery_id("e1", 3, "2026-11-23T09:00:00.000Z")
    assert one == webhooks.delivery_id("e1", 3, "2026-11-23T09:00:00.000Z") and webhooks.is_delivery_id(one)
    assert one != webhooks.delivery_id("e1", 4, "2026-11-23T09:00:00.000Z")
    assert one < webhooks.delivery_id("e0", 3, "2026-11-23T09:00:00.001Z")
    assert not webhooks.is_delivery_id("dlv_../../x")


def test_backoff_doubles_from_the_base_and_stays_within_sqs_limits():
    assert [webhooks.backoff_seconds(30, n) for n in (1, 2, 3)] == [30, 60, 120]
    assert webhooks.backoff_seconds(0.2, 1) == 1 and webhooks.backoff_seconds(30, 40) == 12 * 3600
