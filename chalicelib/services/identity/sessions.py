"""Web sessions: login, logout, who am I, switch company, one's own password. The token lives
only in the client's cookie; the table keeps its SHA-256 with a TTL."""
from __future__ import annotations

import datetime as dt
from typing import Any

from chalicelib import clock
from chalicelib.auth.principal import Principal
from chalicelib.auth.secrets import hash_password, new_session_token, sha256_hex, verify_password
from chalicelib.errors import ApiError, NotFound, Unauthorized
from chalicelib.services.commands import Command
from chalicelib.services.identity import accounts, audit, login_limit
from chalicelib.settings import get_settings
from chalicelib.store import keys
from chalicelib.store.repositories import sessions as stored_sessions
from chalicelib.store.repositories import users as stored_users
from chalicelib.store.table import Table
from chalicelib.store.transaction import Transaction

# how many of the user's companies a session's view carries (an accounting firm may keep hundreds)
SESSION_COMPANIES = 50
INVALID_CREDENTIALS = Unauthorized("E-mail or password is wrong.", code="INVALID_CREDENTIALS")
SESSION_ENDED = Unauthorized("The session has ended; log in again.", code="INVALID_SESSION")


def login(table: Table, email: str, password: str, source_address: str | None = None) -> tuple[str, dict[str, Any]]:
    attempt = login_limit.attempt(table, email, source_address)  # counted before the password is checked
    user = accounts.find_user_by_email(table, email)
    password_ok = verify_password(password, user.get("passwordHash") if user else None)
    if not user or not password_ok or not user.get("isActive"):
        raise INVALID_CREDENTIALS
    companies = accounts.user_companies(table, user["id"])
    if not companies:
        # answered and counted like a wrong password: any other answer would confirm the password
        raise INVALID_CREDENTIALS
    attempt.succeeded()
    preferred = user.get("lastCompanyId")
    company = next((c for c in companies if c["companyId"] == preferred), companies[0])
    token, session = new_session(user, company["companyId"])
    transaction = Transaction(table).put_new(session)
    stored_users.record_login(transaction, user["id"], session["createdAt"])
    transaction.commit()
    return token, session_view(user, company["companyId"], company["role"], companies, session["expiresAt"])


def new_session(user: dict[str, Any], company_id: int) -> tuple[str, dict[str, Any]]:
    """A session item for the caller's transaction, and the token that only the cookie keeps.
    Its generation is the user's: a later password change ends it."""
    token = new_session_token()
    now = clock.now_iso()
    session = {**keys.session(sha256_hex(token)), "itemType": "SESSION", "userId": user["id"],
               "companyId": company_id, "sessionGeneration": int(user.get("sessionGeneration", 0)),
               "createdAt": now, "companySince": now,
               "expiresAt": clock.epoch_seconds() + get_settings().session_ttl_hours * 3600}
    return token, session


def logout(table: Table, principal: Principal) -> None:
    if principal.session_hash:
        Transaction(table).delete(keys.session(principal.session_hash)).commit()


def describe(table: Table, principal: Principal) -> dict[str, Any]:
    user = table.get(keys.user(principal.user_id)) or {}
    session = table.get(keys.session(principal.session_hash)) if principal.session_hash else None
    companies = accounts.user_companies(table, principal.user_id)
    return session_view(user, principal.company_id, principal.role, companies,
                        int(session["expiresAt"]) if session else None)


def switch_company(table: Table, principal: Principal, company_id: int) -> dict[str, Any]:
    target = accounts.user_company(table, principal.user_id, company_id)
    if target is None or not principal.session_hash:
        raise NotFound("Company not found.")
    transaction = Transaction(table)
    # since when the session is in the company: a removal from it later ends the session there
    stored_sessions.move_to_company(transaction, principal.session_hash, company_id, clock.now_iso(), SESSION_ENDED)
    stored_users.remember_last_company(transaction, principal.user_id, company_id)
    transaction.commit()
    user = table.get(keys.user(principal.user_id)) or {}
    session = table.get(keys.session(principal.session_hash))
    return session_view(user, company_id, target["role"], accounts.user_companies(table, principal.user_id),
                        int(session["expiresAt"]) if session else None)


def change_password(command: Command, current_password: str, new_password: str,
                    source_address: str | None = None) -> dict[str, Any]:
    """Ends the user's other sessions and keeps this one: the user's generation goes up and this
    session is moved to it in the same transaction. A wrong current password counts as a failed
    login (a stolen session must not become a way to guess the password)."""
    principal = command.principal
    user = command.table.get(keys.user(principal.user_id)) or {}
    email = user.get("email", "")
    attempt = login_limit.attempt(command.table, email, source_address)
    if not verify_password(current_password, user.get("passwordHash")):
        raise ApiError("The current password is wrong.", code="CURRENT_PASSWORD_WRONG",
                       details=[{"field": "currentPassword", "message": "wrong password"}])
    attempt.succeeded()
    accounts.check_password_rules(new_password, "newPassword")
    generation = int(user.get("sessionGeneration", 0)) + 1
    transaction = command.transaction()
    # a concurrent change of the password makes this one run again, and find its current
    # password wrong
    stored_users.change_password(transaction, principal.user_id, user["passwordHash"], hash_password(new_password),
                                 generation, clock.now_iso())
    stored_sessions.keep_in_generation(transaction, principal.session_hash or "", generation, SESSION_ENDED)
    audit.record_audit(transaction, principal.company_id, {"userId": principal.user_id, "email": user.get("email")},
                 "password.changed", target_type="user", target_id=principal.user_id, target_email=user.get("email"))
    return command.commit(transaction, {"passwordChanged": True})


def session_view(user: dict[str, Any], company_id: int, role: str, companies: list[dict[str, Any]],
                 expires_at: int | None) -> dict[str, Any]:
    """`companies`: all the user's, by name; the view carries the first SESSION_COMPANIES, the
    session's own always among them, and how many there are (GET /auth/companies has them all)."""
    expiry = clock.iso(dt.datetime.fromtimestamp(expires_at, dt.timezone.utc)) if expires_at else None
    shown = companies[:SESSION_COMPANIES]
    if shown and all(company["companyId"] != company_id for company in shown):
        current = [company for company in companies if company["companyId"] == company_id]
        shown = sorted(shown[:SESSION_COMPANIES - len(current)] + current,
                       key=lambda company: (company["name"].casefold(), company["companyId"]))
    return {"user": {"id": int(user.get("id", 0)), "email": user.get("email", ""),
                     "name": user.get("name", "")},
            "companyId": company_id, "role": role, "companies": shown, "companiesTotal": len(companies),
            "expiresAt": expiry}


def list_companies(table: Table, principal: Principal, query: str | None, page: int, limit: int) -> dict[str, Any]:
    """The user's companies by name, those whose name holds `query` (any case), a page of them."""
    companies = accounts.user_companies(table, principal.user_id)
    if query:
        companies = [company for company in companies if query.casefold() in company["name"].casefold()]
    start = (page - 1) * limit
    return {"companies": companies[start:start + limit], "total": len(companies), "page": page, "limit": limit}
