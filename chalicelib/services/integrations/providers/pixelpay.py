"""PixelPay's adapter (issue 43): a link is PixelPay's hosted payment page (no API call), its
callback is verified by `payment_hash` and confirmed with the status call before anything is
booked, and a cancelled payment is voided through the API. The formats are domain/pixelpay.py;
docs/gateways.md "PixelPay" says what is documented and what is assumed."""
from __future__ import annotations

from decimal import Decimal
from typing import Any, Mapping

from chalicelib import clock
from chalicelib.domain import pixelpay as formats
from chalicelib.domain.gateways import ProviderNotification as Notification
from chalicelib.domain.gateways import SignatureRefused
from chalicelib.errors import ValidationFailed
from chalicelib.messages.phrases import Phrase
from chalicelib.services.integrations.providers import http
from chalicelib.services.integrations.providers.interface import (
    PRODUCTION,
    TEST,
    Checkout,
    CheckoutRequest,
    Confirmation,
    GatewayAccess,
    ProviderError,
    Refund,
)
from chalicelib.settings import get_settings


class PixelPayAdapter:
    provider = formats.PROVIDER
    currencies: tuple[str, ...] = formats.CURRENCIES
    refunds_through_api = True  # its void (/api/v2/transaction/void)

    def create_checkout(self, access: GatewayAccess, request: CheckoutRequest) -> Checkout:
        payment = formats.HostedPayment(
            key_id=access.key_id, order_id=request.link_id, amount=request.amount, currency=request.currency,
            description=request.description, callback_url=request.notification_url,
            cancel_url=request.cancel_url, complete_url=request.return_url, ordered_at=clock.now(),
            customer_name=request.customer_name, customer_email=request.customer_email)
        return Checkout(url=formats.hosted_page_url(_base_url(access), payment))

    def parse_notification(self, raw_body: bytes, headers: Mapping[str, str]) -> Notification:
        return formats.parse_callback(raw_body, _header(headers, "content-type"))

    def verify_notification(self, access: GatewayAccess, notification: Notification, raw_body: bytes,
                            headers: Mapping[str, str]) -> None:
        """The callback's `payment_hash` must be MD5(order_id|key_id|secret) of this gateway. A
        gateway without its secret (restored from an archive) verifies nothing: anyone can compute
        a hash with an empty one."""
        sent = formats.sent_payment_hash(formats.result_fields(raw_body, _header(headers, "content-type")))
        if sent is None:
            raise SignatureRefused("PixelPay's notification carries no payment hash.", code="SIGNATURE_REQUIRED")
        if not access.secret or not formats.payment_hash_matches(sent, notification.link_id, access.key_id,
                                                                 access.secret):
            raise SignatureRefused()

    def confirm(self, access: GatewayAccess, notification: Notification) -> Confirmation:
        """PixelPay's status call about the transaction: its approval, amount and currency decide."""
        test_mode = access.mode == TEST
        answer = http.call("POST", _base_url(access) + formats.STATUS_PATH,
                           json_body=formats.status_body(test_mode, notification.transaction_id),
                           headers=formats.auth_headers(access.key_id, access.secret))
        if answer.status not in (200, 402):  # 402: PaymentDeclined, still a result
            raise ProviderError(Phrase("PixelPay refused the status call (HTTP {}): {}",
                                       answer.status, formats.answer_message(answer.body)))
        try:
            reading = formats.read_status(answer.body)
        except formats.StatusUnreadable as missing:
            raise ProviderError(Phrase("PixelPay's status answer lacks {}: nothing is confirmed.", missing)) from None
        if reading.payment_uuid not in (None, notification.transaction_id) or \
                reading.order_id not in (None, notification.link_id):
            raise ProviderError("PixelPay's status answer is about another transaction: nothing is confirmed.")
        return Confirmation(
            transaction_id=notification.transaction_id, approved=reading.approved,
            amount=reading.amount if reading.amount is not None else Decimal("0.00"),
            currency=reading.currency or notification.currency or "",
            paid_at=reading.paid_at,  # none: the pipeline takes when the notification reached us
            live=access.mode == PRODUCTION,  # the sandbox never charges; its key works only there
            authorization=reading.authorization, message=reading.message)

    def refund(self, access: GatewayAccess, transaction_id: str, link_id: str, amount: Decimal,
               reason: str) -> Refund:
        """PixelPay's void, signed by the merchant user (`userEmail` of the gateway)."""
        if not access.user_email:
            raise ValidationFailed.for_field("userEmail", "PixelPay signs a void with the merchant user's "
                                                          "e-mail: set it on the gateway")
        answer = http.call("POST", _base_url(access) + formats.VOID_PATH,
                           json_body=formats.void_body(access.mode == TEST, transaction_id, link_id, reason,
                                                       access.user_email, access.secret),
                           headers=formats.auth_headers(access.key_id, access.secret, access.user_email))
        if answer.status != 200 or not _succeeded(answer.body):
            raise ProviderError(Phrase("PixelPay refused the void (HTTP {}): {}",
                                       answer.status, formats.answer_message(answer.body)))
        return Refund(through_api=True, reference=transaction_id)


def _base_url(access: GatewayAccess) -> str:
    settings = get_settings()
    return formats.base_url(access.mode == TEST, access.endpoint, settings.pixelpay_url, settings.pixelpay_sandbox_url)


def _header(headers: Mapping[str, str], name: str) -> str | None:
    return next((value for key, value in headers.items() if key.lower() == name), None)


def _succeeded(body: Any) -> bool:
    return not isinstance(body, dict) or body.get("success") is not False
