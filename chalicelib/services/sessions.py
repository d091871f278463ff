"""Web sessions: login, logout, who am I, switch company. The token lives only in the client's
cookie; the table keeps its SHA-256 with a TTL."""
from __future__ import annotations

import datetime as dt
from typing import Any

from chalicelib import clock
from chalicelib.auth.principal import Principal
from chalicelib.auth.secrets import new_session_token, sha256_hex, verify_password
from chalicelib.errors import Forbidden, NotFound, Unauthorized
from chalicelib.services import accounts
from chalicelib.settings import get_settings
from chalicelib.store import keys
from chalicelib.store.table import Table
from chalicelib.store.transaction import Transaction

INVALID_CREDENTIALS = Unauthorized("E-mail or password is wrong.", code="INVALID_CREDENTIALS")


def login(table: Table, email: str, password: str) -> tuple[str, dict[str, Any]]:
    user = accounts.find_user_by_email(table, email)
    password_ok = verify_password(password, user.get("passwordHash") if user else None)
    if not user or not password_ok or not user.get("isActive"):
        raise INVALID_CREDENTIALS
    companies = accounts.user_companies(table, int(user["id"]))
    if not companies:
        raise Forbidden("This user belongs to no active company.", code="NO_COMPANY_ACCESS")
    preferred = user.get("lastCompanyId")
    company = next((c for c in companies if c["companyId"] == preferred), companies[0])
    token = new_session_token()
    expires_at = clock.epoch_seconds() + get_settings().session_ttl_hours * 3600
    Transaction(table).put_new({**keys.session(sha256_hex(token)), "itemType": "SESSION",
                                "userId": int(user["id"]), "companyId": company["companyId"],
                                "createdAt": clock.now_iso(), "expiresAt": expires_at}).commit()
    return token, _view(user, company["companyId"], company["role"], companies, expires_at)


def logout(table: Table, principal: Principal) -> None:
    if principal.session_hash:
        Transaction(table).delete(keys.session(principal.session_hash)).commit()


def describe(table: Table, principal: Principal) -> dict[str, Any]:
    user = table.get(keys.user(principal.user_id)) or {}
    session = table.get(keys.session(principal.session_hash)) if principal.session_hash else None
    companies = accounts.user_companies(table, principal.user_id)
    return _view(user, principal.company_id, principal.role, companies,
                 int(session["expiresAt"]) if session else None)


def switch_company(table: Table, principal: Principal, company_id: int) -> dict[str, Any]:
    companies = accounts.user_companies(table, principal.user_id)
    target = next((c for c in companies if c["companyId"] == company_id), None)
    if target is None or not principal.session_hash:
        raise NotFound("Company not found.")
    transaction = Transaction(table)
    transaction.update(keys.session(principal.session_hash), "SET companyId = :company",
                       condition="attribute_exists(PK)", values={":company": company_id},
                       on_fail=Unauthorized("The session has ended; log in again.", code="INVALID_SESSION"))
    transaction.update(keys.user(principal.user_id), "SET lastCompanyId = :company",
                       values={":company": company_id})
    transaction.commit()
    user = table.get(keys.user(principal.user_id)) or {}
    session = table.get(keys.session(principal.session_hash))
    return _view(user, company_id, target["role"], companies, int(session["expiresAt"]) if session else None)


def _view(user: dict[str, Any], company_id: int, role: str, companies: list[dict[str, Any]],
          expires_at: int | None) -> dict[str, Any]:
    expiry = clock.iso(dt.datetime.fromtimestamp(expires_at, dt.timezone.utc)) if expires_at else None
    return {"user": {"id": int(user.get("id", 0)), "email": user.get("email", ""),
                     "name": user.get("name", "")},
            "companyId": company_id, "role": role, "companies": companies, "expiresAt": expiry}
