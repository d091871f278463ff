"""What the gateway books tests share (issue 43): a Honduran shop with a bank account and a card
gateway whose payment method moves a clearing bank account, the gateway's payment booked as the
notification pipeline books it (method_payment + gateway_books.book_fee_into in one transaction),
and a provider adapter the tests script (its refund and status answers)."""
from __future__ import annotations

import datetime as _dt
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any

from chalicelib.auth import sealing
from chalicelib.auth.principal import Principal
from chalicelib.services import records
from chalicelib.services.accounting.posting import JournalWrites
from chalicelib.services.commands import Command
from chalicelib.services.integrations import gateway_books
from chalicelib.services.integrations.providers import Confirmation, Refund
from chalicelib.services.payments.payment_records import active_method, method_payment, payable_kind
from chalicelib.services.sales_purchases.documents import get_document
from chalicelib.store import keys
from chalicelib.store.transaction import Transaction
from tests.bank_matching_support import bank_account
from tests.documents_support import Shop

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


def card_shop(shop: Shop, table: Any, *, provider: str = "pixelpay", percent: str = "3.5", fixed: str = "5.00",
              tax_rate: str = "0.15") -> CardShop:
    """The shop's bank (110103, opening 1,000.00), the clearing account PixelPay's payments go to
    (110105, opening 0) with its card method, the fee expense account 6105 and the gateway: 3.5 %
    + 5.00 with ISV 15 % on the fee, unless told otherwise."""
    books = shop.books
    for code, name, kind in ((CLEARING, "Pasarela por liquidar", "asset"), (FEES, "Comisiones de pasarela", "expense")):
        if code not in books.accounts:
            books.accounts[code] = shop.created("/chart-of-accounts", {"code": code, "name": name, "type": kind})["id"]
    bank = bank_account(shop)
    clearing = shop.created("/bank-accounts", {"name": "PixelPay por liquidar", "openingBalance": 0,
                                               "openingBalanceDate": "2026-11-01", "chartOfAccountId": books[CLEARING]})
    method = shop.created("/payments/methods", {"name": "Tarjeta", "bankAccountId": clearing["id"]})
    gateway = put_gateway(table, shop.company.company_id, provider=provider, method_id=method["id"],
                          fee_account_id=books[FEES], percent=percent, fixed=fixed, tax_rate=tax_rate)
    return CardShop(shop, bank, clearing, method, gateway)


def put_gateway(table: Any, company_id: int, *, provider: str, method_id: int, fee_account_id: int, percent: str,
                fixed: str, tax_rate: str, active: bool = True) -> dict:
    """The gateway as the configuration stores it (the core's POST /payments/gateways writes the
    same fields)."""
    item = records.new_small_record(table, company_id, keys.PAYMENT_GATEWAY, {
        "name": "PixelPay" if provider == "pixelpay" else "Wompi", "provider": provider, "mode": "test",
        "keyId": "1234567890", "sealedSecret": sealing.seal_text("@s4ndb0x-abcd-1234-n1l4-p1x3l", company_id,
                                                                 gateway_books.SECRET_PURPOSE),
        "userEmail": "sonia@pixel.hn", "paymentMethodId": method_id, "feePercent": D(percent), "feeFixed": D(fixed),
        "feeTaxRate": D(tax_rate), "feeAccountId": fee_account_id, "isActive": active})
    Transaction(table).put_new(item).commit()
    return item


def book_gateway_payment(table: Any, company_id: int, gateway: dict, document_id: int, amount: str,
                         transaction_id: str, date: str) -> dict:
    """What the core's pipeline books for an accepted notification: the payment by the gateway's
    method (Dr clearing, Cr receivable) and its fee, in one transaction."""
    command = Command(Principal.acting_for(company_id, "gateway"), table)
    document = get_document(table, company_id, document_id)
    method = active_method(table, company_id, {"paymentMethodId": gateway["paymentMethodId"]})
    transaction, writes = command.transaction(), JournalWrites(company_id)
    payment = method_payment(command, transaction, writes, document, payable_kind(document), method,
                             {"paymentMethodId": method["id"], "amount": D(amount), "paymentDate": date,
                              "reference": transaction_id, "paymentLinkId": "pl_test"})
    named = {"gatewayId": gateway["id"], "gatewayTransactionId": transaction_id}
    payment.update(named)
    transaction.amend_put(keys.document_payment(company_id, document_id, payment["id"]), named)
    gateway_books.book_fee_into(command, transaction, writes, gateway, payment)
    writes.apply(transaction)
    return command.commit(transaction, payment)


@dataclass
class ScriptedAdapter:
    """A provider as the tests want it: `refund_answers` in turn (a Refund, or an exception to
    raise), `approved_now` what its status call says; what it was asked, in `refunds`."""
    provider: str = "pixelpay"
    refund_answers: list[Any] = field(default_factory=list)
    approved_now: bool = True
    refunds: list[tuple[str, Decimal, str]] = field(default_factory=list)
    confirms: int = 0

    def refund(self, access: Any, transaction_id: str, link_id: str, amount: Decimal, reason: str) -> Refund:
        assert access.secret == "@s4ndb0x-abcd-1234-n1l4-p1x3l" and access.provider == self.provider
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
