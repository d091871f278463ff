"""Tax settlements: the guard that orders them (the last one's date and period end)."""
from __future__ import annotations

from chalicelib.errors import ApiError
from chalicelib.store import keys
from chalicelib.store.transaction import Transaction


def advance(transaction: Transaction, company_id: int, guard_name: str, previous: str | None, date: str,
            period_end: str, on_overlap: ApiError) -> None:
    """The guard to this settlement's date only from the date the command read (`previous`, None:
    no settlement yet): one recorded in between makes this one refused."""
    transaction.update(keys.guard(company_id, guard_name), "SET lastDate = :date, lastPeriodEnd = :end",
                       condition="lastDate = :seen" if previous else "attribute_not_exists(lastDate)",
                       values={":date": date, ":end": period_end, **({":seen": previous} if previous else {})},
                       on_fail=on_overlap)
