"""A company's business partners: their collection (GSI1), their balances and open-document counts
kept on the partner item, their open documents by due date, their own ledger, and their tax ids'
reservations."""
from __future__ import annotations

from decimal import Decimal
from typing import Any, cast

from chalicelib.domain.records import PartnerRecord
from chalicelib.errors import ApiError
from chalicelib.store import keys
from chalicelib.store.listing import GSI1
from chalicelib.store.table import Table
from chalicelib.store.transaction import Transaction


def partner(table: Table, company_id: int, partner_id: int) -> PartnerRecord | None:
    """The stored partner, as its record (the store reads each field at its declared type)."""
    return as_partner(table.get(keys.entity(company_id, keys.PARTNER, partner_id)))


def as_partner(item: dict[str, Any] | None) -> PartnerRecord | None:
    """A partner item read otherwise (a BatchGetItem, a query), as its record."""
    return cast("PartnerRecord | None", item)


def every_partner(table: Table, company_id: int) -> list[dict[str, Any]]:
    """Every partner of the company (the collection index: it may lag; the count item left out)."""
    return [item for item in table.query_all(partition=("GSI1PK", keys.collection_partition(company_id, keys.PARTNER)),
                                             index=GSI1) if item.get("GSI1SK") != keys.COUNT_SORT_KEY]


def move_balance(transaction: Transaction, company_id: int, partner_id: int, *, balance: str, amount: Decimal,
                 open_count: str | None = None, open_change: int = 0, ceiling: Decimal | None = None,
                 over_ceiling: ApiError | None = None) -> None:
    """Adds `amount` to the partner's `balance` (and `open_change` to its `open_count`) on a partner
    that exists; with a `ceiling`, only while the balance before it is at most the ceiling (else
    `over_ceiling`): a blocking credit limit checked in the transaction."""
    condition = "attribute_exists(PK)"
    values: dict[str, Any] = {":amount": amount}
    if ceiling is not None:
        condition += " AND (attribute_not_exists(#balance) OR #balance <= :ceiling)"
        values[":ceiling"] = ceiling
    names = {"#balance": balance}
    expression = "ADD #balance :amount"
    if open_count is not None:
        names["#open"], values[":open"] = open_count, open_change
        expression += ", #open :open"
    transaction.update(keys.entity(company_id, keys.PARTNER, partner_id), expression, condition=condition,
                       names=names, values=values, on_fail=over_ceiling if ceiling is not None else None)


def open_documents(table: Table, company_id: int, partner_id: int, side: str, *, limit: int | None = None,
                   due_before: str | None = None) -> list[dict[str, Any]]:
    """The partner's open documents of one side, the earliest due first (`limit` of them, or those due
    before `due_before`; sort keys `{dueDate}#{id}`), strongly consistent."""
    partition = ("PK", keys.open_documents_partition(company_id, partner_id, side))
    if limit is not None:
        items: list[dict[str, Any]]
        items, _ = table.query(partition=partition, limit=limit, consistent=True)
        return items
    return table.query_all(partition=partition, sort_range=("SK", None, due_before), consistent=True)


def ledger_months(table: Table, company_id: int, partner_id: int, side: str, through: str) -> list[dict[str, Any]]:
    """The monthly totals of the partner's own ledger up to the month of `through` (a date)."""
    partition = keys.partner_ledger_partition(company_id, partner_id, side)
    return table.query_all(partition=("PK", partition), sort_range=(
        "SK", keys.PARTNER_BALANCE_PREFIX, f"{keys.PARTNER_BALANCE_PREFIX}{through[:7]}{keys.SHARD_SUFFIX_END}"),
        consistent=True)


def release_tax_id(transaction: Transaction, reservation: keys.Key, partner_id: int) -> None:
    """Deletes a tax id's reservation while it is the partner's own."""
    transaction.delete(reservation, condition="partnerId = :me", values={":me": partner_id})
