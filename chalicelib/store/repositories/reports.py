"""What the accounting reports read of other aggregates' records (partners, documents, bank
transactions): the reads they share with those aggregates' own repositories belong there once
those exist (issue 45: one place per concept)."""
from __future__ import annotations

from typing import Any

from chalicelib.store import keys
from chalicelib.store.table import Table


def bank_transactions_from(table: Table, company_id: int, bank_account_id: int, first: str) -> list[dict[str, Any]]:
    """A bank account's transactions from the sort key `first` on, strongly consistent."""
    return table.query_all(partition=("PK", keys.bank_transactions_partition(company_id, bank_account_id)),
                           sort_range=("SK", first, None), consistent=True)
