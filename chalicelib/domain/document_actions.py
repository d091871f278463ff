"""What a document can do next, from what the document itself records (and the company's
currency): each action's refusal (the error its command answers) or None. The commands check
these same functions and every document answers `allowedActions` from them, so no client copies
the rules.

Money on a document goes through one route (POST /payments/documents/{id}/payments), which does
what the type takes: `pay` what an invoice or debit note owes, `refund` what a credit note leaves
(06, 105), `advance` on a quote, order or delivery (100, 101, 102, 112). `applyAdvances` takes
advances a quote or order holds onto a document that owes (POST .../apply-advances-from-source)."""
from __future__ import annotations

from collections.abc import Mapping
from decimal import Decimal
from typing import Any, Callable

from chalicelib import countries
from chalicelib.domain.documents import (
    ADVANCE_OPERATION,
    CANCELLED,
    CONFIRMED,
    DRAFT,
    KINDS,
    DocumentNotEditable,
    DocumentStateError,
    has_payments,
    not_cancellable,
    wrong_status,
)
from chalicelib.errors import ApiError
from chalicelib.messages.phrases import Phrase

Refusal = ApiError | None


def _country_refusal(action: str, document: Mapping[str, Any]) -> Refusal:
    """What a country objects to, after the core's status checks: an electronic document is undone
    at its tax authority (countries/interface.py `action_refusal`)."""
    for pack in countries.packs():
        refused: Refusal = pack.hooks.action_refusal(action, document)
        if refused is not None:
            return refused
    return None


def _advances(document: Mapping[str, Any]) -> Refusal:
    if Decimal(document.get("advancesTotal", 0)) > 0:
        return DocumentStateError(Phrase("The document holds advances of {}; cancel those payments first.",
                                         document['advancesTotal']), code="DOCUMENT_HAS_PAYMENTS")
    return None


def untouched(document: Mapping[str, Any]) -> Refusal:
    """Undoing a confirmation needs the document untouched by payments and credit notes."""
    if Decimal(document.get("paidTotal", 0)) != 0 or Decimal(document.get("pending", 0)) != Decimal(document["total"]):
        return has_payments()
    if Decimal(document.get("creditedTotal", 0)) != 0:
        return DocumentStateError("Credit notes correct this document; cancel them first.",
                                  code="DOCUMENT_HAS_CREDIT_NOTES")
    return None


def _update(document: Mapping[str, Any]) -> Refusal:
    if document["status"] != DRAFT:
        return DocumentNotEditable(Phrase("Only a draft can be edited; this document is {}.", document['status']))
    return None


def _confirm(document: Mapping[str, Any]) -> Refusal:
    return wrong_status("confirmed", document["status"], DRAFT) if document["status"] != DRAFT else None


def _delete(document: Mapping[str, Any]) -> Refusal:
    """From the document alone: a draft's payments on record (cancelled advances) are read by the command."""
    if document["status"] != DRAFT:
        return DocumentStateError("Only a draft can be deleted; cancel or credit a confirmed document.",
                                  code="DOCUMENT_NOT_DELETABLE")
    return _advances(document)


def _cancel(document: Mapping[str, Any]) -> Refusal:
    if document["status"] == DRAFT:  # a draft that will never be confirmed
        return _advances(document)
    kind = KINDS[document["type"]]
    if not kind.cancellable:
        return not_cancellable(kind)
    if document["status"] != CONFIRMED:
        return wrong_status("cancelled", document["status"], CONFIRMED)
    return _country_refusal("cancel", document) or untouched(document)


def _unconfirm(document: Mapping[str, Any]) -> Refusal:
    if not KINDS[document["type"]].unconfirmable:
        return DocumentStateError(Phrase("Only purchase invoices (103) can be unconfirmed, not type {}.",
                                         document['type']),
                                  code="DOCUMENT_NOT_UNCONFIRMABLE")
    if document["status"] != CONFIRMED:
        return wrong_status("unconfirmed", document["status"], CONFIRMED)
    return _country_refusal("unconfirm", document) or untouched(document)


def _invalidate(document: Mapping[str, Any]) -> Refusal:
    """Only a country whose documents its tax authority receives invalidates them: its pack refuses
    every document it cannot invalidate."""
    return _country_refusal("invalidate", document)


def payment_refusal(document: Mapping[str, Any], refundable: bool = False) -> str | None:
    """Why money cannot settle the document: only a confirmed one that owes (an invoice, a debit
    note) or, when `refundable`, a credit note whose rest is refunded."""
    kind = KINDS[document["type"]]
    if kind.balance == 0 or (kind.balance < 0 and not refundable):
        return (f"Documents of type {kind.code} ({kind.name}) are not paid"
                + ("; a credit note is refunded by a payment method or applied to the documents it corrects."
                   if kind.balance < 0 else "."))
    if document["status"] != CONFIRMED:
        return f"Only a confirmed document can be paid; this one is {document['status']}."
    return None


def _pay(document: Mapping[str, Any]) -> Refusal:
    problem = payment_refusal(document) or (
        "Nothing is pending on this document." if Decimal(document.get("pending", 0)) <= 0 else None)
    return DocumentStateError(problem, code="DOCUMENT_NOT_PAYABLE") if problem else None


def _refund(document: Mapping[str, Any]) -> Refusal:
    """A credit note's rest (what no document it corrects took) back in money."""
    kind = KINDS[document["type"]]
    if kind.balance >= 0:
        return DocumentStateError(Phrase("Only a credit note (06, 105) is refunded, not type {} ({}).",
                                         kind.code, kind.name),
                                  code="DOCUMENT_NOT_PAYABLE")
    problem = payment_refusal(document, refundable=True)
    if problem:
        return DocumentStateError(problem, code="DOCUMENT_NOT_PAYABLE")
    if Decimal(document.get("pending", 0)) <= 0:
        return DocumentStateError("Nothing is left to refund: the credit note was applied or refunded whole.",
                                  code="AMOUNT_EXCEEDS_PENDING",
                                  details=[{"field": "amount", "message": "at most 0"}])
    return None


def _advance(document: Mapping[str, Any], company_currency: str) -> Refusal:
    """Money on a quote, order or delivery before its invoice, in the company's currency, until
    the advances reach its total (a draft takes them too)."""
    kind = KINDS[document["type"]]
    if kind.code not in ADVANCE_OPERATION:
        return DocumentStateError(Phrase("Only quotes, orders and deliveries (100, 101, 102, 112) take advances, not "
                                         "type {} ({}).", kind.code, kind.name), code="DOCUMENT_NOT_PAYABLE")
    if document["status"] == CANCELLED:
        return DocumentStateError("A cancelled document takes no advance.", code="DOCUMENT_NOT_PAYABLE")
    if (document.get("currency") or company_currency) != company_currency:
        return DocumentStateError(Phrase("Advances are taken in the company's currency; this {} is in {}: invoice it "
                                         "and pay the invoice.", kind.name.lower(), document.get('currency')),
                                  code="DOCUMENT_NOT_PAYABLE")
    room = Decimal(document["total"]) - Decimal(document.get("advancesTotal", 0))
    if room <= 0:
        return DocumentStateError(Phrase("Advances on this {} may not exceed its total {}; {} is left.",
                                         kind.name.lower(), document['total'], max(room, Decimal(0))), code="AMOUNT_EXCEEDS_PENDING",
                                  details=[{"field": "amount", "message": Phrase("at most {}", max(room, Decimal(0)))}])
    return None


def _apply_advances(document: Mapping[str, Any]) -> Refusal:
    """A document that owes takes advances from a quote or order of its partner (its own source
    unless the request names another): whether that one holds any is the command's to read."""
    problem = payment_refusal(document)
    if problem:
        return DocumentStateError(problem, code="DOCUMENT_NOT_PAYABLE")
    if Decimal(document.get("pending", 0)) <= 0:
        return DocumentStateError("Nothing to apply: the document is paid.", code="AMOUNT_EXCEEDS_PENDING")
    return None


def _always(document: Mapping[str, Any]) -> Refusal:
    return None


# Each action's rule; `advance` also reads the company's currency.
RULES: dict[str, Callable[..., Refusal]] = {
    "update": _update, "confirm": _confirm, "delete": _delete, "cancel": _cancel, "unconfirm": _unconfirm,
    "invalidate": _invalidate, "pay": _pay, "refund": _refund, "advance": _advance,
    "applyAdvances": _apply_advances, "print": _always, "send": _always,
}
ACTIONS = tuple(RULES)
_READS_CURRENCY = {"advance"}


def refusal(action: str, document: Mapping[str, Any], company_currency: str | None = None) -> Refusal:
    if action in _READS_CURRENCY:
        if company_currency is None:
            raise ValueError(f"the rule of {action} reads the company's currency")
        return RULES[action](document, company_currency)
    return RULES[action](document)


def require(action: str, document: Mapping[str, Any], company_currency: str | None = None) -> None:
    """Raises the action's refusal: what its command checks, the rule `allowedActions` shows."""
    refused = refusal(action, document, company_currency)
    if refused is not None:
        raise refused


def allowed_actions(document: Mapping[str, Any], company_currency: str, *, records_openings: bool = False) -> list[str]:
    """The actions whose refusal is None, in RULES' order. The commands also read what the
    document does not record: `delete` is refused for a draft with payments on record,
    `applyAdvances` when the quote or order holds no advance left, and every action by the
    caller's role. Of the role, one thing shows here: an opening balance (900, 901) is cancelled
    only by whoever may record one (`records_openings`, the accounting permission), so no other
    caller is offered `cancel` on it."""
    hidden = {"cancel"} if KINDS[document["type"]].opening and not records_openings else set()
    return [action for action in RULES if action not in hidden and refusal(action, document, company_currency) is None]
