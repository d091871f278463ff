"""What the gateway books tests share (issue 43): a Honduran shop with a bank account and a PixelPay
gateway (made through the API) whose payment method moves a clearing bank account, a document paid
by card on the PixelPay stand-in (the notification pipeline books the payment and its fee), and a
provider adapter the tests script (its refund and status answers) where no stand-in can say it."""
from __future__ import annotations

import datetime as _dt
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any

from chalicelib.auth import sealing
from chalicelib.services import records
from chalicelib.services.integrations import gateway_books, gateway_config
from chalicelib.services.integrations.providers import Confirmation, Refund
from chalicelib.store import keys
from chalicelib.store.transaction import Transaction
from tests.bank_matching_support import bank_account
from tests.documents_support import Shop
from tests.gateway_support import (
    PIXELPAY_KEY_ID,
    PIXELPAY_SECRET,
    PIXELPAY_USER_EMAIL,
    generate,
    pay_and_notify,
    payments_of,
)

D = Decimal
CLEARING, FEES = "110105", "6105"


@dataclass
class CardShop:
    shop: Shop
    bank: dict
    clearing: dict
    method: dict
    gateway: dict

    @property
    def banks(self) -> dict[str, int]:
        return {"110103": self.bank["id"], CLEARING: self.clearing["id"]}


def card_shop(shop: Shop, *, percent: str = "3.5", fixed: str = "5.00", tax_rate: str = "0.15") -> CardShop:
    """The shop's bank (110103, opening 1,000.00), the clearing account PixelPay's payments go to
    (110105, opening 0) with its card method, the fee expense account 6105 and the PixelPay
    gateway made through the API, in test mode on the sandbox's key: 3.5 % + 5.00 with ISV 15 %
    on the fee, unless told otherwise."""
    books = shop.books
    for code, name, kind in ((CLEARING, "PixelPay por liquidar", "asset"), (FEES, "Comisiones de pasarela", "expense")):
        if code not in books.accounts:
            books.accounts[code] = shop.created("/chart-of-accounts", {"code": code, "name": name, "type": kind})["id"]
    bank = bank_account(shop)
    clearing = shop.created("/bank-accounts", {"name": "PixelPay por liquidar", "openingBalance": 0,
                                               "openingBalanceDate": "2026-11-01", "chartOfAccountId": books[CLEARING]})
    method = shop.created("/payments/methods", {"name": "Tarjeta PixelPay", "bankAccountId": clearing["id"]})
    gateway = shop.created("/payments/gateways", {
        "name": "PixelPay", "provider": "pixelpay", "mode": "test", "keyId": PIXELPAY_KEY_ID, "secret": PIXELPAY_SECRET,
        "userEmail": PIXELPAY_USER_EMAIL, "paymentMethodId": method["id"], "feePercent": percent, "feeFixed": fixed,
        "feeTaxRate": tax_rate, "feeAccountId": books[FEES]})
    assert gateway["clearingBankAccountId"] == clearing["id"]
    return CardShop(shop, bank, clearing, method, gateway)


def paid_by_card(api: Any, shop: Shop, standin: Any, card: CardShop, document_id: int) -> dict:
    """The customer pays the document's link on PixelPay's page; its notification, posted, is
    accepted: the payment as booked."""
    link = generate(shop, document_id, card.gateway["id"])
    _, replies = pay_and_notify(api, standin, link)
    assert [reply.json["status"] for reply in replies] == ["accepted"], [reply.text for reply in replies]
    return next(p for p in payments_of(shop, document_id) if p["id"] == replies[0].json["paymentId"])


def put_gateway(table: Any, company_id: int, *, provider: str, method_id: int, fee_account_id: int, percent: str,
                fixed: str, tax_rate: str, active: bool = True) -> dict:
    """A gateway as the configuration stores it, written straight (for a company whose setup the
    API's checks need not see)."""
    item = records.new_small_record(table, company_id, keys.PAYMENT_GATEWAY, {
        "name": "PixelPay" if provider == "pixelpay" else "Wompi", "provider": provider, "mode": "test",
        "keyId": PIXELPAY_KEY_ID, "sealedSecret": sealing.seal_text(PIXELPAY_SECRET, company_id,
                                                                    gateway_config.SECRET_PURPOSE),
        "userEmail": PIXELPAY_USER_EMAIL, "paymentMethodId": method_id, "feePercent": D(percent), "feeFixed": D(fixed),
        "feeTaxRate": D(tax_rate), "feeAccountId": fee_account_id, "isActive": active})
    Transaction(table).put_new(item).commit()
    return item


@dataclass
class ScriptedAdapter:
    """A provider as the tests want it: `refund_answers` in turn (a Refund, or an exception to
    raise), `approved_now` what its status call says; what it was asked, in `refunds`."""
    provider: str = "pixelpay"
    refund_answers: list[Any] = field(default_factory=list)
    approved_now: bool = True
    refunds: list[tuple[str, Decimal, str]] = field(default_factory=list)
    confirms: int = 0

    @property
    def refunds_through_api(self) -> bool:
        return self.provider == "pixelpay"

    def refund(self, access: Any, transaction_id: str, link_id: str, amount: Decimal, reason: str) -> Refund:
        assert access.secret == PIXELPAY_SECRET and access.provider == self.provider
        self.refunds.append((transaction_id, amount, reason))
        answer = self.refund_answers.pop(0) if self.refund_answers else Refund(through_api=self.provider == "pixelpay")
        if isinstance(answer, Exception):
            raise answer
        return answer

    def confirm(self, access: Any, notification: Any) -> Confirmation:
        self.confirms += 1
        return Confirmation(transaction_id=notification.transaction_id, approved=self.approved_now,
                            amount=D("0"), currency="HNL", paid_at=_dt.datetime(2026, 11, 3, tzinfo=_dt.timezone.utc),
                            live=False)


def scripted(monkeypatch: Any, adapter: ScriptedAdapter) -> ScriptedAdapter:
    monkeypatch.setattr(gateway_books, "adapter_for", lambda provider: adapter)
    return adapter
