"""What every way of settling a document shares: the payment record, money through a payment
method (the cash or bank side, the bank transaction, the exchange difference of a foreign
currency), the document's pending and the partner's balance, the checks of amount, date and
terms. services/payments/payments.py and services/payments/advances.py are the commands built on them."""
from __future__ import annotations

from collections.abc import Mapping
from decimal import Decimal
from typing import Any, Callable

from chalicelib import clock
from chalicelib.auth.principal import Principal
from chalicelib.domain import currency
from chalicelib.domain import documents as document_rules
from chalicelib.domain.accounting import CREDIT, DEBIT, ZERO, Movement
from chalicelib.domain.document_actions import payment_refusal
from chalicelib.domain.documents import CONFIRMED
from chalicelib.domain.money import Money
from chalicelib.domain.records import DocumentRecord, PaymentRecord
from chalicelib.errors import ApiError, NotFound, ValidationFailed
from chalicelib.events import outbox
from chalicelib.messages.books import book_text
from chalicelib.messages.phrases import Phrase
from chalicelib.services import document_names
from chalicelib.services.accounting.posting import JournalWrites, Source, load_rules
from chalicelib.services.banking import bank_transactions, banking, exchange_rates
from chalicelib.services.commands import Command
from chalicelib.services.payments import payment_setup
from chalicelib.services.sales_purchases import partner_ledger
from chalicelib.services.sales_purchases.document_partners import (
    currency_details,
    open_count_attribute,
    open_document_item,
    open_document_key,
    partner_side,
)
from chalicelib.store import keys
from chalicelib.store.repositories import payments as payment_store
from chalicelib.store.table import Table
from chalicelib.store.transaction import Transaction

PENDING, CANCELLED = "pending", "cancelled"
METHOD, CREDIT_NOTE, WITHHOLDING, ADVANCE, REFUND = "method", "credit_note", "withholding", "advance", "refund"
_KIND_LABEL = {METHOD: "Pago", CREDIT_NOTE: "Nota de crédito aplicada a", WITHHOLDING: "Retención",
               ADVANCE: "Anticipo aplicado a", REFUND: "Reembolso"}
# a sales document's money comes in; a purchase document's goes out
CREDIT_NOTE_TYPE = {True: "06", False: "105"}



class PaymentRefused(ApiError):
    """A refusal of this use case: each raise names its code."""


def payable_kind(document: DocumentRecord, refundable: bool = False) -> document_rules.Kind:
    """The kind of a confirmed document that money can settle (domain/document_actions.py): one
    that owes (an invoice, a debit note) or, when `refundable`, a credit note whose rest is refunded."""
    problem = payment_refusal(document, refundable)
    if problem:
        raise PaymentRefused(problem, code="DOCUMENT_NOT_PAYABLE")
    return document_rules.KINDS[document["type"]]


def take(transaction: Transaction, company_id: int, document: DocumentRecord, amount: Decimal,
          paid: bool, base: Money) -> None:
    """`pending` down by `amount` and `basePending` by `base` (the company's currency) (and
    `paidTotal` up, for the document paid), on the version read."""
    base_pending = currency.base_pending(document, base.currency) - base
    payment_store.take_pending(transaction, company_id, document["id"], document["version"], amount=amount,
                               base_pending=base_pending.amount, paid=paid)


def positive(amount: Decimal) -> Decimal:
    if amount <= 0:
        raise ValidationFailed.for_field("amount", "must be greater than 0")
    return amount


def require_cash_terms_met(table: Table, company_id: int, document: DocumentRecord, amount: Decimal) -> str | None:
    """A document on cash terms is paid once, for its whole total. Returns the type of the
    document's terms (None without any)."""
    condition_id = document.get("paymentConditionId")
    terms = condition_type(table, company_id, int(condition_id)) if condition_id is not None else None
    if terms != "cash":
        return terms
    total = Decimal(document["total"])
    if amount != total or Decimal(document["pending"]) != total:
        raise PaymentRefused("A cash document is paid once, for its whole total.", code="CASH_CONDITION_UNMET",
                             details=[{"field": "amount", "message":
                                     Phrase("must be {}, with no earlier payment", total)}])
    return terms


def within_pending(amount: Decimal, pending: Decimal) -> None:
    if amount > pending:
        raise PaymentRefused(Phrase("The amount {} exceeds the pending total {}.",
                                    amount, pending), code="AMOUNT_EXCEEDS_PENDING",
                             details=[{"field": "amount", "message": Phrase("at most {}", pending)}])


def books_company(table: Table, company_id: int) -> dict[str, Any]:
    """The company a payment is booked for (its currency, its country's clock): read once a command."""
    return exchange_rates.company_of(table, company_id)


def payment_date(company: Mapping[str, Any], document: DocumentRecord, fields: dict[str, Any]) -> str:
    date = fields.get("paymentDate") or max(clock.company_today(company), document["date"])
    if date < document["date"]:
        raise ValidationFailed.for_field("paymentDate", Phrase("must not be before the document's date {}",
                                                               document['date']))
    return date


def new_payment(company_id: int, document: DocumentRecord, payment_id: int, amount: Decimal, date: str,
                 fields: dict[str, Any]) -> PaymentRecord:
    document_id = document["id"]
    payment: PaymentRecord = {
        **payment_store.new_record(company_id, document_id, payment_id, status=CONFIRMED, amount=amount, date=date),
        "reference": fields.get("reference"), "notes": fields.get("notes"),
        "businessPartnerId": document["businessPartnerId"]}
    if fields.get("paymentLinkId"):
        # a gateway's payment names the link it came through: its cancellation gives the link back
        # its amount. Any other payment has no such attribute (not a null: DynamoDB holds none)
        payment["paymentLinkId"] = fields["paymentLinkId"]
    if fields.get("gatewayTransactionId"):
        # a card gateway's payment (issue 43): its gateway and the provider's transaction
        payment.update({"gatewayId": fields["gatewayId"], "gatewayTransactionId": fields["gatewayTransactionId"]})
    return payment


def pay_by_method(table: Table, transaction: Transaction, writes: JournalWrites, payment: PaymentRecord,
                   document: DocumentRecord, method: dict[str, Any], *, company: dict[str, Any],
                   money_in: bool, other_side: Movement,
                   description: str, fields: dict[str, Any], sender: Principal,
                   statement_line_id: int | None = None) -> None:
    """Money through a payment method: the cash or bank side of the entry and, when the method
    has a bank account, the bank transaction in the spec's direction. Money in a foreign
    currency moves at the payment date's rate (`exchangeRate` when sent): what it differs by
    from what `other_side` carried (in the company's currency) is an exchange gain or loss.
    `company` is the one booking it (read once). `sender` sent the fields. A
    payment made by matching a statement line: its bank transaction carries the line's id."""
    company_id, amount = writes.company_id, Decimal(payment["amount"])
    own = exchange_rates.company_currency(company)
    account = banking.get_bank_account(table, company_id, method["bankAccountId"]) if method.get("bankAccountId") else None
    if account is not None and account.get("currency") != document.get("currency"):
        raise ValidationFailed.for_field("paymentMethodId", Phrase("its bank account is in {}, the document in {}",
                                                                   account.get('currency'), document.get('currency')))
    # a document stored before currencies had a rate was booked one to one: it is settled so
    rate = exchange_rates.rate_for(table, company, document.get("currency"), payment["paymentDate"],
                                   fields.get("exchangeRate"), sender=sender) \
        if document.get("exchangeRate") is not None else Decimal(1)
    money = currency.converted(currency.document_money(document, amount, own), rate, own, "exchangeRate")
    payment.update({"exchangeRate": rate, "baseAmount": money.amount})
    # the method's state as read decides: a change meanwhile re-runs (checked once per command)
    if not transaction.touches(payment_setup.method_key(company_id, method["id"])):
        payment_store.require_method_active(transaction, payment_setup.method_key(company_id, method["id"]),
                                            PaymentRefused("The payment method is inactive.",
                                                           code="PAYMENT_METHOD_INACTIVE"))
    money_side = (Movement("bank", DEBIT if money_in else CREDIT, money.amount, account_id=account["chartOfAccountId"])
                  if account else Movement("cash", DEBIT if money_in else CREDIT, money.amount))
    entry = writes.automatic_entry(table, load_rules(table, company_id),
                                   source=Source("payment", payment["id"], document["type"]),
                                   date=payment["paymentDate"], description=description,
                                   movements=[money_side, other_side,
                                              *currency.exchange_difference(money_side.side, money,
                                                                            Money(other_side.amount, own))])
    # a statement line the payment is matched to is the bank's own word: nothing left to confirm
    pending = method.get("requiresConfirmation") and statement_line_id is None
    payment.update({"kind": payment.get("kind", METHOD), "paymentMethodId": method["id"], "journalEntryId": entry["id"],
                   "status": PENDING if pending else CONFIRMED})
    if account is not None:
        tx_type = ("transfer_in" if money_in else "transfer_out") if method.get("isCashMethod") else "payment_doc"
        bank_tx = bank_transactions.add_transaction(
            transaction, company_id, account, tx_id=bank_transactions.next_transaction_id(table, company_id), tx_type=tx_type,
            direction=banking.MONEY_IN if money_in else banking.MONEY_OUT, amount=amount, date=payment["paymentDate"],
            reference=payment.get("reference"), journal_entry_id=entry["id"], document=document,
            payment_id=payment["id"], statement_line_id=statement_line_id)
        payment.update({"bankTransactionId": bank_tx["id"], "bankAccountId": account["id"],
                       "bankTransactionType": tx_type})


def balance_change(kind: document_rules.Kind, payment: PaymentRecord) -> Decimal:
    """What registering `payment` moved its partner's balance by (company currency): what it
    settled, the other way for a credit note refunded; a credit note applied moved it only by the
    difference between the two documents' rates."""
    settled = Decimal(payment.get("settledBase", payment["amount"]))
    if payment["kind"] == CREDIT_NOTE:
        return Decimal(payment.get("appliedBase", settled)) - settled
    return -settled * kind.balance


def settle_document(transaction: Transaction, company_id: int, kind: document_rules.Kind, document: DocumentRecord, amount: Decimal,
            settled: Money, payment: PaymentRecord, date: str, *, undo: bool = False) -> None:
    """The document's pending down by `amount` and its company-currency pending by `settled`
    (`undo`: both back up, when `payment` is cancelled on `date`), the partner's balance with it
    (and its ledger), and the open-document index and count when the document stops or starts
    again to owe. A credit note refunded moves the balance the other way, and is not in the index
    of documents that owe."""
    sign = -1 if undo else 1
    amount, settled = amount * sign, settled * sign
    pending = Decimal(document["pending"])
    take(transaction, company_id, document, amount, paid=True, base=settled)
    owes = kind.balance > 0
    paid_off, reopened = owes and amount == pending, owes and pending == 0 and amount < 0
    open_delta = -1 if paid_off else 1 if reopened else 0
    change = balance_change(kind, payment) * sign
    if change or open_delta:
        move_partner(transaction, company_id, kind, document, change, open_delta)
    if change:
        label = f"{_KIND_LABEL[payment['kind']]} {document_names.known_as(document)}"
        partner_ledger.record_movement(
            transaction, company_id, partner_id=document["businessPartnerId"], side=partner_side(kind), date=date,
            amount=change, origin=partner_ledger.PAYMENT_ORIGIN, origin_id=payment["id"],
            version=int(payment.get("version", 0)) + 1,
            details={"documentId": document["id"], "documentType": kind.code, "number": document.get("number"),
                     "paymentId": payment["id"], "paymentKind": payment["kind"],
                     "description": label if amount > 0 else book_text("payment_cancelled", label=label),
                     **currency_details(document, ZERO if payment["kind"] == CREDIT_NOTE else
                                        -amount * kind.balance)})
    if paid_off:
        transaction.delete(open_document_key(company_id, document))
    elif owes and amount:
        # reopened, or still owing less (more): its index item carries what it owes now, for
        # bank statement suggestions (one operation on the item, as a paid-off one's delete)
        transaction.put(open_document_item(company_id, {**document, "pending": pending - amount}))


def record_payment(command: Command, transaction: Transaction, writes: JournalWrites,
                   payment: PaymentRecord) -> PaymentRecord:
    writes.apply(transaction)
    keep(transaction, command.company_id, payment)
    return command.commit(transaction, payment)


def keep(transaction: Transaction, company_id: int, payment: PaymentRecord) -> None:
    """The payment item and its event (the entry's writes are the caller's, applied once)."""
    payment.update({"version": 1, "createdAt": clock.now_iso()})
    transaction.put_new({name: value for name, value in payment.items() if value is not None})
    outbox.emit(transaction, outbox.PAYMENT_CREATED, company_id, "payment", payment["id"], payment_event_data(payment))


def method_payment(command: Command, transaction: Transaction, writes: JournalWrites, document: DocumentRecord,
                   kind: document_rules.Kind, method: dict[str, Any], fields: dict[str, Any], *,
                   field: str = "amount", statement_line_id: int | None = None,
                   before_keep: Callable[[PaymentRecord], None] | None = None) -> PaymentRecord:
    """A payment of `document` by `method`, built into the caller's transaction and journal
    writes (as many times as the command pays documents: the bank account, the partners and the
    ledger's balances add up, each written once): the checks of amount, date and terms, the entry,
    the bank transaction, the pending and the partner's balance, the payment and its event.
    `field` names the amount in a refusal. `before_keep` adds to the payment, and to the
    transaction, before the payment is written (a gateway's fee)."""
    table, company_id = command.table, command.company_id
    amount = Decimal(fields["amount"])
    if amount <= 0:
        raise ValidationFailed.for_field(field, "must be greater than 0")
    pending = Decimal(document["pending"])
    if amount > pending:
        raise PaymentRefused(Phrase("The amount {} exceeds the pending total {}.",
                                    amount, pending), code="AMOUNT_EXCEEDS_PENDING",
                             details=[{"field": field, "message": Phrase("at most {}", pending)}])
    condition_id = document.get("paymentConditionId")
    terms = require_cash_terms_met(table, company_id, document, amount)
    company = books_company(table, company_id)
    own = exchange_rates.company_currency(company)
    date = payment_date(company, document, fields)
    payment = new_payment(company_id, document, table.next_id(keys.id_sequence(company_id, "PAY")), amount, date,
                          fields)
    sales = kind.sales
    # what the payment takes off the receivable or payable, in the company's currency at the document's rate
    settled = currency.relief(document, currency.document_money(document, amount, own), own)
    payment["settledBase"] = settled.amount
    partner_side = Movement("receivable" if sales else "payable", CREDIT if sales else DEBIT, settled.amount)
    pay_by_method(table, transaction, writes, payment, document, method, company=company,
                  money_in=document_rules.money_comes_in(kind),
                  other_side=partner_side, description=book_text("payment", document=document_names.known_as(document)),
                  fields=fields, sender=command.principal, statement_line_id=statement_line_id)
    if terms is not None and condition_id is not None:
        condition = payment_setup.condition_key(company_id, condition_id)
        if not transaction.touches(condition):
            payment_store.require_condition_type(transaction, condition, terms)
    settle_document(transaction, company_id, kind, document, amount, settled, payment, date)
    if before_keep is not None:
        before_keep(payment)
    keep(transaction, company_id, payment)
    return payment


def condition_type(table: Table, company_id: int, condition_id: int) -> str | None:
    try:
        terms: str = payment_setup.get_condition(table, company_id, condition_id)["type"]
        return terms
    except NotFound:  # deleted since: the document's terms are no longer known
        return None


def active_method(table: Table, company_id: int, fields: dict[str, Any]) -> dict[str, Any]:
    try:
        method = payment_setup.get_method(table, company_id, fields["paymentMethodId"])
    except NotFound:
        raise ValidationFailed.for_field("paymentMethodId", "no such payment method") from None
    if not method.get("isActive", True):
        raise PaymentRefused("The payment method is inactive.", code="PAYMENT_METHOD_INACTIVE",
                             details=[{"field": "paymentMethodId", "message": "inactive"}])
    return method


def move_partner(transaction: Transaction, company_id: int, kind: document_rules.Kind, document: DocumentRecord,
                  amount: Decimal, open_delta: int) -> None:
    """The partner's balance by `amount`, and its count of open documents by `open_delta` when
    the document stops (-1) or starts again (+1) to owe."""
    # several documents of one partner paid by one command (a statement line) move it once
    transaction.accumulate(keys.entity(company_id, keys.PARTNER, document["businessPartnerId"]),
                           {"receivableBalance" if kind.sales else "payableBalance": amount,
                            open_count_attribute(kind): open_delta})


def payment_event_data(payment: PaymentRecord) -> dict[str, Any]:
    return {"id": payment["id"], "documentId": payment["documentId"], "kind": payment["kind"],
            "amount": payment["amount"], "status": payment["status"], "paymentDate": payment["paymentDate"]}


