"""Finding partners and products by what a person types: an index of terms in the table (an
item per term and record, kept in the record's own transaction), not a scan of the company. A
query costs one strongly consistent Query per word (the index items of the terms the word begins)
(and one more for the words joined, an id typed with
separators) and one BatchGetItem of the page's records."""
from __future__ import annotations

from typing import Any

from chalicelib.domain import search as search_rules
from chalicelib.store import keys
from chalicelib.store.listing import Page
from chalicelib.store.repositories import search as search_index
from chalicelib.store.table import Table
from chalicelib.store.transaction import Transaction


def record_terms(item: dict[str, Any] | None, fields: tuple[str, ...]) -> set[str]:
    return search_rules.terms(item.get(name) for name in fields) if item else set()


def index(transaction: Transaction, company_id: int, kind: str, fields: tuple[str, ...],
          before: dict[str, Any] | None, after: dict[str, Any]) -> None:
    """The record's index items, as its searchable fields now are: the new terms put, the old
    ones taken out."""
    old, new = record_terms(before, fields), record_terms(after, fields)
    record_id = after["id"]
    for term in sorted(new - old):
        transaction.put({**keys.search_term(company_id, kind, term, record_id), "id": record_id})
    for term in sorted(old - new):
        transaction.delete(keys.search_term(company_id, kind, term, record_id))


def find(table: Table, company_id: int, kind: str, query: str, page: int, limit: int,
         cursor: str | None) -> Page:
    """The records every word of `query` begins a term of, in id order: a page of them (`page`,
    or the ids after `cursor`) and the cursor of the next. A query without a letter or a digit
    finds nothing."""
    partition = keys.search_partition(company_id, kind)
    after = search_index.id_after(cursor, partition) if cursor else None

    def beginning(word: str) -> set[int]:
        return search_index.ids_beginning(table, partition, word)

    ids: set[int] = set()
    for position, word in enumerate(search_rules.query_words(query)):
        found = beginning(word)
        ids = found if position == 0 else ids & found
        if not ids:
            break
    # an id typed with separators ("0801-1999-123456") also finds one kept as its digits alone
    joined = search_rules.joined_query(query)
    if joined:
        ids |= beginning(joined)
    ordered = sorted(ids)
    wanted = [record_id for record_id in ordered if record_id > after][:limit] if after is not None \
        else ordered[(page - 1) * limit:page * limit]
    more = bool(wanted) and wanted[-1] != ordered[-1]
    wanted_keys = [keys.entity(company_id, kind, record_id) for record_id in wanted]
    found_items = table.batch_get(wanted_keys)
    items = [found_items[keys.pair(key)] for key in wanted_keys if keys.pair(key) in found_items]
    next_cursor = search_index.cursor_after(partition, wanted[-1]) if more else None
    return Page(items=items, total=len(ordered), page=page, limit=limit, next_cursor=next_cursor)

