"""paymentStatus on the documents read, and the list filtered by it.

The status is computed when a document is read (domain/payment_status.py: "overdue" changes with
the date), so a filtered list cannot take its `total` from the per-day counts nor let DynamoDB
page it: the documents that can match are gathered, judged, counted and cut into the page here,
page-numbered (no cursor) like a search. What is gathered is bounded by what can match:
- overdue: only the documents still owing whose due date has passed, from each partner's open
  documents by due date (a Query per partner with open documents, then their documents): paid
  history is never read, as for the aging and the credit summary;
- unpaid, partially paid, paid: the confirmed documents of the list's range (its date index,
  the partner's when one is named), which is as much as a list of that range reads."""
from __future__ import annotations

from typing import Any, Mapping

from chalicelib.domain import payment_status as rules
from chalicelib.domain.documents import CONFIRMED, KINDS
from chalicelib.errors import ValidationFailed
from chalicelib.messages.phrases import Phrase
from chalicelib.services.identity.accounts import today_of
from chalicelib.store import keys
from chalicelib.store.listing import MAX_PAGE_DEPTH, Page
from chalicelib.store.repositories import documents as document_store
from chalicelib.store.repositories import partners as partner_store
from chalicelib.store.table import Table

SIDE_OPEN_COUNTS = ((keys.RECEIVABLE_SIDE, "openReceivables"), (keys.PAYABLE_SIDE, "openPayables"))


def with_payment_status(document: dict[str, Any], today: str) -> dict[str, Any]:
    status = rules.payment_status(document, today)
    return {**document, "paymentStatus": status,
            "daysOverdue": rules.days_overdue(document, today) if status == rules.OVERDUE else None}


def _overdue_candidates(table: Table, company_id: int, today: str, partner_id: int | None) -> list[dict[str, Any]]:
    if partner_id is not None:
        partners = [table.get(keys.entity(company_id, keys.PARTNER, partner_id)) or {"id": partner_id}]
    else:
        partners = partner_store.every_partner(table, company_id)
    ids: set[int] = set()
    for partner in partners:
        for side, open_count in SIDE_OPEN_COUNTS:
            if partner_id is None and not int(partner.get(open_count, 0)):
                continue
            # the open documents by due date, those due before today (sort keys `{dueDate}#{id}`)
            due = partner_store.open_documents(table, company_id, int(partner["id"]), side, due_before=today)
            ids.update(int(item["documentId"]) for item in due)
    found = table.batch_get(keys.document(company_id, document_id) for document_id in sorted(ids))
    return list(found.values())


def _range_candidates(table: Table, company_id: int, *, start_date: str | None, end_date: str | None,
                      partner_id: int | None) -> list[dict[str, Any]]:
    high = keys.day_end(end_date) if end_date else None
    return document_store.dated_between(table, company_id, partner_id=partner_id, low=start_date, high=high,
                                        filters={"status": CONFIRMED})


def list_by_payment_status(table: Table, company_id: int, wanted: str, *, filters: dict[str, Any],
                           start_date: str | None, end_date: str | None, partner_id: int | None, page: int,
                           limit: int, cursor: str | None) -> Page:
    """The documents of the list's other filters whose status today is `wanted`, newest first (by
    date, then id) as the list is, but overdue ones longest overdue first; `total` exact."""
    if cursor:
        raise ValidationFailed.for_field("cursor", "a list filtered by payment status is paged by page number, not by cursor")
    if page * limit > MAX_PAGE_DEPTH:
        raise ValidationFailed.for_field("page", Phrase("page * limit may not exceed {} in a list filtered by payment "
                                                        "status", MAX_PAGE_DEPTH))
    today = today_of(table, company_id)
    if wanted == rules.OVERDUE:
        candidates = _overdue_candidates(table, company_id, today, partner_id)
    else:
        candidates = _range_candidates(table, company_id, start_date=start_date, end_date=end_date,
                                       partner_id=partner_id)
    return paged(candidates, wanted, today, filters=filters, start_date=start_date, end_date=end_date,
                 partner_id=partner_id, page=page, limit=limit)


def paged(candidates: list[dict[str, Any]], wanted: str | None, today: str, *, filters: dict[str, Any],
          start_date: str | None, end_date: str | None, partner_id: int | None, page: int, limit: int) -> Page:
    """The candidates the list's filters keep (and, when `wanted`, of that payment status), newest
    first (overdue: the oldest due date first), cut into the page; `total` exact."""
    def kept(document: Mapping[str, Any]) -> bool:
        return (all(document.get(name) == value for name, value in filters.items())
                and (partner_id is None or document["businessPartnerId"] == partner_id)
                and (start_date is None or document["date"] >= start_date)
                and (end_date is None or document["date"] <= end_date)
                and (wanted is None or rules.payment_status(document, today) == wanted))

    found = [document for document in candidates if document.get("type") in KINDS and kept(document)]
    if wanted == rules.OVERDUE:  # what a person collects first: the longest overdue (the oldest due date)
        found.sort(key=lambda document: (document["dueDate"], document["id"]))
    else:
        found.sort(key=lambda document: (document["date"], document["id"]), reverse=True)
    return Page(items=found[(page - 1) * limit:page * limit], total=len(found), page=page, limit=limit,
                next_cursor=None)
