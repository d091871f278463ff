"""PixelPay's adapter against its stand-in (the `pixelpay` fixture, infra/devstack/pixelpay_standin.py):
the hosted page's address, the callback read and verified by payment_hash, the status call that
confirms it, a declined sandbox amount, a status call that times out, and a void."""
from __future__ import annotations

import datetime as dt
import hashlib
import json
import os
import time
import urllib.error
import urllib.parse
import urllib.request
from decimal import Decimal

import pytest

from chalicelib.domain.gateway_fees import FeeTerms
from chalicelib.domain.gateways import SignatureRefused
from chalicelib.errors import ValidationFailed
from chalicelib.services.integrations.providers import (
    CheckoutRequest,
    GatewayAccess,
    ProviderError,
    ProviderUnavailable,
    adapter_for,
)

SANDBOX_KEY, SANDBOX_SECRET = "1234567890", "@s4ndb0x-abcd-1234-n1l4-p1x3l"
NOTIFY = "https://api.example.test/webhooks/gateway-a"


def _access(key_id=SANDBOX_KEY, secret=SANDBOX_SECRET, mode="test", user_email=None):
    return GatewayAccess(provider="pixelpay", mode=mode, key_id=key_id, secret=secret, company_id=1, gateway_id=7,
                         user_email=user_email)


def _request(link_id, amount, currency="HNL"):
    return CheckoutRequest(link_id=link_id, amount=Decimal(amount), currency=currency, description="Factura 000-001",
                           customer_name="Ana López", customer_email="ana@example.hn",
                           expires_at=dt.datetime(2030, 1, 1, tzinfo=dt.timezone.utc), notification_url=NOTIFY,
                           return_url=f"https://app.example.test/#/pay/done?link={link_id}",
                           cancel_url="https://app.example.test/#/pay/cancel")


def _paid(pixelpay, access, link_id, amount, currency="HNL"):
    """The link's checkout, paid on the stand-in's hosted page: (adapter, delivery)."""
    adapter = adapter_for("pixelpay")
    checkout = adapter.create_checkout(access, _request(link_id, amount, currency))
    deliveries = pixelpay.pay(checkout.url)
    assert len(deliveries) == 1
    return adapter, deliveries[0]


def test_the_checkout_is_the_sandboxs_hosted_page_for_the_link(pixelpay):
    checkout = adapter_for("pixelpay").create_checkout(_access(), _request("pl_checkout", "1150"))
    parts = urllib.parse.urlsplit(checkout.url)
    query = dict(urllib.parse.parse_qsl(parts.query))
    # test mode: PIXELPAY_SANDBOX_URL, the stand-in in tests
    assert checkout.url.startswith(os.environ["PIXELPAY_SANDBOX_URL"] + "/hosted/payment/other?")
    assert (query["_key"], query["_order_id"], query["_amount"], query["_currency"], query["_callback"]) == (
        SANDBOX_KEY, "pl_checkout", "1150.00", "HNL", NOTIFY)
    assert checkout.provider_link_id is None


def test_a_paid_link_calls_back_verified_and_the_status_call_confirms_it(pixelpay):
    access = _access()
    adapter, delivery = _paid(pixelpay, access, "pl_paid", "1150.00")
    assert delivery.url == NOTIFY and delivery.headers["Content-Type"] == "application/json"
    notification = adapter.parse_notification(delivery.body, delivery.headers)
    assert (notification.link_id, notification.approved, notification.amount, notification.currency) == (
        "pl_paid", True, Decimal("1150.00"), "HNL")
    # the hash, worked by hand: MD5("pl_paid|1234567890|<sandbox secret>")
    assert json.loads(delivery.body)["payment_hash"] == hashlib.md5(
        f"pl_paid|{SANDBOX_KEY}|{SANDBOX_SECRET}".encode()).hexdigest()
    adapter.verify_notification(access, notification, delivery.body, delivery.headers)  # no refusal
    confirmation = adapter.confirm(access, notification)
    assert (confirmation.transaction_id, confirmation.approved, confirmation.amount, confirmation.currency,
            confirmation.live) == (notification.transaction_id, True, Decimal("1150.00"), "HNL", False)
    assert pixelpay.transactions[notification.transaction_id].order_id == "pl_paid"


def test_a_forged_or_missing_payment_hash_is_refused(pixelpay):
    access = _access()
    adapter, delivery = _paid(pixelpay, access, "pl_forged", "100.00")
    payload = json.loads(delivery.body)
    forged = json.dumps({**payload, "transaction_approved_amount": 1.00, "transaction_amount": 1.00}).encode()
    notification = adapter.parse_notification(forged, delivery.headers)
    # the hash signs the order, not the amount: a changed amount still verifies, the status call tells
    adapter.verify_notification(access, notification, forged, delivery.headers)
    assert adapter.confirm(access, notification).amount == Decimal("100.00")
    other_order = json.dumps({**payload, "order_id": "pl_other"}).encode()  # another link, the same hash
    with pytest.raises(SignatureRefused) as refused:
        adapter.verify_notification(access, adapter.parse_notification(other_order, delivery.headers), other_order,
                                    delivery.headers)
    assert refused.value.code == "INVALID_SIGNATURE" and refused.value.status == 401
    bare = json.dumps({k: v for k, v in payload.items() if k != "payment_hash"}).encode()
    with pytest.raises(SignatureRefused) as refused:
        adapter.verify_notification(access, adapter.parse_notification(bare, delivery.headers), bare, delivery.headers)
    assert refused.value.code == "SIGNATURE_REQUIRED"
    with pytest.raises(SignatureRefused):  # another merchant's secret
        adapter.verify_notification(_access(secret="another-merchant-secret"), notification, forged, delivery.headers)


def test_the_bad_hash_fault_sends_a_callback_that_does_not_verify(pixelpay):
    pixelpay.fault(bad_hash=True)
    adapter, delivery = _paid(pixelpay, _access(), "pl_badhash", "50.00")
    with pytest.raises(SignatureRefused):
        adapter.verify_notification(_access(), adapter.parse_notification(delivery.body, delivery.headers),
                                    delivery.body, delivery.headers)


@pytest.mark.parametrize(("amount", "message"), [("2.00", "Transacción denegada"),
                                                 ("4.00", "Tarjeta con reporte de robo o extravío")])
def test_a_declined_sandbox_amount_is_not_approved_anywhere(pixelpay, amount, message):
    access = _access()
    adapter, delivery = _paid(pixelpay, access, f"pl_declined{amount[0]}", amount)
    notification = adapter.parse_notification(delivery.body, delivery.headers)
    assert notification.approved is False
    confirmation = adapter.confirm(access, notification)
    assert (confirmation.approved, confirmation.message) == (False, message)


def test_a_sandbox_error_amount_keeps_no_transaction_and_calls_back_nothing(pixelpay):
    checkout = adapter_for("pixelpay").create_checkout(_access(), _request("pl_error", "3.00"))
    before = len(pixelpay.transactions)
    assert pixelpay.pay(checkout.url) == []
    assert len(pixelpay.transactions) == before


def test_a_status_call_that_times_out_or_fails_is_unavailable_and_a_retry_confirms(pixelpay):
    access = _access()
    adapter, delivery = _paid(pixelpay, access, "pl_timeout", "75.50")
    notification = adapter.parse_notification(delivery.body, delivery.headers)
    pixelpay.fault(status_timeout=True)
    started = time.monotonic()
    with pytest.raises(ProviderUnavailable):
        adapter.confirm(access, notification)
    assert time.monotonic() - started < 2.9  # the adapter's deadline (GATEWAY_TIMEOUT_S=2), not the stand-in's 3 s
    pixelpay.reset_faults()
    pixelpay.fault(status_unavailable=True)
    with pytest.raises(ProviderUnavailable):
        adapter.confirm(access, notification)
    pixelpay.reset_faults()
    assert adapter.confirm(access, notification).amount == Decimal("75.50")


def test_wrong_credentials_are_a_provider_error_with_pixelpays_message(pixelpay):
    access = _access()
    adapter, delivery = _paid(pixelpay, access, "pl_creds", "15.00")  # 10.00 is a sandbox error case
    notification = adapter.parse_notification(delivery.body, delivery.headers)
    with pytest.raises(ProviderError) as refused:
        adapter.confirm(_access(secret="wrong-secret-entirely"), notification)
    assert refused.value.status == 502 and "Credenciales de comercio inválidas" in refused.value.message


def test_a_registered_merchant_in_production_and_its_void(pixelpay):
    key, secret, email = "7812290000", "c0c485c0-4515-11ec-81d3-0242", "caja@tienda.hn"
    pixelpay.register(key, secret, user_email=email)
    access = _access(key_id=key, secret=secret, mode="production", user_email=email)
    adapter, delivery = _paid(pixelpay, access, "pl_void", "1150.00", "USD")
    notification = adapter.parse_notification(delivery.body, delivery.headers)
    adapter.verify_notification(access, notification, delivery.body, delivery.headers)
    confirmation = adapter.confirm(access, notification)
    assert (confirmation.currency, confirmation.live) == ("USD", True)
    refund = adapter.refund(access, notification.transaction_id, "pl_void", Decimal("1150.00"), "Factura anulada")
    assert (refund.through_api, refund.reference) == (True, notification.transaction_id)
    void = pixelpay.voids[-1]
    # signed by hand: SHA-512("caja@tienda.hn|pl_void|<secret>"), x-auth-user SHA-512 of the e-mail
    assert void.signature == hashlib.sha512(f"{email}|pl_void|{secret}".encode()).hexdigest()
    assert void.auth_user == hashlib.sha512(email.encode()).hexdigest()
    assert (void.payment_uuid, void.reason) == (notification.transaction_id, "Factura anulada")
    with pytest.raises(ProviderError) as again:  # voided already: PixelPay refuses, its words kept
        adapter.refund(access, notification.transaction_id, "pl_void", Decimal("1150.00"), "otra vez")
    assert "no puede ser anulada" in again.value.message
    with pytest.raises(ValidationFailed) as no_user:
        adapter.refund(_access(key_id=key, secret=secret), notification.transaction_id, "pl_void", Decimal("1"), "x")
    assert no_user.value.details[0]["field"] == "userEmail"


def test_a_void_the_stand_in_cannot_answer_is_unavailable(pixelpay):
    access = _access(user_email="sonia@pixel.hn")
    adapter, delivery = _paid(pixelpay, access, "pl_voidfault", "20.00")
    uuid = adapter.parse_notification(delivery.body, delivery.headers).transaction_id
    pixelpay.fault(void_unavailable=True)
    with pytest.raises(ProviderUnavailable):
        adapter.refund(access, uuid, "pl_voidfault", Decimal("20.00"), "x")
    assert not pixelpay.transactions[uuid].voided


def test_the_payout_is_net_of_the_fee_and_a_delay_makes_it_later(pixelpay):
    key, secret = "5550001111", "payout-merchant-secret-0001"
    pixelpay.register(key, secret)
    access = _access(key_id=key, secret=secret)
    _paid(pixelpay, access, "pl_payout1", "1150.00")
    _, declined = _paid(pixelpay, access, "pl_payout2", "2.00")  # declined: never paid out
    pixelpay.fee_terms = FeeTerms(Decimal("3.5"), Decimal("5.00"), Decimal("0.15"))
    pixelpay.fault(payout_delay_days=2)
    today = dt.datetime.now(dt.timezone(dt.timedelta(hours=-6))).date()
    payout = pixelpay.settle(today, key_id=key)
    # 1,150.00 at 3.5 % + 5.00: fee 40.25 + 5.00 = 45.25; ISV 15 % of it 6.7875 -> 6.79; net 1,150.00 - 52.04
    assert (payout.amount, payout.currency, len(payout.transaction_ids)) == (Decimal("1097.96"), "HNL", 1)
    assert payout.date == today + dt.timedelta(days=2)
    assert pixelpay.settle(today, key_id=key).amount == Decimal("0.00")  # settled once


def test_the_hosted_page_over_http_shows_a_spanish_form_and_paying_calls_back_and_returns(pixelpay):
    from infra.devstack import standin_server

    received = []

    def merchant(request):  # the merchant's callback URL
        received.append(request)
        return standin_server.Reply.of_json(200, {"ok": True})

    server, merchant_url = standin_server.serve(merchant, "merchant-callback")
    try:
        request = _request("pl_http", "1150.00")
        request = CheckoutRequest(**{**request.__dict__, "notification_url": merchant_url + "/webhooks/gateway-a"})
        url = adapter_for("pixelpay").create_checkout(_access(), request).url
        with urllib.request.urlopen(url, timeout=5) as page:  # noqa: S310 (the stand-in)
            text = page.read().decode()
        assert page.status == 200 and "Número de tarjeta" in text and "CVV" in text and "Pagar" in text
        opener = urllib.request.build_opener(_NoRedirect)
        form = urllib.parse.urlencode({"card_number": "4111111111111111", "card_cvv": "999"}).encode()
        with pytest.raises(urllib.error.HTTPError) as answer:
            opener.open(urllib.request.Request(url, data=form, method="POST"), timeout=5)
        assert answer.value.code == 303
        assert answer.value.headers["Location"] == "https://app.example.test/#/pay/done?link=pl_http"
        assert [r.path for r in received] == ["/webhooks/gateway-a"]
        notification = adapter_for("pixelpay").parse_notification(received[0].body, received[0].headers)
        assert (notification.link_id, notification.approved, notification.amount) == ("pl_http", True, Decimal("1150.00"))
        with pytest.raises(urllib.error.HTTPError) as unknown_key:  # an unknown merchant's page
            urllib.request.urlopen(url.replace("_key=1234567890", "_key=999"), timeout=5)  # noqa: S310
        assert unknown_key.value.code == 400
    finally:
        server.shutdown()


class _NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args, **kwargs):
        return None
