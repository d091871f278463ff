"""Inviting someone into a company, resending the invitation, and accepting it (which logs in).
The invitation's token travels only in the e-mailed link; the table keeps its SHA-256, and the
membership names the current one, so a resent invitation retires the one before."""
from __future__ import annotations

import datetime as dt
from typing import Any

from chalicelib import clock
from chalicelib.auth.secrets import hash_password, new_session_token, sha256_hex, verify_password
from chalicelib.domain import members
from chalicelib.errors import ApiError
from chalicelib.events import mail
from chalicelib.observability import logger
from chalicelib.services.commands import Command
from chalicelib.services.identity import accounts, audit, login_limit, sessions, users
from chalicelib.settings import get_settings
from chalicelib.store import keys
from chalicelib.store.repositories import invitations as stored_invitations
from chalicelib.store.repositories import users as stored_users
from chalicelib.store.table import Table
from chalicelib.store.transaction import Transaction

# An invitation item outlives its expiry by this much, so that an expired link is told apart from
# a forged one for a while; then DynamoDB's TTL removes it.
RETENTION_AFTER_EXPIRY_S = 30 * 24 * 3600

MESSAGE = ("Hola {name}:\n\n{inviter} le invitó a trabajar en {company} con el rol {role}.\n\n"
           "Para aceptar, abra este enlace y elija su contraseña (si ya tiene una cuenta, escriba la\n"
           "contraseña que ya usa). El enlace vence el {expires} (UTC).\n\n{link}\n\n"
           "Si no esperaba esta invitación, ignore este mensaje.\n")


class InvitationRefused(ApiError):
    """Why a link cannot be accepted: (code, message). An expired link is told apart from an
    unknown one while its item is kept (RETENTION_AFTER_EXPIRY_S)."""
    INVALID = ("INVITATION_INVALID", "This invitation link is not valid; check that it was copied whole.")
    EXPIRED = ("INVITATION_EXPIRED", "This invitation has expired; ask for a new one.")
    USED = ("INVITATION_USED", "This invitation can no longer be used: it was already accepted, replaced by a "
                               "newer invitation or withdrawn.")

    def __init__(self, reason: tuple[str, str]) -> None:
        code, message = reason
        super().__init__(message, code=code)


def invite(command: Command, email: str, name: str, role: str) -> dict[str, Any]:
    """A new e-mail becomes a user without a password (it cannot log in until it accepts); a
    known one joins this company as well once it accepts. Until then the answer, like the list,
    shows only what this company supplied, under a number from the users' sequence: a new user's
    id, or for a known e-mail the invitation's own number (its account's id and name belong to
    other companies too, and telling a known e-mail from a new one would be an oracle)."""
    principal, table, company_id = command.principal, command.table, command.company_id
    members.check_may_assign(principal.role, role)
    email = email.strip().lower()
    user = accounts.find_user_by_email(table, email)
    if user is not None and table.get(keys.membership(company_id, user["id"])) is not None:
        raise accounts.already_member()
    transaction = command.transaction()
    if user is None:
        user = _new_user(table, email, name)
        # a concurrent invitation of the same e-mail takes the pointer first: this one then runs
        # again and finds that user
        transaction.put_new(user).put_new({**keys.user_email(email), "userId": user["id"]})
        number, invitee = user["id"], {}
    else:
        number, invitee = table.next_id(keys.global_sequence("USER")), {"inviteeUserId": user["id"]}
    token, invitation = _new_invitation(company_id, number, role, principal.user_id)
    member, link = accounts.membership_items(
        company_id, number, role, isActive=False, status=members.INVITED, invitedAt=invitation["createdAt"],
        invitedByUserId=principal.user_id, inviteTokenHash=invitation["tokenHash"],
        inviteExpiresAt=invitation["inviteExpiresAt"], invitedEmail=email, invitedName=name, **invitee)
    transaction.put_new(member, on_fail=accounts.already_member())
    if not invitee:  # a known account's link to the company comes with its acceptance
        transaction.put(link)
    # one pending invitation per address in the company
    transaction.put_new({**keys.unique_value(company_id, members.INVITED_EMAIL, email), "userId": number},
                        on_fail=accounts.already_member())
    transaction.put_new(invitation)
    actor = audit.actor_of(table, principal)
    audit.record_audit(transaction, company_id, actor, "user.invited", target_type="user", target_id=number,
                 target_email=email, changes={"role": role})
    answer = users.user_view(member, {}) | {"invitationExpiresAt": invitation["inviteExpiresAt"],
                                       "invitationEmailSent": None}
    # the answer carries no token (it is in the e-mail only): a replay shows the same, and
    # cannot say whether the e-mail went out
    command.commit(transaction, answer)
    return answer | {"invitationEmailSent": _send(table, company_id, actor, user, role, token,
                                                  invitation["inviteExpiresAt"])}


def resend(command: Command, user_id: int) -> dict[str, Any]:
    """A new token and expiry; the membership names the new token, so the old link stops working."""
    principal, table, company_id = command.principal, command.table, command.company_id
    member = users.get_member(table, company_id, user_id)
    members.check_may_change(principal.role, member)
    if members.status(member) != members.INVITED:
        raise ApiError("This user has already accepted the invitation.", code="INVITATION_NOT_PENDING")
    user = table.get(keys.user(members.person_id(member))) or {}  # to e-mail the person, not to show
    token, invitation = _new_invitation(company_id, user_id, member["role"], principal.user_id)
    changes = {"inviteTokenHash": invitation["tokenHash"], "inviteExpiresAt": invitation["inviteExpiresAt"],
               "updatedAt": invitation["createdAt"]}
    transaction = command.transaction()
    # a concurrent resend, acceptance or change runs this again on what the membership became
    stored_invitations.renew_pending(transaction, company_id, user_id, changes, member["version"])
    transaction.put_new(invitation)
    actor = audit.actor_of(table, principal)
    audit.record_audit(transaction, company_id, actor, "invitation.resent", target_type="user", target_id=user_id,
                 target_email=user.get("email"))
    updated = {**member, **changes, "version": member["version"] + 1}
    answer = users.user_view(updated, {}) | {"invitationExpiresAt": invitation["inviteExpiresAt"],
                                          "invitationEmailSent": None}
    command.commit(transaction, answer)
    return answer | {"invitationEmailSent": _send(table, company_id, actor, user, member["role"], token,
                                                  invitation["inviteExpiresAt"])}


def accept(table: Table, token: str, password: str, name: str | None,
           source_address: str | None = None) -> tuple[str, dict[str, Any]]:
    """Activates the membership and logs in, in one transaction. A user who already has a
    password must type it: an invitation never sets the password of an existing account."""
    token_hash = sha256_hex(token)
    invitation = table.get(keys.invitation(token_hash))
    if invitation is None:
        raise InvitationRefused(InvitationRefused.INVALID)
    if invitation.get("usedAt"):
        raise InvitationRefused(InvitationRefused.USED)
    if invitation["inviteExpiresAt"] <= clock.now_iso():
        raise InvitationRefused(InvitationRefused.EXPIRED)
    company_id, number = invitation["companyId"], invitation["userId"]
    member = table.get(keys.membership(company_id, number))
    if (member is None or members.status(member) != members.INVITED
            or member.get("inviteTokenHash") != token_hash):
        raise InvitationRefused(InvitationRefused.USED)
    user_id = members.person_id(member)
    user = table.get(keys.user(user_id))
    if user is None:
        raise InvitationRefused(InvitationRefused.INVALID)

    now = clock.now_iso()
    transaction = Transaction(table)
    stored_invitations.use(transaction, token_hash, now, InvitationRefused(InvitationRefused.USED))
    # a concurrent resend, change or removal runs this again, which then reports it
    if user_id == number:
        accepted = {"isActive": True, "status": members.ACTIVE, "acceptedAt": now, "updatedAt": now,
                    "inviteTokenHash": None, "inviteExpiresAt": None, "invitedName": None, "invitedEmail": None}
        stored_invitations.accept_membership(transaction, company_id, user_id, accepted, member["version"], token_hash)
        became = {**member, **accepted}
    else:  # a known account: its own membership takes the invitation's number's place
        stored_invitations.retire_invited_membership(transaction, company_id, number, member["version"], token_hash)
        became, link = accounts.membership_items(company_id, user_id, member["role"], acceptedAt=now,
                                                 invitedAt=member.get("invitedAt"),
                                                 invitedByUserId=member.get("invitedByUserId"))
        transaction.put_new(became, on_fail=accounts.already_member())
        transaction.put(link)
    if member.get("invitedEmail"):
        transaction.delete(keys.unique_value(company_id, members.INVITED_EMAIL, member["invitedEmail"]))
    accounts.count_owners(transaction, company_id, members.owner_delta(member, became))
    user = _sign_in_user(table, transaction, user, password, name, company_id, now, source_address)
    session_token, session = sessions.new_session(user, company_id)
    transaction.put_new(session)
    audit.record_audit(transaction, company_id, {"userId": user_id, "email": user.get("email")}, "invitation.accepted",
                 target_type="user", target_id=user_id, target_email=user.get("email"),
                 changes={"role": member["role"]})
    transaction.commit()
    companies = accounts.user_companies(table, user_id)
    return session_token, sessions.session_view(user, company_id, member["role"], companies, session["expiresAt"])


def _sign_in_user(table: Table, transaction: Transaction, user: dict[str, Any], password: str, name: str | None,
                  company_id: int, now: str, source_address: str | None) -> dict[str, Any]:
    """Adds the user's update to the acceptance: the first password (and name) of a new user, or
    the check of an existing user's own (limited like a login: a link must not become a way to
    guess the password). Returns the user as it will be."""
    fields: dict[str, Any] = {"lastLoginAt": now, "lastCompanyId": company_id, "updatedAt": now}
    current = user.get("passwordHash")
    if current:
        attempt = login_limit.attempt(table, user["email"], source_address)
        if not verify_password(password, current):
            raise ApiError("You already have an account: type its current password to accept the invitation.",
                           code="INVITATION_PASSWORD_WRONG",
                           details=[{"field": "password", "message": "not the account's current password"}])
        attempt.succeeded()
        stored_users.sign_in_with_password(transaction, user["id"], fields, current)
    else:
        accounts.check_password_rules(password)
        fields["passwordHash"] = hash_password(password)
        if name:
            fields["name"] = name
        # two invitations of a new user accepted at once: the second runs again and must then
        # type the password the first one chose
        stored_users.set_first_password(transaction, user["id"], fields)
    return {**user, **fields}


def _new_user(table: Table, email: str, name: str) -> dict[str, Any]:
    user_id = table.next_id(keys.global_sequence("USER"))
    now = clock.now_iso()
    return {**keys.user(user_id), "itemType": "USER", "id": user_id, "email": email, "name": name,
            "isActive": True, "createdAt": now, "updatedAt": now}


def _new_invitation(company_id: int, user_id: int, role: str, invited_by: int) -> tuple[str, dict[str, Any]]:
    token = new_session_token()
    created = clock.now()
    expires = created + dt.timedelta(hours=get_settings().invitation_ttl_hours)
    item = {**keys.invitation(sha256_hex(token)), "itemType": "INVITATION", "tokenHash": sha256_hex(token),
            "companyId": company_id, "userId": user_id, "role": role, "invitedByUserId": invited_by,
            "createdAt": clock.iso(created), "inviteExpiresAt": clock.iso(expires),
            "expiresAt": int(expires.timestamp()) + RETENTION_AFTER_EXPIRY_S}
    return token, item


def _send(table: Table, company_id: int, inviter: dict[str, Any], user: dict[str, Any], role: str, token: str,
          expires_at: str) -> bool:
    """E-mails the link after the commit. A refusal of SES leaves the invitation in place (it can
    be resent): the answer says the e-mail did not go."""
    settings = get_settings()
    link = f"{settings.app_base_url}/app/#/accept-invitation?token={token}"
    email = user["email"]
    if settings.log_invitation_links:
        logger.info("invitation link", extra={"email": email, "link": link})
        print(f"Invitation for {email}: {link}", flush=True)
        if settings.invitation_links_file:
            with open(settings.invitation_links_file, "a", encoding="utf-8") as links:
                links.write(f"{email} {link}\n")
    company = table.get(keys.company(company_id)) or {}
    mailer = mail.get_mailer()
    text = MESSAGE.format(name=user.get("name") or email, inviter=inviter.get("email") or "Un administrador",
                          company=company.get("name", ""), role=role, expires=expires_at[:16].replace("T", " "),
                          link=link)
    message = mail.build_message(sender=mailer.sender, sender_name=company.get("name"), to=email,
                                 subject=f"Invitación a {company.get('name', '')}", text=text)
    try:
        mailer.send(message, email)
    except ApiError:
        logger.warning("invitation e-mail not sent", extra={"companyId": company_id, "userId": user["id"]})
        return False
    return True
