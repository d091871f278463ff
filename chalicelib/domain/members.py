"""Who may change a company's memberships, and what a change does to its count of active owners."""
from __future__ import annotations

from typing import Any

from chalicelib.domain.roles import ADMIN, OWNER
from chalicelib.errors import ApiError, Forbidden

INVITED, ACTIVE, INACTIVE = "invited", "active", "inactive"
# Why a key was revoked when its user left the company: it then answers API_KEY_NO_USER, like the
# key of a deactivated user, rather than a plain invalid key.
KEY_REVOKED_USER_REMOVED = "USER_REMOVED"
# The unique value (per company) an invitation's e-mail holds while it is pending: one pending
# invitation per address, whether the address is a known account's or not.
INVITED_EMAIL = "INVITED_EMAIL"


def person_id(member: dict[str, Any]) -> int:
    """The account a membership is (or, while invited, will be) of. An invitation of a known
    e-mail has a number of its own (`userId`) and keeps the account's id aside, never shown."""
    return int(member.get("inviteeUserId") or member["userId"])


def status(member: dict[str, Any]) -> str:
    """An invitation not yet accepted is `invited` whatever else it says."""
    if member.get("status") == INVITED:
        return INVITED
    return ACTIVE if member.get("isActive") else INACTIVE


def session_belongs(session: dict[str, Any], member: dict[str, Any]) -> bool:
    """A session works in a company only if it came there during the membership it finds (logged
    in, accepted or switched there since the membership began): a membership removed and made
    again later revives no session of the earlier one. Times are ISO strings; a session from
    before `companySince` was kept came to its company when it began."""
    since = session.get("companySince") or session.get("createdAt") or ""
    began = member.get("acceptedAt") or member.get("createdAt") or ""
    return since >= began


def check_may_assign(actor_role: str, role: str) -> None:
    """Owners make owners: an administrator would otherwise raise themself above their grant."""
    if actor_role == ADMIN and role == OWNER:
        raise Forbidden("Only an owner can make someone an owner.", code="PERMISSION_DENIED")


def check_may_change(actor_role: str, member: dict[str, Any]) -> None:
    if actor_role == ADMIN and member.get("role") == OWNER:
        raise Forbidden("Only an owner can change, deactivate or remove an owner.", code="PERMISSION_DENIED")


def may_revoke_key_of(actor_role: str, key_user: dict[str, Any] | None) -> bool:
    """An owner's key acts as the owner: an administrator may not revoke it, as they may not
    change or remove the owner (a key whose user left the company is anyone's to revoke)."""
    return not (actor_role == ADMIN and key_user is not None and key_user.get("role") == OWNER)


KEY_OF_AN_OWNER = "Only an owner can revoke an owner's API key."


def is_active_owner(member: dict[str, Any]) -> bool:
    return member.get("role") == OWNER and bool(member.get("isActive")) and status(member) != INVITED


def owner_delta(before: dict[str, Any] | None, after: dict[str, Any] | None) -> int:
    """+1, -1 or 0: how the change moves the company's `activeOwnerCount`."""
    return int(after is not None and is_active_owner(after)) - int(before is not None and is_active_owner(before))


class LastOwner(ApiError):
    code = "LAST_OWNER"
    message = ("A company keeps at least one active owner: make someone else an owner before "
               "demoting, deactivating or removing this one.")
