"""A company's documents (invoices, notes, purchases): listed by date (GSI1) or by partner and date
(GSI2), counted per day, and the writes whose conditions keep them consistent: a document written
over the version read, a draft deleted only while a draft, a credit note adding to its source."""
from __future__ import annotations

from collections.abc import Mapping
from decimal import Decimal
from typing import Any, cast

from chalicelib.domain.records import DocumentRecord
from chalicelib.store import keys
from chalicelib.store.listing import GSI1, GSI2, Page, list_range
from chalicelib.store.table import Table
from chalicelib.store.transaction import Transaction


def company_of(document: Mapping[str, Any]) -> int:
    """The company a stored document belongs to, from its key."""
    return int(document["PK"].split("#")[1])


def new_document(company_id: int, document_id: int, document_type: str, created_at: str) -> DocumentRecord:
    """A new document's key, kind and identity: what a command builds the document on."""
    key = keys.document(company_id, document_id)
    return {"PK": key["PK"], "SK": key["SK"], "itemType": keys.DOCUMENT, "id": document_id, "type": document_type,
            "createdAt": created_at}


def document(table: Table, company_id: int, document_id: int) -> DocumentRecord | None:
    """The stored document, as its record (the store reads each field at its declared type)."""
    return as_document(table.get(keys.document(company_id, document_id)))


def as_document(item: dict[str, Any] | None) -> DocumentRecord | None:
    """A document item read otherwise (a BatchGetItem, a query), as its record."""
    return cast("DocumentRecord | None", item)


def _dated_index(company_id: int, partner_id: int | None) -> tuple[str, str]:
    """The index listing the documents by date: the partner's (GSI2) or the company's (GSI1)."""
    if partner_id is not None:
        return keys.partner_documents_partition(company_id, partner_id), GSI2
    return keys.collection_partition(company_id, keys.DOCUMENT), GSI1


def dated_between(table: Table, company_id: int, *, partner_id: int | None = None, low: str | None = None,
                  high: str | None = None, filters: dict[str, Any] | None = None) -> list[dict[str, Any]]:
    """Every document dated between `low` and `high` (sort keys `{date}#...`; either may be None),
    the partner's or the company's, with attribute equalities `filters` (an index read: it may lag)."""
    partition, index = _dated_index(company_id, partner_id)
    return table.query_all(partition=(f"{index}PK", partition), index=index,
                           sort_range=(f"{index}SK", low, high), filters=filters or None)


def of_partner(table: Table, company_id: int, partner_id: int) -> list[dict[str, Any]]:
    """Every document of the partner."""
    return dated_between(table, company_id, partner_id=partner_id)


def page_between(table: Table, company_id: int, *, partner_id: int | None, low: str | None, high: str | None,
                 filters: dict[str, Any], page: int, limit: int, cursor: str | None, total: int) -> Page:
    """A page of the documents dated between the bounds, newest first (the partner's or the company's)."""
    partition, index = _dated_index(company_id, partner_id)
    return list_range(table, partition=partition, low=low, high=high, filters=filters, page=page, limit=limit,
                      cursor=cursor, descending=True, total=total, index=index)


def has_payments_on_record(table: Table, company_id: int, document_id: int) -> bool:
    """Whether any payment (a cancelled one too) was ever recorded on the document."""
    payments, _ = table.query(partition=("PK", keys.document(company_id, document_id)["PK"]),
                              sort_prefix=("SK", keys.DOCUMENT_PAYMENT_PREFIX), limit=1, consistent=True)
    return bool(payments)


def replace_as_read(transaction: Transaction, stored: dict[str, Any], version_read: int) -> None:
    """Writes the document whole over the version the command read (a concurrent change: the command
    runs again)."""
    transaction.put(stored, condition="#v = :v", names={"#v": "version"}, values={":v": version_read})


def delete_draft(transaction: Transaction, company_id: int, document_id: int, version_read: int,
                 draft: str) -> None:
    """Deletes the document while it is the draft read (status `draft`, the version read)."""
    transaction.delete(keys.document(company_id, document_id), condition="#v = :v AND #s = :draft",
                       names={"#v": "version", "#s": "status"}, values={":v": version_read, ":draft": draft})


def add_credited(transaction: Transaction, company_id: int, source_id: int, amount: Decimal,
                 version_read: int) -> None:
    """A credit note's amount added to its source's `creditedTotal` (negative: taken back), on the
    source's version as read; the version moves, so the source cannot change meanwhile."""
    transaction.update(keys.document(company_id, source_id), "ADD #credited :amount, #version :one",
                       condition="#version = :seen", names={"#credited": "creditedTotal", "#version": "version"},
                       values={":amount": amount, ":one": 1, ":seen": version_read})


def add_validated_debit_notes(transaction: Transaction, company_id: int, source_id: int, sign: int) -> None:
    """A validated debit note counted on its source (`validatedDebitNotes`, -1: uncounted); the
    source's version moves, so no command holding an older copy overwrites the count."""
    transaction.update(keys.document(company_id, source_id), "ADD #notes :sign, #version :one",
                       names={"#notes": "validatedDebitNotes", "#version": "version"},
                       values={":sign": sign, ":one": 1})


def sendings_page(table: Table, company_id: int, document_id: int, page: int, limit: int, cursor: str | None,
                  total: int) -> Page:
    """A page of the document's sendings (e-mails), newest first."""
    return list_range(table, partition=keys.document_sendings_partition(company_id, document_id), low=None,
                      high=None, filters={}, page=page, limit=limit, cursor=cursor, descending=True,
                      total=total, index=GSI1)
