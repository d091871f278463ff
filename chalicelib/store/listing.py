"""Page/limit listing on a key-ordered index with `total` from a counter item, plus an opaque
cursor for deep iteration at constant cost."""
from __future__ import annotations

import base64
import binascii
import json
from dataclasses import dataclass
from typing import Any, Callable, Optional

from chalicelib.errors import ValidationFailed
from chalicelib.messages.phrases import Phrase
from chalicelib.store.keys import COUNT_SORT_KEY, Key
from chalicelib.store.table import Table, invalid_cursor

GSI1 = "GSI1"
GSI2 = "GSI2"
GSI3 = "GSI3"
# list_range on the table's own keys rather than an index
BASE_TABLE = None
# Page numbers walk the index from its start; past this depth the cursor is the way.
MAX_PAGE_DEPTH = 10_000


@dataclass(frozen=True)
class Page:
    items: list[dict[str, Any]]
    total: int
    page: int
    limit: int
    next_cursor: str | None


def encode_cursor(key: dict[str, Any]) -> str:
    raw = json.dumps(key, separators=(",", ":"), sort_keys=True).encode()
    return base64.urlsafe_b64encode(raw).decode().rstrip("=")


INDEX_KEY = ("PK", "SK", "GSI1PK", "GSI1SK")


def decode_cursor(cursor: str, *, partition_attribute: str, partition: str,
                  attributes: tuple[str, ...] = INDEX_KEY) -> dict[str, Any]:
    """A cursor is only honoured inside the partition it was issued for (a forged cursor can
    not reach another company's items) and must carry exactly the key `attributes`."""
    try:
        padded = cursor + "=" * (-len(cursor) % 4)
        key = json.loads(base64.urlsafe_b64decode(padded.encode()))
    except (ValueError, binascii.Error, UnicodeDecodeError):
        raise invalid_cursor() from None
    if (not isinstance(key, dict) or set(key) != set(attributes) or key.get(partition_attribute) != partition
            or not all(isinstance(v, str) and v for v in key.values())):
        raise invalid_cursor()
    return key


def partition_page(table: Table, partition: str, limit: int, cursor: str | None, *,
                   newest_first: bool = False) -> tuple[list[dict[str, Any]], str | None]:
    """A page of a table partition's items in sort-key order (or newest first) and the next page's
    cursor, None at the end (a cursor honoured only inside this partition)."""
    start = decode_cursor(cursor, partition_attribute="PK", partition=partition, attributes=("PK", "SK")) \
        if cursor else None
    items, last = table.query(partition=("PK", partition), forward=not newest_first, limit=limit, start_key=start,
                              consistent=True)
    return items, encode_cursor(last) if last else None


def index_key(index: str | None) -> tuple[str, ...]:
    return ("PK", "SK") if index is None else ("PK", "SK", f"{index}PK", f"{index}SK")


def _starting_point(cursor: str | None, partition: str, page: int, limit: int,
                    index: str | None = GSI1) -> tuple[dict[str, Any] | None, int]:
    """Where a page begins: after the cursor's item, or `(page - 1) * limit` items in."""
    if cursor:
        return decode_cursor(cursor, partition_attribute=index_key(index)[-2], partition=partition,
                             attributes=index_key(index)), 0
    if page * limit > MAX_PAGE_DEPTH:
        raise ValidationFailed.for_field(
            "page", Phrase("page * limit may not exceed {}; use cursor to go deeper", MAX_PAGE_DEPTH))
    return None, (page - 1) * limit


def _cut(collected: list[dict[str, Any]], skip: int, limit: int, more: bool,
         index: str | None = GSI1) -> tuple[list[dict[str, Any]], str | None]:
    window = collected[skip:skip + limit]
    next_cursor = None
    if more and window:
        last = window[-1]
        next_cursor = encode_cursor({name: last[name] for name in index_key(index)})
    return window, next_cursor


Fetch = Callable[[Optional[dict[str, Any]], int], "tuple[list[dict[str, Any]], Optional[dict[str, Any]]]"]


def _collect(fetch: Fetch, start: dict[str, Any] | None, wanted: int,
             matching: int | None = None) -> tuple[list[dict[str, Any]], bool]:
    """Reads batches until one item more than `wanted` (so we know another page exists) or the
    end; `fetch(start, missing)` reads one batch. `matching`, when known, is how many items
    there are from the start: once all are read, a filtered read stops early."""
    collected: list[dict[str, Any]] = []
    while True:
        batch, start = fetch(start, wanted + 1 - len(collected))
        collected.extend(batch)
        if len(collected) > wanted:
            return collected, True
        if start is None or (matching is not None and len(collected) >= matching):
            return collected, False


def list_collection(table: Table, *, partition: str, count_key: Key, page: int, limit: int,
                    cursor: str | None) -> Page:
    """Lists a GSI1 collection in id order. A page walks the index from its start and meets the
    count item first, so page-based reads cost one Query; a cursor page costs one Query plus
    one GetItem of the count and does not depend on depth."""
    start, skip = _starting_point(cursor, partition, page, limit)
    counted: list[int] = []

    def fetch(start: dict[str, Any] | None, missing: int) -> tuple[list[dict[str, Any]], dict[str, Any] | None]:
        # +1 makes room for the count item
        batch, start = table.query(partition=("GSI1PK", partition), index=GSI1, limit=missing + 1, start_key=start)
        counted.extend(int(item.get("total", 0)) for item in batch if item.get("GSI1SK") == COUNT_SORT_KEY)
        return [item for item in batch if item.get("GSI1SK") != COUNT_SORT_KEY], start

    collected, more = _collect(fetch, start, skip + limit)
    window, next_cursor = _cut(collected, skip, limit, more)
    if counted:
        total = counted[0]
    else:
        counter = table.get(count_key) if cursor else None
        total = int(counter["total"]) if counter and "total" in counter else 0
    return Page(items=window, total=total, page=page, limit=limit, next_cursor=next_cursor)


# With a filter, DynamoDB's Limit counts the items read before filtering: read in batches.
FILTERED_BATCH = 200


def list_range(table: Table, *, partition: str, low: str | None, high: str | None,
               filters: dict[str, Any], page: int, limit: int, cursor: str | None,
               descending: bool, total: int, index: str | None = GSI1) -> Page:
    """Lists a GSI partition (or, with BASE_TABLE, a table partition) between two sort-key
    bounds, optionally filtered, newest first when `descending`. The caller brings the exact
    `total` (from its counters)."""
    start, skip = _starting_point(cursor, partition, page, limit, index)
    partition_attribute, sort_attribute = index_key(index)[-2:]
    if start is not None and not ((low or "") <= start[sort_attribute] <= (high or "\uffff")):
        raise invalid_cursor()  # issued for another range: DynamoDB refuses a start key outside it

    def fetch(start: dict[str, Any] | None, missing: int) -> tuple[list[dict[str, Any]], dict[str, Any] | None]:
        return table.query(partition=(partition_attribute, partition), index=index,
                           sort_range=(sort_attribute, low, high), filters=filters or None,
                           limit=max(missing, FILTERED_BATCH) if filters else missing,
                           start_key=start, forward=not descending, consistent=index is None)

    collected, more = _collect(fetch, start, skip + limit, matching=None if cursor else total)
    window, next_cursor = _cut(collected, skip, limit, more, index)
    return Page(items=window, total=total, page=page, limit=limit, next_cursor=next_cursor)
