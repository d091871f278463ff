"""The card gateways a company collects through (issue 43): PixelPay (Honduras) and Wompi (El
Salvador), each an adapter that speaks the provider's own documented API. The use cases
(services/integrations/gateway_config.py, payment_links.py, gateway_notifications.py) know only this interface: they
create a checkout for a payment link, read and verify a notification, confirm it with the
provider's status call before booking, and refund where the provider's API can.

Formats are pure (domain/pixelpay.py, domain/wompi.py); the adapters add the HTTP
(providers/http.py). docs/gateways.md says, per provider, which documented fields are used and
where each is documented."""
from __future__ import annotations

from chalicelib.services.integrations.providers.interface import (
    PIXELPAY,
    WOMPI,
    CheckoutRequest,
    Confirmation,
    GatewayAccess,
    ProviderAdapter,
    ProviderError,
    ProviderUnavailable,
    Refund,
    gateway_unavailable,
)

# the use cases' names for the interface (the adapters import it from interface.py)
__all__ = ["CheckoutRequest", "Confirmation", "GatewayAccess", "PIXELPAY", "ProviderAdapter", "ProviderError",
           "ProviderUnavailable", "Refund", "WOMPI", "adapter_for", "gateway_unavailable"]


def adapter_for(provider: str) -> ProviderAdapter:
    """The provider's adapter (loaded on first use)."""
    if provider == PIXELPAY:
        from chalicelib.services.integrations.providers.pixelpay import PixelPayAdapter

        return PixelPayAdapter()
    if provider == WOMPI:
        from chalicelib.services.integrations.providers.wompi import WompiAdapter

        return WompiAdapter()
    raise KeyError(provider)
