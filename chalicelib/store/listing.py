"""Page/limit listing on a key-ordered index with `total` from a counter item, plus an opaque
cursor for deep iteration at constant cost."""
from __future__ import annotations

import base64
import binascii
import json
from dataclasses import dataclass
from typing import Any

from chalicelib.errors import ValidationFailed
from chalicelib.store.keys import COUNT_SORT_KEY, Key
from chalicelib.store.table import Table

GSI1 = "GSI1"
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


def decode_cursor(cursor: str, *, partition_attribute: str, partition: str) -> dict[str, Any]:
    """A cursor is only honoured inside the partition it was issued for: a forged cursor can
    not reach another company's items."""
    invalid = ValidationFailed.for_field("cursor", "invalid or expired cursor")
    try:
        padded = cursor + "=" * (-len(cursor) % 4)
        key = json.loads(base64.urlsafe_b64decode(padded.encode()))
    except (ValueError, binascii.Error, UnicodeDecodeError):
        raise invalid from None
    if (not isinstance(key, dict) or key.get(partition_attribute) != partition
            or not all(isinstance(v, str) for v in key.values()) or len(key) > 4):
        raise invalid
    return key


def _starting_point(cursor: str | None, partition: str, page: int,
                    limit: int) -> tuple[dict[str, Any] | None, int]:
    """Where a page begins: after the cursor's item, or `(page - 1) * limit` items in."""
    if cursor:
        return decode_cursor(cursor, partition_attribute="GSI1PK", partition=partition), 0
    if page * limit > MAX_PAGE_DEPTH:
        raise ValidationFailed.for_field(
            "page", f"page * limit may not exceed {MAX_PAGE_DEPTH}; use cursor to go deeper")
    return None, (page - 1) * limit


def _cut(collected: list[dict[str, Any]], skip: int, limit: int, more: bool) -> tuple[list[dict[str, Any]], str | None]:
    window = collected[skip:skip + limit]
    next_cursor = None
    if more and window:
        last = window[-1]
        next_cursor = encode_cursor({name: last[name] for name in ("PK", "SK", "GSI1PK", "GSI1SK")})
    return window, next_cursor


def list_collection(table: Table, *, partition: str, count_key: Key, page: int, limit: int,
                    cursor: str | None) -> Page:
    """Lists a GSI1 collection in id order. A page walks the index from its start and meets the
    count item first, so page-based reads cost one Query; a cursor page costs one Query plus
    one GetItem of the count and does not depend on depth."""
    start, skip = _starting_point(cursor, partition, page, limit)
    wanted = skip + limit
    collected: list[dict[str, Any]] = []
    total: int | None = None
    more = False
    while True:
        # +1 finds out whether another page exists; +1 more makes room for the count item
        batch, start = table.query(partition=("GSI1PK", partition), index=GSI1,
                                   limit=wanted + 2 - len(collected), start_key=start)
        for item in batch:
            if item.get("GSI1SK") == COUNT_SORT_KEY:
                total = int(item.get("total", 0))
            else:
                collected.append(item)
        if len(collected) > wanted:
            more = True
            break
        if start is None:
            break
    window, next_cursor = _cut(collected, skip, limit, more)
    if total is None:
        counter = table.get(count_key) if cursor else None
        total = int(counter["total"]) if counter and "total" in counter else 0
    return Page(items=window, total=total, page=page, limit=limit, next_cursor=next_cursor)


# With a filter, DynamoDB's Limit counts the items read before filtering: read in batches.
FILTERED_BATCH = 200


def list_range(table: Table, *, partition: str, low: str | None, high: str | None,
               filters: dict[str, Any], page: int, limit: int, cursor: str | None,
               descending: bool, total: int) -> Page:
    """Lists a GSI1 partition between two sort-key bounds, optionally filtered, newest first
    when `descending`. The caller brings the exact `total` (from its counters)."""
    start, skip = _starting_point(cursor, partition, page, limit)
    wanted = skip + limit
    collected: list[dict[str, Any]] = []
    more = False
    while True:
        batch_size = wanted + 1 - len(collected)
        batch, start = table.query(partition=("GSI1PK", partition), index=GSI1,
                                   sort_range=("GSI1SK", low, high), filters=filters or None,
                                   limit=max(batch_size, FILTERED_BATCH) if filters else batch_size,
                                   start_key=start, forward=not descending)
        collected.extend(batch)
        if len(collected) > wanted:
            more = True
            break
        if start is None:
            break
    window, next_cursor = _cut(collected, skip, limit, more)
    return Page(items=window, total=total, page=page, limit=limit, next_cursor=next_cursor)
