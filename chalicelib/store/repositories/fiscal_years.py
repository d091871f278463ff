"""Fiscal years: each year's state on its lock item (status, version, closing entries), the
`yearClosed` mark every dated write of the year checks, and the books' lock (`closedThrough`,
the newest closed year's last day) every dated write checks whatever its year."""
from __future__ import annotations

from typing import Any

from chalicelib.errors import ApiError
from chalicelib.store import keys
from chalicelib.store.repositories.periods import on_every_shard
from chalicelib.store.table import Table
from chalicelib.store.transaction import Transaction


def year_locks(table: Table, company_id: int) -> list[tuple[str, dict[str, Any]]]:
    """(year, lock) of each year anything locked, strongly consistent (not the shards nor the
    books' lock)."""
    found = table.query_all(partition=("PK", keys.period_lock(company_id, "")["PK"]), consistent=True)
    return [(item["SK"], item) for item in found if item["SK"].isdigit()]


def books_closed_through(table: Table, company_id: int) -> str | None:
    found = (table.get(keys.books_lock(company_id)) or {}).get("closedThrough")
    return str(found) if found is not None else None


def move_books_lock(transaction: Transaction, company_id: int, seen: str | None, through: str | None,
                    on_fail: ApiError) -> None:
    """The books' lock to `through` (None: no year closed) from the day read, on the lock and its
    shards: two years closing or reopening at once take turns."""
    lock = keys.books_lock(company_id)
    expression, values = ("SET closedThrough = :through", {":through": through}) if through else \
        ("REMOVE closedThrough", {})
    condition = "attribute_not_exists(closedThrough)" if seen is None else "closedThrough = :seen"
    transaction.update(lock, expression, condition=condition,
                       values={**values, **({":seen": seen} if seen is not None else {})} or None, on_fail=on_fail)
    on_every_shard(transaction, lock, expression, values or None)


def require_after_closed_years(transaction: Transaction, company_id: int, first: str, on_fail: ApiError) -> None:
    """Nothing dated on or before the newest closed year's last day: `first` is the earliest date
    the transaction writes."""
    transaction.check(keys.books_lock(company_id), "attribute_not_exists(closedThrough) OR closedThrough < :first",
                      values={":first": first}, on_fail=on_fail, shardable=True)


def record_year_state(transaction: Transaction, company_id: int, year: str, status: str, seen_version: int,
                      fields: dict[str, Any], year_closed: bool | None) -> None:
    """The year's status and `fields` on its lock, from the version read (`year_closed`: True
    marks the year closed on the lock and its shards, False removes the mark, None leaves it)."""
    values: dict[str, Any] = {":status": status, ":next": seen_version + 1, ":seen": seen_version}
    sets = ["yearStatus = :status", "yearVersion = :next"]
    for index, (name, value) in enumerate(fields.items()):
        sets.append(f"{name} = :f{index}")
        values[f":f{index}"] = value
    expression = "SET " + ", ".join(sets)
    lock = keys.period_lock(company_id, year)
    if year_closed:
        expression += ", yearClosed = :yes"
        values[":yes"] = True
        on_every_shard(transaction, lock, "SET yearClosed = :yes", {":yes": True})
    elif year_closed is False:
        expression += " REMOVE yearClosed"
        on_every_shard(transaction, lock, "REMOVE yearClosed")
    transaction.update(lock, expression, condition="attribute_not_exists(yearVersion) OR yearVersion = :seen",
                       values=values)
