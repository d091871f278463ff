"""A month's tax books, once filed, do not change. A fiscal document reversed in a later month
than its own (a note cancelled, a purchase invoice unconfirmed) records, in the reversing
transaction, two corrections: the document as its own month booked it, and its reversal dated
in the later month, where the reversing entry posts. The books read them beside the period's
documents, so each month's book keeps agreeing with that month's ledger. Reversed within its own
month, a document needs none: it shows as cancelled (or, back to draft, not at all)."""
from __future__ import annotations

import datetime as _dt
from collections.abc import Mapping
from typing import Any

from chalicelib import countries
from chalicelib.domain import currency, tax_books
from chalicelib.domain.documents import CONFIRMED
from chalicelib.domain.records import DocumentRecord
from chalicelib.errors import ApiError, ValidationFailed
from chalicelib.messages.phrases import Phrase
from chalicelib.services.banking import exchange_rates
from chalicelib.services.identity import accounts
from chalicelib.store import keys
from chalicelib.store.repositories import book_corrections as correction_store
from chalicelib.store.repositories import documents as document_store
from chalicelib.store.table import Table
from chalicelib.store.transaction import Transaction

STATUS_LABELS = {"cancelled": "ANULADO", tax_books.REVERSAL: "REVERSIÓN"}
MAX_BOOK_DAYS = 366  # one answer of a bounded size (a Lambda answers at most 6 MB)
_KEPT = ("id", "type", "number", "cai", "businessPartnerId", "total", "currency", "supplierDocumentNumber",
         "supplierCai", "dte", "sourceDocumentId")


def record_reversal(transaction: Transaction, company_id: int, document: DocumentRecord, reversal_date: str, *,
                    own: str) -> None:
    """`own`: the company's currency, the books'."""
    if document["type"] not in tax_books.BOOK_TYPES or reversal_date[:7] == document["date"][:7]:
        return
    document_id, version = document["id"], document["version"]
    stored: Mapping[str, Any] = document
    kept = {name: stored[name] for name in _KEPT if stored.get(name) is not None}
    # kept in the company's currency, as the books read them (no rate: already converted)
    booked = currency.as_booked(document, own)
    kept.update(lines=tax_books.condensed_lines(booked["lines"]), total=booked["total"])
    for role, status, date in (("booked", CONFIRMED, document["date"]),
                               ("reversal", tax_books.REVERSAL, reversal_date)):
        transaction.put_new({**keys.book_correction(company_id, document_id, version, role),
                             **keys.book_correction_index(company_id, date, document_id, version, role),
                             "itemType": keys.BOOK_CORRECTION, **kept, "status": status, "date": date,
                             "documentDate": document["date"], "reversalDate": reversal_date})


def period_corrections(table: Table, company_id: int, start_date: str, end_date: str) -> list[dict[str, Any]]:
    """One Query: the corrections dated in the period (mostly none)."""
    return correction_store.dated_between(table, company_id, start_date, end_date)


def period_documents(table: Table, company_id: int, start_date: str, end_date: str,
                     country: str) -> list[dict[str, Any]]:
    """The period's confirmed and cancelled documents of a company of `country` (a country's tax
    books read them), with the corrections of documents reversed in a later month, in the books'
    order: one Query of the documents' date index, one of the corrections'."""
    if start_date > end_date:
        raise ValidationFailed.for_field("startDate", "must not be after the end date")
    if _dt.date.fromisoformat(end_date) - _dt.date.fromisoformat(start_date) > _dt.timedelta(days=MAX_BOOK_DAYS):
        raise ValidationFailed.for_field("endDate", Phrase("a book spans at most {} days (books are monthly)",
                                                           MAX_BOOK_DAYS))
    company = accounts.get_company(table, company_id)
    own = exchange_rates.company_currency(company)
    if countries.pack_of(company).code != country:
        books = countries.pack(country)  # "The ISV books are for companies of Honduras (...)"
        raise ApiError(Phrase("The {} books are for companies of {} (the company's country is {}).",
                              books.tax_label, books.name, countries.pack_of(company).code), code="REPORT_NOT_FOR_COUNTRY")
    documents = [item for item in document_store.dated_between(table, company_id, low=start_date, high=keys.day_end(end_date))
                 if item["status"] in tax_books.BOOK_STATUSES and not tax_books.reversed_later(item)]
    # a document as booked before its reversal sorts before its later confirmation of the same day
    documents = period_corrections(table, company_id, start_date, end_date) + documents
    # as the books carry them: in the company's currency, converted here once
    return sorted((currency.as_booked(item, own) for item in documents),
                  key=lambda item: (item["date"], item.get("number") or "", int(item["id"])))
