"""PixelPay's formats (chalicelib/domain/pixelpay.py), no I/O: the hashes against the values the
SDKs and docs publish (or computed here by hand with hashlib), the hosted page's address, and
reading a callback and a status answer."""
from __future__ import annotations

import base64
import datetime as dt
import hashlib
import json
import urllib.parse
from decimal import Decimal

import pytest

from chalicelib import jsoncodec
from chalicelib.domain import pixelpay
from chalicelib.errors import MalformedJson, ValidationFailed

SANDBOX_SECRET = "@s4ndb0x-abcd-1234-n1l4-p1x3l"
JSON = "application/json"
FORM = "application/x-www-form-urlencoded"


def test_the_auth_hash_is_the_md5_of_the_secret_as_the_sdk_and_docs_publish():
    # PHP SDK tests/Unit/SettingsTest.php and docs sandbox/installation: the sandbox's x-auth-hash
    assert pixelpay.auth_headers("1234567890", SANDBOX_SECRET) == {
        "x-auth-key": "1234567890", "x-auth-hash": "36cdf8271723276cb6f94904f8bde4b6"}
    # docs /docs/en/sdk/models: secret c0c485c0-4515-11ec-81d3-0242 -> 79ac9a7b...
    assert pixelpay.auth_headers("k", "c0c485c0-4515-11ec-81d3-0242")["x-auth-hash"] == "79ac9a7ba7ced61faf750faa10e92037"


def test_the_auth_user_is_the_sha512_of_the_users_email():
    headers = pixelpay.auth_headers("1234567890", SANDBOX_SECRET, "johndoe@email.test")
    # docs /docs/en/sdk/models: johndoe@email.test -> 59f9ec68a047719a30d2e52cb79f1306184...
    assert headers["x-auth-user"].startswith("59f9ec68a047719a30d2e52cb79f1306184")
    assert len(headers["x-auth-user"]) == 128


def test_the_payment_hash_is_md5_of_order_key_and_raw_secret():
    # by hand: MD5("pl_abc|1234567890|@s4ndb0x-abcd-1234-n1l4-p1x3l") (md5sum: 0ae3a018...)
    expected = hashlib.md5(b"pl_abc|1234567890|@s4ndb0x-abcd-1234-n1l4-p1x3l").hexdigest()
    assert expected == "0ae3a018757cc727225e39fc03ab56fe"
    assert pixelpay.payment_hash("pl_abc", "1234567890", SANDBOX_SECRET) == expected
    assert pixelpay.payment_hash_matches(expected.upper(), "pl_abc", "1234567890", SANDBOX_SECRET)
    assert not pixelpay.payment_hash_matches(expected, "pl_abd", "1234567890", SANDBOX_SECRET)  # another order
    assert not pixelpay.payment_hash_matches(expected, "pl_abc", "1234567890", "another secret")
    # the secret's MD5 in its place is not the scheme
    assert not pixelpay.payment_hash_matches(
        hashlib.md5(b"pl_abc|1234567890|36cdf8271723276cb6f94904f8bde4b6").hexdigest(), "pl_abc", "1234567890",
        SANDBOX_SECRET)
    assert not pixelpay.payment_hash_matches("not hex", "pl_abc", "1234567890", SANDBOX_SECRET)


def test_the_void_signature_is_the_sha512_the_js_sdk_test_asserts():
    # JS SDK 2.4.10 tests/Transaction.test.ts "Void Transaction with signature": d206a1e5...a5b1fc
    signature = pixelpay.void_signature("sonia@pixel.hn", "20230530", SANDBOX_SECRET)
    assert signature.startswith("d206a1e5") and signature.endswith("a5b1fc")
    assert signature == hashlib.sha512(b"sonia@pixel.hn|20230530|@s4ndb0x-abcd-1234-n1l4-p1x3l").hexdigest()
    body = pixelpay.void_body(True, "P-1", "20230530", "cancelled invoice", "sonia@pixel.hn", SANDBOX_SECRET)
    assert body == {"payment_uuid": "P-1", "void_reason": "cancelled invoice", "void_signature": signature,
                    "env": "sandbox", "lang": "es"}


def test_requests_name_their_environment_and_the_base_url_follows_the_mode():
    assert pixelpay.status_body(True, "P-1") == {"payment_uuid": "P-1", "env": "sandbox", "lang": "es"}
    assert pixelpay.status_body(False, "P-1")["env"] == "live"
    assert pixelpay.base_url(True, "https://shop.pixelpay.app", "https://pixelpay.app", "https://pixelpay.dev/") == \
        "https://pixelpay.dev"
    assert pixelpay.base_url(False, "https://shop.pixelpay.app/", "https://pixelpay.app", "https://pixelpay.dev") == \
        "https://shop.pixelpay.app"
    assert pixelpay.base_url(False, None, "https://pixelpay.app", "https://pixelpay.dev") == "https://pixelpay.app"


def test_the_hosted_page_carries_the_order():
    ordered = dt.datetime(2025, 3, 1, 18, 5, tzinfo=dt.timezone.utc)  # 12:05 in Honduras (UTC-6)
    url = pixelpay.hosted_page_url("https://pixelpay.dev/", pixelpay.HostedPayment(
        key_id="1234567890", order_id="pl_abc", amount=Decimal("1150"), currency="HNL", description="Factura 001",
        callback_url="https://api.example.test/webhooks/gateway-a", cancel_url="https://app/#/pay/cancel",
        complete_url="https://app/#/pay/done?link=pl_abc", ordered_at=ordered,
        customer_name="Ana María López", customer_email="ana@example.hn"))
    parts = urllib.parse.urlsplit(url)
    assert f"{parts.scheme}://{parts.netloc}{parts.path}" == "https://pixelpay.dev/hosted/payment/other"
    query = dict(urllib.parse.parse_qsl(parts.query))
    assert {name: query[name] for name in ("_key", "_order_id", "_amount", "_currency", "_callback", "_complete",
                                           "_cancel", "_order_date", "_email", "_first_name", "_last_name")} == {
        "_key": "1234567890", "_order_id": "pl_abc", "_amount": "1150.00", "_currency": "HNL",
        "_callback": "https://api.example.test/webhooks/gateway-a", "_complete": "https://app/#/pay/done?link=pl_abc",
        "_cancel": "https://app/#/pay/cancel", "_order_date": "01-03-25 12:05", "_email": "ana@example.hn",
        "_first_name": "Ana", "_last_name": "María López"}
    assert json.loads(base64.b64decode(query["_order_content"])) == [
        {"code": "pl_abc", "title": "Factura 001", "price": "1150.00", "qty": 1, "tax": "0.00", "total": "1150.00"}]


def _callback(**fields):
    base = {"order_id": "pl_abc", "payment_uuid": "P-123", "payment_hash": "0ae3a018757cc727225e39fc03ab56fe",
            "transaction_approved_amount": 1150.0, "transaction_amount": 1150.0, "order_currency": "HNL",
            "response_approved": True, "transaction_date": "2025-03-01", "transaction_time": "12:05:30"}
    base.update(fields)
    return {name: value for name, value in base.items() if value is not None}


def test_a_json_callback_is_read_in_the_sdks_names():
    notification = pixelpay.parse_callback(json.dumps(_callback()).encode(), JSON)
    assert (notification.provider, notification.link_id, notification.transaction_id, notification.approved,
            notification.amount, notification.currency) == ("pixelpay", "pl_abc", "P-123", True, Decimal("1150.00"), "HNL")
    # 12:05:30 in Honduras is 18:05:30 UTC
    assert notification.paid_at == dt.datetime(2025, 3, 1, 18, 5, 30, tzinfo=dt.timezone.utc)


def test_a_form_callback_is_read_alike():
    body = urllib.parse.urlencode(_callback(response_approved="false", transaction_approved_amount="0.00",
                                            transaction_amount="2.00")).encode()
    notification = pixelpay.parse_callback(body, FORM + "; charset=utf-8")
    # declined: nothing approved, the amount asked kept
    assert (notification.approved, notification.amount, notification.currency) == (False, Decimal("2.00"), "HNL")
    assert pixelpay.sent_payment_hash(pixelpay.result_fields(body, FORM)) == "0ae3a018757cc727225e39fc03ab56fe"


@pytest.mark.parametrize(("fields", "field"), [
    ({"order_id": None}, "order_id"),
    ({"payment_uuid": None}, "payment_uuid"),
    ({"payment_uuid": "has space"}, "payment_uuid"),
    ({"response_approved": None}, "response_approved"),
    ({"response_approved": "maybe"}, "response_approved"),
    ({"transaction_approved_amount": "1,150.00"}, "transaction_approved_amount"),
    ({"transaction_approved_amount": -1}, "transaction_approved_amount"),
    ({"transaction_amount": 1.001, "transaction_approved_amount": None}, "transaction_amount"),
    ({"order_currency": "LEMPIRAS"}, "order_currency"),
    ({"transaction_date": "01/03/2025"}, "transaction_date"),
    ({"transaction_time": "noon"}, "transaction_time"),
])
def test_a_malformed_callback_field_is_refused_by_name(fields, field):
    with pytest.raises(ValidationFailed) as refused:
        pixelpay.parse_callback(json.dumps(_callback(**fields)).encode(), JSON)
    assert refused.value.code == "VALIDATION_ERROR" and refused.value.details[0]["field"] == field


def test_a_body_neither_json_object_nor_form_is_refused():
    with pytest.raises(MalformedJson):
        pixelpay.parse_callback(b"{not json", JSON)
    with pytest.raises(ValidationFailed) as refused:
        pixelpay.parse_callback(b"[1, 2]", JSON)
    assert refused.value.details[0]["field"] == "body"


def test_the_status_answer_confirms_only_with_approval_amount_and_currency():
    # as it arrives: JSON numbers read as Decimal
    data = jsoncodec.loads(json.dumps({k: v for k, v in _callback().items() if k != "payment_hash"}))
    reading = pixelpay.read_status({"success": True, "message": "ok", "data": data})
    assert (reading.approved, reading.amount, reading.currency, reading.payment_uuid) == (
        True, Decimal("1150.00"), "HNL", "P-123")
    for missing, named in (("response_approved", "response_approved"), ("order_currency", "order_currency")):
        with pytest.raises(pixelpay.StatusUnreadable, match=named):
            pixelpay.read_status({"data": {k: v for k, v in data.items() if k != missing}})
    with pytest.raises(pixelpay.StatusUnreadable, match="transaction_approved_amount"):
        pixelpay.read_status({"data": {k: v for k, v in data.items() if "amount" not in k}})
    with pytest.raises(pixelpay.StatusUnreadable):
        pixelpay.read_status({"status": "paid", "attemps": 1, "history": []})  # the shape a third party saw
    declined = pixelpay.read_status({"data": {"payment_uuid": "P-9", "response_approved": False}})
    assert (declined.approved, declined.amount, declined.currency) == (False, None, None)
