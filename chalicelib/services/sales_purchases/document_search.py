"""Finding documents by what a person types: their number (the company's own, or the supplier's
on a purchase) and their partner's name, tax id or e-mail. Not a scan of the company: a numbered
document is in GSI3 by its number's term (keys-only: 1 WRU when the number is taken, nothing on
later writes), a supplier's number has an index item (in the document's transaction), partners
are found by their own index (services/search.py) and their documents by the partner's document
index (GSI2). A query costs two Queries for the number, the partner search, one Query per partner
found and one BatchGetItem per 100 documents the number matched: it grows with what it finds, so
a query that finds too much asks for more letters instead."""
from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from chalicelib.domain import search as search_rules
from chalicelib.errors import ValidationFailed
from chalicelib.messages.phrases import Phrase
from chalicelib.services import search
from chalicelib.services.identity import accounts
from chalicelib.services.sales_purchases import payment_status
from chalicelib.store import keys
from chalicelib.store.listing import Page
from chalicelib.store.repositories import documents as document_store
from chalicelib.store.repositories import search as search_index
from chalicelib.store.table import Table
from chalicelib.store.transaction import Transaction

# what one query may gather before it is asked to be narrower
MAX_PARTNERS = 20
MAX_FOUND = 2000


def supplier_number_items(company_id: int,
                          document: Mapping[str, Any] | None) -> dict[tuple[str, str], dict[str, Any]]:
    """The index item of a purchase's supplier number, by key ({} without one). The document's
    own number needs no item: GSI3 finds it (keys.document_number_index)."""
    number = (document or {}).get("supplierDocumentNumber")
    if not number or not document:
        return {}
    key = keys.supplier_number_term(company_id, number, document["id"])
    return {keys.pair(key): {**key, "id": document["id"]}} if key else {}


def index_supplier_number(transaction: Transaction, company_id: int, before: Mapping[str, Any] | None,
                          after: Mapping[str, Any]) -> None:
    """The purchase's supplier-number item as the number now is: a new one put, an old one taken out."""
    old, new = supplier_number_items(company_id, before), supplier_number_items(company_id, after)
    for key in sorted(set(new) - set(old)):
        transaction.put(new[key])
    for key in sorted(set(old) - set(new)):
        transaction.delete(keys.item_key(*key))


def _too_broad(what: str) -> ValidationFailed:
    return ValidationFailed.for_field("q", Phrase("finds more than {}: type more of the number or the name", what))


def _by_number(table: Table, company_id: int, query: str) -> set[int]:
    """The ids whose own number (GSI3, eventually consistent like every list) or supplier's
    number (strongly consistent) ends in digits the query's last ones begin."""
    term = keys.number_term(query)
    if term is None:
        return set()
    own, suppliers = search_index.documents_numbered(table, company_id, term)
    if len(own) + len(suppliers) > MAX_FOUND:
        raise _too_broad(Phrase("{} documents", MAX_FOUND))
    return set(own) | set(suppliers)


def _numbered(document: Mapping[str, Any], query: str) -> bool:
    """The index found the document by the number's last digits; the number typed must also be
    in one of its numbers whole, separators aside ("01-00000123" is not 001-001-103-00000123)."""
    typed = "".join(search_rules.words(query))
    return any(typed in "".join(search_rules.words(document.get(field) or ""))
               for field in ("number", "supplierDocumentNumber"))


def _of_partners(table: Table, company_id: int, query: str) -> list[dict[str, Any]]:
    partners = search.find(table, company_id, keys.PARTNER, query, 1, MAX_PARTNERS, None)
    if partners.total > MAX_PARTNERS:
        raise _too_broad(Phrase("{} business partners", MAX_PARTNERS))
    documents: list[dict[str, Any]] = []
    for partner in partners.items:
        documents.extend(document_store.of_partner(table, company_id, partner["id"]))
        if len(documents) > MAX_FOUND:
            raise _too_broad(Phrase("{} documents", MAX_FOUND))
    return documents


def find_documents(table: Table, company_id: int, query: str, *, filters: dict[str, Any],
                   start_date: str | None, end_date: str | None, partner_id: int | None, page: int,
                   limit: int, paid: str | None = None) -> Page:
    """The documents `query` finds by number or by partner, with the list's other filters (`paid`:
    a payment status as of the company's today), newest first (by date, then id) as the list is;
    `total` is exact."""
    by_id = {item["id"]: item for item in _of_partners(table, company_id, query)}
    wanted = [keys.entity(company_id, keys.DOCUMENT, document_id)
              for document_id in sorted(_by_number(table, company_id, query) - set(by_id))]
    by_id.update({item["id"]: item for item in table.batch_get(wanted).values() if _numbered(item, query)})
    today = accounts.today_of(table, company_id) if paid else ""
    return payment_status.paged(list(by_id.values()), paid, today, filters=filters, start_date=start_date,
                                end_date=end_date, partner_id=partner_id, page=page, limit=limit)
