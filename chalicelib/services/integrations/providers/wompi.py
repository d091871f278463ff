"""Wompi El Salvador (issue 43): an OAuth2 client-credentials token (App ID and API Secret), a
payment link per our link (POST /EnlacePago), webhooks signed with `wompi_hash`, confirmed with
GET /TransaccionCompra/{id} before anything is booked. Wompi has no refund API: a refund is made
in its panel and recorded as such. Formats: domain/wompi.py; sources: docs/gateways.md "## Wompi"."""
from __future__ import annotations

import hashlib
import threading
import time
import urllib.parse
from decimal import Decimal
from typing import Mapping

from chalicelib import clock
from chalicelib.domain import wompi as formats
from chalicelib.domain.gateways import ProviderNotification
from chalicelib.messages.phrases import Phrase
from chalicelib.services.integrations.providers import http
from chalicelib.services.integrations.providers.interface import (
    WOMPI,
    Checkout,
    CheckoutRequest,
    Confirmation,
    GatewayAccess,
    ProviderError,
    Refund,
)
from chalicelib.settings import get_settings

# a token is used until this many seconds before Wompi says it expires (a call in flight then
# still carries a valid one), and never kept longer than its own lifetime's half when that is short
TOKEN_MARGIN_S = 60

_tokens: dict[tuple[str, str, str], tuple[str, float]] = {}  # (id url, App ID, secret's hash) -> (token, dies at)
_tokens_lock = threading.Lock()


def forget_wompi_tokens() -> None:
    """Drops every cached token (tests; a process keeps them for their lifetime)."""
    with _tokens_lock:
        _tokens.clear()


class WompiAdapter:
    provider = WOMPI
    currencies: tuple[str, ...] = ("USD",)
    refunds_through_api = False  # no refund API: made in Wompi's panel

    # --- a link ---------------------------------------------------------------------------------

    def create_checkout(self, access: GatewayAccess, request: CheckoutRequest) -> Checkout:
        if request.currency != formats.CURRENCY:
            raise ValueError(f"Wompi takes USD only, not {request.currency}")  # the caller checks `currencies`
        body = formats.link_body(reference=request.link_id, amount=request.amount, product=request.description,
                                 description=request.description, redirect_url=request.return_url,
                                 webhook_url=request.notification_url, starts_at=clock.now(),
                                 expires_at=request.expires_at)
        answer = self._api(access, "POST", "/EnlacePago", json_body=body)
        if answer.status not in (200, 201):
            raise _refused(answer)
        try:
            link = formats.read_link(answer.body)
        except ValueError:
            raise _refused(answer) from None
        return Checkout(url=link.url, provider_link_id=link.id, qr_image_url=link.qr_image_url)

    # --- a notification -------------------------------------------------------------------------

    def parse_notification(self, raw_body: bytes, headers: Mapping[str, str]) -> ProviderNotification:
        return formats.parse_webhook(raw_body)

    def verify_notification(self, access: GatewayAccess, notification: ProviderNotification, raw_body: bytes,
                            headers: Mapping[str, str]) -> None:
        formats.verify_webhook(access.secret, raw_body, headers)

    def confirm(self, access: GatewayAccess, notification: ProviderNotification) -> Confirmation:
        """Wompi's own record of the transaction decides (ProviderUnavailable passes through)."""
        path = "/TransaccionCompra/" + urllib.parse.quote(notification.transaction_id, safe="")
        answer = self._api(access, "GET", path)
        if answer.status != 200:
            raise _refused(answer)
        try:
            transaction = formats.read_transaction(answer.body)
        except formats.TransactionUnreadable as unreadable:  # its field's name only: no English inside Spanish
            raise ProviderError(Phrase("Wompi answered a transaction this service cannot read: {}",
                                       unreadable.field)) from None
        if transaction.transaction_id != notification.transaction_id:
            raise ProviderError(Phrase("Wompi answered a transaction this service cannot read: {}",
                                       transaction.transaction_id))
        return Confirmation(transaction_id=transaction.transaction_id, approved=transaction.approved,
                            amount=transaction.amount, currency=formats.CURRENCY, paid_at=transaction.paid_at,
                            live=transaction.live, authorization=transaction.authorization,
                            message=transaction.message)

    def refund(self, access: GatewayAccess, transaction_id: str, link_id: str, amount: Decimal,
               reason: str) -> Refund:
        """No refund API: the merchant refunds in Wompi's panel; the service records that it was."""
        return Refund(through_api=False)

    # --- HTTP -----------------------------------------------------------------------------------

    def _api(self, access: GatewayAccess, method: str, path: str, json_body: object = None) -> http.Answer:
        """A call with the app's token; a 401 drops the token (revoked, or expired early) and tries once more."""
        url = get_settings().wompi_api_url + path
        for attempt in (1, 2):
            token = _token(access)
            answer = http.call(method, url, json_body=json_body, headers={"Authorization": f"Bearer {token}"})
            if answer.status != 401 or attempt == 2:
                return answer
            _drop(access, token)
        raise AssertionError("unreachable")


def _key(access: GatewayAccess) -> tuple[str, str, str]:
    # the secret's hash in the key: a rotated or mistyped secret never rides on another's token
    return get_settings().wompi_id_url, access.key_id, hashlib.sha256(access.secret.encode()).hexdigest()


def _token(access: GatewayAccess) -> str:
    key = _key(access)
    with _tokens_lock:
        cached = _tokens.get(key)
        if cached and cached[1] > time.monotonic():
            return cached[0]
    answer = http.call("POST", key[0] + "/connect/token", form=formats.token_form(access.key_id, access.secret))
    if answer.status != 200:
        raise _refused(answer, credentials=True)
    try:
        token = formats.read_token(answer.body)
    except ValueError:
        raise _refused(answer, credentials=True) from None
    lifetime = token.expires_in - TOKEN_MARGIN_S if token.expires_in > 2 * TOKEN_MARGIN_S else token.expires_in / 2
    with _tokens_lock:
        _tokens[key] = (token.access_token, time.monotonic() + lifetime)
    return token.access_token


def _drop(access: GatewayAccess, token: str) -> None:
    key = _key(access)
    with _tokens_lock:
        if key in _tokens and _tokens[key][0] == token:
            del _tokens[key]


def _refused(answer: http.Answer, *, credentials: bool = False) -> ProviderError:
    said = "; ".join(formats.error_messages(answer.body)) or f"HTTP {answer.status}"
    if credentials:
        return ProviderError(Phrase("Wompi refused the App ID and API Secret: {}", said))
    return ProviderError(Phrase("Wompi refused the request: {}", said))
