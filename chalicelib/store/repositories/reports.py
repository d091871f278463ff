"""What the accounting reports read of other aggregates' records (partners, documents, bank
transactions): the reads they share with those aggregates' own repositories belong there once
those exist (issue 45: one place per concept)."""
from __future__ import annotations

from typing import Any

from chalicelib.store import keys
from chalicelib.store.listing import GSI1
from chalicelib.store.table import Table


def partners(table: Table, company_id: int) -> list[dict[str, Any]]:
    """Every partner of the company (one Query of their list index, the count item left out)."""
    return [item for item in table.query_all(partition=("GSI1PK", keys.collection_partition(company_id, keys.PARTNER)),
                                             index=GSI1) if item.get("GSI1SK") != keys.COUNT_SORT_KEY]


def documents_dated(table: Table, company_id: int, start: str, end: str) -> list[dict[str, Any]]:
    """Every document dated within [start, end]: one Query of the documents' date index."""
    return table.query_all(partition=("GSI1PK", keys.collection_partition(company_id, keys.DOCUMENT)), index=GSI1,
                           sort_range=("GSI1SK", start, keys.day_end(end)))


def bank_transactions_from(table: Table, company_id: int, bank_account_id: int, first: str) -> list[dict[str, Any]]:
    """A bank account's transactions from the sort key `first` on, strongly consistent."""
    return table.query_all(partition=("PK", keys.bank_transactions_partition(company_id, bank_account_id)),
                           sort_range=("SK", first, None), consistent=True)
