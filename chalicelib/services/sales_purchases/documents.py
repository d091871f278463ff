"""Sales and purchase documents. Each command is one transaction holding the document, its
fiscal number, stock changes and movements, automatic journal entry, partner balance, list
counts, outbox events and Idempotency-Key record: all of it commits or none of it does."""
from __future__ import annotations

import datetime as dt
from collections.abc import Mapping
from decimal import Decimal
from typing import Any, Callable

from chalicelib import clock, countries
from chalicelib.auth.principal import Principal
from chalicelib.domain import currency, schedules, taxes
from chalicelib.domain import document_actions as actions
from chalicelib.domain import documents as document_rules
from chalicelib.domain.accounting import ZERO
from chalicelib.domain.documents import CONFIRMED, DRAFT, Kind
from chalicelib.domain.records import DocumentChanges, DocumentRecord
from chalicelib.domain.roles import ACCOUNTING, may
from chalicelib.errors import ApiError, DocumentTooLarge, NotFound, ValidationFailed, VersionConflict
from chalicelib.events import outbox
from chalicelib.messages.books import book_text
from chalicelib.messages.phrases import Phrase
from chalicelib.services import document_names
from chalicelib.services.accounting import book_corrections, dimensions
from chalicelib.services.accounting.posting import Source, load_rules
from chalicelib.services.banking import exchange_rates
from chalicelib.services.commands import Command
from chalicelib.services.sales_purchases import document_goods, document_search, fiscal, payment_status
from chalicelib.services.sales_purchases.document_content import (
    Context,
    document_content,
    follows_source_exoneration,
    load_context,
    over_credited,
)
from chalicelib.services.sales_purchases.document_partners import credit_control, move_partner_balance
from chalicelib.services.sales_purchases.document_plan import Plan
from chalicelib.store import keys
from chalicelib.store.repositories import documents as document_store
from chalicelib.store.table import Table
from chalicelib.store.transaction import MAX_ITEMS, Transaction

CONTENT_FIELDS = ("businessPartnerId", "date", "dueDate", "paymentConditionId", "branchId", "warehouseId",
                  "currency", "exchangeRate", "notes", "reference", "sourceDocumentId", "supplierDocumentNumber", "supplierCai",
                  "withholding", "export", "exoneration", "dteType", "lines")


def _not_found() -> NotFound:
    return NotFound("Document not found.")




def get_document(table: Table, company_id: int, document_id: int) -> DocumentRecord:
    item = document_store.document(table, company_id, document_id)
    if item is None:
        raise _not_found()
    return item


# --- the effects of confirming and reversing ---------------------------------------------------------

def _confirm(plan: Plan, document: DocumentRecord) -> DocumentChanges:
    """Confirming: the number, the credit checks, stock, the entry and the partner balance.
    Returns the document's changed fields."""
    context, kind = plan.context, plan.context.kind
    country = countries.pack_of(context.company).code
    for index, line in enumerate(document["lines"]):  # a draft priced before the company changed country
        taxes.check_rate_for_country(country, Decimal(line["taxRate"]), f"lines[{index}].taxRate")
    changes: DocumentChanges = {"status": CONFIRMED, "confirmedAt": clock.now_iso()}
    if not document.get("number"):
        number = fiscal.assign_number(plan.transaction, context.table, context.company, document)
        changes["number"], changes["cai"] = number.number, number.cai
    issued = countries.pack_of(context.company).hooks.issue(
        plan.transaction, context.table, context.company, context.partner, {**document, **changes}, context.products,
        context.source)
    plan.issued_electronically = bool(issued)
    changes.update(issued)
    ceiling = credit_control(plan, document)
    numbered: DocumentRecord = {**document, **changes}
    moves = document_goods.stock_lines(context, document)
    goods = document_goods.move_goods(plan.stock, context, numbered, moves)
    movements = document_goods.entry_movements(context, document, moves, goods)
    if moves or kind.balance:
        # stock and balances belong to the books' dates even when no entry is posted
        plan.journal.require_open(document["date"])
    credit_source(plan, document, 1)
    changes["journalEntryId"] = None
    if kind.posts and movements:
        entry = plan.journal.automatic_entry(
            context.table, load_rules(context.table, context.company_id),
            source=Source("document", document["id"], kind.code), date=document["date"],
            description=book_text("document", kind=kind.name, number=document_names.known_as(numbered)),
            movements=movements)
        changes["journalEntryId"] = entry["id"]
    changes["pending"] = Decimal(document["total"]) if kind.owed else ZERO
    changes["basePending"] = currency.base_total(document, context.own_currency).amount if kind.owed else ZERO
    move_partner_balance(plan, {**document, **changes}, 1, document["date"], ceiling)
    changes["stockMoves"] = moves
    return changes


def credit_source(plan: Plan, document: DocumentRecord, sign: int) -> None:
    """A credit note adds to its source's `creditedTotal`, which may never pass the source's
    total. The check is made on the source as read, and the write is conditioned on the
    source's version, so a concurrent note or change of the source makes the command run again;
    the source's version moves too, so it cannot be unconfirmed or cancelled meanwhile."""
    source_id = document.get("sourceDocumentId")
    if plan.context.kind.balance >= 0 or source_id is None:
        return
    source: DocumentChanges = plan.context.source if plan.context.source is not None else {}
    amount = Decimal(document["total"]) * sign
    if sign > 0 and amount > Decimal(source.get("total", 0)) - Decimal(source.get("creditedTotal", 0)):
        raise over_credited(source)
    document_store.add_credited(plan.transaction, plan.context.company_id, source_id, amount,
                                int(source.get("version", 0)))




# Undoing a confirmation can write more items than the confirmation did, and how many depends on
# when and at what cost it happens, not known when confirming: the original entry's new status, a
# day count and a period check for the reversal's own date (3), the tax books' corrections when it
# reverses in a later month (counted: `_undo_room`), and for goods an entry revaluing the stock
# (domain/costing.py): the entry, its two postings, and cost of sales' balance and guard (the reversal
# already touches inventory; both entries share the reversal's date). Kept as room beside the
# confirmation's count.
_UNDO_ITEMS = 3
REVALUATION_ITEMS = 5


def _check_size(plan: Plan, document: DocumentRecord, *, confirming: bool = True) -> None:
    """A confirmed document is refused when its own writes (the plan's transaction, counted, with
    the Idempotency-Key record) do not fit one transaction; one that can be cancelled,
    unconfirmed or invalidated (issued electronically) must leave room for that too."""
    _refuse_past_limit(plan, document, len(plan.transaction.operations) + 1, confirming=confirming)


def _undo_room(plan: Plan, document: DocumentRecord) -> int:
    """What undoing `document` may write beyond what its confirmation wrote, at its costliest: in a later
    month, so the tax books' corrections are written (planned on a transaction never submitted and
    counted), and with a stock revaluation for goods."""
    corrections = Transaction(plan.context.table)
    later = schedules.add_months(dt.date.fromisoformat(document["date"]), 1).isoformat()
    book_corrections.record_reversal(corrections, plan.context.company_id, document, later,
                                     own=plan.context.own_currency)
    return _UNDO_ITEMS + len(corrections.operations) + (REVALUATION_ITEMS if plan.context.kind.stock else 0)


def _refuse_past_limit(plan: Plan, document: DocumentRecord, items: int, *, confirming: bool) -> None:
    kind = plan.context.kind
    if confirming and (kind.cancellable or kind.unconfirmable or plan.issued_electronically):
        items += _undo_room(plan, document)
    if items > MAX_ITEMS:
        raise DocumentTooLarge(Phrase("The document's effects (stock items, movements and journal postings) would "
                                      "exceed {} records in one transaction; split it into several documents.",
                                      MAX_ITEMS))


def _check_confirmable(command: Command, context: Context, draft: DocumentRecord) -> None:
    """A draft is refused when its confirmation could not fit one transaction: the confirmation is
    planned now as confirm_document would plan it (a rehearsal: its entry takes no number of the
    journal's counter, and it is never submitted) and its items counted. When confirming would be
    refused now for another reason (stock short, a credit limit, no number range, a date an
    electronic document may not carry), there is nothing to count yet: the confirmation counts."""
    rehearsal = Plan.rehearsal(command, context)
    try:
        transaction, confirmed = _planned_confirmation(rehearsal, draft)
    except DocumentTooLarge:
        raise
    except ApiError:
        return
    _refuse_past_limit(rehearsal, confirmed, len(transaction.operations) + 1, confirming=True)


def _planned_confirmation(plan: Plan, draft: DocumentRecord) -> tuple[Transaction, DocumentRecord]:
    """The draft's confirmation as confirm_document writes it, on `plan`'s transaction, and the document
    confirmed."""
    plan.count(draft, -1)
    confirming = now_fields(draft)
    confirmed: DocumentRecord = {**confirming, **_confirm(plan, confirming)}
    plan.count(confirmed, 1)
    emit(plan, outbox.DOCUMENT_CONFIRMED, confirmed)
    transaction = plan.finish()
    stored = _stored(confirmed)
    document_search.index_supplier_number(transaction, plan.context.company_id, _stored(draft), stored)
    transaction.put(stored)
    return transaction, confirmed


# --- commands ----------------------------------------------------------------------------------------

def _initial_status(kind: Kind, fields: dict[str, Any]) -> str:
    if fields.get("capture") == document_rules.AUTOMATIC_CAPTURE:
        if not kind.capturable:
            raise ValidationFailed.for_field("capture", "automatic capture applies to types 103, 105 and 106")
        return DRAFT
    if fields.get("status"):
        return str(fields["status"])
    return DRAFT if kind.starts_draft else CONFIRMED


def emit(plan: Plan, event: str, document: DocumentRecord) -> None:
    outbox.emit(plan.transaction, event, plan.context.company_id, "document", document["id"],
                document_rules.event_data(document))


def now_fields(document: DocumentRecord) -> DocumentRecord:
    return {**document, "version": document["version"] + 1, "updatedAt": clock.now_iso()}


def create_document(command: Command, fields: dict[str, Any], *,
                    extra_writes: Callable[[Transaction, DocumentRecord], None] | None = None) -> dict[str, Any]:
    """`extra_writes` adds the caller's own writes to the document's one transaction, given the new
    document (a scheduled invoice's advance: both commit or neither does)."""
    table, company_id = command.table, command.company_id
    kind = document_rules.KINDS[fields["type"]]
    status = _initial_status(kind, fields)
    context = load_context(table, company_id, kind, fields)
    content = document_content(context, fields, sender=command.principal)
    document_id = table.next_id(keys.id_sequence(company_id, keys.DOCUMENT))
    now = clock.now_iso()
    document: DocumentRecord = {**document_store.new_document(company_id, document_id, kind.code, now),
                                "status": DRAFT, **content, "capture": fields.get("capture"),
                                "paidTotal": ZERO, "pending": ZERO, "number": None, "cai": None,
                                "codigoGeneracion": None, "version": 1, "updatedAt": now}
    plan = Plan.start(command, context)
    if status == CONFIRMED:
        document = {**document, **_confirm(plan, document)}
    else:
        _check_confirmable(command, context, document)
    plan.count(document, 1)
    emit(plan, outbox.DOCUMENT_CREATED, document)
    if status == CONFIRMED:
        emit(plan, outbox.DOCUMENT_CONFIRMED, document)
    if extra_writes:
        extra_writes(plan.transaction, document)
    # an electronic document goes to the tax authority once the document is committed
    return countries.pack_of(context.company).hooks.after_commit(table, context.company,
                                                                 commit(command, plan, document, new=True))


def commit(command: Command, plan: Plan, document: DocumentRecord, *, new: bool = False,
            previous: DocumentRecord | None = None) -> dict[str, Any]:
    transaction = plan.finish()
    stored = _stored(document)
    document_search.index_supplier_number(transaction, command.company_id, previous, stored)
    if new:
        transaction.put_new(stored)
    else:
        assert previous is not None
        document_store.replace_as_read(transaction, stored, previous["version"])
    confirming = document["status"] == CONFIRMED and (previous is None or previous["status"] != CONFIRMED)
    _check_size(plan, document, confirming=confirming)
    return command.commit(transaction, document_view(stored, plan.context.company, command.principal, plan.warnings))


def _stored(document: DocumentRecord) -> dict[str, Any]:
    company_id = document_store.company_of(document)
    item = {**document, **keys.document_index(company_id, document["date"], document["id"]),
            **keys.partner_document_index(company_id, document["businessPartnerId"], document["date"],
                                          document["id"]),
            **keys.document_number_index(company_id, document.get("number"), document["id"])}
    return {name: value for name, value in item.items() if value is not None}


def document_view(item: dict[str, Any], company: dict[str, Any], principal: Principal,
         warnings: list[str] | None = None) -> dict[str, Any]:
    """The document as answered: `allowedActions` for this caller (an opening balance's `cancel`
    only with the accounting permission, which its command demands)."""
    shown = {name: value for name, value in item.items() if name not in keys.INDEX_ATTRIBUTES}
    shown["warnings"] = warnings or []
    shown["allowedActions"] = actions.allowed_actions(item, exchange_rates.company_currency(company),
                                                      records_openings=may(principal.role, ACCOUNTING))
    return payment_status.with_payment_status(shown, clock.company_today(company))


def shown_document(table: Table, principal: Principal, document_id: int) -> dict[str, Any]:
    """GET /documents/{id}: the document and the company (whose currency `advance` reads), one
    BatchGetItem."""
    company_id = principal.company_id
    found = table.batch_get([keys.document(company_id, document_id), keys.company(company_id)])
    item = found.get(keys.pair(keys.document(company_id, document_id)))
    if item is None:
        raise _not_found()
    company = found.get(keys.pair(keys.company(company_id))) or {}
    return document_view(item, company, principal)


def load_existing(command: Command, document_id: int, *, strict: bool) -> tuple[DocumentRecord, Context]:
    document = get_document(command.table, command.company_id, document_id)
    kind = document_rules.KINDS[document["type"]]
    context = load_context(command.table, command.company_id, kind, _as_fields(document), strict=strict)
    context.kept_dimensions = dimensions.carried_pairs(document["lines"])
    return document, context


_ID_FIELDS = ("businessPartnerId", "sourceDocumentId", "paymentConditionId", "branchId", "warehouseId")


def _as_fields(document: Mapping[str, Any]) -> dict[str, Any]:
    """A stored document's (or the request's fields') references as request fields (the store reads ids as int)."""
    return {**{name: document.get(name) for name in _ID_FIELDS}, "lines": [dict(line) for line in document["lines"]]}


def update_document(command: Command, document_id: int, changes: dict[str, Any],
                    expected_version: int | None) -> dict[str, Any]:
    """Drafts only: the fields sent replace the stored ones (lines as a whole) and the totals
    are computed again."""
    current = get_document(command.table, command.company_id, document_id)
    actions.require("update", current)
    if expected_version is not None and expected_version != current["version"]:
        raise VersionConflict()
    kind = document_rules.KINDS[current["type"]]
    fields = {name: current.get(name) for name in CONTENT_FIELDS}
    fields.update(changes)
    fields.update(_as_fields(fields))
    if "dueDate" not in changes and ("date" in changes or "paymentConditionId" in changes):
        fields["dueDate"] = None  # derived again from the new date or condition
    if "exchangeRate" not in changes and ("date" in changes or "currency" in changes):
        fields["exchangeRate"] = None  # the company's rate for the new date or currency
    if "exoneration" not in changes and "sourceDocumentId" in changes and follows_source_exoneration(kind):
        fields["exoneration"] = None  # taken again from the note's new invoice
    context = load_context(command.table, command.company_id, kind, fields)
    context.kept_dimensions = dimensions.carried_pairs(current["lines"])
    # the draft's own rate sent back with its date and currency is not a new one: checked when it
    # was set; at another date or in another currency it is checked again against the tolerance
    rate_sent = "exchangeRate" in changes and not (
        _same_number(changes["exchangeRate"], current.get("exchangeRate"))
        and str(fields.get("date")) == str(current.get("date"))
        and fields.get("currency") == current.get("currency"))
    updated: DocumentRecord = {**now_fields(current),
               **document_content(context, fields, sender=command.principal if rate_sent else None)}
    if current.get("exoneration") and not updated.get("exoneration") and "lines" not in changes:
        # its lines' treatment came from the registers: kept, they would be a sale without ISV
        # and without the registers that excuse it
        raise ValidationFailed.for_field("lines", "the exoneration is removed: send the lines again, "
                                                  "with the tax they carry without it")
    _keep_advances(current, updated)
    _check_confirmable(command, context, updated)
    plan = Plan.start(command, context)
    plan.count(current, -1)
    plan.count(updated, 1)
    return commit(command, plan, updated, previous=current)


def _same_number(sent: Any, stored: Any) -> bool:
    return sent is not None and stored is not None and Decimal(sent) == Decimal(stored)


def _keep_advances(current: DocumentRecord, updated: DocumentRecord) -> None:
    """A quote or order holding advances keeps its partner and currency, and a total that
    covers them."""
    received = Decimal(current.get("advancesTotal", 0))
    if received <= 0:
        return
    for name in ("businessPartnerId", "currency"):
        if str(updated.get(name)) != str(current.get(name)):
            raise document_rules.DocumentStateError(Phrase("The document holds advances of {}; its {} cannot change.",
                                                           received, name),
                                           code="DOCUMENT_HAS_PAYMENTS", details=[{"field": name,
                                                                                   "message": "the document holds advances"}])
    if Decimal(updated["total"]) < received:
        raise ValidationFailed.for_field("lines", Phrase("the total may not fall below the advances received ({})",
                                                         received))


def confirm_document(command: Command, document_id: int) -> dict[str, Any]:
    document, context = load_existing(command, document_id, strict=True)
    actions.require("confirm", document)
    plan = Plan.start(command, context)
    plan.count(document, -1)
    confirmed = now_fields(document)
    rate = confirmed.get("exchangeRate")
    if rate is None:  # a draft saved before currencies had rates
        rate = exchange_rates.rate_for(command.table, context.company, confirmed.get("currency"), confirmed["date"],
                                       None, sender=None)
    # always converted again: a draft saved before the money limit bound base amounts may carry
    # a base total past it
    own = context.own_currency
    confirmed["exchangeRate"] = rate
    confirmed["baseTotal"] = currency.converted(currency.money_of(confirmed, "total", own), Decimal(rate), own,
                                                "exchangeRate").amount
    confirmed = {**confirmed, **_confirm(plan, confirmed)}
    plan.count(confirmed, 1)
    emit(plan, outbox.DOCUMENT_CONFIRMED, confirmed)
    return countries.pack_of(context.company).hooks.after_commit(command.table, context.company,
                                                                 commit(command, plan, confirmed, previous=document))
