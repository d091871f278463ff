"""A company's exchange rates, one partition sorted by currency and date: recorded or replaced on
the version read, read whole, and the newest of a currency on or before a date."""
from __future__ import annotations

from typing import Any

from chalicelib.store import keys
from chalicelib.store.table import Table
from chalicelib.store.transaction import Transaction


def replace(transaction: Transaction, item: dict[str, Any], seen_version: int) -> None:
    """A rate recorded again for its currency and date: it replaces the one read, at its version."""
    transaction.put(item, condition="#v = :v", names={"#v": "version"}, values={":v": seen_version})


def all_of_company(table: Table, company_id: int) -> list[dict[str, Any]]:
    """Every rate the company recorded, by currency and date."""
    return table.query_all(partition=("PK", keys.exchange_rates_partition(company_id)), consistent=True)


def newest_through(table: Table, company_id: int, currency: str, date: str) -> dict[str, Any] | None:
    """The newest rate of `currency` on or before `date` (one Query), None without one."""
    items: list[dict[str, Any]]
    items, _ = table.query(partition=("PK", keys.exchange_rates_partition(company_id)),
                           sort_range=("SK", *keys.exchange_rates_through(currency, date)), limit=1, forward=False,
                           consistent=True)
    return items[0] if items else None
