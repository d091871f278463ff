"""Payment links: a confirmed sales document collected through one of the company's card
gateways. The provider makes the page the customer pays on (adapter.create_checkout); the link,
our `pl_...` id, is the provider's order reference, so its notifications find it. Nothing is
stored when the provider refuses or does not answer."""
from __future__ import annotations

import base64
import datetime as _dt
import io
from decimal import Decimal
from typing import Any

from chalicelib import clock
from chalicelib.domain import gateways as gateway_rules
from chalicelib.domain.documents import CONFIRMED, KINDS
from chalicelib.domain.records import DocumentRecord
from chalicelib.errors import ApiError, NotFound, ValidationFailed
from chalicelib.messages.books import book_text
from chalicelib.messages.phrases import Phrase
from chalicelib.services import document_names
from chalicelib.services.commands import Command
from chalicelib.services.integrations import gateway_config
from chalicelib.services.integrations.link_payments import ACTIVE
from chalicelib.services.integrations.providers import (
    CheckoutRequest,
    ProviderUnavailable,
    adapter_for,
    gateway_unavailable,
)
from chalicelib.services.payments import payment_records, payment_setup
from chalicelib.services.sales_purchases.documents import get_document
from chalicelib.settings import get_settings
from chalicelib.store import keys
from chalicelib.store.listing import Page
from chalicelib.store.repositories import gateways as stored_gateways
from chalicelib.store.repositories import payment_links as stored_links
from chalicelib.store.table import Table

GATEWAY_INACTIVE = ApiError("The payment gateway is inactive.", code="PAYMENT_GATEWAY_INACTIVE",
                            details=[{"field": "gatewayId", "message": "inactive"}])
LINK_NOT_FOUND = "Payment link not found."
# the route each provider posts its notifications to (the spec names them "the first/second gateway")
NOTIFICATION_PATH = {"pixelpay": "/webhooks/gateway-a", "wompi": "/webhooks/gateway-b"}


def qr_code(url: str) -> str:
    """A QR code of the page the customer pays on, as an SVG data URI (what the console shows)."""
    import segno

    # a standalone image (not inline markup) needs its namespace, which svg_inline leaves out: without
    # it a browser shows the <img> broken
    svg = io.BytesIO()
    segno.make(url, error="m").save(svg, kind="svg", xmldecl=False, scale=4)
    return "data:image/svg+xml;base64," + base64.b64encode(svg.getvalue()).decode()


def link_view(link: dict[str, Any]) -> dict[str, Any]:
    url = link.get("url") or get_settings().payment_link_base_url + link["id"]  # a link made before issue 43
    return {"linkId": link["id"], "url": url, "amount": link["amount"], "currency": link["currency"],
            "expiresAt": link["linkExpiresAt"], "documentId": link["documentId"], "gatewayId": link["gatewayId"],
            "status": link["status"], "provider": link.get("provider"), "providerLinkId": link.get("providerLinkId"),
            "qrCode": qr_code(url), "createdAt": link.get("createdAt")}


def _collectable(table: Table, company_id: int, document_id: int) -> DocumentRecord:
    """A confirmed sales document that is owed (01, 113, 07) with something pending."""
    document = get_document(table, company_id, document_id)
    kind = KINDS[document["type"]]
    problem: str | None = None
    if not (kind.sales and kind.balance > 0):
        problem = Phrase("a payment link collects a sales document a customer owes; this one is {} ({})",
                         kind.code, kind.name)
    elif document["status"] != CONFIRMED:
        problem = Phrase("only a confirmed document can be paid; this one is {}", document['status'])
    elif Decimal(document["pending"]) <= 0:
        problem = "nothing is pending on this document"
    if problem:
        raise payment_records.PaymentRefused(Phrase("The document cannot be collected: {}.", problem),
                                             code="DOCUMENT_NOT_PAYABLE",
                                             details=[{"field": "documentId", "message": problem}])
    return document


def _check_gateway_method(table: Table, company_id: int, gateway: dict[str, Any]) -> None:
    """Its payments would be refused: better no link than a customer's money left unbooked."""
    try:
        method = payment_setup.get_method(table, company_id, gateway["paymentMethodId"])
    except NotFound:
        method = None
    if method is None or not method.get("isActive", True):
        raise payment_records.PaymentRefused("The gateway's payment method is deleted or inactive.",
                                             code="PAYMENT_METHOD_INACTIVE",
                                             details=[{"field": "gatewayId", "message": "its payment method is inactive"}])


def _check_currency(table: Table, company_id: int, gateway: dict[str, Any], currency: str) -> None:
    """The customer pays in the link's currency into the clearing account: the two must agree, and
    the provider must take it (the method may have moved to another bank account since)."""
    clearing = gateway_config.clearing_account(table, company_id, gateway)
    held = clearing.get("currency") if clearing else None
    if held != currency:
        raise ApiError(Phrase("The gateway cannot collect this document: its clearing account is in {}, the document "
                              "in {}.", held, currency), code="CURRENCY_MISMATCH",
                       details=[{"field": "gatewayId",
                                 "message": Phrase("its clearing account is in {}, the document in {}",
                                                   held, currency)}])
    takes = adapter_for(gateway["provider"]).currencies
    if currency not in takes:
        raise ApiError(Phrase("The gateway cannot collect this document: {} takes {}, the document is in {}.",
                              gateway['provider'], ', '.join(takes), currency), code="CURRENCY_MISMATCH",
                       details=[{"field": "gatewayId", "message":
                               Phrase("{} takes {}, the document is in {}",
                                      gateway['provider'], ', '.join(takes), currency)}])


def _customer(table: Table, company_id: int, document: DocumentRecord) -> tuple[str | None, str | None]:
    partner = table.get(keys.entity(company_id, keys.PARTNER, document["businessPartnerId"])) or {}
    return partner.get("name"), partner.get("email")


def generate_link(command: Command, fields: dict[str, Any]) -> dict[str, Any]:
    table, company_id = command.table, command.company_id
    try:
        gateway = gateway_config.stored(table, company_id, fields["gatewayId"])
    except NotFound:
        raise ValidationFailed.for_field("gatewayId", "no such payment gateway") from None
    if not gateway.get("isActive", True) or gateway.get("provider") not in gateway_config.PROVIDERS:
        raise GATEWAY_INACTIVE
    document = _collectable(table, company_id, fields["documentId"])
    amount = gateway_rules.link_amount(fields.get("amount"), Decimal(document["pending"]))
    payment_records.within_pending(amount, Decimal(document["pending"]))
    # a link for less than a cash document's total could never be paid
    payment_records.require_cash_terms_met(table, company_id, document, amount)
    _check_gateway_method(table, company_id, gateway)
    currency = document.get("currency") or "HNL"
    _check_currency(table, company_id, gateway, currency)
    access = gateway_config.access_for(gateway, company_id)
    if not access.secret:  # restored from an archive: its notifications could not be verified
        raise ValidationFailed.for_field("gatewayId", "the gateway has no secret: enter it again")
    link_id, now = gateway_rules.new_link_id(), clock.now()
    created_at = clock.iso(now)
    expires = now + _dt.timedelta(hours=get_settings().payment_link_ttl_hours)
    expires_at = clock.iso(expires)
    settings = get_settings()
    name, email = _customer(table, company_id, document)
    label = document_names.known_as(document)
    try:
        checkout = adapter_for(gateway["provider"]).create_checkout(
            access,
            CheckoutRequest(link_id=link_id, amount=amount, currency=currency,
                            description=book_text("payment", document=label),
                            customer_name=name, customer_email=email, expires_at=expires,
                            notification_url=settings.api_base_url + NOTIFICATION_PATH[gateway["provider"]],
                            return_url=f"{settings.app_base_url}/app/payment-received.html?link={link_id}",
                            cancel_url=f"{settings.app_base_url}/app/payment-cancelled.html?link={link_id}"))
    except ProviderUnavailable as error:
        raise gateway_unavailable(str(error)) from None
    link = {**keys.payment_link(link_id), **keys.payment_link_index(company_id, created_at, link_id),
            "itemType": "PAYLINK", "id": link_id, "companyId": company_id, "gatewayId": gateway["id"],
            "provider": gateway["provider"], "documentId": document["id"], **document_names.names(document),
            "amount": amount, "currency": currency, "linkExpiresAt": expires_at, "status": ACTIVE,
            "paidTotal": Decimal(0), "version": 1, "createdAt": created_at, "url": checkout.url,
            **({"providerLinkId": checkout.provider_link_id} if checkout.provider_link_id else {})}
    transaction = command.transaction()
    transaction.put_new(link)
    # links are made in time order, so the newest expires last: the gateway stays while it may be paid
    stored_gateways.keep_until_link_expires(transaction, gateway_config.gateway_key(company_id, gateway["id"]),
                                            expires_at, GATEWAY_INACTIVE)
    return command.commit(transaction, link_view(link))


def stored_link(table: Table, link_id: str) -> dict[str, Any] | None:
    return table.get(keys.payment_link(link_id)) if gateway_rules.is_link_id(link_id) else None


def get_link(table: Table, company_id: int, link_id: str) -> dict[str, Any]:
    """The company's own link; another company's is not found, as an unknown one."""
    link = stored_link(table, link_id)
    if link is None or link.get("companyId") != company_id:
        raise NotFound(LINK_NOT_FOUND)
    return link_view(link)


def document_links(table: Table, company_id: int, document_id: int, page: int, limit: int) -> Page:
    """The document's links, newest first (the company's links by creation, filtered: a document
    has a handful, a company's links are read once)."""
    get_document(table, company_id, document_id)
    mine = stored_links.of_document_newest_first(table, company_id, document_id)
    skip = (page - 1) * limit
    return Page(items=[link_view(item) for item in mine[skip:skip + limit]], total=len(mine), page=page, limit=limit,
                next_cursor=None)

