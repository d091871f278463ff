"""Payments against documents: by payment method, by credit note, by withholding certificate.
Registering decrements the document's `pending` in the same transaction as the payment, its
entry, its bank transaction, the partner's balance and the outbox event, conditioned on the
document's version: no race can overpay. Confirm and cancel are commands of their own."""
from __future__ import annotations

from decimal import Decimal
from typing import Any

from chalicelib import clock
from chalicelib.domain import documents as rules
from chalicelib.domain.accounting import CREDIT, DEBIT, ZERO, Movement
from chalicelib.domain.documents import CONFIRMED
from chalicelib.errors import ApiError, NotFound, ValidationFailed
from chalicelib.events import outbox
from chalicelib.services import accounts, banking, partner_ledger, payment_setup
from chalicelib.services.commands import Command
from chalicelib.services.documents import (
    get_document,
    open_count_attribute,
    open_document_item,
    open_document_key,
    side_of,
)
from chalicelib.services.posting import JournalWrites, Source, get_entry, load_rules
from chalicelib.store import keys
from chalicelib.store.listing import Page
from chalicelib.store.table import Table
from chalicelib.store.transaction import Transaction

PENDING, CANCELLED = "pending", "cancelled"
METHOD, CREDIT_NOTE, WITHHOLDING, ADVANCE, REFUND = "method", "credit_note", "withholding", "advance", "refund"
PAYMENT_PREFIX = "PAY#"
_KIND_LABEL = {METHOD: "Pago", CREDIT_NOTE: "Nota de crédito aplicada a", WITHHOLDING: "Retención",
               ADVANCE: "Anticipo aplicado a", REFUND: "Reembolso"}
_REVERSED_TYPE = {"payment_doc": "payment_doc", "transfer_in": "transfer_out", "transfer_out": "transfer_in"}
# a sales document's money comes in; a purchase document's goes out
CREDIT_NOTE_TYPE = {True: "06", False: "105"}


class PaymentRefused(ApiError):
    status = 400


def payment_key(company_id: int, document_id: int, payment_id: int) -> keys.Key:
    return {"PK": keys.document(company_id, document_id)["PK"], "SK": f"{PAYMENT_PREFIX}{keys.sortable_id(payment_id)}"}


def list_payments(table: Table, company_id: int, document_id: int, page: int, limit: int) -> Page:
    get_document(table, company_id, document_id)
    items = table.query_all(partition=("PK", keys.document(company_id, document_id)["PK"]),
                            sort_prefix=("SK", PAYMENT_PREFIX), consistent=True)
    skip = (page - 1) * limit
    return Page(items=items[skip:skip + limit], total=len(items), page=page, limit=limit, next_cursor=None)


def get_payment(table: Table, company_id: int, document_id: int, payment_id: int) -> dict[str, Any]:
    item = table.get(payment_key(company_id, document_id, payment_id))
    if item is None:
        raise NotFound("Payment not found.")
    return item


def _payable_kind(document: dict[str, Any], refundable: bool = False) -> rules.Kind:
    """The kind of a confirmed document that money can settle: one that owes (an invoice, a
    debit note) or, when `refundable`, a credit note whose rest is refunded."""
    kind = rules.KINDS[document["type"]]
    if kind.balance == 0 or (kind.balance < 0 and not refundable):
        raise PaymentRefused(f"Documents of type {kind.code} ({kind.name}) are not paid"
                             + ("; a credit note is refunded by a payment method or applied to the documents it "
                                "corrects." if kind.balance < 0 else "."), code="DOCUMENT_NOT_PAYABLE")
    if document["status"] != CONFIRMED:
        raise PaymentRefused(f"Only a confirmed document can be paid; this one is {document['status']}.",
                             code="DOCUMENT_NOT_PAYABLE")
    return kind


def _applied_document(table: Table, company_id: int, document: dict[str, Any], applied_id: int, field: str,
                      wanted_type: str, amount: Decimal) -> dict[str, Any]:
    """The credit note or certificate a payment applies: confirmed, of the right type and
    partner, with enough left."""
    try:
        applied = get_document(table, company_id, applied_id)
    except NotFound:
        raise ValidationFailed.for_field(field, "no such document") from None
    problem = None
    if applied["type"] != wanted_type:
        problem = f"must be a document of type {wanted_type}"
    elif applied["status"] != CONFIRMED:
        problem = f"the document is {applied['status']}"
    elif int(applied["businessPartnerId"]) != int(document["businessPartnerId"]):
        problem = "belongs to another business partner"
    elif Decimal(applied["pending"]) < amount:
        problem = f"only {applied['pending']} of it is left to apply"
    elif applied.get("currency") != document.get("currency"):
        problem = f"it is in {applied.get('currency')}, the document in {document.get('currency')}"
    elif (applied.get("withholding") or {}).get("side") not in (None, rules.KINDS[document["type"]].module):
        problem = f"it certifies a withholding on {applied['withholding']['side']}, not on this document's side"
    if problem:
        raise ValidationFailed.for_field(field, problem)
    return applied


def _take(transaction: Transaction, company_id: int, document: dict[str, Any], amount: Decimal,
          paid: bool) -> None:
    """`pending` down by `amount` (and `paidTotal` up, for the document paid), on the version read."""
    expression = "ADD pending :minus, #version :one" + (", paidTotal :amount" if paid else "")
    values: dict[str, Any] = {":minus": -amount, ":one": 1, ":seen": int(document["version"])}
    if paid:
        values[":amount"] = amount
    transaction.update(keys.document(company_id, int(document["id"])), expression, condition="#version = :seen",
                       names={"#version": "version"}, values=values)


def register_payment(command: Command, document_id: int, fields: dict[str, Any]) -> dict[str, Any]:
    table, company_id = command.table, command.company_id
    document = get_document(table, company_id, document_id)
    if document["type"] in rules.ADVANCE_OPERATION:
        return _register_advance(command, document, fields)
    kind = _payable_kind(document, refundable=True)
    if kind.balance < 0:
        return _register_refund(command, document, kind, fields)
    forms = [name for name in ("paymentMethodId", "creditNoteId", "withholdingDocumentId") if fields.get(name) is not None]
    if not forms:
        raise ValidationFailed.for_field("paymentMethodId", "required: send paymentMethodId, creditNoteId or "
                                                            "withholdingDocumentId")
    if len(forms) > 1:
        raise ValidationFailed.for_field(forms[1], f"send only one of paymentMethodId, creditNoteId, "
                                                   f"withholdingDocumentId (got {', '.join(forms)})")
    method = _active_method(table, company_id, fields) if fields.get("paymentMethodId") is not None else None
    amount = _positive(fields["amount"])
    within_pending(amount, Decimal(document["pending"]))
    condition_id = document.get("paymentConditionId")
    terms = require_cash_terms_met(table, company_id, document, amount)
    date = _payment_date(table, company_id, document, fields)
    payment_id = table.next_id(keys.id_sequence(company_id, "PAY"))
    transaction = command.transaction()
    writes = JournalWrites(company_id)
    sales = kind.sales
    partner_side = Movement("receivable" if sales else "payable", CREDIT if sales else DEBIT, amount)
    payment = _new_payment(company_id, document, payment_id, amount, date, fields)
    source = Source("payment", payment_id, kind.code)
    if fields.get("creditNoteId") is not None:
        note = _applied_document(table, company_id, document, fields["creditNoteId"], "creditNoteId",
                                 CREDIT_NOTE_TYPE[sales], amount)
        _take(transaction, company_id, note, amount, paid=False)
        writes.require_open(date)  # no money moves in the ledger: the note's entry already did
        payment.update(kind=CREDIT_NOTE, creditNoteId=int(note["id"]))
    elif fields.get("withholdingDocumentId") is not None:
        certificate = _applied_document(table, company_id, document, fields["withholdingDocumentId"],
                                        "withholdingDocumentId", "05", amount)
        _take(transaction, company_id, certificate, amount, paid=False)
        withheld = Movement("withholding", DEBIT if sales else CREDIT, amount)
        entry = writes.automatic_entry(table, load_rules(table, company_id), source=source, date=date,
                                       description=f"Retención {_label(document)}",
                                       movements=[withheld, partner_side])
        payment.update(kind=WITHHOLDING, withholdingDocumentId=int(certificate["id"]), journalEntryId=int(entry["id"]))
    else:
        assert method is not None
        _pay_by_method(table, transaction, writes, payment, document, method, money_in=rules.money_comes_in(kind),
                       other_side=partner_side, description=f"Pago {_label(document)}")
    if terms is not None:
        transaction.check(payment_setup.condition_key(company_id, int(condition_id)), "#type = :type",
                          names={"#type": "type"}, values={":type": terms})
    _settle(transaction, company_id, kind, document, amount, payment, date,
            moves_balance=payment["kind"] != CREDIT_NOTE)  # a note's own pending goes down instead
    return _record(command, transaction, writes, payment)


def _register_refund(command: Command, note: dict[str, Any], kind: rules.Kind, fields: dict[str, Any]) -> dict[str, Any]:
    """What a credit note leaves unapplied goes back in money: out to the customer (06), in from
    the supplier (105). The entry undoes the note's effect on the receivable or payable, and the
    partner's balance comes back up by the amount."""
    table, company_id = command.table, command.company_id
    for other in ("creditNoteId", "withholdingDocumentId"):
        if fields.get(other) is not None:
            raise ValidationFailed.for_field(other, "a credit note is refunded in money: send paymentMethodId")
    if fields.get("paymentMethodId") is None:
        raise ValidationFailed.for_field("paymentMethodId", "required: a refund is made by a payment method")
    method = _active_method(table, company_id, fields)
    amount = _positive(fields["amount"])
    within_pending(amount, Decimal(note["pending"]))
    date = _payment_date(table, company_id, note, fields)
    payment = _new_payment(company_id, note, table.next_id(keys.id_sequence(company_id, "PAY")), amount, date, fields)
    payment["kind"] = REFUND
    transaction = command.transaction()
    writes = JournalWrites(company_id)
    partner_side = Movement("receivable", DEBIT, amount) if kind.sales else Movement("payable", CREDIT, amount)
    _pay_by_method(table, transaction, writes, payment, note, method, money_in=rules.money_comes_in(kind),
                   other_side=partner_side, description=f"Reembolso {_label(note)}")
    _settle(transaction, company_id, kind, note, amount, payment, date)
    return _record(command, transaction, writes, payment)


def _positive(amount: Decimal) -> Decimal:
    if amount <= 0:
        raise ValidationFailed.for_field("amount", "must be greater than 0")
    return amount


def require_cash_terms_met(table: Table, company_id: int, document: dict[str, Any], amount: Decimal) -> str | None:
    """A document on cash terms is paid once, for its whole total. Returns the type of the
    document's terms (None without any)."""
    condition_id = document.get("paymentConditionId")
    terms = _condition_type(table, company_id, int(condition_id)) if condition_id is not None else None
    if terms != "cash":
        return terms
    total = Decimal(document["total"])
    if amount != total or Decimal(document["pending"]) != total:
        raise PaymentRefused("A cash document is paid once, for its whole total.", code="CASH_CONDITION_UNMET",
                             details=[{"field": "amount", "message": f"must be {total}, with no earlier payment"}])
    return terms


def within_pending(amount: Decimal, pending: Decimal) -> None:
    if amount > pending:
        raise PaymentRefused(f"The amount {amount} exceeds the pending total {pending}.", code="AMOUNT_EXCEEDS_PENDING",
                             details=[{"field": "amount", "message": f"at most {pending}"}])


def _label(document: dict[str, Any]) -> str:
    return str(document.get("number") or document["id"])


def _payment_date(table: Table, company_id: int, document: dict[str, Any], fields: dict[str, Any]) -> str:
    date = fields.get("paymentDate") or max(clock.today_in(accounts.company_country(table, company_id)), document["date"])
    if date < document["date"]:
        raise ValidationFailed.for_field("paymentDate", f"must not be before the document's date {document['date']}")
    return date


def _new_payment(company_id: int, document: dict[str, Any], payment_id: int, amount: Decimal, date: str,
                 fields: dict[str, Any]) -> dict[str, Any]:
    document_id = int(document["id"])
    return {**payment_key(company_id, document_id, payment_id), "itemType": "PAYMENT", "id": payment_id,
            "documentId": document_id, "amount": amount, "paymentDate": date, "status": CONFIRMED,
            "reference": fields.get("reference"), "notes": fields.get("notes"),
            "businessPartnerId": int(document["businessPartnerId"])}


def _pay_by_method(table: Table, transaction: Transaction, writes: JournalWrites, payment: dict[str, Any],
                   document: dict[str, Any], method: dict[str, Any], *, money_in: bool, other_side: Movement,
                   description: str) -> None:
    """Money through a payment method: the cash or bank side of the entry and, when the method
    has a bank account, the bank transaction in the spec's direction."""
    company_id, amount = writes.company_id, Decimal(payment["amount"])
    account = banking.get_account(table, company_id, int(method["bankAccountId"])) if method.get("bankAccountId") else None
    if account is not None and account.get("currency") != document.get("currency"):
        raise ValidationFailed.for_field("paymentMethodId", f"its bank account is in {account.get('currency')}, "
                                                            f"the document in {document.get('currency')}")
    # the method's state as read decides: a change meanwhile re-runs
    transaction.check(payment_setup.method_key(company_id, int(method["id"])), "isActive = :yes",
                      values={":yes": True}, on_fail=PaymentRefused("The payment method is inactive.",
                                                                    code="PAYMENT_METHOD_INACTIVE"))
    money_side = (Movement("bank", DEBIT if money_in else CREDIT, amount, account_id=int(account["chartOfAccountId"]))
                  if account else Movement("cash", DEBIT if money_in else CREDIT, amount))
    entry = writes.automatic_entry(table, load_rules(table, company_id),
                                   source=Source("payment", int(payment["id"]), document["type"]),
                                   date=payment["paymentDate"], description=description,
                                   movements=[money_side, other_side])
    payment.update(kind=payment.get("kind", METHOD), paymentMethodId=int(method["id"]), journalEntryId=int(entry["id"]),
                   status=PENDING if method.get("requiresConfirmation") else CONFIRMED)
    if account is not None:
        tx_type = ("transfer_in" if money_in else "transfer_out") if method.get("isCashMethod") else "payment_doc"
        bank_tx = banking.add_transaction(
            transaction, company_id, account, tx_id=banking.next_transaction_id(table, company_id), tx_type=tx_type,
            direction=banking.MONEY_IN if money_in else banking.MONEY_OUT, amount=amount, date=payment["paymentDate"],
            reference=payment.get("reference"), journal_entry_id=int(entry["id"]), document_id=int(document["id"]),
            payment_id=int(payment["id"]))
        payment.update(bankTransactionId=int(bank_tx["id"]), bankAccountId=int(account["id"]),
                       bankTransactionType=tx_type)


def _settle(transaction: Transaction, company_id: int, kind: rules.Kind, document: dict[str, Any], amount: Decimal,
            payment: dict[str, Any], date: str, *, moves_balance: bool = True) -> None:
    """The document's pending down by `amount` (negative: back up, when `payment` is cancelled
    on `date`), the partner's balance with it (and its ledger), and the open-document index and
    count when the document stops or starts again to owe. A credit note refunded moves the
    balance the other way, and is not in the index of documents that owe."""
    pending = Decimal(document["pending"])
    _take(transaction, company_id, document, amount, paid=True)
    owes = kind.balance > 0
    paid_off, reopened = owes and amount == pending, owes and pending == 0 and amount < 0
    open_delta = -1 if paid_off else 1 if reopened else 0
    balance_change = -amount * kind.balance if moves_balance else ZERO
    if moves_balance or open_delta:
        _move_partner(transaction, company_id, kind, document, balance_change, open_delta)
    if moves_balance:
        label = f"{_KIND_LABEL[payment['kind']]} {_label(document)}"
        partner_ledger.record_movement(
            transaction, company_id, partner_id=int(document["businessPartnerId"]), side=side_of(kind), date=date,
            amount=balance_change, origin=partner_ledger.PAYMENT_ORIGIN, origin_id=int(payment["id"]),
            version=int(payment.get("version", 0)) + 1,
            details={"documentId": int(document["id"]), "documentType": kind.code, "number": document.get("number"),
                     "paymentId": int(payment["id"]), "paymentKind": payment["kind"],
                     "description": label if amount > 0 else f"Anulación: {label}"})
    if paid_off:
        transaction.delete(open_document_key(company_id, document))
    elif reopened:
        transaction.put(open_document_item(company_id, document))


def _record(command: Command, transaction: Transaction, writes: JournalWrites, payment: dict[str, Any]) -> dict[str, Any]:
    payment.update(version=1, createdAt=clock.now_iso())
    writes.apply(transaction)
    transaction.put_new({name: value for name, value in payment.items() if value is not None})
    outbox.emit(transaction, outbox.PAYMENT_CREATED, command.company_id, "payment", int(payment["id"]),
                _event_data(payment))
    return command.commit(transaction, payment)


# --- advances -------------------------------------------------------------------------------------

def _advances(document: dict[str, Any]) -> tuple[Decimal, Decimal]:
    return Decimal(document.get("advancesTotal", 0)), Decimal(document.get("advancesApplied", 0))


def _change_advances(transaction: Transaction, company_id: int, document: dict[str, Any], attribute: str,
                     amount: Decimal) -> None:
    """A quote's or order's advances received (`advancesTotal`) or applied (`advancesApplied`),
    on the version read: what was available stays true."""
    transaction.update(keys.document(company_id, int(document["id"])), "ADD #attribute :amount, #version :one",
                       condition="#version = :seen", names={"#attribute": attribute, "#version": "version"},
                       values={":amount": amount, ":one": 1, ":seen": int(document["version"])})


def _register_advance(command: Command, order: dict[str, Any], fields: dict[str, Any]) -> dict[str, Any]:
    """Money on a quote or order before its invoice: bank or cash vs the customer-advance
    (liability) or supplier-advance (asset) account. The partner's balance does not move until
    an invoice applies the advance. Together, advances never exceed the order's total."""
    table, company_id = command.table, command.company_id
    kind = rules.KINDS[order["type"]]
    if order["status"] == rules.CANCELLED:
        raise PaymentRefused("A cancelled document takes no advance.", code="DOCUMENT_NOT_PAYABLE")
    for other in ("creditNoteId", "withholdingDocumentId"):
        if fields.get(other) is not None:
            raise ValidationFailed.for_field(other, "an advance is money: send paymentMethodId")
    if fields.get("paymentMethodId") is None:
        raise ValidationFailed.for_field("paymentMethodId", "required: an advance is paid by a payment method")
    method = _active_method(table, company_id, fields)
    amount = _positive(fields["amount"])
    received, _ = _advances(order)
    room = Decimal(order["total"]) - received
    if amount > room:
        raise PaymentRefused(f"Advances on this {kind.name.lower()} may not exceed its total {order['total']}; "
                             f"{room} is left.", code="AMOUNT_EXCEEDS_PENDING",
                             details=[{"field": "amount", "message": f"at most {room}"}])
    date = _payment_date(table, company_id, order, fields)
    payment = _new_payment(company_id, order, table.next_id(keys.id_sequence(company_id, "PAY")), amount, date, fields)
    payment["kind"] = ADVANCE
    transaction = command.transaction()
    writes = JournalWrites(company_id)
    held = Movement(rules.ADVANCE_OPERATION[kind.code], CREDIT if kind.sales else DEBIT, amount)
    _pay_by_method(table, transaction, writes, payment, order, method, money_in=kind.sales, other_side=held,
                   description=f"Anticipo {_label(order)}")
    _change_advances(transaction, company_id, order, "advancesTotal", amount)
    return _record(command, transaction, writes, payment)


def _advance_source(table: Table, company_id: int, source_id: int, document: dict[str, Any] | None = None,
                    field: str = "sourceDocumentId", source: dict[str, Any] | None = None) -> dict[str, Any]:
    """The quote or order advances come from (`source` when already read), suiting `document`."""
    if source is None:
        try:
            source = get_document(table, company_id, source_id)
        except NotFound:
            raise ValidationFailed.for_field(field, "no such document") from None
    if source["type"] not in rules.ADVANCE_OPERATION:
        raise ValidationFailed.for_field(field, "must be a quote, order or delivery note (100, 101, 102, 112): only those take advances")
    if document is not None:
        sales = rules.KINDS[document["type"]].sales
        problem = None
        if rules.KINDS[source["type"]].sales != sales:
            problem = f"must be a {'customer quote, order or delivery note (100, 101, 112)' if sales else 'purchase order (102)'}"
        elif int(source["businessPartnerId"]) != int(document["businessPartnerId"]):
            problem = "belongs to another business partner"
        elif source.get("currency") != document.get("currency"):
            problem = f"it is in {source.get('currency')}, the document in {document.get('currency')}"
        if problem:
            raise ValidationFailed.for_field(field, problem)
    return source


def advance_availability(table: Table, company_id: int, source_id: int) -> dict[str, Any]:
    # a path id: 404 for a document that is not there
    source = _advance_source(table, company_id, source_id, source=get_document(table, company_id, source_id))
    received, applied = _advances(source)
    return {"sourceDocumentId": source_id, "advancesTotal": received, "applied": applied,
            "available": received - applied}


def apply_advances(command: Command, document_id: int, fields: dict[str, Any]) -> dict[str, Any]:
    """An invoice takes advance from its quote or order (its own `sourceDocumentId` unless
    another is named): all that is available up to its pending total unless `amount` says
    less. The entry moves the money from the advance account onto the receivable or payable."""
    table, company_id = command.table, command.company_id
    document = get_document(table, company_id, document_id)
    kind = _payable_kind(document)
    source_id = fields.get("sourceDocumentId") or document.get("sourceDocumentId")
    if source_id is None:
        raise ValidationFailed.for_field("sourceDocumentId", "required: the document has no source document")
    source = _advance_source(table, company_id, int(source_id), document)
    received, applied = _advances(source)
    available, pending = received - applied, Decimal(document["pending"])
    if fields.get("amount") is not None:
        amount = _positive(fields["amount"])
    else:
        amount = min(available, pending)
        if amount <= 0:
            raise PaymentRefused("Nothing to apply: " + ("the document is paid." if pending <= 0 else
                                                          "no advance is available on the source document."),
                                 code="ADVANCE_NOT_AVAILABLE" if pending > 0 else "AMOUNT_EXCEEDS_PENDING")
    if amount > available:
        raise PaymentRefused(f"Only {available} of advance is available on document {_label(source)}.",
                             code="ADVANCE_NOT_AVAILABLE", details=[{"field": "amount", "message": f"at most {available}"}])
    within_pending(amount, pending)
    condition_id = document.get("paymentConditionId")
    if condition_id is not None and _condition_type(table, company_id, int(condition_id)) == "cash" \
            and amount != pending:
        # a part would leave the rest unpayable: cash terms take one payment of the whole
        raise PaymentRefused("A cash document takes its whole pending from the advance, or one payment.",
                             code="CASH_CONDITION_UNMET", details=[{"field": "amount", "message": f"must be {pending}"}])
    date = _payment_date(table, company_id, {**document, "date": max(document["date"], source["date"])}, fields)
    payment = _new_payment(company_id, document, table.next_id(keys.id_sequence(company_id, "PAY")), amount, date,
                           fields)
    transaction = command.transaction()
    writes = JournalWrites(company_id)
    operation = rules.ADVANCE_OPERATION[source["type"]]
    movements = ([Movement(operation, DEBIT, amount), Movement("receivable", CREDIT, amount)] if kind.sales else
                 [Movement("payable", DEBIT, amount), Movement(operation, CREDIT, amount)])
    entry = writes.automatic_entry(table, load_rules(table, company_id),
                                   source=Source("payment", int(payment["id"]), kind.code), date=date,
                                   description=f"Aplicación de anticipo {_label(source)} a {_label(document)}",
                                   movements=movements)
    payment.update(kind=ADVANCE, sourceDocumentId=int(source["id"]), journalEntryId=int(entry["id"]))
    _change_advances(transaction, company_id, source, "advancesApplied", amount)
    _settle(transaction, company_id, kind, document, amount, payment, date)
    return _record(command, transaction, writes, payment)


def _condition_type(table: Table, company_id: int, condition_id: int) -> str | None:
    try:
        return payment_setup.get_condition(table, company_id, condition_id)["type"]
    except NotFound:  # deleted since: the document's terms are no longer known
        return None


def _active_method(table: Table, company_id: int, fields: dict[str, Any]) -> dict[str, Any]:
    try:
        method = payment_setup.get_method(table, company_id, fields["paymentMethodId"])
    except NotFound:
        raise ValidationFailed.for_field("paymentMethodId", "no such payment method") from None
    if not method.get("isActive", True):
        raise PaymentRefused("The payment method is inactive.", code="PAYMENT_METHOD_INACTIVE",
                             details=[{"field": "paymentMethodId", "message": "inactive"}])
    return method


def _move_partner(transaction: Transaction, company_id: int, kind: rules.Kind, document: dict[str, Any],
                  amount: Decimal, open_delta: int) -> None:
    """The partner's balance by `amount`, and its count of open documents by `open_delta` when
    the document stops (-1) or starts again (+1) to owe."""
    names = {"#balance": "receivableBalance" if kind.sales else "payableBalance",
             "#open": open_count_attribute(kind)}
    transaction.update(keys.entity(company_id, keys.PARTNER, int(document["businessPartnerId"])),
                       "ADD #balance :amount, #open :delta", names=names, values={":amount": amount, ":delta": open_delta})


def _event_data(payment: dict[str, Any]) -> dict[str, Any]:
    return {"id": payment["id"], "documentId": payment["documentId"], "kind": payment["kind"],
            "amount": payment["amount"], "status": payment["status"], "paymentDate": payment["paymentDate"]}


def confirm_payment(command: Command, document_id: int, payment_id: int) -> dict[str, Any]:
    payment = get_payment(command.table, command.company_id, document_id, payment_id)
    if payment["status"] != PENDING:
        raise PaymentRefused(f"Only a pending payment can be confirmed; this one is {payment['status']}.",
                             code="INVALID_PAYMENT_STATUS")
    confirmed = {**payment, "status": CONFIRMED, "confirmedAt": clock.now_iso(), "version": int(payment["version"]) + 1}
    transaction = command.transaction()
    transaction.put(confirmed, condition="#v = :v AND #s = :pending", names={"#v": "version", "#s": "status"},
                    values={":v": int(payment["version"]), ":pending": PENDING})
    outbox.emit(transaction, outbox.PAYMENT_CONFIRMED, command.company_id, "payment", payment_id,
                _event_data(confirmed))
    return command.commit(transaction, confirmed)


def cancel_payment(command: Command, document_id: int, payment_id: int, reason: str,
                   date: str | None = None) -> dict[str, Any]:
    """From pending or confirmed: the entry reversed, the bank transaction reversed, the
    document's pending (and the applied note's, certificate's or advance's) restored. An
    advance received on an order can be cancelled only while it is still available."""
    table, company_id = command.table, command.company_id
    payment = get_payment(table, company_id, document_id, payment_id)
    if payment["status"] == CANCELLED:
        raise PaymentRefused("The payment is already cancelled.", code="INVALID_PAYMENT_STATUS")
    document = get_document(table, company_id, document_id)
    kind = rules.KINDS[document["type"]]
    amount = Decimal(payment["amount"])
    date = date or max(clock.today_in(accounts.company_country(table, company_id)), payment["paymentDate"])
    if date < payment["paymentDate"]:
        raise ValidationFailed.for_field("date", f"must not be before the payment's date {payment['paymentDate']}")
    received_advance = kind.code in rules.ADVANCE_OPERATION
    if received_advance:
        received, applied = _advances(document)
        if received - applied < amount:
            raise PaymentRefused(f"Invoices already took {applied} of this document's advances; cancel those "
                                 "applications first.", code="ADVANCE_ALREADY_APPLIED")
    transaction = command.transaction()
    writes = JournalWrites(company_id)
    cancelled = {**payment, "status": CANCELLED, "cancelReason": reason, "cancelledAt": clock.now_iso(),
                 "version": int(payment["version"]) + 1}
    if payment.get("journalEntryId") is not None:
        reversal = writes.reverse(table, get_entry(table, company_id, int(payment["journalEntryId"])), date)
        cancelled["reversalEntryId"] = int(reversal["id"])
    else:
        writes.require_open(date)
    applied_id = payment.get("creditNoteId") or payment.get("withholdingDocumentId")
    if applied_id is not None:
        _take(transaction, company_id, get_document(table, company_id, int(applied_id)), -amount, paid=False)
    if payment.get("sourceDocumentId") is not None:
        _change_advances(transaction, company_id, get_document(table, company_id, int(payment["sourceDocumentId"])),
                         "advancesApplied", -amount)
    if payment.get("bankTransactionId") is not None:
        account = banking.get_account(table, company_id, int(payment["bankAccountId"]))
        original = banking.MONEY_IN if rules.money_comes_in(kind) else banking.MONEY_OUT
        bank_tx = banking.add_transaction(
            transaction, company_id, account, tx_id=banking.next_transaction_id(table, company_id),
            tx_type=_REVERSED_TYPE[payment.get("bankTransactionType", "payment_doc")],
            direction=banking.MONEY_OUT if original == banking.MONEY_IN else banking.MONEY_IN,
            amount=amount, date=date, reference=f"Reversal: {reason}"[:200], journal_entry_id=cancelled.get(
                "reversalEntryId"), document_id=document_id, payment_id=payment_id, require_active=False)
        cancelled["reversalBankTransactionId"] = int(bank_tx["id"])
    if received_advance:
        _change_advances(transaction, company_id, document, "advancesTotal", -amount)
    else:
        _settle(transaction, company_id, kind, document, -amount, payment, date,
                moves_balance=payment["kind"] != CREDIT_NOTE)
    writes.apply(transaction)
    transaction.put(cancelled, condition="#v = :v", names={"#v": "version"}, values={":v": int(payment["version"])})
    return command.commit(transaction, cancelled)
