"""Undoing a confirmed document, each command one transaction like every document command
(services/sales_purchases/documents.py): a purchase invoice back to draft (unconfirm), a note or import
cancelled, an El Salvador DTE invalidated once the authority accepted it, an unconfirmed purchase
invoice deleted. Stock, the entry and the partner balance go back as they came."""
from __future__ import annotations

from typing import Any, Callable

from chalicelib import clock
from chalicelib.auth.policy import check_permission
from chalicelib.domain import document_actions as actions
from chalicelib.domain import documents as document_rules
from chalicelib.domain.accounting import ZERO
from chalicelib.domain.documents import CANCELLED, DRAFT
from chalicelib.domain.records import DocumentChanges, DocumentRecord
from chalicelib.domain.roles import ACCOUNTING
from chalicelib.errors import ValidationFailed
from chalicelib.events import outbox
from chalicelib.messages.books import book_text
from chalicelib.messages.phrases import Phrase
from chalicelib.services import document_names
from chalicelib.services.accounting import book_corrections
from chalicelib.services.accounting.posting import JournalWrites, Source, get_entry, load_rules
from chalicelib.services.commands import Command
from chalicelib.services.inventory.stock_moves import StockWrites
from chalicelib.services.sales_purchases import document_goods, document_search
from chalicelib.services.sales_purchases.document_content import Context, today
from chalicelib.services.sales_purchases.document_partners import move_partner_balance
from chalicelib.services.sales_purchases.document_plan import Plan
from chalicelib.services.sales_purchases.documents import (
    commit,
    credit_source,
    emit,
    get_document,
    load_existing,
    now_fields,
)
from chalicelib.store.repositories import documents as document_store


def reverse(plan: Plan, document: DocumentRecord, date: str) -> DocumentChanges:
    """Undoing a confirmation: stock back at the value it moved at, the entry reversed (with an
    entry revaluing the stock when what is left could not carry the difference), the partner
    balance back."""
    if date < document["date"]:
        raise ValidationFailed.for_field("date", Phrase("must not be before the document's date {}", document['date']))
    moves = document.get("stockMoves") or []
    revaluation = document_goods.goods_back(plan.stock, document, moves, date)
    if moves or plan.context.kind.balance:
        plan.journal.require_open(date)
    credit_source(plan, document, -1)
    book_corrections.record_reversal(plan.transaction, plan.context.company_id, document, date,
                                     own=plan.context.own_currency)
    changes: DocumentChanges = {"stockMoves": [], "pending": ZERO, "basePending": ZERO, "journalEntryId": None,
                               "reversalDate": date}
    reversal_ids = []
    entry_id = document.get("journalEntryId")
    if entry_id is not None:
        entry = get_entry(plan.context.table, plan.context.company_id, entry_id)
        reversal_ids.append(int(plan.journal.reverse(plan.context.table, entry, date)["id"]))
    if revaluation:
        kind = plan.context.kind
        entry = plan.journal.automatic_entry(
            plan.context.table, load_rules(plan.context.table, plan.context.company_id),
            source=Source("document", document["id"], kind.code), date=date,
            description=book_text("inventory_revaluation_reversal", kind=kind.name,
                                  number=document_names.known_as(document)),
            movements=document_rules.revaluation_movements(revaluation))
        reversal_ids.append(entry["id"])
    if reversal_ids:
        changes["reversalEntryIds"] = [*document.get("reversalEntryIds", []), *reversal_ids]
    move_partner_balance(plan, document, -1, date)
    return changes


def reversal_date(context: Context, document: DocumentRecord, date: str | None) -> str:
    return date or max(today(context), document["date"])


def _undone(command: Command, context: Context, document: DocumentRecord, date: str | None,
            outcome: DocumentChanges) -> tuple[Plan, DocumentRecord]:
    """What every way of undoing a confirmation shares: the plan with the reversal (stock, entry,
    partner balance, book corrections) and the document as it ends (`outcome`: its new status and
    what records it), counted in its new state."""
    plan = Plan.start(command, context)
    plan.count(document, -1)
    undone = now_fields(document)
    undone = {**undone, **reverse(plan, undone, reversal_date(context, document, date)), **outcome}
    plan.count(undone, 1)
    return plan, undone


def unconfirm_document(command: Command, document_id: int, date: str | None = None) -> dict[str, Any]:
    document, context = load_existing(command, document_id, strict=False)
    actions.require("unconfirm", document)
    plan, draft = _undone(command, context, document, date, {"status": DRAFT, "confirmedAt": None})
    return commit(command, plan, draft, previous=document)


def cancel_document(command: Command, document_id: int, date: str | None = None,
                    reason: str | None = None) -> dict[str, Any]:
    document, context = load_existing(command, document_id, strict=False)
    if context.kind.opening:
        # an opening balance is recorded only with the accounting permission (POST
        # /business-partners/{id}/opening-balance): it is undone only with it
        check_permission(command.principal, ACCOUNTING)
    actions.require("cancel", document)
    if document["status"] == DRAFT:
        return _abandon_draft(command, context, document, reason)
    plan, cancelled = _undone(command, context, document, date,
                              {"status": CANCELLED, "cancelledAt": clock.now_iso(), "cancelReason": reason})
    emit(plan, outbox.DOCUMENT_CANCELLED, cancelled)
    return commit(command, plan, cancelled, previous=document)


def check_invalidatable(document: DocumentRecord) -> None:
    """A DTE is invalidated when the authority accepted it and the document can be undone: checked
    before asking the authority, and again in the reversing command."""
    actions.require("invalidate", document)


def invalidate_document(command: Command, document_id: int, date: str | None, reason: str | None,
                        marked: Callable[[DocumentRecord], DocumentChanges],
                        along: Callable[[DocumentRecord, Any], None] | None = None) -> dict[str, Any]:
    """The tax authority accepted the invalidation of the document's electronic record (El Salvador's
    DTE): reversed like a cancellation (stock, entry, partner balance), whatever its type, with the
    fields `marked` gives the document as read here (its record invalidated: the country's pack knows how)
    and what `along` adds to the same transaction (the document as read, the transaction)."""
    document, context = load_existing(command, document_id, strict=False)
    check_invalidatable(document)  # again: a payment may have come while the authority answered
    plan, cancelled = _undone(command, context, document, date,
                              {"status": CANCELLED, "cancelledAt": clock.now_iso(), "cancelReason": reason,
                               **marked(document)})
    if along is not None:
        along(document, plan.transaction)
    emit(plan, outbox.DOCUMENT_CANCELLED, cancelled)
    emit(plan, outbox.DOCUMENT_DTE_INVALIDATED, cancelled)
    return commit(command, plan, cancelled, previous=document)


def _abandon_draft(command: Command, context: Context, document: DocumentRecord,
                   reason: str | None) -> dict[str, Any]:
    """A draft that will never be confirmed (a quote the customer declined, an order dropped):
    cancelled as it is. Nothing was posted, nothing moves; a cancelled draft is kept, not
    confirmed or edited again."""
    plan = Plan.start(command, context)
    plan.count(document, -1)
    cancelled: DocumentRecord = {**now_fields(document), "status": CANCELLED, "cancelledAt": clock.now_iso(),
                                 "cancelReason": reason}
    plan.count(cancelled, 1)
    emit(plan, outbox.DOCUMENT_CANCELLED, cancelled)
    return commit(command, plan, cancelled, previous=document)


def delete_document(command: Command, document_id: int) -> dict[str, Any]:
    """Web app only: a draft goes for good (an unconfirmed purchase invoice too: its stock and
    entries were reversed when it was unconfirmed; those records stay, as history). A draft never
    took a number of ours, so no gap opens in a fiscal range."""
    document = get_document(command.table, command.company_id, document_id)
    kind = document_rules.KINDS[document["type"]]
    actions.require("delete", document)
    if document_store.has_payments_on_record(command.table, command.company_id, document_id):  # cancelled advances stay on record with their bank transactions: so does the draft
        raise document_rules.DocumentStateError("The draft has payments on record (cancelled ones too); cancel it instead.",
                                       code="DOCUMENT_HAS_PAYMENTS")
    context = Context(command.table, {"id": command.company_id}, kind, None, {}, None)
    plan = Plan(context, command.transaction(), JournalWrites(command.company_id),
                StockWrites(command.company_id, True))
    plan.count(document, -1)
    transaction = plan.finish()
    document_search.index_supplier_number(transaction, command.company_id, document, {"id": document_id})
    document_store.delete_draft(transaction, command.company_id, document_id, document["version"], DRAFT)
    return command.commit(transaction, {"id": document_id, "deleted": True})
