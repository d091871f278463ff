"""A company's users: the list, role and access changes, removal. Invitations are in
invitations.py. Every change keeps the company's `activeOwnerCount` in its own transaction, whose
condition refuses to lose the last active owner."""
from __future__ import annotations

from typing import Any

from chalicelib import clock
from chalicelib.domain import members
from chalicelib.errors import ApiError, NotFound
from chalicelib.services.commands import Command
from chalicelib.services.identity import accounts, api_keys, audit
from chalicelib.services.records import update_item
from chalicelib.store import keys
from chalicelib.store.repositories import api_keys as stored_keys
from chalicelib.store.repositories import users as stored_users
from chalicelib.store.table import Table
from chalicelib.store.transaction import Transaction

_NOT_FOUND = NotFound("User not found.")


def user_view(member: dict[str, Any], user: dict[str, Any]) -> dict[str, Any]:
    """Until they accept, an invited person is what the inviting company supplied (the e-mail and
    the name it gave, under the invitation's own number): their account, its name and its activity
    elsewhere are none of this company's business. (Invitations from before `invitedName` was kept
    show the account's.)"""
    invited = members.status(member) == members.INVITED
    email = member.get("invitedEmail") if invited and member.get("invitedEmail") else user.get("email", "")
    name = member.get("invitedName") if invited and member.get("invitedName") is not None else user.get("name", "")
    return {"id": member["userId"], "email": email, "name": name,
            "role": member["role"], "isActive": bool(member.get("isActive")), "status": members.status(member),
            "lastLoginAt": None if invited else user.get("lastLoginAt"),
            "invitedAt": member.get("invitedAt"),
            "invitedByUserId": member.get("invitedByUserId"), "version": member["version"]}


def list_users(table: Table, company_id: int) -> list[dict[str, Any]]:
    """The memberships with one Query of the company's member index, their users in BatchGets."""
    found = stored_users.members_of(table, company_id)
    users = table.batch_get(keys.user(member["userId"]) for member in found)
    return [user_view(member, users.get(keys.pair(keys.user(member["userId"]))) or {}) for member in found]


def get_member(table: Table, company_id: int, user_id: int) -> dict[str, Any]:
    """Another company's user is as unknown as no user at all."""
    member = table.get(keys.membership(company_id, user_id))
    if member is None:
        raise _NOT_FOUND
    return member


def update_member(command: Command, user_id: int, changes: dict[str, Any],
                  expected_version: int | None) -> dict[str, Any]:
    company_id, actor_role = command.company_id, command.principal.role
    member = get_member(command.table, company_id, user_id)
    members.check_may_change(actor_role, member)
    if "role" in changes:
        members.check_may_assign(actor_role, changes["role"])
    if "isActive" in changes:
        if members.status(member) == members.INVITED:
            raise ApiError("The user has not accepted the invitation yet: resend it or remove the user.",
                           code="INVITATION_PENDING",
                           details=[{"field": "isActive", "message": "the invitation is not accepted yet"}])
        changes["status"] = members.ACTIVE if changes["isActive"] else members.INACTIVE
    user = command.table.get(keys.user(user_id)) or {}  # none for an invitation's own number
    actor = audit.actor_of(command.table, command.principal)

    def add_effects(transaction: Transaction, updated: dict[str, Any]) -> None:
        accounts.count_owners(transaction, company_id, members.owner_delta(member, updated))
        changed = {name: {"from": member.get(name), "to": updated.get(name)} for name in ("role", "isActive")
                   if member.get(name) != updated.get(name)}
        audit.record_audit(transaction, company_id, actor, "user.updated", target_type="user", target_id=user_id,
                     target_email=user.get("email") or member.get("invitedEmail"), changes=changed)

    updated = update_item(command, keys.membership(company_id, user_id), member, changes, expected_version,
                          add_effects)
    return user_view(updated, user)


def remove_member(command: Command, user_id: int) -> dict[str, Any]:
    """The membership and the user's link to the company go; the user (and their other
    companies) stay. A pending invitation of the membership stops working with it. The user's
    API keys of the company are revoked; their sessions in the company end with the membership
    (authentication needs it), and no session of theirs elsewhere is touched: a company must not
    be able to log out a user of another company, of whom it may know no more than the e-mail.
    Invited again later, they find no old session revived (members.session_belongs)."""
    company_id = command.company_id
    member = get_member(command.table, company_id, user_id)
    members.check_may_change(command.principal.role, member)
    user = command.table.get(keys.user(user_id)) or {}
    transaction = command.transaction()
    revoked = [key["id"] for key in api_keys.list_keys(command.table, company_id)
               if key["createdByUserId"] == user_id and key["status"] == "active"]
    now = clock.now_iso()
    for key_id in revoked:
        stored_keys.revoke_because(transaction, key_id, now, members.KEY_REVOKED_USER_REMOVED)
    # a concurrent change of the membership runs the removal again on what it became
    stored_users.remove_membership(transaction, company_id, user_id, member["version"])
    transaction.delete(keys.user_company_link(user_id, company_id))
    if members.status(member) == members.INVITED and member.get("invitedEmail"):  # the address may be invited again
        transaction.delete(keys.unique_value(company_id, members.INVITED_EMAIL, member["invitedEmail"]))
    accounts.count_owners(transaction, company_id, members.owner_delta(member, None))
    audit.record_audit(transaction, company_id, audit.actor_of(command.table, command.principal), "user.removed",
                 target_type="user", target_id=user_id, target_email=user.get("email") or member.get("invitedEmail"),
                 changes={"role": member["role"], "status": members.status(member), "revokedApiKeys": revoked})
    return command.commit(transaction, {"id": user_id, "deleted": True})
