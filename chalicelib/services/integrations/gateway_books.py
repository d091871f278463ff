"""A card gateway's payment in the books beyond the payment itself (issue 43): the provider's fee,
booked with the payment, and the refund when the payment is cancelled.

The gateway's payment method moves its CLEARING bank account (a control account in the books):
the payment debits it (payment_records.method_payment), the fee the provider keeps comes out of
it at once as a withdrawal, and a payout (services/integrations/gateway_payouts.py) moves what
is left to the bank. The fee's entry, worked by hand in docs/gateways.md:

    Dr fee expense (feeAccountId)           fee
    Dr tax on purchases (determination)     tax on the fee (ISV / IVA the provider invoices)
        Cr clearing bank account's ledger       fee + tax

A cancelled gateway payment is refunded at the provider first, outside the books' transaction
(refund_at_provider: PixelPay voids through its API; Wompi has none: recorded as refunded in its
panel), then cancelled in the books with its fee withdrawal reversed (reverse_fee_into)."""
from __future__ import annotations

from decimal import Decimal
from typing import Any

from chalicelib import clock
from chalicelib.domain.gateway_fees import fee_for
from chalicelib.domain.gateways import ProviderNotification
from chalicelib.domain.records import PaymentChanges, PaymentRecord
from chalicelib.errors import ApiError
from chalicelib.messages.books import book_text
from chalicelib.services.accounting.posting import JournalWrites
from chalicelib.services.banking import bank_transactions, banking
from chalicelib.services.commands import Command
from chalicelib.services.integrations import gateway_config
from chalicelib.services.integrations.providers import (
    GatewayAccess,
    ProviderError,
    ProviderUnavailable,
    Refund,
    adapter_for,
    gateway_unavailable,
)
from chalicelib.store import keys
from chalicelib.store.repositories import gateways as stored_gateways
from chalicelib.store.table import Table
from chalicelib.store.transaction import Transaction

# what a cancelled gateway payment records of its refund (refundedThrough)
THROUGH_API, THROUGH_PANEL = "api", "panel"
def book_fee_into(command: Command, transaction: Transaction, writes: JournalWrites, gateway: dict[str, Any],
                  payment: PaymentRecord) -> PaymentChanges:
    """The provider's fee on `payment` (built into `transaction` by method_payment with the
    gateway's method: its `before_keep`, or after it), in the same transaction: a withdrawal of fee + tax from the clearing
    bank account (the payment's own `bankAccountId`) with its one entry, Dr fee expense, Dr tax
    on purchases, Cr clearing; the split is exactly fee_for's. The fields it sets on the payment
    (and on its item, when the transaction already puts it): {} when the gateway charges nothing."""
    terms = gateway_config.fee_terms(gateway)
    if not terms.charges:
        return {}
    table = command.table
    fee = fee_for(Decimal(payment["amount"]), terms)
    account_id = payment.get("bankAccountId")
    if account_id is None:
        raise ValueError("a gateway's payment method moves its clearing bank account (gateway_config)")
    account = banking.get_bank_account(table, command.company_id, account_id)
    reference = payment.get("gatewayTransactionId") or payment.get("reference")
    item = bank_transactions.manual_into(
        command, transaction, writes, account,
        {"type": "withdrawal", "amount": fee.total, "transactionDate": payment["paymentDate"],
         "reference": str(reference)[:200] if reference else None, "chartOfAccountId": gateway.get("feeAccountId")},
        field="feeAccountId", tax=fee.tax,
        description=book_text("gateway_fee", gateway=gateway.get("name") or gateway.get("provider"),
                              payment=payment["id"]))
    payment.update({"gatewayFee": fee.fee, "gatewayFeeTax": fee.tax, "feeTransactionId": item["id"],
                    "feeJournalEntryId": item["journalEntryId"]})
    booked: PaymentChanges = {"gatewayFee": payment["gatewayFee"], "gatewayFeeTax": payment["gatewayFeeTax"],
                              "feeTransactionId": payment["feeTransactionId"],
                              "feeJournalEntryId": payment["feeJournalEntryId"]}
    key = keys.document_payment(command.company_id, int(payment["documentId"]), int(payment["id"]))
    if transaction.touches(key):   # the payment's item is already in the transaction: it carries them too
        transaction.amend_put(key, booked)
    return booked


class FeeMatched(ApiError):
    code = "BANK_TRANSACTION_ALREADY_MATCHED"


def fee_matched() -> FeeMatched:
    return FeeMatched("The payment's card fee withdrawal is matched to a statement line of the clearing account: "
                      "unmatch that line first.")


def reverse_fee_into(command: Command, transaction: Transaction, writes: JournalWrites, payment: PaymentRecord,
                     cancelled: PaymentRecord, date: str, reference: str | None) -> None:
    """The fee withdrawal of a cancelled gateway payment undone on `date` with the payment (its
    entry reversed, a deposit back into the clearing account), in the cancellation's
    transaction: the provider gives its fee back on a void. Noted on `cancelled`. A withdrawal
    a statement line holds is refused while building (FeeMatched), and again at commit."""
    account_id, tx_id = payment.get("bankAccountId"), payment.get("feeTransactionId")
    if tx_id is None or account_id is None:  # a fee withdrawal is made from the payment's bank account
        return
    table, company_id = command.table, command.company_id
    pointer = table.get(keys.bank_transaction_pointer(company_id, account_id, tx_id))
    item = table.get(keys.bank_transaction(company_id, account_id, pointer["transactionDate"], tx_id)) \
        if pointer is not None else None
    if item is None or item.get("reversedBy") is not None:
        return
    if item.get("statementLineId") is not None:   # refused now, before any provider is called
        raise fee_matched()
    reversal, = bank_transactions.reverse_into(command, transaction, writes, [item], date, reference)
    bank_transactions.mark_reversed(transaction, company_id, item, reversal["id"], freed_line=None, unreconciled=False,
                                    on_fail=fee_matched())
    cancelled.update({"feeReversalTransactionId": reversal["id"], "feeReversalEntryId": reversal.get("journalEntryId")})


def fee_comes_back(table: Table, company_id: int, payment: PaymentRecord) -> bool:
    """Whether cancelling the gateway payment gives the provider's fee back, known before the
    provider is called: a void through its API (PixelPay) does, the sale never settling; a refund
    made in the provider's panel (Wompi; a gateway deleted since) keeps it: processors keep their
    fee on a refund, and Wompi documents nothing else (docs/gateways.md)."""
    if payment.get("refundedThrough"):
        return payment["refundedThrough"] == THROUGH_API
    gateway = table.get(gateway_config.gateway_key(company_id, int(payment["gatewayId"])))
    return gateway is not None and adapter_for(gateway["provider"]).refunds_through_api


# --- refunds at the provider ------------------------------------------------------------------------

def refund_at_provider(command: Command, payment: PaymentRecord, reason: str) -> PaymentChanges:
    """The provider's refund of a gateway payment being cancelled, BEFORE the books' transaction
    (the caller has built it: a refusal of the books never leaves money refunded): the fields
    the cancelled payment records (`refundedThrough` api|panel, `refundReference`, `refundedAt`).
    ProviderError (502) and no answer (503 GATEWAY_UNAVAILABLE) change nothing.

    A void made through the API is noted on the payment at once, in a write of its own: a
    cancellation whose transaction then fails (a race, the books refusing the date) and is sent
    again finds it and calls no provider twice. Lost between the void and that note (a crash),
    the provider refuses the second void: its status call then telling the transaction is no
    longer approved, the void is taken as done."""
    if payment.get("refundedThrough"):
        noted: PaymentChanges = {"refundedThrough": payment["refundedThrough"]}
        if "refundReference" in payment:
            noted["refundReference"] = payment["refundReference"]
        if "refundedAt" in payment:
            noted["refundedAt"] = payment["refundedAt"]
        return noted
    table, company_id = command.table, command.company_id
    gateway = table.get(gateway_config.gateway_key(company_id, int(payment["gatewayId"])))
    if gateway is None:  # deleted since: nothing can call the provider; the money goes back in its panel
        return {"refundedThrough": THROUGH_PANEL, "refundedAt": clock.now_iso()}
    adapter = adapter_for(gateway["provider"])
    access = gateway_config.access_for(gateway, company_id)
    transaction_id, link_id = str(payment.get("gatewayTransactionId") or ""), str(payment.get("paymentLinkId") or "")
    try:
        refund = adapter.refund(access, transaction_id, link_id, Decimal(payment["amount"]), reason)
    except ProviderUnavailable:
        raise gateway_unavailable("refund") from None
    except ProviderError:
        if not _voided_already(adapter, access, gateway["provider"], link_id, transaction_id):
            raise
        refund = Refund(through_api=True)
    refunded: PaymentChanges = {"refundedThrough": THROUGH_API if refund.through_api else THROUGH_PANEL, "refundedAt": clock.now_iso()}
    if refund.reference:
        refunded["refundReference"] = refund.reference
    if refund.through_api:
        stored_gateways.note_refund(table, keys.document_payment(company_id, int(payment["documentId"]),
                                                                 int(payment["id"])), refunded)
    return refunded


def _voided_already(adapter: Any, access: GatewayAccess, provider: str, link_id: str, transaction_id: str) -> bool:
    """After a refused void: the provider's status call says the transaction (booked because it
    was approved) is approved no longer. No answer: not known, the refusal stands."""
    try:
        confirmation = adapter.confirm(access, ProviderNotification(provider=provider, link_id=link_id,
                                                                    transaction_id=transaction_id, approved=True))
    except ProviderUnavailable:
        return False
    return not confirmation.approved
