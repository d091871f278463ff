"""The chart of accounts: its accounts, their codes' reservations, the counters that keep the
tree whole (`childCount`), freeze an account once posted to (`postingCount`) and keep it while a
rule or a bank account points at it (`referenceCount`), and the determination rules."""
from __future__ import annotations

from typing import Any

from chalicelib.errors import ApiError
from chalicelib.store import keys
from chalicelib.store.table import Table
from chalicelib.store.transaction import Guard, Transaction

CODE_KIND = "ACCOUNT_CODE"
# an account none of these point at: no postings, no sub-accounts, no rule or bank account
_UNUSED = {"postings": "(attribute_not_exists(postingCount) OR postingCount = :zero)",
           "children": "(attribute_not_exists(childCount) OR childCount = :zero)",
           "references": "(attribute_not_exists(referenceCount) OR referenceCount = :zero)"}
_EXISTS = "attribute_exists(PK)"
_ACTIVE = f"{_EXISTS} AND isActive = :active"

def chart(table: Table, company_id: int) -> list[dict[str, Any]]:
    """Every account of the company: one strongly consistent Query of the chart's partition."""
    return table.query_all(partition=("PK", keys.chart_partition(company_id)), consistent=True)


def reserved_codes(table: Table, company_id: int) -> dict[str, int]:
    """Each account code reserved, with the account it is reserved for."""
    found = table.query_all(partition=("PK", keys.unique_value(company_id, CODE_KIND, "")["PK"]), consistent=True)
    return {item["SK"]: int(item["accountId"]) for item in found}


def determination_rules(table: Table, company_id: int) -> list[dict[str, Any]]:
    """Every determination rule of the company: one Query of a partition bounded by operation
    type x document type."""
    return table.query_all(partition=("PK", keys.determination_rules_partition(company_id)), consistent=True)


def count_children(transaction: Transaction, company_id: int, parent_id: int, account_type: str,
                   delta: int = 1) -> None:
    """Counts sub-accounts on their parent, which must still exist with the same type."""
    transaction.update(keys.chart_account(company_id, parent_id), "ADD childCount :delta",
                       condition=f"{_EXISTS} AND #type = :type",
                       names={"#type": "type"}, values={":delta": delta, ":type": account_type})


def uncount_child(transaction: Transaction, company_id: int, parent_id: int) -> None:
    transaction.update(keys.chart_account(company_id, parent_id), "ADD childCount :minus", values={":minus": -1})


def parent_keeps_type(transaction: Transaction, company_id: int, parent_id: int, account_type: str) -> None:
    """The parent still has the type its sub-account takes on."""
    transaction.check(keys.chart_account(company_id, parent_id), "#type = :type",
                      names={"#type": "type"}, values={":type": account_type})


def move_in_tree(transaction: Transaction, company_id: int, tree_guard: str, seen_version: int) -> None:
    """One account moves in the tree at a time, from the tree's version read: no cycle forms."""
    transaction.update(keys.guard(company_id, tree_guard), "ADD #version :one",
                       condition="attribute_not_exists(#version) OR #version = :seen",
                       names={"#version": "version"}, values={":one": 1, ":seen": seen_version})


def tree_version(table: Table, company_id: int, tree_guard: str) -> int:
    found = table.get(keys.guard(company_id, tree_guard))
    return int(found["version"]) if found else 0


def still_unused(*, postings: bool = False, children: bool = False, references: bool = False) -> Guard | None:
    """The guard that an account still has none of what was checked on the account read (None:
    nothing checked)."""
    wanted = [_UNUSED[name] for name, asked in (("postings", postings), ("children", children),
                                                ("references", references)) if asked]
    return Guard(" AND ".join(wanted), {}, {":zero": 0}) if wanted else None


def delete_unused(transaction: Transaction, company_id: int, account_id: int, version: int) -> None:
    """The account as read (its version), still without postings, sub-accounts or references."""
    transaction.delete(keys.chart_account(company_id, account_id),
                       condition=f"#version = :version AND {' AND '.join(_UNUSED.values())}",
                       names={"#version": "version"}, values={":version": version, ":zero": 0})


def reference_unposted(transaction: Transaction, company_id: int, account_id: int, delta: int, postings: int,
                       on_fail: ApiError) -> None:
    """A reference to an account that exists, is active and has no postings yet (`postings`: its
    first ones, counted in the same update, since a transaction writes an item once)."""
    transaction.update(keys.chart_account(company_id, account_id),
                       "ADD referenceCount :delta" + (", postingCount :postings" if postings else ""),
                       condition=f"{_ACTIVE} AND {_UNUSED['postings']}",
                       values={":delta": delta, ":active": True, ":zero": 0,
                               **({":postings": postings} if postings else {})}, on_fail=on_fail)


def reference_active(transaction: Transaction, company_id: int, account_id: int, delta: int,
                     on_fail: ApiError) -> None:
    """A reference to an account that exists and is active."""
    transaction.update(keys.chart_account(company_id, account_id), "ADD referenceCount :delta",
                       condition=_ACTIVE, values={":delta": delta, ":active": True}, on_fail=on_fail)


def release_references(transaction: Transaction, company_id: int, account_id: int, delta: int) -> None:
    """References dropped (`delta` < 0) from an account that still exists."""
    transaction.update(keys.chart_account(company_id, account_id), "ADD referenceCount :delta",
                       condition=_EXISTS, values={":delta": delta})


def count_first_postings(transaction: Transaction, company_id: int, account_id: int, postings: int,
                         on_fail: ApiError) -> None:
    """An account's first postings, on an account that still exists and is active."""
    transaction.update(keys.chart_account(company_id, account_id), "ADD postingCount :n",
                       condition=_ACTIVE, values={":n": postings, ":active": True}, on_fail=on_fail)
