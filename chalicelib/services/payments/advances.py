"""Advances: money on a quote, order or delivery note before its invoice (held in the customer-
or supplier-advance account, the partner's balance untouched), and an invoice taking it from its
source document. Each command one transaction, like every payment (services/payments/payment_records.py)."""
from __future__ import annotations

from decimal import Decimal
from typing import Any

from chalicelib.domain import document_actions as actions
from chalicelib.domain import documents as document_rules
from chalicelib.domain.accounting import CREDIT, DEBIT, Movement
from chalicelib.domain.money import Money
from chalicelib.domain.records import DocumentRecord, PaymentRecord
from chalicelib.errors import NotFound, ValidationFailed
from chalicelib.messages.books import book_text
from chalicelib.messages.phrases import Phrase
from chalicelib.services import document_names
from chalicelib.services.accounting.posting import JournalWrites, Source, load_rules
from chalicelib.services.banking import exchange_rates
from chalicelib.services.commands import Command
from chalicelib.services.payments.payment_records import (
    ADVANCE,
    PaymentRefused,
    active_method,
    books_company,
    condition_type,
    new_payment,
    pay_by_method,
    payable_kind,
    payment_date,
    positive,
    record_payment,
    settle_document,
    within_pending,
)
from chalicelib.services.sales_purchases.documents import (
    get_document,
)
from chalicelib.store import keys
from chalicelib.store.repositories import payments as payment_store
from chalicelib.store.table import Table
from chalicelib.store.transaction import Transaction


def advances(document: DocumentRecord) -> tuple[Decimal, Decimal]:
    return Decimal(document.get("advancesTotal", 0)), Decimal(document.get("advancesApplied", 0))


def change_advances(transaction: Transaction, company_id: int, document: DocumentRecord, attribute: str,
                     amount: Decimal) -> None:
    """A quote's or order's advances received (`advancesTotal`) or applied (`advancesApplied`),
    on the version read: what was available stays true."""
    payment_store.add_to_advances(transaction, company_id, document["id"], document["version"], attribute, amount)


def register_advance(command: Command, order: DocumentRecord, fields: dict[str, Any]) -> PaymentRecord:
    """Money on a quote or order before its invoice: bank or cash vs the customer-advance
    (liability) or supplier-advance (asset) account. The partner's balance does not move until
    an invoice applies the advance. Together, advances never exceed the order's total."""
    table, company_id = command.table, command.company_id
    kind = document_rules.KINDS[order["type"]]
    company = books_company(table, company_id)
    own = exchange_rates.company_currency(company)
    actions.require("advance", order, own)  # not cancelled, in the company's currency, room left
    for other in ("creditNoteId", "withholdingDocumentId"):
        if fields.get(other) is not None:
            raise ValidationFailed.for_field(other, "an advance is money: give the payment method")
    if fields.get("paymentMethodId") is None:
        raise ValidationFailed.for_field("paymentMethodId", "required: an advance is paid by a payment method")
    method = active_method(table, company_id, fields)
    amount = positive(fields["amount"])
    received, _ = advances(order)
    room = Decimal(order["total"]) - received
    if amount > room:
        raise PaymentRefused(Phrase("Advances on this {} may not exceed its total {}; {} is left.",
                                    kind.name.lower(), order['total'], room), code="AMOUNT_EXCEEDS_PENDING",
                             details=[{"field": "amount", "message": Phrase("at most {}", room)}])
    date = payment_date(company, order, fields)
    payment = new_payment(company_id, order, table.next_id(keys.id_sequence(company_id, "PAY")), amount, date, fields)
    payment["kind"] = ADVANCE
    transaction = command.transaction()
    writes = JournalWrites(company_id)
    held = Movement(document_rules.ADVANCE_OPERATION[kind.code], CREDIT if kind.sales else DEBIT, amount)
    pay_by_method(table, transaction, writes, payment, order, method, company=company, money_in=kind.sales, other_side=held,
                   description=book_text("advance", document=document_names.known_as(order)), fields=fields,
                   sender=command.principal)
    change_advances(transaction, company_id, order, "advancesTotal", amount)
    return record_payment(command, transaction, writes, payment)


def advance_source(table: Table, company_id: int, source_id: int, document: DocumentRecord | None = None,
                    field: str = "sourceDocumentId", source: DocumentRecord | None = None) -> DocumentRecord:
    """The quote or order advances come from (`source` when already read), suiting `document`."""
    if source is None:
        try:
            source = get_document(table, company_id, source_id)
        except NotFound:
            raise ValidationFailed.for_field(field, "no such document") from None
    if source["type"] not in document_rules.ADVANCE_OPERATION:
        raise ValidationFailed.for_field(field, "must be a quote, order or delivery note (100, 101, 102, 112): only those take advances")
    if document is not None:
        sales = document_rules.KINDS[document["type"]].sales
        problem = None
        if document_rules.KINDS[source["type"]].sales != sales:
            problem = ("must be a customer quote, order or delivery note (100, 101, 112)" if sales
                       else "must be a purchase order (102)")
        elif source["businessPartnerId"] != document["businessPartnerId"]:
            problem = "belongs to another business partner"
        elif source.get("currency") != document.get("currency"):
            problem = Phrase("it is in {}, the document in {}", source.get('currency'), document.get('currency'))
        if problem:
            raise ValidationFailed.for_field(field, problem)
    return source


def advance_availability(table: Table, company_id: int, source_id: int) -> dict[str, Any]:
    # a path id: 404 for a document that is not there
    source = advance_source(table, company_id, source_id, source=get_document(table, company_id, source_id))
    received, applied = advances(source)
    return {"sourceDocumentId": source_id, "advancesTotal": received, "applied": applied,
            "available": received - applied}


def apply_advances(command: Command, document_id: int, fields: dict[str, Any]) -> PaymentRecord:
    """An invoice takes advance from its quote or order (its own `sourceDocumentId` unless
    another is named): all that is available up to its pending total unless `amount` says
    less. The entry moves the money from the advance account onto the receivable or payable."""
    table, company_id = command.table, command.company_id
    document = get_document(table, company_id, document_id)
    kind = payable_kind(document)  # allowedActions' `applyAdvances`: this and a pending above 0 (checked below)
    source_id = fields.get("sourceDocumentId") or document.get("sourceDocumentId")
    if source_id is None:
        raise ValidationFailed.for_field("sourceDocumentId", "required: the document has no source document")
    source = advance_source(table, company_id, int(source_id), document)
    received, applied = advances(source)
    available, pending = received - applied, Decimal(document["pending"])
    if fields.get("amount") is not None:
        amount = positive(fields["amount"])
    else:
        amount = min(available, pending)
        if amount <= 0:
            raise PaymentRefused("Nothing to apply: the document is paid." if pending <= 0 else "Nothing to apply: no advance is available on the source document.",
                                 code="ADVANCE_NOT_AVAILABLE" if pending > 0 else "AMOUNT_EXCEEDS_PENDING")
    if amount > available:
        raise PaymentRefused(Phrase("Only {} of advance is available on document {}.",
                                    available, document_names.known_as(source)),
                             code="ADVANCE_NOT_AVAILABLE", details=[{"field": "amount", "message":
                                     Phrase("at most {}", available)}])
    within_pending(amount, pending)
    condition_id = document.get("paymentConditionId")
    if condition_id is not None and condition_type(table, company_id, int(condition_id)) == "cash" \
            and amount != pending:
        # a part would leave the rest unpayable: cash terms take one payment of the whole
        raise PaymentRefused("A cash document takes its whole pending from the advance, or one payment.",
                             code="CASH_CONDITION_UNMET", details=[{"field": "amount", "message":
                                     Phrase("must be {}", pending)}])
    company = books_company(table, company_id)
    date = payment_date(company, {**document, "date": max(document["date"], source["date"])}, fields)
    payment = new_payment(company_id, document, table.next_id(keys.id_sequence(company_id, "PAY")), amount, date,
                           fields)
    transaction = command.transaction()
    writes = JournalWrites(company_id)
    operation = document_rules.ADVANCE_OPERATION[source["type"]]
    movements = ([Movement(operation, DEBIT, amount), Movement("receivable", CREDIT, amount)] if kind.sales else
                 [Movement("payable", DEBIT, amount), Movement(operation, CREDIT, amount)])
    entry = writes.automatic_entry(table, load_rules(table, company_id),
                                   source=Source("payment", payment["id"], kind.code), date=date,
                                   description=book_text("advance_application", source=document_names.known_as(source),
                                                         document=document_names.known_as(document)),
                                   movements=movements)
    payment.update({"kind": ADVANCE, "sourceDocumentId": source["id"], "journalEntryId": entry["id"]})
    change_advances(transaction, company_id, source, "advancesApplied", amount)
    payment["settledBase"] = amount   # advances are in the company's currency (see register_advance)
    settle_document(transaction, company_id, kind, document, amount,
                    Money(amount, exchange_rates.company_currency(company)), payment, date)
    return record_payment(command, transaction, writes, payment)


