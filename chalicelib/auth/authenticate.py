"""The one function that decides who a request is (DESIGN 4). It runs in the API Gateway
REQUEST authorizer when deployed, and in the request pipeline locally and in tests."""
from __future__ import annotations

from http.cookies import CookieError, SimpleCookie
from typing import Any, Mapping

from botocore.exceptions import BotoCoreError, ClientError

from chalicelib import clock
from chalicelib.auth.principal import API_KEY, SESSION, Principal
from chalicelib.auth.secrets import KEY_ID_PATTERN, matches_hash, sha256_hex
from chalicelib.domain import members
from chalicelib.domain.roles import API_KEY_ROLES
from chalicelib.errors import ApiError, Unauthorized
from chalicelib.store import keys
from chalicelib.store.table import Table

SESSION_COOKIE = "accessToken"


class InvalidApiKey(Unauthorized):
    code = "INVALID_API_KEY"
    message = "The API key is invalid or has been revoked."


class ApiKeyExpired(Unauthorized):
    code = "API_KEY_EXPIRED"
    message = "The API key has expired."


class ApiKeyNoUser(Unauthorized):
    code = "API_KEY_NO_USER"
    message = "The API key is not bound to an active owner or administrator of its company."


class InvalidSession(Unauthorized):
    code = "INVALID_SESSION"
    message = "The session is invalid or has expired; log in again."


class CredentialCheckFailed(ApiError):
    """The credential could not be checked (the store failed): never let the request through."""
    code = "CSRF_API_KEY_ERROR"
    message = "The credentials could not be validated right now; retry."


def session_token(headers: Mapping[str, str]) -> str | None:
    raw = headers.get("cookie")
    if not raw:
        return None
    cookie: SimpleCookie = SimpleCookie()
    try:
        cookie.load(raw)
    except CookieError:
        return None
    morsel = cookie.get(SESSION_COOKIE)
    return morsel.value if morsel and morsel.value else None


def api_key_credential(headers: Mapping[str, str]) -> str | None:
    """`Authorization: Bearer KEY_ID:SECRET` or `X-API-Key: KEY_ID:SECRET`."""
    authorization = headers.get("authorization")
    if authorization:
        scheme, _, value = authorization.strip().partition(" ")
        if scheme.lower() != "bearer":
            raise InvalidApiKey("The Authorization header must be `Bearer KEY_ID:SECRET`.")
        return value.strip()
    api_key = headers.get("x-api-key")
    return api_key.strip() if api_key else None


def authenticate(headers: Mapping[str, str], table: Table) -> Principal:
    """`headers` have lower-case names. A valid session cookie wins and the API key header is
    then ignored (spec rule 1); a stale cookie does not block a valid API key."""
    try:
        token = session_token(headers)
        if token:
            principal = _session_principal(token, table)
            if principal:
                return principal
        credential = api_key_credential(headers)
        if credential:
            return _api_key_principal(credential, table)
        if token:
            raise InvalidSession()
        raise Unauthorized()
    except (ClientError, BotoCoreError) as error:
        raise CredentialCheckFailed() from error


def _session_principal(token: str, table: Table) -> Principal | None:
    token_hash = sha256_hex(token)
    session = table.get(keys.session(token_hash))
    if not session or int(session.get("expiresAt", 0)) <= clock.epoch_seconds():
        return None
    user_id, company_id = int(session["userId"]), int(session["companyId"])
    found = _active_member(table, user_id, company_id)
    if found is None:
        return None
    user, member = found
    # a password change raises the user's generation: the sessions begun before it end
    if int(session.get("sessionGeneration", 0)) < int(user.get("sessionGeneration", 0)):
        return None
    # a removal from the company ends only the sessions there: none survives into a later membership
    if not members.session_belongs(session, member):
        return None
    role = str(member["role"])
    return Principal(kind=SESSION, company_id=company_id, user_id=user_id, role=role,
                     session_hash=token_hash)


def _api_key_principal(credential: str, table: Table) -> Principal:
    key_id, _, secret = credential.partition(":")
    if not KEY_ID_PATTERN.match(key_id) or not secret:
        raise InvalidApiKey("An API key has the form KEY_ID:SECRET.")
    record = table.get(keys.api_key(key_id))
    if not record or not matches_hash(secret, record["secretHash"]):
        raise InvalidApiKey()
    if record.get("revokedAt"):
        raise ApiKeyNoUser() if record.get("revokedBecause") == members.KEY_REVOKED_USER_REMOVED else InvalidApiKey()
    expires_at = record.get("keyExpiresAt")
    if expires_at and expires_at <= clock.now_iso():
        raise ApiKeyExpired()
    company_id, user_id = int(record["companyId"]), int(record["userId"])
    found = _active_member(table, user_id, company_id)
    role = str(found[1]["role"]) if found else None
    if role not in API_KEY_ROLES:
        raise ApiKeyNoUser()
    return Principal(kind=API_KEY, company_id=company_id, user_id=user_id, role=role, key_id=key_id)


def _active_member(table: Table, user_id: int, company_id: int) -> tuple[dict[str, Any], dict[str, Any]] | None:
    """The user and their membership of the company, if both are active (an invitation not yet
    accepted is an inactive membership)."""
    found: dict[Any, dict[str, Any]] = table.batch_get(
        [keys.user(user_id), keys.membership(company_id, user_id)])
    user_key, member_key = keys.user(user_id), keys.membership(company_id, user_id)
    user = found.get(keys.pair(user_key))
    member = found.get(keys.pair(member_key))
    if not user or not user.get("isActive") or not member or not member.get("isActive"):
        return None
    return user, member
