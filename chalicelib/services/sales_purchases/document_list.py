"""Listing documents: the list's filters (type, status, dates, partner, a search, a payment status),
newest first, with an exact total and each document's payment status as of the company's today."""
from __future__ import annotations

from chalicelib.domain import documents as document_rules
from chalicelib.errors import ValidationFailed
from chalicelib.services.identity import accounts
from chalicelib.services.sales_purchases import document_search, payment_status
from chalicelib.store import keys
from chalicelib.store.listing import Page
from chalicelib.store.repositories import day_counts
from chalicelib.store.repositories import documents as document_store
from chalicelib.store.table import Table


def document_total(table: Table, company_id: int, *, document_type: str | None = None, status: str | None = None,
                   start_date: str | None = None, end_date: str | None = None, partner_id: int | None = None) -> int:
    """How many documents match: the sum of the per-day counts of the date range (the company's, or
    the partner's), one strongly consistent Query of small items."""
    counts = day_counts.between(table, company_id, start_date, end_date, partner_id)
    wanted = {f"{s}_{t}" for s in document_rules.DOCUMENT_STATUSES for t in document_rules.KINDS
              if (status is None or s == status) and (document_type is None or t == document_type)}
    return sum(int(day.get(name, 0)) for _, day in counts for name in wanted)


def list_documents(table: Table, company_id: int, *, document_type: str | None, status: str | None,
                   start_date: str | None, end_date: str | None, partner_id: int | None, page: int, limit: int,
                   cursor: str | None, query: str | None = None, paid: str | None = None) -> Page:
    """Newest first, each with its `paymentStatus` as of the company's today. `total` is exact for
    any filter (`document_total`; by `paid`, a payment status, counted as it is judged)."""
    listed = _listed(table, company_id, document_type=document_type, status=status, start_date=start_date,
                     end_date=end_date, partner_id=partner_id, page=page, limit=limit, cursor=cursor, query=query,
                     paid=paid)
    today = accounts.today_of(table, company_id)
    return Page(items=[payment_status.with_payment_status(item, today) for item in listed.items], total=listed.total,
                page=listed.page, limit=listed.limit, next_cursor=listed.next_cursor)


def _listed(table: Table, company_id: int, *, document_type: str | None, status: str | None,
            start_date: str | None, end_date: str | None, partner_id: int | None, page: int, limit: int,
            cursor: str | None, query: str | None, paid: str | None) -> Page:
    if start_date and end_date and start_date > end_date:
        raise ValidationFailed.for_field("startDate", "must not be after the end date")
    filters = {name: value for name, value in (("type", document_type), ("status", status)) if value}
    if query is not None:
        if cursor:
            raise ValidationFailed.for_field("cursor", "a search is paged by page, not by cursor")
        return document_search.find_documents(table, company_id, query, filters=filters, start_date=start_date,
                                              end_date=end_date, partner_id=partner_id, page=page, limit=limit,
                                              paid=paid)
    if paid is not None:
        return payment_status.list_by_payment_status(table, company_id, paid, filters=filters, start_date=start_date,
                                                     end_date=end_date, partner_id=partner_id, page=page, limit=limit,
                                                     cursor=cursor)
    total = document_total(table, company_id, document_type=document_type, status=status, start_date=start_date,
                           end_date=end_date, partner_id=partner_id)
    high = keys.day_end(end_date) if end_date else None
    return document_store.page_between(table, company_id, partner_id=partner_id, low=start_date, high=high,
                                       filters=filters, page=page, limit=limit, cursor=cursor, total=total)
