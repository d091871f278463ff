"""Payments against documents: by payment method, by credit note, by withholding certificate.
Registering decrements the document's `pending` in the same transaction as the payment, its
entry, its bank transaction, the partner's balance and the outbox event, conditioned on the
document's version: no race can overpay. Confirm and cancel are commands of their own."""
from __future__ import annotations

from decimal import Decimal
from typing import Any

from chalicelib import clock
from chalicelib.domain import currency
from chalicelib.domain import document_actions as actions
from chalicelib.domain import documents as document_rules
from chalicelib.domain.accounting import CREDIT, DEBIT, Movement
from chalicelib.domain.documents import CONFIRMED
from chalicelib.domain.money import Money
from chalicelib.domain.records import DocumentRecord, PaymentRecord
from chalicelib.domain.roles import MANAGE, may
from chalicelib.errors import ApiError, Forbidden, NotFound, ValidationFailed
from chalicelib.events import outbox
from chalicelib.messages.books import book_text
from chalicelib.messages.phrases import Phrase
from chalicelib.services import document_names
from chalicelib.services.accounting.posting import JournalWrites, Source, get_entry, load_rules
from chalicelib.services.banking import bank_transactions, banking, exchange_rates
from chalicelib.services.commands import Command
from chalicelib.services.integrations import gateway_books, link_payments
from chalicelib.services.payments import payment_setup
from chalicelib.services.payments.advances import (
    advances,
    change_advances,
    register_advance,
)
from chalicelib.services.payments.payment_records import (
    CANCELLED,
    CREDIT_NOTE,
    CREDIT_NOTE_TYPE,
    PENDING,
    REFUND,
    WITHHOLDING,
    PaymentRefused,
    active_method,
    books_company,
    method_payment,
    new_payment,
    pay_by_method,
    payable_kind,
    payment_date,
    payment_event_data,
    positive,
    record_payment,
    require_cash_terms_met,
    settle_document,
    take,
    within_pending,
)
from chalicelib.services.sales_purchases.documents import (
    get_document,
)
from chalicelib.store import keys
from chalicelib.store.listing import Page
from chalicelib.store.repositories import payments as payment_store
from chalicelib.store.table import Table
from chalicelib.store.transaction import Transaction

_REVERSED_TYPE = {"payment_doc": "payment_doc", "transfer_in": "transfer_out", "transfer_out": "transfer_in"}

def list_payments(table: Table, company_id: int, document_id: int, page: int, limit: int) -> Page:
    get_document(table, company_id, document_id)
    items = payment_store.of_document(table, company_id, document_id)
    skip = (page - 1) * limit
    return Page(items=items[skip:skip + limit], total=len(items), page=page, limit=limit, next_cursor=None)


def get_payment(table: Table, company_id: int, document_id: int, payment_id: int) -> PaymentRecord:
    item = payment_store.payment(table, company_id, document_id, payment_id)
    if item is None:
        raise NotFound("Payment not found.")
    return item


def _applied_document(table: Table, company_id: int, document: DocumentRecord, applied_id: int, field: str,
                      wanted_type: str, amount: Decimal) -> DocumentRecord:
    """The credit note or certificate a payment applies: confirmed, of the right type and
    partner, with enough left."""
    try:
        applied = get_document(table, company_id, applied_id)
    except NotFound:
        raise ValidationFailed.for_field(field, "no such document") from None
    problem: str | None = None
    if applied["type"] != wanted_type:
        problem = Phrase("must be a document of type {}", wanted_type)
    elif applied["status"] != CONFIRMED:
        problem = Phrase("the document is {}", applied['status'])
    elif applied["businessPartnerId"] != document["businessPartnerId"]:
        problem = "belongs to another business partner"
    elif Decimal(applied["pending"]) < amount:
        problem = Phrase("only {} of it is left to apply", applied['pending'])
    elif applied.get("currency") != document.get("currency"):
        problem = Phrase("it is in {}, the document in {}", applied.get('currency'), document.get('currency'))
    elif (side := (applied.get("withholding") or {}).get("side")) not in (None, document_rules.KINDS[document["type"]].module):
        problem = Phrase("it certifies a withholding on {}, not on this document's side", side)
    if problem:
        raise ValidationFailed.for_field(field, problem)
    return applied


def register_payment(command: Command, document_id: int, fields: dict[str, Any]) -> PaymentRecord:
    table, company_id = command.table, command.company_id
    document = get_document(table, company_id, document_id)
    if document["type"] in document_rules.ADVANCE_OPERATION:
        return register_advance(command, document, fields)
    kind = payable_kind(document, refundable=True)
    if kind.balance < 0:
        return _register_refund(command, document, kind, fields)
    forms = [name for name in ("paymentMethodId", "creditNoteId", "withholdingDocumentId") if fields.get(name) is not None]
    if not forms:
        raise ValidationFailed.for_field("paymentMethodId", "required: a payment method, a credit note or a "
                                                            "withholding certificate")
    if len(forms) > 1:
        raise ValidationFailed.for_field(forms[1], "send only one of a payment method, a credit note or a "
                                                   "withholding certificate")
    if fields.get("paymentMethodId") is not None:
        transaction, writes = command.transaction(), JournalWrites(company_id)
        payment = method_payment(command, transaction, writes, document, kind, active_method(table, company_id, fields),
                                 fields)
        writes.apply(transaction)
        return command.commit(transaction, payment)
    amount = positive(fields["amount"])
    within_pending(amount, Decimal(document["pending"]))
    condition_id = document.get("paymentConditionId")
    terms = require_cash_terms_met(table, company_id, document, amount)
    company = books_company(table, company_id)
    own = exchange_rates.company_currency(company)
    date = payment_date(company, document, fields)
    payment_id = table.next_id(keys.id_sequence(company_id, "PAY"))
    transaction = command.transaction()
    writes = JournalWrites(company_id)
    sales = kind.sales
    # what the payment takes off the receivable or payable, in the company's currency at the document's rate
    settled = currency.relief(document, currency.document_money(document, amount, own), own)
    partner_side = Movement("receivable" if sales else "payable", CREDIT if sales else DEBIT, settled.amount)
    payment = new_payment(company_id, document, payment_id, amount, date, fields)
    payment["settledBase"] = settled.amount
    source = Source("payment", payment_id, kind.code)
    if fields.get("creditNoteId") is not None:
        note = _applied_document(table, company_id, document, fields["creditNoteId"], "creditNoteId",
                                 CREDIT_NOTE_TYPE[sales], amount)
        applied = currency.relief(note, currency.document_money(note, amount, own), own)
        take(transaction, company_id, note, amount, paid=False, base=applied)
        # the note's entry already moved the receivable or payable; what is left is the difference
        # between the rates of the note and of the document it settles
        note_side = Movement(partner_side.operation, DEBIT if sales else CREDIT, applied.amount)
        difference = currency.exchange_difference(note_side.side, applied, settled)
        if difference:
            entry = writes.automatic_entry(table, load_rules(table, company_id), source=source, date=date,
                                           description=book_text("exchange_difference_credit_note", note=document_names.known_as(note),
                                                                   document=document_names.known_as(document)),
                                           movements=[note_side, partner_side, *difference])
            payment["journalEntryId"] = entry["id"]
        else:
            writes.require_open(date)
        payment.update({"kind": CREDIT_NOTE, "creditNoteId": note["id"], "appliedBase": applied.amount})
    else:
        certificate = _applied_document(table, company_id, document, fields["withholdingDocumentId"],
                                        "withholdingDocumentId", "05", amount)
        applied = currency.relief(certificate, currency.document_money(certificate, amount, own), own)
        take(transaction, company_id, certificate, amount, paid=False, base=applied)
        withheld = Movement("withholding", DEBIT if sales else CREDIT, applied.amount)
        entry = writes.automatic_entry(table, load_rules(table, company_id), source=source, date=date,
                                       description=book_text("withholding", document=document_names.known_as(document)),
                                       movements=[withheld, partner_side,
                                                  *currency.exchange_difference(withheld.side, applied, settled)])
        payment.update({"kind": WITHHOLDING, "withholdingDocumentId": certificate["id"], "journalEntryId": entry["id"],
                       "appliedBase": applied.amount})
    if terms is not None and condition_id is not None:
        payment_store.require_condition_type(transaction, payment_setup.condition_key(company_id, condition_id),
                                             terms)
    settle_document(transaction, company_id, kind, document, amount, settled, payment, date)
    return record_payment(command, transaction, writes, payment)


def _register_refund(command: Command, note: DocumentRecord, kind: document_rules.Kind,
                     fields: dict[str, Any]) -> PaymentRecord:
    """What a credit note leaves unapplied goes back in money: out to the customer (06), in from
    the supplier (105). The entry undoes the note's effect on the receivable or payable, and the
    partner's balance comes back up by the amount."""
    table, company_id = command.table, command.company_id
    actions.require("refund", note)
    for other in ("creditNoteId", "withholdingDocumentId"):
        if fields.get(other) is not None:
            raise ValidationFailed.for_field(other, "a credit note is refunded in money: give the payment method")
    if fields.get("paymentMethodId") is None:
        raise ValidationFailed.for_field("paymentMethodId", "required: a refund is made by a payment method")
    method = active_method(table, company_id, fields)
    amount = positive(fields["amount"])
    within_pending(amount, Decimal(note["pending"]))
    company = books_company(table, company_id)
    own = exchange_rates.company_currency(company)
    date = payment_date(company, note, fields)
    payment = new_payment(company_id, note, table.next_id(keys.id_sequence(company_id, "PAY")), amount, date, fields)
    settled = currency.relief(note, currency.document_money(note, amount, own), own)
    payment.update({"kind": REFUND, "settledBase": settled.amount})
    transaction = command.transaction()
    writes = JournalWrites(company_id)
    partner_side = Movement("receivable" if kind.sales else "payable", DEBIT if kind.sales else CREDIT, settled.amount)
    pay_by_method(table, transaction, writes, payment, note, method, company=company,
                   money_in=document_rules.money_comes_in(kind),
                   other_side=partner_side, description=book_text("refund", document=document_names.known_as(note)),
                   fields=fields, sender=command.principal)
    settle_document(transaction, company_id, kind, note, amount, settled, payment, date)
    return record_payment(command, transaction, writes, payment)


def confirm_payment(command: Command, document_id: int, payment_id: int) -> PaymentRecord:
    payment = get_payment(command.table, command.company_id, document_id, payment_id)
    if payment["status"] != PENDING:
        raise PaymentRefused(Phrase("Only a pending payment can be confirmed; this one is {}.", payment['status']),
                             code="INVALID_PAYMENT_STATUS")
    transaction = command.transaction()
    return command.commit(transaction, confirm_into(transaction, command.company_id, payment))


def confirm_into(transaction: Transaction, company_id: int, payment: PaymentRecord) -> PaymentRecord:
    """A pending payment confirmed, with its event, in the caller's transaction (a statement line
    matched to its bank transaction confirms it too)."""
    confirmed: PaymentRecord = {**payment, "status": CONFIRMED, "confirmedAt": clock.now_iso(), "version": payment["version"] + 1}
    payment_store.replace(transaction, confirmed, payment["version"], while_status=PENDING)
    outbox.emit(transaction, outbox.PAYMENT_CONFIRMED, company_id, "payment", payment["id"], payment_event_data(confirmed))
    return confirmed


def cancel_payment(command: Command, document_id: int, payment_id: int, reason: str,
                   date: str | None = None) -> PaymentRecord:
    """From pending or confirmed: the entry reversed, the bank transaction reversed, the
    document's pending (and the applied note's, certificate's or advance's) restored. An
    advance received on an order can be cancelled only while it is still available. A card
    gateway's payment is refunded at the provider first (gateway_books.refund_at_provider)."""
    payment = get_payment(command.table, command.company_id, document_id, payment_id)
    through_gateway = payment.get("gatewayId") is not None
    if through_gateway and not may(command.principal.role, MANAGE):
        # it gives real money back at the provider: who manages the gateways decides (docs/gateways.md)
        raise Forbidden("Only an owner or administrator may cancel a card payment: cancelling it refunds the "
                        "money at the payment gateway.")
    transaction, writes = command.transaction(), JournalWrites(command.company_id)
    _refuse_matched(command, payment)
    keep_fee = through_gateway and not gateway_books.fee_comes_back(command.table, command.company_id, payment)
    cancelled = cancel_into(command, transaction, writes, payment, reason, date, keep_fee=keep_fee)
    writes.apply(transaction)
    if through_gateway:
        # the provider's refund once the books accept the cancellation (built whole, each refusal its
        # commit could make read now: the locks of its dates), before they record it
        writes.refuse_closed_now(command.table)
        refunded = gateway_books.refund_at_provider(command, payment, reason)
        cancelled = {**cancelled, **refunded}
        transaction.amend_put(keys.document_payment(command.company_id, document_id, payment_id), refunded)
    return command.commit(transaction, cancelled)


def _matched_refusal() -> PaymentRefused:
    return PaymentRefused("The payment's bank transaction is matched to a statement line: unmatch the line "
                          "instead.", code="BANK_TRANSACTION_ALREADY_MATCHED")


def _original_transaction(command: Command, payment: PaymentRecord) -> dict[str, Any] | None:
    """The payment's bank transaction (none: it moved no bank account, or predates the pointers)."""
    account_id, tx_id = payment.get("bankAccountId"), payment.get("bankTransactionId")
    if tx_id is None or account_id is None:  # the bank transaction is the payment's bank account's
        return None
    pointer = command.table.get(keys.bank_transaction_pointer(command.company_id, account_id, tx_id))
    if pointer is None:
        return None
    return command.table.get(keys.bank_transaction(command.company_id, account_id, pointer["transactionDate"], tx_id))


def _refuse_matched(command: Command, payment: PaymentRecord) -> None:
    """A payment whose bank transaction a statement line holds is undone by unmatching the line
    (services/statements/matching.py), which cancels it there: cancelled alone, the line would
    stay matched to money that no longer moved. A match meanwhile fails this command's condition
    on the transaction (cancel_into's mark, held by no line)."""
    if payment.get("status") == CANCELLED:
        return
    item = _original_transaction(command, payment)
    if item is not None and item.get("statementLineId") is not None:
        raise _matched_refusal()


def cancel_into(command: Command, transaction: Transaction, writes: JournalWrites, payment: PaymentRecord,
                reason: str, date: str | None = None, *, freed_line: int | None = None,
                on_fail: ApiError | None = None, keep_fee: bool = False) -> PaymentRecord:
    """What cancelling `payment` writes, into the caller's transaction and journal writes (an
    unmatched statement line cancels each payment its match made, in one transaction). Its bank
    transaction and the reversal name each other (`reversedBy`, `reverses`): the original's one
    update frees it of the statement line `freed_line` (an unmatch), else requires it held by
    none (`on_fail`: the refusal when that fails). A card gateway's fee is reversed with it
    unless `keep_fee` (a refund made in the provider's panel: gateway_books.fee_comes_back)."""
    table, company_id = command.table, command.company_id
    document_id, payment_id = payment["documentId"], payment["id"]
    if payment["status"] == CANCELLED:
        raise PaymentRefused("The payment is already cancelled.", code="INVALID_PAYMENT_STATUS")
    document = get_document(table, company_id, document_id)
    kind = document_rules.KINDS[document["type"]]
    amount = Decimal(payment["amount"])
    company = books_company(table, company_id)
    own = exchange_rates.company_currency(company)
    date = date or max(clock.company_today(company), payment["paymentDate"])
    if date < payment["paymentDate"]:
        raise ValidationFailed.for_field("date", Phrase("must not be before the payment's date {}",
                                                        payment['paymentDate']))
    received_advance = kind.code in document_rules.ADVANCE_OPERATION
    if received_advance:
        received, applied = advances(document)
        if received - applied < amount:
            raise PaymentRefused(Phrase("Invoices already took {} of this document's advances; cancel those "
                                        "applications first.", applied), code="ADVANCE_ALREADY_APPLIED")
    cancelled: PaymentRecord = {**payment, "status": CANCELLED, "cancelReason": reason, "cancelledAt": clock.now_iso(),
                 "version": payment["version"] + 1}
    if (entry_id := payment.get("journalEntryId")) is not None:
        reversal = writes.reverse(table, get_entry(table, company_id, entry_id), date)
        cancelled["reversalEntryId"] = reversal["id"]
    else:
        writes.require_open(date)
    applied_id = payment.get("creditNoteId") or payment.get("withholdingDocumentId")
    if applied_id is not None:
        # a payment made before bases were kept was booked one to one
        take(transaction, company_id, get_document(table, company_id, int(applied_id)), -amount, paid=False,
              base=-Money(Decimal(payment.get("appliedBase", amount)), own))
    if (source_id := payment.get("sourceDocumentId")) is not None:
        change_advances(transaction, company_id, get_document(table, company_id, source_id),
                         "advancesApplied", -amount)
    bank_tx_id, account_id = payment.get("bankTransactionId"), payment.get("bankAccountId")
    if bank_tx_id is not None and account_id is not None:  # a bank transaction moves the payment's bank account
        account = banking.get_bank_account(table, company_id, account_id)
        moved = banking.MONEY_IN if document_rules.money_comes_in(kind) else banking.MONEY_OUT
        bank_tx = bank_transactions.add_transaction(
            transaction, company_id, account, tx_id=bank_transactions.next_transaction_id(table, company_id),
            tx_type=_REVERSED_TYPE[payment.get("bankTransactionType", "payment_doc")],
            direction=banking.MONEY_OUT if moved == banking.MONEY_IN else banking.MONEY_IN,
            amount=amount, date=date, reference=book_text("payment_reversal_reference", reason=reason)[:200], journal_entry_id=cancelled.get(
                "reversalEntryId"), document=document, payment_id=payment_id, require_active=False,
            reverses=bank_tx_id)
        cancelled["reversalBankTransactionId"] = bank_tx["id"]
        original = _original_transaction(command, payment)
        if original is not None:
            bank_transactions.mark_reversed(transaction, company_id, original, bank_tx["id"], freed_line=freed_line,
                                  unreconciled=freed_line is not None, on_fail=on_fail or _matched_refusal())
    if received_advance:
        change_advances(transaction, company_id, document, "advancesTotal", -amount)
    else:
        settle_document(transaction, company_id, kind, document, amount,
                        Money(Decimal(payment.get("settledBase", amount)), own), payment, date, undo=True)
    if not keep_fee:
        gateway_books.reverse_fee_into(command, transaction, writes, payment, cancelled, date,
                                       book_text("payment_reversal_reference", reason=reason)[:200])
    link_payments.give_back(table, transaction, payment)
    payment_store.replace(transaction, cancelled, payment["version"])
    return cancelled
