"""What the use cases and the adapters share (issue 43): a call's access, a checkout asked and made,
the provider's confirmation and refund, the refusals, and the adapter's Protocol. The package
(providers/__init__.py) names it for the use cases and finds the adapter of a provider; the adapters
(pixelpay.py, wompi.py, http.py) import it from here, so none of them imports the package that
loads them."""
from __future__ import annotations

import datetime as _dt
from dataclasses import dataclass
from decimal import Decimal
from typing import Mapping, Protocol

from chalicelib.domain.gateways import ProviderNotification as Notification
from chalicelib.errors import ApiError

PIXELPAY, WOMPI = "pixelpay", "wompi"
TEST, PRODUCTION = "test", "production"


@dataclass(frozen=True)
class GatewayAccess:
    """What a call to the provider needs: the gateway's credentials, opened, and its mode.
    PixelPay: `key_id` the Key ID (x-auth-key), `secret` the Secret Key; `user_email` the
    merchant user's e-mail its voids are signed with; `endpoint` the merchant's own host, if any.
    Wompi: `key_id` the App ID (client_id), `secret` the API Secret (client_secret; it also signs
    the webhooks)."""
    provider: str
    mode: str
    key_id: str
    secret: str
    company_id: int
    gateway_id: int
    user_email: str | None = None
    endpoint: str | None = None


@dataclass(frozen=True)
class CheckoutRequest:
    """A payment link asked of the provider: our link id is the provider's order reference
    (PixelPay `order_id`, Wompi `identificadorEnlaceComercio`), so a notification names it."""
    link_id: str
    amount: Decimal
    currency: str
    description: str
    customer_name: str | None
    customer_email: str | None
    expires_at: _dt.datetime
    notification_url: str
    return_url: str
    cancel_url: str


@dataclass(frozen=True)
class Checkout:
    url: str  # where the customer pays
    provider_link_id: str | None = None  # Wompi's idEnlace
    qr_image_url: str | None = None  # Wompi's urlQrCodeEnlace


@dataclass(frozen=True)
class Confirmation:
    """The provider's own answer about a transaction (its status call), which decides what is
    booked: never the notification's claims alone."""
    transaction_id: str
    approved: bool
    amount: Decimal
    currency: str
    paid_at: _dt.datetime | None  # None: the provider does not say (the pipeline takes when its notification came)
    live: bool  # a real charge (Wompi esReal); False in the sandbox or a test-mode app
    authorization: str | None = None
    message: str | None = None


@dataclass(frozen=True)
class Refund:
    through_api: bool  # False: the provider has no refund API (Wompi): made in its panel
    reference: str | None = None


class ProviderUnavailable(Exception):
    """The provider did not answer in time, or answered 5xx/408: nothing is decided, try again."""


class ProviderError(ApiError):
    """The provider refused our call (credentials, validation, a declined void): 502, its message kept."""
    code = "GATEWAY_PROVIDER_ERROR"
    message = "The payment gateway refused the request."


def gateway_unavailable(detail: str) -> ApiError:
    """503 GATEWAY_UNAVAILABLE for the caller: nothing decided or changed. What failed is logged,
    not answered (the provider's own words)."""
    from chalicelib.observability import logger

    logger.warning("payment gateway unavailable", extra={"detail": detail})
    return ApiError("The payment gateway did not answer in time; try again.", code="GATEWAY_UNAVAILABLE")


class ProviderAdapter(Protocol):
    provider: str
    currencies: tuple[str, ...]
    # the refund goes through the provider's API (PixelPay's void); False: made in its panel (Wompi)
    refunds_through_api: bool

    def create_checkout(self, access: GatewayAccess, request: CheckoutRequest) -> Checkout: ...

    def parse_notification(self, raw_body: bytes, headers: Mapping[str, str]) -> Notification: ...

    def verify_notification(self, access: GatewayAccess, notification: Notification, raw_body: bytes,
                            headers: Mapping[str, str]) -> None: ...

    def confirm(self, access: GatewayAccess, notification: Notification) -> Confirmation: ...

    def refund(self, access: GatewayAccess, transaction_id: str, link_id: str, amount: Decimal,
               reason: str) -> Refund: ...

