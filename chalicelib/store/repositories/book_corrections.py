"""The tax books' corrections: a document reversed in a later month than its own, as booked and
as reversed (services/accounting/book_corrections.py)."""
from __future__ import annotations

from typing import Any

from chalicelib.store import keys
from chalicelib.store.listing import GSI1
from chalicelib.store.table import Table


def dated_between(table: Table, company_id: int, start: str, end: str) -> list[dict[str, Any]]:
    """One Query: the corrections dated in [start, end] (mostly none)."""
    return table.query_all(partition=("GSI1PK", keys.collection_partition(company_id, keys.BOOK_CORRECTION)),
                           index=GSI1, sort_range=("GSI1SK", start, keys.day_end(end)))
