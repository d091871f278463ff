"""The Wompi adapter (issue 43) against the Wompi stand-in over HTTP: the token cached and renewed,
the link created with our fields, a payment's webhook parsed, verified and confirmed, a forged hash
refused, a declined card (CVV 111) sending nothing, a status call that times out, a wrong secret,
the payment page and its signed redirect, and the payout net of the fee."""
from __future__ import annotations

import datetime as dt
import hashlib
import hmac
import json
import urllib.error
import urllib.parse
import urllib.request
import uuid
from decimal import Decimal

import pytest

from chalicelib.domain import wompi as formats
from chalicelib.domain.gateway_fees import FeeTerms
from chalicelib.errors import ApiError
from chalicelib.services.integrations.providers import (
    CheckoutRequest,
    GatewayAccess,
    ProviderError,
    ProviderUnavailable,
    adapter_for,
)
from chalicelib.services.integrations.providers import wompi as wompi_provider
from chalicelib.settings import reset_settings
from infra.devstack import standin_server
from infra.devstack.standin_server import Reply
from infra.devstack.wompi_standin import LinkUnavailable

LINK_ID = "pl_abcdefghijklmnopqrstuvwx"
WEBHOOK_URL = "https://api.example.test/webhooks/gateway-b"
EXPIRES = dt.datetime(2099, 1, 31, 18, 0, tzinfo=dt.timezone.utc)


@pytest.fixture
def adapter():
    reset_settings()  # the stand-ins' URLs, set by the session fixture
    wompi_provider.forget_wompi_tokens()
    yield adapter_for("wompi")
    wompi_provider.forget_wompi_tokens()


@pytest.fixture
def access(wompi):
    """An app of this test's own (test mode), so counts and payouts are the test's alone."""
    client_id, secret = f"app-{uuid.uuid4()}", f"api-secret-{uuid.uuid4()}"
    wompi.register(client_id, secret)
    return GatewayAccess(provider="wompi", mode="test", key_id=client_id, secret=secret, company_id=1, gateway_id=7)


def checkout_request(amount="1150.00", link_id=LINK_ID, notification_url=WEBHOOK_URL):
    return CheckoutRequest(link_id=link_id, amount=Decimal(amount), currency="USD", description="Factura 001-0042",
                           customer_name="Cliente", customer_email="cliente@example.com", expires_at=EXPIRES,
                           notification_url=notification_url,
                           return_url=f"https://app.example.test/#/pay/done?link={link_id}",
                           cancel_url="https://app.example.test/#/pay/cancelled")


def test_the_token_is_asked_once_and_reused(adapter, access, wompi):
    adapter.create_checkout(access, checkout_request())
    adapter.create_checkout(access, checkout_request(link_id="pl_bbbbbbbbbbbbbbbbbbbbbbbb"))
    assert wompi.token_calls[access.key_id] == 1


def test_a_token_wompi_no_longer_takes_is_dropped_and_asked_again(adapter, access, wompi):
    adapter.create_checkout(access, checkout_request())
    wompi.revoke_tokens()  # the next call with it answers 401
    checkout = adapter.create_checkout(access, checkout_request(link_id="pl_cccccccccccccccccccccccc"))
    assert checkout.url and wompi.token_calls[access.key_id] == 2


def test_the_link_carries_our_link_amount_urls_and_expiry(adapter, access, wompi):
    checkout = adapter.create_checkout(access, checkout_request())
    link = wompi.links[int(checkout.provider_link_id)]
    assert checkout.url == f"{wompi.base_url}/lk/{link.code}" and checkout.qr_image_url == f"{wompi.base_url}/qr/{link.code}"
    sent = link.body
    assert sent["identificadorEnlaceComercio"] == LINK_ID
    assert sent["monto"] == Decimal("1150.00") and sent["nombreProducto"] == "Factura 001-0042"
    assert sent["formaPago"]["permitirTarjetaCreditoDebido"] is True
    assert not any(value for name, value in sent["formaPago"].items() if name != "permitirTarjetaCreditoDebido")
    assert sent["configuracion"] == {
        "urlRedirect": f"https://app.example.test/#/pay/done?link={LINK_ID}", "urlWebhook": WEBHOOK_URL,
        "notificarTransaccionCliente": False, "esMontoEditable": False, "esCantidadEditable": False,
        "cantidadPorDefecto": 1}
    assert sent["vigencia"]["fechaFin"] == "2099-01-31T18:00:00+00:00"
    assert sent["limitesDeUso"] == {"cantidadMaximaPagosExitosos": 1}


def test_a_payment_sends_a_signed_webhook_that_parses_verifies_and_confirms(adapter, access, wompi):
    checkout = adapter.create_checkout(access, checkout_request())
    [delivery] = wompi.pay(checkout.url)
    assert delivery.url == WEBHOOK_URL
    # the hash by hand: HMAC-SHA256 of the exact bytes, keyed with the API Secret, lowercase hex
    assert delivery.headers["wompi_hash"] == hmac.new(access.secret.encode(), delivery.body, hashlib.sha256).hexdigest()
    notification = adapter.parse_notification(delivery.body, delivery.headers)
    assert (notification.link_id, notification.approved, notification.amount, notification.live) == (
        LINK_ID, True, Decimal("1150.00"), False)
    adapter.verify_notification(access, notification, delivery.body, delivery.headers)  # no error
    confirmation = adapter.confirm(access, notification)
    assert confirmation.transaction_id == notification.transaction_id
    assert (confirmation.approved, confirmation.live, confirmation.amount, confirmation.currency) == (
        True, False, Decimal("1150.00"), "USD")  # a test-mode app: esReal false
    assert confirmation.authorization and confirmation.message == "AUTORIZADO"


def test_a_productive_app_confirms_a_real_charge(adapter, wompi):
    client_id = f"app-live-{uuid.uuid4()}"
    wompi.register(client_id, "api-secret-of-the-live-app", productive=True)
    live = GatewayAccess("wompi", "production", client_id, "api-secret-of-the-live-app", 1, 8)
    [delivery] = wompi.pay(adapter.create_checkout(live, checkout_request()).url)
    notification = adapter.parse_notification(delivery.body, delivery.headers)
    assert notification.live is True and adapter.confirm(live, notification).live is True


def test_a_forged_or_missing_hash_is_refused(adapter, access, wompi):
    [delivery] = wompi.pay(adapter.create_checkout(access, checkout_request()).url)
    notification = adapter.parse_notification(delivery.body, delivery.headers)
    forged = delivery.body.replace(b'"Monto":1150.00', b'"Monto":11.50')
    assert forged != delivery.body
    with pytest.raises(ApiError) as refused:
        adapter.verify_notification(access, notification, forged, delivery.headers)
    assert (refused.value.status, refused.value.code) == (401, "INVALID_SIGNATURE")
    with pytest.raises(ApiError) as missing:
        adapter.verify_notification(access, notification, delivery.body, {"content-type": "application/json"})
    assert (missing.value.status, missing.value.code) == (401, "SIGNATURE_REQUIRED")
    other = GatewayAccess("wompi", "test", access.key_id, "another-apps-api-secret", 1, 7)
    with pytest.raises(ApiError, match="signature"):
        adapter.verify_notification(other, notification, delivery.body, delivery.headers)


def test_the_bad_signature_fault_sends_a_hash_that_signs_nothing(adapter, access, wompi):
    wompi.fault(bad_signature=True)
    [delivery] = wompi.pay(adapter.create_checkout(access, checkout_request()).url)
    with pytest.raises(ApiError) as refused:
        adapter.verify_notification(access, adapter.parse_notification(delivery.body, delivery.headers),
                                    delivery.body, delivery.headers)
    assert refused.value.code == "INVALID_SIGNATURE"


def test_a_duplicate_webhook_is_the_same_bytes_twice(adapter, access, wompi):
    wompi.fault(duplicate_webhook=True)
    first, second = wompi.pay(adapter.create_checkout(access, checkout_request()).url)
    assert first == second


def test_cvv_111_declines_with_no_webhook_and_the_link_can_be_paid_again(adapter, access, wompi):
    checkout = adapter.create_checkout(access, checkout_request())
    assert wompi.pay(checkout.url, cvv="111") == []
    link = wompi.links[int(checkout.provider_link_id)]
    [declined] = [wompi.transactions[t] for t in link.transaction_ids]
    assert declined.approved is False
    # the status call says so too (a notification the service might have had of it)
    from chalicelib.domain.gateways import ProviderNotification

    confirmation = adapter.confirm(access, ProviderNotification("wompi", LINK_ID, declined.id, approved=False))
    assert confirmation.approved is False
    assert len(wompi.pay(checkout.url, cvv="123")) == 1  # nothing was charged: the link still takes its payment


def test_a_link_takes_one_successful_payment(adapter, access, wompi):
    checkout = adapter.create_checkout(access, checkout_request())
    wompi.pay(checkout.url)
    with pytest.raises(LinkUnavailable):
        wompi.pay(checkout.url)


@pytest.mark.parametrize("fault", ["status_timeout", "status_unavailable"])
def test_a_status_call_that_does_not_answer_is_unavailable(adapter, access, wompi, fault):
    [delivery] = wompi.pay(adapter.create_checkout(access, checkout_request()).url)
    notification = adapter.parse_notification(delivery.body, delivery.headers)
    wompi.fault(**{fault: True})
    with pytest.raises(ProviderUnavailable):
        adapter.confirm(access, notification)
    wompi.reset_faults()
    assert adapter.confirm(access, notification).approved is True  # the retry completes it


def test_a_wrong_api_secret_is_a_provider_error(adapter, access):
    wrong = GatewayAccess("wompi", "test", access.key_id, "not-the-api-secret-at-all", 1, 7)
    with pytest.raises(ProviderError) as refused:
        adapter.create_checkout(wrong, checkout_request())
    assert (refused.value.status, refused.value.code) == (502, "GATEWAY_PROVIDER_ERROR")
    assert "invalid_client" in refused.value.message


def test_a_link_wompi_refuses_is_a_provider_error_with_its_messages(adapter, access):
    with pytest.raises(ProviderError) as refused:
        adapter.create_checkout(access, checkout_request(notification_url=""))
    assert "URL de webhook" in refused.value.message


def test_a_token_service_that_does_not_answer_is_unavailable(adapter, access, wompi):
    wompi.fault(token_unavailable=True)
    with pytest.raises(ProviderUnavailable):
        adapter.create_checkout(access, checkout_request())


def test_a_refund_is_made_in_wompis_panel(adapter, access):
    refund = adapter.refund(access, "tx-1", LINK_ID, Decimal("1150.00"), "devolución")
    assert refund.through_api is False


def test_the_payment_page_posts_the_webhook_and_redirects_with_a_signed_hash(adapter, access, wompi):
    received = []

    def service(request):
        received.append(request)
        return Reply.of_json(200, {"status": "ok"})

    server, service_url = standin_server.serve(service, "wompi-test-service")
    try:
        checkout = adapter.create_checkout(access, checkout_request(notification_url=f"{service_url}/webhooks/gateway-b"))
        page = urllib.request.urlopen(checkout.url, timeout=5).read().decode()
        assert "Pagar" in page and "1,150.00" in page
        form = urllib.parse.urlencode({"numeroTarjeta": "5200000000002235", "cvv": "123"}).encode()
        with pytest.raises(urllib.error.HTTPError) as answer:  # the 303 is not followed (no handler would)
            opener = urllib.request.build_opener(_NoRedirect())
            opener.open(urllib.request.Request(checkout.url, data=form, method="POST"), timeout=5)
        assert answer.value.code == 303
        location = answer.value.headers["Location"]
    finally:
        server.shutdown()
    [webhook] = received
    assert webhook.path == "/webhooks/gateway-b"
    assert webhook.headers["wompi_hash"] == hmac.new(access.secret.encode(), webhook.body, hashlib.sha256).hexdigest()
    assert json.loads(webhook.body)["EnlacePago"]["IdentificadorEnlaceComercio"] == LINK_ID
    assert location.startswith(f"https://app.example.test/#/pay/done?link={LINK_ID}&")
    params = dict(urllib.parse.parse_qsl(location.split("?", 1)[1]))
    transaction_id = json.loads(webhook.body)["IdTransaccion"]
    assert params["idTransaccion"] == transaction_id and params["monto"] == "1150.00"
    text = LINK_ID + transaction_id + params["idEnlace"] + "1150.00"  # the four fields, as sent
    assert params["hash"] == hmac.new(access.secret.encode(), text.encode(), hashlib.sha256).hexdigest()
    assert formats.redirect_is_signed(access.secret, params)


class _NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args, **kwargs):
        return None


def test_the_payout_is_net_of_the_fee(adapter, access, wompi):
    wompi.fee_terms = FeeTerms(Decimal("3.5"), Decimal("0.25"), Decimal("0.13"))
    for amount, link_id in (("1150.00", "pl_dddddddddddddddddddddddd"), ("100.00", "pl_eeeeeeeeeeeeeeeeeeeeeeee")):
        wompi.pay(adapter.create_checkout(access, checkout_request(amount, link_id)).url)
    wompi.pay(adapter.create_checkout(access, checkout_request("50.00", "pl_ffffffffffffffffffffffff")).url, cvv="111")
    wompi.fault(payout_delay_days=2)
    today = dt.datetime.now(dt.timezone(dt.timedelta(hours=-6))).date()
    payout = wompi.settle(today, client_id=access.key_id)
    # 1,150.00: fee 1,150 x 3.5 % = 40.25 + 0.25 = 40.50; IVA 40.50 x 13 % = 5.265 -> 5.27; net 1,150.00 - 45.77 = 1,104.23
    #   100.00: fee 3.50 + 0.25 = 3.75; IVA 0.4875 -> 0.49; net 100.00 - 4.24 = 95.76
    #    50.00: declined, not paid out.            1,104.23 + 95.76 = 1,199.99
    assert payout.amount == Decimal("1199.99")
    assert payout.date == today + dt.timedelta(days=2) and len(payout.transaction_ids) == 2
    assert wompi.settle(today, client_id=access.key_id).amount == Decimal("0.00")  # each paid out once
