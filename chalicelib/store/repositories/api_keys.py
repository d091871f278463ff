"""A company's API keys (the secret kept as its hash)."""
from __future__ import annotations

from typing import Any

from chalicelib.domain.roles import OWNER
from chalicelib.errors import ApiError
from chalicelib.store import keys
from chalicelib.store.listing import GSI1
from chalicelib.store.table import Table
from chalicelib.store.transaction import Transaction


def newest_first(table: Table, company_id: int) -> list[dict[str, Any]]:
    """Every key of the company, the newest first."""
    found: list[dict[str, Any]] = []
    start = None
    while True:
        batch, start = table.query(partition=("GSI1PK", keys.collection_partition(company_id, keys.API_KEY)),
                                   index=GSI1, start_key=start, forward=False)
        found.extend(batch)
        if start is None:
            return found


def revoke(transaction: Transaction, key_id: str, company_id: int, at: str, on_other_company: ApiError) -> None:
    transaction.update(keys.api_key(key_id), "SET revokedAt = :now", condition="companyId = :company",
                       values={":now": at, ":company": company_id}, on_fail=on_other_company)


def revoke_because(transaction: Transaction, key_id: str, at: str, why: str) -> None:
    """Revoked with its reason, unless revoked already."""
    transaction.update(keys.api_key(key_id), "SET revokedAt = :now, revokedBecause = :why",
                       condition="attribute_not_exists(revokedAt)", values={":now": at, ":why": why})


def require_not_an_owner(transaction: Transaction, company_id: int, user_id: int, on_owner: ApiError) -> None:
    """The key's user is not (or no longer a member, nor) an owner of the company when this commits."""
    transaction.check(keys.membership(company_id, user_id), "attribute_not_exists(PK) OR #role <> :owner",
                      names={"#role": "role"}, values={":owner": OWNER}, on_fail=on_owner)
