"""A document's partner side: the partner's balance and ledger moving with the document (in the
company's currency), the index of the documents that owe, and the credit checks made before a
sale owes. Part of each document command's one transaction (services/sales_purchases/documents.py)."""
from __future__ import annotations

from decimal import Decimal
from typing import TYPE_CHECKING, Any

from chalicelib.domain import currency
from chalicelib.domain import documents as document_rules
from chalicelib.domain.documents import Kind
from chalicelib.domain.records import DocumentRecord
from chalicelib.messages.books import book_text
from chalicelib.services import document_names
from chalicelib.services.sales_purchases import partner_ledger
from chalicelib.services.sales_purchases.document_content import Context, today
from chalicelib.store import keys
from chalicelib.store.repositories import partners as partner_store

if TYPE_CHECKING:  # the plan is the document command's; it calls these with it
    from chalicelib.services.sales_purchases.document_plan import Plan


def balance_attribute(kind: Kind) -> str:
    return "receivableBalance" if kind.sales else "payableBalance"


def move_partner_balance(plan: Plan, document: DocumentRecord, sign: int, date: str,
                          ceiling: Decimal | None = None) -> None:
    """The partner's receivable or payable moves by the document's total (sign +1 when it is
    confirmed, -1 when reversed on `date`), with its movement in the partner's ledger; an open
    document is also listed under the partner by due date for the overdue check. `ceiling` is
    the balance the partner may have before this document under a blocking credit limit:
    checked again in the transaction."""
    kind, context = plan.context.kind, plan.context
    if not kind.balance:
        return
    partner_id = document["businessPartnerId"]
    label = f"{kind.name} {document_names.known_as(document)}"
    # the partner's balance is in the company's currency, as its control account
    amount = currency.base_total(document, context.own_currency).amount * kind.balance * sign
    partner_ledger.record_movement(
        plan.transaction, context.company_id, partner_id=partner_id, side=partner_side(kind), date=date,
        amount=amount, origin=partner_ledger.DOCUMENT_ORIGIN,
        origin_id=document["id"], version=document["version"],
        details={"documentId": document["id"], "documentType": kind.code, "number": document.get("number"),
                 "description": label if sign > 0 else book_text("document_reversal", label=label),
                 **currency_details(document, Decimal(document["total"]) * kind.balance * sign)})
    partner_store.move_balance(
        plan.transaction, context.company_id, partner_id, balance=balance_attribute(kind), amount=amount,
        open_count=open_count_attribute(kind) if kind.balance > 0 else None, open_change=sign, ceiling=ceiling,
        over_ceiling=document_rules.credit_limit_exceeded("The customer's balance would exceed its credit limit.")
        if ceiling is not None else None)
    if kind.balance > 0:
        if sign > 0:
            plan.transaction.put(open_document_item(context.company_id, document))
        else:
            plan.transaction.delete(open_document_key(context.company_id, document))


def currency_details(document: DocumentRecord, amount_in_currency: Decimal) -> dict[str, Any]:
    """What a partner-ledger movement of a foreign-currency document adds: its currency, rate and
    the amount in that currency (statements and aging show both)."""
    if currency.rate_of(document) == 1:
        return {}
    return {"currency": document.get("currency"), "exchangeRate": currency.rate_of(document),
            "amountInCurrency": amount_in_currency}


def open_count_attribute(kind: Kind) -> str:
    """How many of the partner's documents of this side are open: kept on the partner item."""
    return "openReceivables" if kind.sales else "openPayables"


def partner_side(kind: Kind) -> str:
    return keys.RECEIVABLE_SIDE if kind.sales else keys.PAYABLE_SIDE


def open_document_key(company_id: int, document: DocumentRecord) -> keys.Key:
    return keys.open_document(company_id, document["businessPartnerId"], partner_side(document_rules.KINDS[document["type"]]),
                              document["dueDate"], document["id"])


# what a bank statement line's suggestion needs of a document that owes, copied onto its
# open-document item (services/statements/suggestions.py reads them from the company-wide index)
INDEXED_FIELDS = ("type", "date", "currency", "businessPartnerId", "number")


def open_document_item(company_id: int, document: DocumentRecord) -> dict[str, Any]:
    """Listed under its partner while it owes: written when it is confirmed (or a payment is
    cancelled), rewritten when a payment changes what it owes, removed when it is reversed or
    paid off, in those transactions. `document` holds its `pending` after the transaction. The
    number stays under `number`, so a number retaken at commit follows (store/renumbering.py);
    `numeroControl` is the authority's number where there is one (document_names.names)."""
    side = partner_side(document_rules.KINDS[document["type"]])
    copied = {name: document.get(name) for name in INDEXED_FIELDS if document.get(name) is not None}
    control = document_names.names(document)["documentNumeroControl"]
    return {**open_document_key(company_id, document), "itemType": "OPEN_DOCUMENT", "documentId": document["id"],
            "dueDate": document["dueDate"], "pending": Decimal(document["pending"]), **copied,
            **({"numeroControl": control} if control else {}),
            **keys.open_document_index(company_id, side, document["dueDate"], document["id"])}


def oldest_open_due_date(context: Context) -> str | None:
    items = partner_store.open_documents(context.table, context.company_id, int(context.checked_partner["id"]),
                                         keys.RECEIVABLE_SIDE, limit=1)
    return items[0]["dueDate"] if items else None


def credit_control(plan: Plan, document: DocumentRecord) -> Decimal | None:
    """Overdue beyond credit_block_days blocks; a limit warns or blocks by company policy.
    Returns the ceiling to enforce in the transaction under a blocking limit."""
    context = plan.context
    if not (context.kind.sales and context.kind.balance > 0) or context.kind.opening:
        return None
    partner = context.checked_partner
    tolerated = partner.get("credit_block_days")
    if tolerated is not None:
        oldest = oldest_open_due_date(context)
        days = document_rules.overdue_days([oldest] if oldest else [], today(context))
        if days > int(tolerated):
            raise document_rules.credit_blocked(days, int(tolerated))
    policy = context.company.get("creditLimitPolicy", "off")
    limit = partner.get("credit_limit")
    limit = Decimal(limit) if limit is not None else None
    total = currency.base_total(document, context.own_currency).amount   # the limit and balance are in the company's currency
    warning = document_rules.credit_warning(policy, limit, Decimal(partner.get("receivableBalance", 0)), total)
    if warning:
        plan.warnings.append(warning)
    if policy == "block" and limit is not None:
        return limit - total
    return None
