"""Users, their memberships of companies and the company's count of active owners."""
from __future__ import annotations

from typing import Any

from chalicelib.errors import ApiError
from chalicelib.store import keys
from chalicelib.store.listing import BASE_TABLE, GSI1, Page, list_range
from chalicelib.store.table import Table
from chalicelib.store.transaction import Transaction


def members_of(table: Table, company_id: int) -> list[dict[str, Any]]:
    """Every membership of the company (one Query of its member index)."""
    return table.query_all(partition=("GSI1PK", keys.members_partition(company_id)), index=GSI1)


def company_links(table: Table, user_id: int) -> list[dict[str, Any]]:
    """The user's links to the companies they belong to."""
    return table.query_all(partition=("PK", keys.user(user_id)["PK"]),
                           sort_prefix=("SK", keys.USER_COMPANY_LINK_PREFIX), consistent=True)


def gain_active_owner(transaction: Transaction, company_id: int, on_missing: ApiError) -> None:
    transaction.update(keys.company(company_id), "ADD activeOwnerCount :one", condition="attribute_exists(PK)",
                       values={":one": 1}, on_fail=on_missing)


def lose_active_owner(transaction: Transaction, company_id: int, on_last: ApiError) -> None:
    """Refused when it is the company's last active owner."""
    transaction.update(keys.company(company_id), "ADD activeOwnerCount :minus",
                       condition="activeOwnerCount > :one", values={":minus": -1, ":one": 1}, on_fail=on_last)


def remove_membership(transaction: Transaction, company_id: int, user_id: int, seen_version: int) -> None:
    """The membership as it was read: a concurrent change runs the removal again on what it became."""
    transaction.delete(keys.membership(company_id, user_id), condition="#version = :version",
                       names={"#version": "version"}, values={":version": seen_version})


def record_login(transaction: Transaction, user_id: int, at: str) -> None:
    transaction.update(keys.user(user_id), "SET lastLoginAt = :now", values={":now": at})


def remember_last_company(transaction: Transaction, user_id: int, company_id: int) -> None:
    transaction.update(keys.user(user_id), "SET lastCompanyId = :company", values={":company": company_id})


def change_password(transaction: Transaction, user_id: int, seen_hash: str, new_hash: str, generation: int,
                    at: str) -> None:
    """The new password and session generation, on the password read: a concurrent change runs
    this again (and finds its current password wrong)."""
    transaction.update(keys.user(user_id), "SET passwordHash = :hash, sessionGeneration = :generation, updatedAt = :now",
                       condition="passwordHash = :seen",
                       values={":hash": new_hash, ":generation": generation, ":now": at, ":seen": seen_hash})


def sign_in_with_password(transaction: Transaction, user_id: int, fields: dict[str, Any], seen_hash: str) -> None:
    """`fields` set on a user whose password is still the one checked."""
    transaction.set_fields(keys.user(user_id), fields, condition="passwordHash = :seen", values={":seen": seen_hash})


def set_first_password(transaction: Transaction, user_id: int, fields: dict[str, Any]) -> None:
    """`fields` (the first password among them) set on a user who has none yet: a second
    acceptance at once runs again and must then type the password the first chose."""
    transaction.set_fields(keys.user(user_id), fields, condition="attribute_not_exists(passwordHash)")


def audit_entries_newest_first(table: Table, company_id: int, page: int, limit: int, cursor: str | None,
                               total: int) -> Page:
    """A page of the company's audit log (services/identity/audit.py), the newest entry first."""
    return list_range(table, partition=keys.audit_partition(company_id), low=None, high=None, filters={},
                      page=page, limit=limit, cursor=cursor, descending=True, total=total, index=BASE_TABLE)
