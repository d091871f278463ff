"""The table's search index (services/search.py, sales_purchases/document_search.py): an item per
term and record under the kind's search partition, sort key `{term}#{id}`, and GSI3 (keys only)
finding a document by its own number's term."""
from __future__ import annotations

from chalicelib.store import keys
from chalicelib.store.listing import GSI3, decode_cursor, encode_cursor
from chalicelib.store.table import Table, invalid_cursor


def ids_beginning(table: Table, partition: str, word: str) -> set[int]:
    """The ids of the records a term of which `word` begins (one strongly consistent Query)."""
    return {item["id"] for item in table.query_all(partition=("PK", partition), sort_prefix=("SK", word),
                                                    consistent=True)}


def cursor_after(partition: str, record_id: int) -> str:
    """The cursor of the page after `record_id`."""
    return encode_cursor(keys.item_key(partition, keys.sortable_id(record_id)))


def id_after(cursor: str, partition: str) -> int:
    """The id a search cursor was issued after: its sort key is the id as `cursor_after` writes it, so
    a cursor forged in the caller's own partition with another sort key is an invalid cursor."""
    after = keys.parse_sortable_id(decode_cursor(cursor, partition_attribute="PK", partition=partition,
                                                 attributes=("PK", "SK"))["SK"])
    if after is None:
        raise invalid_cursor()
    return after


def documents_numbered(table: Table, company_id: int, term: str) -> tuple[list[int], list[int]]:
    """The ids of the documents whose own number (GSI3, eventually consistent like every list) and
    whose supplier's number (strongly consistent) have a term `term` begins: (own, suppliers')."""
    partition = keys.search_partition(company_id, keys.DOCUMENT)
    own = table.query_all(partition=("GSI3PK", partition), index=GSI3, sort_prefix=("GSI3SK", term))
    suppliers = table.query_all(partition=("PK", partition), sort_prefix=("SK", term), consistent=True)
    return [int(item["GSI3SK"].split("#")[1]) for item in own], [item["id"] for item in suppliers]
