"""The per-day count items (issue 45): one small item a day (and its shards) per company, and per
partner, counting documents and journal entries by status and type, so a list's total and the
years with posted entries are read without reading the records."""
from __future__ import annotations

from typing import Any

from chalicelib.store import keys
from chalicelib.store.table import Table


def between(table: Table, company_id: int, first: str | None, last: str | None,
            partner_id: int | None = None) -> list[tuple[str, dict[str, Any]]]:
    """(day, counts) of each day from `first` to `last` (either open), the company's or the
    partner's, shards included (a day may come more than once: add them up), strongly consistent."""
    found = table.query_all(partition=("PK", keys.day_counts(company_id, "", partner_id)["PK"]),
                            sort_range=("SK", first, f"{last}{keys.SHARD_SUFFIX_END}" if last else None),
                            consistent=True)
    return [(str(item["SK"])[:10], item) for item in found]
