"""One's own password (the other sessions end, this one goes on), the failed-login limits per
e-mail and source address (and per address alone), and the audit log of every change to users and keys."""
from __future__ import annotations

import json
import types

import pytest

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


def test_guessing_through_the_password_change_counts_as_failed_logins(api, company_a, settings_env, now):
    settings_env(LOGIN_FREE_FAILURES="3")
    cookie = api.login(company_a.email)
    for _ in range(3):
        assert _change(api, cookie, "a guess", NEW_PASSWORD).json["code"] == "CURRENT_PASSWORD_WRONG"
    limited = _change(api, cookie, PASSWORD, NEW_PASSWORD)  # the right one too, once limited
    assert (limited.status, limited.json["code"]) == (429, "RATE_LIMIT_EXCEEDED")
    assert _login(api, company_a.email, PASSWORD).status == 429
    assert api.get("/auth/me", cookie=cookie).status == 200  # the session itself goes on


def test_guessing_through_an_invitation_counts_as_failed_logins(api, company_a, company_b, ses, settings_env, now):
    """An existing user accepts with their own password: a leaked link must not allow guessing it."""
    settings_env(LOGIN_FREE_FAILURES="3")
    invited = invite(api, api.login(company_a.email), company_b.email, role="viewer")
    assert invited["lastLoginAt"] is None  # nothing of the person's activity elsewhere while invited
    token = mailed_token(ses, company_b.email)
    for _ in range(3):
        assert accept(api, token, "a guess").json["code"] == "INVITATION_PASSWORD_WRONG"
    limited = accept(api, token, PASSWORD)
    assert (limited.status, limited.json["code"]) == (429, "RATE_LIMIT_EXCEEDED")
    assert _login(api, company_b.email, PASSWORD).status == 429


# --- failed-login limits ----------------------------------------------------------------------------
# Per pair (e-mail, source address): LOGIN_FREE_FAILURES (5) checked at once, then each further
# attempt waits 2, 4, 8 ... s (at most LOGIN_MAX_DELAY_SECONDS, 900) after the one before.

HOME, OFFICE, STRANGER = "190.5.64.10", "200.30.1.7", "45.77.12.9"


def _login_from(api, monkeypatch, address, email_address, password):
    """As API Gateway tells the source address (identity.sourceIp)."""
    from chalice.local import LambdaEventConverter

    monkeypatch.setattr(LambdaEventConverter, "LOCAL_SOURCE_IP", address)
    return _login(api, email_address, password)


@pytest.fixture
def now(monkeypatch):
    """The project's clock, held still and moved by the test: now.at[0] is epoch seconds."""
    from chalicelib import clock

    held = types.SimpleNamespace(at=[clock.epoch_seconds()])
    monkeypatch.setattr(clock, "epoch_seconds", lambda: held.at[0])
    return held


@pytest.fixture
def quick_passwords(monkeypatch):
    """Fifty guesses are about counting, not hashing: every test user's password is PASSWORD, so a
    check compares with it instead of running scrypt fifty times."""
    from chalicelib.services.identity import sessions

    monkeypatch.setattr(sessions, "verify_password", lambda password, stored: bool(stored) and password == PASSWORD)


def test_a_stranger_guessing_the_owners_e_mail_does_not_lock_the_owner_out(api, company_a, company_b, monkeypatch,
                                                                           now, quick_passwords):
    """The finding: anyone who knows an e-mail could lock its owner out, wherever the owner was."""
    attempts = [_login_from(api, monkeypatch, STRANGER, company_a.email, f"guess {n}") for n in range(50)]
    # the stranger's pair: 5 checked at once, the 5th closed the gate for 2 s; the other 45 refused unchecked
    assert [reply.status for reply in attempts] == [401] * 5 + [429] * 45
    assert _login_from(api, monkeypatch, OFFICE, company_a.email, PASSWORD).status == 200  # the owner, elsewhere
    assert _login_from(api, monkeypatch, STRANGER, company_b.email, PASSWORD).status == 200  # another account there
    # only the attacked pair waits, the right password too: 2 s after the 5th failure
    waiting = _login_from(api, monkeypatch, STRANGER, company_a.email, PASSWORD)
    assert (waiting.status, waiting.json["code"], waiting.header("Retry-After")) == (429, "RATE_LIMIT_EXCEEDED", "2")
    assert waiting.json["details"] == [{"field": "email", "message": "retry in 2 s"}]


def test_fifty_wrong_passwords_from_one_address_do_not_lock_every_login_from_it(api, company_a, monkeypatch, now,
                                                                                quick_passwords):
    """The finding: fifty failures from one address (here ten e-mails, five each) refused every
    login from it, the right password of an account nobody had guessed at included."""
    for n in range(10):
        for _ in range(5):
            assert _login_from(api, monkeypatch, OFFICE, f"nobody{n}@alpha.hn", "wrong").status == 401
    # 10 x 5 = 50 failures from the office, under its ceiling of 200
    assert _login_from(api, monkeypatch, OFFICE, company_a.email, PASSWORD).status == 200


def test_one_users_failures_in_an_office_do_not_stop_a_colleague_there(api, company_a, company_b, monkeypatch, now,
                                                                       settings_env):
    """The most failures one pair can make in the address's window stay under its ceiling: 5 free,
    then one each time the gate opens, 2 + 4 + ... + 256 = 510 s later the 13th, the next at
    510 + 512 = 1,022 s, past the 900 s window. A ceiling of 14 is enough: 13 + the colleague's 1."""
    settings_env(LOGIN_MAX_FAILURES_PER_ADDRESS="14")
    now.at[0] -= now.at[0] % 900  # the start of the address's window
    for wait in (0, 0, 0, 0, 0, 2, 4, 8, 16, 32, 64, 128, 256):
        now.at[0] += wait
        assert _login_from(api, monkeypatch, OFFICE, company_b.email, "wrong").status == 401
    assert _login_from(api, monkeypatch, OFFICE, company_b.email, PASSWORD).status == 429  # they wait 512 s
    now.at[0] += 389  # 510 + 389 = 899 s: the window's last second
    assert _login_from(api, monkeypatch, OFFICE, company_a.email, PASSWORD).status == 200
    assert _login_from(api, monkeypatch, HOME, company_b.email, PASSWORD).status == 200  # the same user at home


def test_a_guesser_waits_twice_as_long_after_each_failure_up_to_the_cap(api, company_a, monkeypatch, now,
                                                                         settings_env):
    settings_env(LOGIN_FREE_FAILURES="2", LOGIN_MAX_DELAY_SECONDS="20")

    def guess():
        return _login_from(api, monkeypatch, STRANGER, company_a.email, "a guess")

    assert guess().status == 401  # free
    assert guess().status == 401  # the 2nd: checked, and the gate closes for 2^1 = 2 s
    # each failure past the free ones doubles the wait: 2, 4, 8, 16, then 32 capped at 20, 20
    for wait in (2, 4, 8, 16, 20, 20):
        refused = guess()
        assert (refused.status, refused.header("Retry-After")) == (429, str(wait))
        now.at[0] += wait - 1
        assert guess().header("Retry-After") == "1"  # a refused attempt neither counts nor moves the gate
        now.at[0] += 1
        assert guess().status == 401
    # the right password after the wait: logged in, and the pair starts afresh (2 free failures again)
    now.at[0] += 20
    assert _login_from(api, monkeypatch, STRANGER, company_a.email, PASSWORD).status == 200
    assert [guess().status for _ in range(3)] == [401, 401, 429]


def test_one_address_spraying_many_e_mails_meets_its_ceiling(api, company_a, company_b, monkeypatch, now,
                                                              settings_env):
    settings_env(LOGIN_MAX_FAILURES_PER_ADDRESS="8")
    for n in range(4):  # 4 e-mails x 2 = 8 failures from the address, each pair within its free ones
        for _ in range(2):
            assert _login_from(api, monkeypatch, STRANGER, f"someone{n}@alpha.hn", "wrong").status == 401
    by_address = _login_from(api, monkeypatch, STRANGER, company_b.email, PASSWORD)
    assert (by_address.status, by_address.json["code"]) == (429, "RATE_LIMIT_EXCEEDED")
    assert by_address.json["details"][0]["field"] == "sourceAddress"
    assert 1 <= int(by_address.header("Retry-After")) <= 900
    assert _login_from(api, monkeypatch, HOME, company_b.email, PASSWORD).status == 200
    now.at[0] += 900  # the address's next window
    assert _login_from(api, monkeypatch, STRANGER, company_b.email, PASSWORD).status == 200


# One IPv6 client is handed a whole /64: two of its addresses are one address to the limits.
HOME_V6, HOME_V6_TOO, NEIGHBOUR_V6 = "2800:98:1a2b:10::5", "2800:98:1a2b:10:ffff:1:2:3", "2800:98:1a2b:11::5"


def test_guesses_from_two_addresses_of_one_ipv6_64_share_the_pairs_wait(api, company_a, monkeypatch, now,
                                                                         settings_env):
    settings_env(LOGIN_FREE_FAILURES="2")
    assert _login_from(api, monkeypatch, HOME_V6, company_a.email, "a guess").status == 401  # free
    # the 2nd failure of the pair (e-mail, 2800:98:1a2b:10::/64) closes its gate for 2^1 = 2 s
    assert _login_from(api, monkeypatch, HOME_V6_TOO, company_a.email, "a guess").status == 401
    from_the_same_64 = _login_from(api, monkeypatch, HOME_V6, company_a.email, PASSWORD)
    assert (from_the_same_64.status, from_the_same_64.header("Retry-After")) == (429, "2")
    # 2800:98:1a2b:11::/64 is another network, so another pair
    assert _login_from(api, monkeypatch, NEIGHBOUR_V6, company_a.email, PASSWORD).status == 200


def test_one_ipv6_64_spraying_many_e_mails_meets_one_ceiling(api, company_a, company_b, monkeypatch, now,
                                                              settings_env):
    settings_env(LOGIN_MAX_FAILURES_PER_ADDRESS="4")
    for n in range(4):  # 4 failures, each from another address of 2800:98:1a2b:10::/64: its ceiling
        _login_from(api, monkeypatch, f"2800:98:1a2b:10::{n + 1}", f"someone{n}@alpha.hn", "wrong")
    by_address = _login_from(api, monkeypatch, HOME_V6_TOO, company_b.email, PASSWORD)
    assert (by_address.status, by_address.json["details"][0]["field"]) == (429, "sourceAddress")
    assert _login_from(api, monkeypatch, NEIGHBOUR_V6, company_b.email, PASSWORD).status == 200


def test_a_day_later_a_pair_starts_afresh(api, company_a, settings_env, monkeypatch, now):
    settings_env(LOGIN_FREE_FAILURES="2", LOGIN_MAX_DELAY_SECONDS="900")
    for _ in range(2):
        _login(api, company_a.email, "wrong password")
    assert _login(api, company_a.email, PASSWORD).status == 429
    now.at[0] += 24 * 3600  # LOGIN_MEMORY_SECONDS' next window
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
