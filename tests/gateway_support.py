"""What the card gateways' tests share (issue 43): a PixelPay or Wompi gateway made through the
API with its clearing bank account and payment method, a link for a document, and a payment on the
provider's stand-in whose notifications are posted to the in-process API as the provider posts
them (no API key, no cookie, no Origin)."""
from __future__ import annotations

import itertools
import urllib.parse
from decimal import Decimal
from typing import Any

from chalicelib import clock
from infra.devstack.wompi_standin import DEMO_API_SECRET, DEMO_CLIENT_ID
from tests.documents_support import Shop

D = Decimal
# PixelPay's public sandbox (research/pixelpay.md §1: every SDK's setupSandbox)
PIXELPAY_KEY_ID, PIXELPAY_SECRET = "1234567890", "@s4ndb0x-abcd-1234-n1l4-p1x3l"
# the Wompi stand-in's demo application, in test mode (infra/devstack/wompi_standin.py)
WOMPI_APP_ID, WOMPI_SECRET = DEMO_CLIENT_ID, DEMO_API_SECRET
FEE_ACCOUNT_CODE = "6205"
USD_RATE = "24.50"
_ledger_codes = itertools.count(1)


def clearing_method(shop: Shop, currency: str = "HNL", name: str | None = None) -> dict[str, Any]:
    """A payment method whose bank account (on a ledger account of its own, empty) is a gateway's
    clearing account."""
    code = f"1109{next(_ledger_codes):02d}"
    while code in shop.books.accounts:
        code = f"1109{next(_ledger_codes):02d}"
    ledger = shop.created("/chart-of-accounts", {"code": code, "name": f"Pasarela {code}", "type": "asset"})
    shop.books.accounts[code] = ledger["id"]
    bank = shop.created("/bank-accounts", {"name": name or f"Pasarela {code}", "currency": currency,
                                           "openingBalance": "0.00", "openingBalanceDate": "2026-11-01",
                                           "chartOfAccountId": ledger["id"]})
    return shop.created("/payments/methods", {"name": name or f"Tarjeta {code}", "bankAccountId": bank["id"]})


def fee_account(shop: Shop) -> int:
    """An expense account for the providers' fees (6205 Comisiones por cobros con tarjeta)."""
    if FEE_ACCOUNT_CODE not in shop.books.accounts:
        shop.books.accounts[FEE_ACCOUNT_CODE] = shop.created(
            "/chart-of-accounts", {"code": FEE_ACCOUNT_CODE, "name": "Comisiones por cobros con tarjeta",
                                   "type": "expense"})["id"]
    return shop.books.accounts[FEE_ACCOUNT_CODE]


def _gateway(shop: Shop, provider: str, key_id: str, secret: str, currency: str, fields: dict[str, Any]) -> dict:
    if "paymentMethodId" not in fields:
        fields["paymentMethodId"] = clearing_method(shop, currency)["id"]
    if (D(str(fields.get("feePercent", 0))) or D(str(fields.get("feeFixed", 0)))) and "feeAccountId" not in fields:
        fields["feeAccountId"] = fee_account(shop)
    expect = fields.pop("expect", 201)
    reply = shop.api.post("/payments/gateways", {"name": f"Cobros {provider}", "provider": provider, "mode": "test",
                                                 "keyId": key_id, "secret": secret, **fields}, key=shop.key)
    assert reply.status == expect, reply.text
    return reply.json


def new_pixelpay_gateway(shop: Shop, **fields: Any) -> dict:
    """A PixelPay gateway in test mode on the public sandbox's key, clearing in lempiras."""
    return _gateway(shop, "pixelpay", PIXELPAY_KEY_ID, PIXELPAY_SECRET, fields.pop("currency", "HNL"), fields)


def new_wompi_gateway(shop: Shop, **fields: Any) -> dict:
    """A Wompi gateway in test mode, clearing in dollars."""
    return _gateway(shop, "wompi", WOMPI_APP_ID, WOMPI_SECRET, "USD", fields)


def dollar_rates(shop: Shop) -> None:
    """One rate for the documents' date and for today (a Honduran shop's dollar invoice, paid
    today at the same rate: no exchange difference)."""
    for date in {shop.default_date, clock.today_in("HN")}:
        reply = shop.api.post("/exchange-rates", {"currency": "USD", "date": date, "rate": USD_RATE}, key=shop.key)
        assert reply.status in (201, 409), reply.text


def generate(shop: Shop, document_id: int, gateway_id: int, expect: int = 201, **fields: Any) -> dict:
    reply = shop.api.post("/payments/generate-link", {"documentId": document_id, "gatewayId": gateway_id, **fields},
                          key=shop.key)
    assert reply.status == expect, reply.text
    return reply.json


def post(api: Any, delivery: Any, body: bytes | None = None, headers: dict[str, str] | None = None) -> Any:
    """A stand-in's notification posted to the in-process API, as the provider posts it (to the
    path of its URL), its body or headers replaced when given (a forgery)."""
    path = urllib.parse.urlsplit(delivery.url).path
    return api.request("POST", path, raw=delivery.body if body is None else body,
                       headers=dict(delivery.headers) if headers is None else headers)


def pay_and_notify(api: Any, standin: Any, link: dict, **card: Any) -> tuple[list[Any], list[Any]]:
    """The customer pays the link on the provider's page; each notification the provider sends
    is posted. Returns (deliveries, replies)."""
    deliveries = standin.pay(link["url"], **card)
    return deliveries, [post(api, delivery) for delivery in deliveries]


def payments_of(shop: Shop, document_id: int) -> list[dict]:
    return shop.api.get(f"/payments/documents/{document_id}/payments", key=shop.key).json["payments"]


def pending(shop: Shop, document_id: int) -> tuple[Decimal, Decimal]:
    document = shop.get(document_id)
    return D(str(document["pending"])), D(str(document["paidTotal"]))
