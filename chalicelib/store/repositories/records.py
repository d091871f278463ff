"""A company's small collections (branches, CAI ranges, warehouses, bank accounts...): a handful
of records in one partition, read whole and strongly consistent (services/records.py)."""
from __future__ import annotations

from typing import Any

from chalicelib.store import keys
from chalicelib.store.table import Table


def small_collection(table: Table, company_id: int, kind: str) -> list[dict[str, Any]]:
    """Every record of the kind, in id order."""
    return table.query_all(partition=("PK", keys.small_collection(company_id, kind)), consistent=True)


def reservation_name(reservation: keys.Key) -> str:
    """What a unique value's reservation (a tax id, a product code) is told apart by in its partition."""
    return reservation["SK"]


def reservations_like(table: Table, reservation: keys.Key) -> dict[str, dict[str, Any]]:
    """Every reservation in the partition of `reservation` (the company's tax ids, product codes), by
    reservation_name: one strongly consistent Query (an import checks thousands of rows against them)."""
    return {item["SK"]: item for item in table.query_all(partition=("PK", reservation["PK"]), consistent=True)}
