"""Budgets: their headers (one small partition of the company) and a header's deletion."""
from __future__ import annotations

from typing import Any

from chalicelib.store import keys
from chalicelib.store.table import Table
from chalicelib.store.transaction import Transaction


def headers(table: Table, company_id: int) -> list[dict[str, Any]]:
    """Every budget's header, in no order: one strongly consistent Query of a small partition."""
    return table.query_all(partition=("PK", keys.budgets_partition(company_id)), consistent=True)


def delete_as_read(transaction: Transaction, company_id: int, budget_id: int, version: int) -> None:
    """The header at the version read: a concurrent change makes the command run again."""
    transaction.delete(keys.budget(company_id, budget_id), condition="#version = :version",
                       names={"#version": "version"}, values={":version": version})
