"""Invitations into a company: the invitation item (by its token's hash) and the invited membership."""
from __future__ import annotations

from typing import Any

from chalicelib.domain.members import INVITED
from chalicelib.errors import ApiError
from chalicelib.store import keys
from chalicelib.store.transaction import Transaction

_PENDING = "#status = :invited"


def renew_pending(transaction: Transaction, company_id: int, user_id: int, changes: dict[str, Any],
                  seen_version: int) -> None:
    """A resend's new token on a membership still invited and as read."""
    transaction.update_fields(keys.membership(company_id, user_id), changes, seen_version, also_require=_PENDING,
                              names={"#status": "status"}, values={":invited": INVITED})


def use(transaction: Transaction, token_hash: str, at: str, on_used: ApiError) -> None:
    """The invitation used once: refused if gone or used already."""
    transaction.update(keys.invitation(token_hash), "SET usedAt = :now",
                       condition="attribute_exists(PK) AND attribute_not_exists(usedAt)",
                       values={":now": at}, on_fail=on_used)


_STILL_THIS_ONE = _PENDING + " AND inviteTokenHash = :hash"


def accept_membership(transaction: Transaction, company_id: int, user_id: int, accepted: dict[str, Any],
                      seen_version: int, token_hash: str) -> None:
    """The invited membership, still pending on this token and as read, becomes `accepted`."""
    transaction.update_fields(keys.membership(company_id, user_id), accepted, seen_version,
                              also_require=_STILL_THIS_ONE, names={"#status": "status"},
                              values={":invited": INVITED, ":hash": token_hash})


def retire_invited_membership(transaction: Transaction, company_id: int, number: int, seen_version: int,
                              token_hash: str) -> None:
    """The invitation's own membership goes (a known account's takes its place), if still pending
    on this token and as read."""
    transaction.delete(keys.membership(company_id, number), condition="#version = :version AND " + _STILL_THIS_ONE,
                       names={"#status": "status", "#version": "version"},
                       values={":invited": INVITED, ":hash": token_hash, ":version": seen_version})
