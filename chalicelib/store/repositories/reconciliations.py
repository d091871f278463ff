"""A bank reconciliation's item as its commands write it: a draft changed or deleted only while no
completion in steps marks it (`completing`, a token), marked and unmarked by that completion, and
completed under its version; the account's reconciliations read newest first."""
from __future__ import annotations

from typing import Any

from chalicelib.store import keys
from chalicelib.store.table import Table
from chalicelib.store.transaction import Guard, Transaction

DRAFT, COMPLETED = "draft", "completed"
# a draft no completion in steps marks: what a change or delete requires of the stored item
_NOT_COMPLETING = "#status = :draft AND attribute_not_exists(completing)"
# a draft the completion in steps holding `:token` marks
_MARKED = "#status = :draft AND completing = :token"
_STATUS = {"#status": "status"}


def newest_of_account(table: Table, company_id: int, account_id: int, limit: int) -> list[dict[str, Any]]:
    """The account's `limit` newest reconciliations, newest first."""
    items: list[dict[str, Any]]
    items, _ = table.query(partition=("PK", keys.reconciliations_partition(company_id, account_id)), forward=False,
                           limit=limit, consistent=True)
    return items


def unmarked_draft() -> Guard:
    """The guard (condition, names, values) of a change to a draft: still a draft no completion
    in steps marks (services/records.update_item's `guard`)."""
    return Guard(_NOT_COMPLETING, dict(_STATUS), {":draft": DRAFT})


def mark_completing(transaction: Transaction, key: keys.Key, seen_version: int, token: str, now: str) -> None:
    """The draft marked by a completion in steps holding `token`, its version unchanged: it must be
    the version read, a draft, and not marked by another."""
    transaction.update(key, "SET completing = :token, completingSince = :now",
                       condition="#version = :seen AND " + _NOT_COMPLETING,
                       names={"#version": "version", **_STATUS},
                       values={":token": token, ":now": now, ":seen": seen_version, ":draft": DRAFT})


def require_marked(transaction: Transaction, key: keys.Key, token: str) -> None:
    """The draft still carries the mark of the completion holding `token`."""
    transaction.check(key, _MARKED, names=dict(_STATUS), values={":draft": DRAFT, ":token": token})


def unmark(table: Table, key: keys.Key, token: str) -> bool:
    """Outside any transaction: the mark of the completion holding `token` removed; False (nothing
    written) when the draft no longer carries it."""
    unmarked: bool = table.update_if(key, "REMOVE completing, completingSince", condition=_MARKED,
                                     names=dict(_STATUS), values={":draft": DRAFT, ":token": token})
    return unmarked


def complete(transaction: Transaction, key: keys.Key, changes: dict[str, Any], seen_version: int,
             token: str | None) -> None:
    """The draft's completing `changes`, on the version read: a draft unmarked, or (`token`) the one
    the completion in steps holding it marks."""
    if token is None:
        still, values = _NOT_COMPLETING, {":draft": DRAFT}
    else:
        still, values = _MARKED, {":draft": DRAFT, ":token": token}
    transaction.update_fields(key, changes, seen_version, also_require=still, names=dict(_STATUS), values=values)


def delete_draft(transaction: Transaction, key: keys.Key, seen_version: int) -> None:
    """The draft deleted, on the version read, while no completion in steps marks it."""
    transaction.delete(key, condition="#version = :seen AND " + _NOT_COMPLETING,
                       names={"#version": "version", **_STATUS}, values={":seen": seen_version, ":draft": DRAFT})
