"""One's own password (the other sessions end, this one goes on), the failed-login limits per
e-mail and per source address, and the audit log of every change to users and keys."""
from __future__ import annotations

import json

from tests.support import ORIGIN, PASSWORD, walk_cursor
from tests.users_support import USERS, accept, invite, mailed_token, member, remove, update

NEW_PASSWORD = "otra clave larga 2"


def _login(api, email_address, password):
    return api.post("/auth/login", {"email": email_address, "password": password}, origin=ORIGIN)


def _change(api, cookie, current, new):
    return api.post("/auth/password", {"currentPassword": current, "newPassword": new}, cookie=cookie, origin=ORIGIN)


# --- password ----------------------------------------------------------------------------------------

def test_a_password_change_ends_the_other_sessions_only(api, company_a):
    this, other = api.login(company_a.email), api.login(company_a.email)
    changed = _change(api, this, PASSWORD, NEW_PASSWORD)
    assert (changed.status, changed.json) == (200, {"passwordChanged": True})
    ended = api.get("/auth/me", cookie=other)
    assert (ended.status, ended.json["code"]) == (401, "INVALID_SESSION")
    assert api.get("/auth/me", cookie=this).status == 200
    assert api.post("/business-partners", {"name": "P", "type": "customer"}, cookie=this, origin=ORIGIN).status == 201
    assert _login(api, company_a.email, PASSWORD).status == 401
    fresh = api.login(company_a.email, NEW_PASSWORD)
    assert api.get("/auth/me", cookie=fresh).status == 200
    # API keys are not sessions: they go on
    assert api.get("/companies", key=company_a.api_key).status == 200


def test_a_wrong_current_password_or_a_short_new_one_changes_nothing(api, company_a):
    cookie, other = api.login(company_a.email), api.login(company_a.email)
    wrong = _change(api, cookie, "not my password", NEW_PASSWORD)
    assert (wrong.status, wrong.json["code"]) == (400, "CURRENT_PASSWORD_WRONG")
    assert wrong.json["details"] == [{"field": "currentPassword", "message": "wrong password"}]
    short = _change(api, cookie, PASSWORD, "short")
    assert short.status == 400 and short.json["details"][0]["field"] == "newPassword"
    assert api.get("/auth/me", cookie=other).status == 200
    assert _login(api, company_a.email, PASSWORD).status == 200


def test_guessing_through_the_password_change_counts_as_failed_logins(api, company_a, settings_env):
    settings_env(LOGIN_MAX_FAILURES_PER_EMAIL="3")
    cookie = api.login(company_a.email)
    for _ in range(3):
        assert _change(api, cookie, "a guess", NEW_PASSWORD).json["code"] == "CURRENT_PASSWORD_WRONG"
    limited = _change(api, cookie, PASSWORD, NEW_PASSWORD)  # the right one too, once limited
    assert (limited.status, limited.json["code"]) == (429, "RATE_LIMIT_EXCEEDED")
    assert _login(api, company_a.email, PASSWORD).status == 429
    assert api.get("/auth/me", cookie=cookie).status == 200  # the session itself goes on


def test_guessing_through_an_invitation_counts_as_failed_logins(api, company_a, company_b, ses, settings_env):
    """An existing user accepts with their own password: a leaked link must not allow guessing it."""
    settings_env(LOGIN_MAX_FAILURES_PER_EMAIL="3")
    invited = invite(api, api.login(company_a.email), company_b.email, role="viewer")
    assert invited["lastLoginAt"] is None  # nothing of the person's activity elsewhere while invited
    token = mailed_token(ses, company_b.email)
    for _ in range(3):
        assert accept(api, token, "a guess").json["code"] == "INVITATION_PASSWORD_WRONG"
    limited = accept(api, token, PASSWORD)
    assert (limited.status, limited.json["code"]) == (429, "RATE_LIMIT_EXCEEDED")
    assert _login(api, company_b.email, PASSWORD).status == 429


# --- failed-login limits ----------------------------------------------------------------------------

def test_five_failures_lock_the_email_even_for_the_right_password(api, company_a, company_b, settings_env):
    settings_env(LOGIN_MAX_FAILURES_PER_ADDRESS="8")
    for _ in range(3):  # successes count nothing
        assert _login(api, company_a.email, PASSWORD).status == 200
    for _ in range(5):
        assert _login(api, company_a.email, "wrong password").json["code"] == "INVALID_CREDENTIALS"
    limited = _login(api, company_a.email, PASSWORD)
    assert (limited.status, limited.json["code"]) == (429, "RATE_LIMIT_EXCEEDED")
    assert 1 <= int(limited.header("Retry-After")) <= 900
    assert limited.json["details"][0]["field"] == "email"
    # another e-mail from the same address goes on, until the address's own limit (8 failures)
    assert _login(api, company_b.email, PASSWORD).status == 200
    for _ in range(3):
        assert _login(api, company_b.email, "wrong password").status == 401
    by_address = _login(api, company_b.email, PASSWORD)
    assert (by_address.status, by_address.json["code"]) == (429, "RATE_LIMIT_EXCEEDED")
    assert by_address.json["details"][0]["field"] == "sourceAddress"


def test_a_new_window_lifts_the_limit(api, company_a, settings_env, monkeypatch):
    settings_env(LOGIN_MAX_FAILURES_PER_EMAIL="2", LOGIN_WINDOW_SECONDS="60")
    from chalicelib import clock

    for _ in range(2):
        _login(api, company_a.email, "wrong password")
    assert _login(api, company_a.email, PASSWORD).status == 429
    later = clock.epoch_seconds() + 61
    monkeypatch.setattr(clock, "epoch_seconds", lambda: later)
    assert _login(api, company_a.email, PASSWORD).status == 200


# --- audit log -------------------------------------------------------------------------------------

def test_the_audit_log_records_every_change_newest_first(api, table, company_a, ses):
    owner = api.login(company_a.email)
    invited = invite(api, owner, "ana@alpha.hn", role="seller")
    assert api.post(f"{USERS}/{invited['id']}/resend-invitation", cookie=owner, origin=ORIGIN).status == 200
    token = mailed_token(ses, "ana@alpha.hn")
    ana = accept(api, token, "clave-segura-123").header("Set-Cookie").split(";")[0].split("=", 1)[1]
    assert update(api, owner, invited["id"], {"role": "viewer"}).status == 200
    assert _change(api, ana, "clave-segura-123", NEW_PASSWORD).status == 200
    assert remove(api, owner, invited["id"]).status == 200
    key = api.post("/settings/api-keys", {"name": "ERP"}, cookie=owner, origin=ORIGIN).json
    assert api.post(f"/settings/api-keys/{key['id']}/revoke", cookie=owner, origin=ORIGIN).status == 200

    log = api.get("/settings/audit-log?limit=100", cookie=owner)
    assert log.status == 200, log.text
    entries = log.json["entries"]
    assert [entry["action"] for entry in entries] == [
        "api_key.revoked", "api_key.created", "user.removed", "password.changed", "user.updated",
        "invitation.accepted", "invitation.resent", "user.invited"]
    assert log.json["total"] == 8 and log.json["nextCursor"] is None
    assert [entry["occurredAt"] for entry in entries] == sorted((e["occurredAt"] for e in entries), reverse=True)
    by_action = {entry["action"]: entry for entry in entries}
    for action in ("user.invited", "user.updated", "user.removed", "api_key.created", "invitation.resent"):
        assert (by_action[action]["actorUserId"], by_action[action]["actorEmail"]) == (company_a.user_id,
                                                                                         company_a.email)
    for action in ("invitation.accepted", "password.changed"):
        assert (by_action[action]["actorUserId"], by_action[action]["actorEmail"]) == (invited["id"], "ana@alpha.hn")
    assert by_action["user.updated"]["changes"] == {"role": {"from": "seller", "to": "viewer"}}
    assert by_action["user.invited"]["targetEmail"] == "ana@alpha.hn"
    assert by_action["api_key.created"]["targetId"] == key["id"]
    stored = json.dumps(entries)
    for secret in (token, key["secret"], "clave-segura-123", NEW_PASSWORD, "passwordHash", "tokenHash"):
        assert secret not in stored

    second = api.get("/settings/audit-log?page=2&limit=3", cookie=owner).json
    assert [e["action"] for e in second["entries"]] == ["password.changed", "user.updated", "invitation.accepted"]
    assert (second["total"], second["page"], second["limit"]) == (8, 2, 3)
    walked = walk_cursor(lambda cursor: api.get("/settings/audit-log?limit=3" + (f"&cursor={cursor}" if cursor else ""),
                                                cookie=owner).json, "entries")
    assert [e["id"] for e in walked] == [e["id"] for e in entries]


def test_the_audit_log_is_for_owners_and_admins_in_the_web_app(api, table, company_a):
    _, seller = member(api, table, company_a, "seller@alpha.hn", "seller")
    assert api.get("/settings/audit-log", cookie=seller).json["code"] == "PERMISSION_DENIED"
    assert api.get("/settings/audit-log", key=company_a.api_key).json["code"] == "WEB_SESSION_REQUIRED"
    _, admin = member(api, table, company_a, "admin@alpha.hn", "admin")
    assert api.get("/settings/audit-log", cookie=admin).json == {"entries": [], "total": 0, "page": 1, "limit": 20,
                                                                 "nextCursor": None}
