"""Dimensions (cost centres, projects...): their items and how many a company made."""
from __future__ import annotations

from typing import Any

from chalicelib.errors import ApiError
from chalicelib.store import keys
from chalicelib.store.table import Table
from chalicelib.store.transaction import Transaction


def items(table: Table, company_id: int) -> list[dict[str, Any]]:
    """Every dimension and value item of the company, dimensions each followed by their values:
    one strongly consistent Query of a small partition."""
    return table.query_all(partition=("PK", keys.dimensions_partition(company_id)), consistent=True)


def count_new(transaction: Transaction, company_id: int, on_limit: ApiError) -> None:
    """One more dimension, while the company has fewer than keys.MAX_DIMENSIONS."""
    transaction.update(keys.dimension_count(company_id), "ADD #count :one",
                       condition="attribute_not_exists(#count) OR #count < :max",
                       names={"#count": "dimensionCount"}, values={":one": 1, ":max": keys.MAX_DIMENSIONS},
                       on_fail=on_limit)
