"""Stock: each product's position (its quantity, value and unit cost, per warehouse), written whole
under the sequence read, and its movements (the product's kardex, and every product's by date)."""
from __future__ import annotations

from typing import Any

from chalicelib.store import keys
from chalicelib.store.listing import GSI1
from chalicelib.store.table import Table
from chalicelib.store.transaction import Transaction


def positions(table: Table, company_id: int) -> list[dict[str, Any]]:
    """Every product's stored position (one item per product)."""
    return table.query_all(partition=("PK", keys.stock_positions_partition(company_id)), consistent=True)


def write_position(transaction: Transaction, company_id: int, product_id: int, changes: dict[str, Any],
                   seen_sequence: int | None) -> None:
    """The product's position written whole, on the sequence read (None: none stored yet): a
    concurrent move of the product makes the command run again."""
    key = keys.stock_position(company_id, product_id)
    if seen_sequence is None:
        transaction.set_fields(key, changes, condition="attribute_not_exists(#seq)", names={"#seq": "sequence"})
    else:
        transaction.set_fields(key, changes, condition="#seq = :seen", names={"#seq": "sequence"},
                               values={":seen": seen_sequence})


def movement_keys(company_id: int, product_id: int, date: str, origin: str, line: int) -> dict[str, str]:
    """A movement's key in its product's kardex and its entry in every product's movements by date."""
    key = keys.stock_movement(company_id, product_id, date, origin, line)
    return {**key, **keys.movement_index(company_id, key["SK"], product_id)}


def movements_after(table: Table, company_id: int, product_id: int, date: str) -> list[dict[str, Any]]:
    """The product's movements dated after `date`, date order (strongly consistent)."""
    return table.query_all(partition=("PK", keys.product_movements_partition(company_id, product_id)),
                           sort_range=("SK", keys.day_end(date), None), consistent=True)


def movements_between(table: Table, company_id: int, product_id: int | None, first_day: str | None,
                      last_day: str | None) -> list[dict[str, Any]]:
    """Movements from `first_day` through `last_day` (either open), oldest first: the product's
    own (its kardex, strongly consistent), or every product's (an index) without one."""
    high = keys.day_end(last_day) if last_day else None
    if product_id is not None:
        return table.query_all(partition=("PK", keys.product_movements_partition(company_id, product_id)),
                               consistent=True, sort_range=("SK", first_day, high))
    return table.query_all(partition=("GSI1PK", keys.stock_movements_partition(company_id)), index=GSI1,
                           sort_range=("GSI1SK", first_day, high))
