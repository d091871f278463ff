"""Roles and access through /settings/users: who may change whom, the last active owner, optimistic
versions, and what a change does at once to the user's sessions and API keys (spec rule 5)."""
from __future__ import annotations

import threading

import pytest

from chalicelib.services.identity import users as users_service
from chalicelib.store import keys
from tests.support import ORIGIN, PASSWORD, RACES
from tests.users_support import USERS, accept, invite, mailed_token, member, remove, update, users_by_email


def _key_of(api, cookie):
    created = api.post("/settings/api-keys", {"name": "integración"}, cookie=cookie, origin=ORIGIN)
    assert created.status == 201, created.text
    key = created.json["key"]
    assert api.get("/companies", key=key).status == 200
    return key


def _no_user(api, key):
    reply = api.get("/companies", key=key)
    assert (reply.status, reply.json["code"]) == (401, "API_KEY_NO_USER")


def _version(api, owner, email_address):
    return users_by_email(api, owner)[email_address]["version"]


# --- who may do what -------------------------------------------------------------------------------

def test_an_admin_manages_users_but_not_owners(api, table, company_a, ses):
    admin_id, admin = member(api, table, company_a, "admin@alpha.hn", "admin")
    refused = api.post(USERS, {"email": "boss@alpha.hn", "name": "Boss", "role": "owner"}, cookie=admin, origin=ORIGIN)
    assert (refused.status, refused.json["code"]) == (403, "PERMISSION_DENIED")
    assert "owner" in refused.json["message"]
    seller = invite(api, admin, "ana@alpha.hn", role="seller")
    assert update(api, admin, seller["id"], {"role": "viewer"}).json["role"] == "viewer"
    promoted = update(api, admin, seller["id"], {"role": "owner"})
    assert (promoted.status, promoted.json["code"]) == (403, "PERMISSION_DENIED")
    for reply in (update(api, admin, company_a.user_id, {"role": "admin"}),
                  update(api, admin, company_a.user_id, {"isActive": False}),
                  remove(api, admin, company_a.user_id)):
        assert (reply.status, reply.json["code"]) == (403, "PERMISSION_DENIED")
    owner = users_by_email(api, admin)[company_a.email]
    assert (owner["role"], owner["isActive"], owner["version"]) == ("owner", True, 1)
    # an owner may make an administrator an owner
    assert update(api, api.login(company_a.email), admin_id, {"role": "owner"}).json["role"] == "owner"


@pytest.mark.parametrize("role", ["seller", "accountant", "viewer"])
def test_other_roles_are_refused_every_users_route(api, table, company_a, role):
    _, cookie = member(api, table, company_a, f"{role}@alpha.hn", role)
    target = f"{USERS}/{company_a.user_id}"
    for method, path, body in (("GET", USERS, None), ("POST", USERS, {"email": "x@alpha.hn", "name": "X", "role": "viewer"}),
                               ("POST", f"{target}/resend-invitation", None), ("PUT", target, {"role": "viewer"}),
                               ("DELETE", target, None), ("GET", "/settings/audit-log", None)):
        reply = api.request(method, path, body=body, cookie=cookie, origin=ORIGIN)
        assert (reply.status, reply.json["code"]) == (403, "PERMISSION_DENIED"), (method, path)


def test_api_keys_are_refused_every_web_route(api, company_a):
    target = f"{USERS}/{company_a.user_id}"
    for method, path, body in (("GET", USERS, None), ("POST", USERS, {"email": "x@alpha.hn", "name": "X", "role": "viewer"}),
                               ("POST", f"{target}/resend-invitation", None), ("PUT", target, {"role": "viewer"}),
                               ("GET", "/settings/audit-log", None),
                               ("POST", "/auth/password", {"currentPassword": "a", "newPassword": "b"})):
        reply = api.request(method, path, body=body, key=company_a.api_key)
        assert (reply.status, reply.json["code"]) == (403, "WEB_SESSION_REQUIRED"), (method, path)
    # every DELETE is refused to an API key before the route's own rule
    reply = api.delete(target, key=company_a.api_key)
    assert (reply.status, reply.json["code"]) == (403, "API_KEY_DELETE_FORBIDDEN")


def test_another_companys_user_is_404(api, table, company_a, company_b):
    owner = api.login(company_a.email)
    for reply in (update(api, owner, company_b.user_id, {"role": "viewer"}), remove(api, owner, company_b.user_id),
                  api.post(f"{USERS}/{company_b.user_id}/resend-invitation", cookie=owner, origin=ORIGIN),
                  update(api, owner, 999999, {"role": "viewer"})):
        assert (reply.status, reply.json["code"]) == (404, "NOT_FOUND")
    assert users_by_email(api, api.login(company_b.email))[company_b.email]["role"] == "owner"


# --- the last active owner -------------------------------------------------------------------------

def test_the_last_active_owner_cannot_be_demoted_deactivated_or_removed(api, table, company_a):
    owner = api.login(company_a.email)
    for reply in (update(api, owner, company_a.user_id, {"role": "admin"}),
                  update(api, owner, company_a.user_id, {"isActive": False}, version=1),
                  remove(api, owner, company_a.user_id)):
        assert (reply.status, reply.json["code"]) == (400, "LAST_OWNER"), reply.text
    unchanged = users_by_email(api, owner)[company_a.email]
    assert (unchanged["role"], unchanged["isActive"], unchanged["version"]) == ("owner", True, 1)
    assert int(table.get(keys.company(company_a.company_id))["activeOwnerCount"]) == 1
    # an inactive owner does not count: the active one stays the last
    other_id, _ = member(api, table, company_a, "co-owner@alpha.hn", "owner")
    assert update(api, owner, other_id, {"isActive": False}).status == 200
    assert update(api, owner, company_a.user_id, {"role": "admin"}).json["code"] == "LAST_OWNER"
    assert update(api, owner, other_id, {"isActive": True}).status == 200
    assert update(api, owner, company_a.user_id, {"role": "admin"}).json["role"] == "admin"


@RACES
def test_two_owners_demoting_each_other_at_once_leave_exactly_one(api, table, company_a, monkeypatch):
    other_id, other = member(api, table, company_a, "co-owner@alpha.hn", "owner")
    owner = api.login(company_a.email)
    both_read = threading.Barrier(2, timeout=10)
    read = users_service.get_member

    def read_then_wait(*args, **kwargs):
        found = read(*args, **kwargs)
        try:  # both requests decide on the same state before either commits
            both_read.wait()
        except threading.BrokenBarrierError:
            pass  # a re-run after the race: nothing to wait for
        return found

    monkeypatch.setattr(users_service, "get_member", read_then_wait)
    replies = {}

    def demote(name, cookie, target):
        replies[name] = update(api, cookie, target, {"role": "admin"})

    threads = [threading.Thread(target=demote, args=("a", owner, other_id)),
               threading.Thread(target=demote, args=("b", other, company_a.user_id))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    outcomes = sorted((reply.status, reply.json.get("code")) for reply in replies.values())
    assert outcomes == [(200, None), (400, "LAST_OWNER")], [r.text for r in replies.values()]
    listed = users_by_email(api, api.login(company_a.email))  # owner or admin now: either may list
    assert sorted(user["role"] for user in listed.values()) == ["admin", "owner"]
    assert int(table.get(keys.company(company_a.company_id))["activeOwnerCount"]) == 1


# --- versions, sessions and API keys ---------------------------------------------------------------

def test_a_stale_version_is_409_and_changes_nothing(api, table, company_a):
    user_id, _ = member(api, table, company_a, "ana@alpha.hn", "seller")
    owner = api.login(company_a.email)
    assert update(api, owner, user_id, {"role": "viewer"}, version=1).json["version"] == 2
    stale = update(api, owner, user_id, {"role": "accountant"}, version=1)
    assert (stale.status, stale.json["code"]) == (409, "VERSION_CONFLICT")
    assert users_by_email(api, owner)["ana@alpha.hn"]["role"] == "viewer"
    invalid = update(api, owner, user_id, {"role": "manager"})
    assert invalid.status == 400 and invalid.json["details"][0]["field"] == "role"


def test_deactivation_ends_sessions_and_keys_at_once_and_reactivation_restores_them(api, table, company_a):
    user_id, admin = member(api, table, company_a, "admin@alpha.hn", "admin")
    key = _key_of(api, admin)
    owner = api.login(company_a.email)
    deactivated = update(api, owner, user_id, {"isActive": False}, version=1)
    assert deactivated.status == 200, deactivated.text
    assert (deactivated.json["status"], deactivated.json["isActive"]) == ("inactive", False)
    ended = api.get("/auth/me", cookie=admin)
    assert (ended.status, ended.json["code"]) == (401, "INVALID_SESSION")
    _no_user(api, key)
    refused = api.post("/auth/login", {"email": "admin@alpha.hn", "password": "correct horse battery"}, origin=ORIGIN)
    # as for a wrong password: the answer must not confirm the password (tests/test_probe_findings.py)
    assert (refused.status, refused.json["code"]) == (401, "INVALID_CREDENTIALS")
    assert update(api, owner, user_id, {"isActive": True}).json["status"] == "active"
    assert api.get("/companies", key=key).status == 200


def test_demoting_a_keys_user_below_admin_ends_the_key(api, table, company_a):
    user_id, admin = member(api, table, company_a, "admin@alpha.hn", "admin")
    key = _key_of(api, admin)
    owner = api.login(company_a.email)
    assert update(api, owner, user_id, {"role": "accountant"}).status == 200
    _no_user(api, key)
    # the session goes on with the new role
    assert api.get("/auth/me", cookie=admin).json["role"] == "accountant"


def test_removal_ends_the_key_and_the_session_for_good(api, table, company_a, ses):
    user_id, admin = member(api, table, company_a, "admin@alpha.hn", "admin")
    key = _key_of(api, admin)
    owner = api.login(company_a.email)
    removed = remove(api, owner, user_id)
    assert removed.status == 200 and removed.json == {"id": user_id, "deleted": True}
    _no_user(api, key)
    assert api.get("/auth/me", cookie=admin).status == 401
    assert "admin@alpha.hn" not in users_by_email(api, owner)
    assert table.get(keys.user_company_link(user_id, company_a.company_id)) is None
    assert table.get(keys.user(user_id)) is not None  # the user stays, for their other companies
    assert remove(api, owner, user_id).status == 404
    # invited again and accepted: the old cookie and key stay dead, the new login works
    invite(api, owner, "admin@alpha.hn", role="admin")
    assert accept(api, mailed_token(ses, "admin@alpha.hn"), PASSWORD).status == 200
    assert api.get("/auth/me", cookie=admin).status == 401
    _no_user(api, key)
    assert api.get("/auth/me", cookie=api.login("admin@alpha.hn")).status == 200


def test_an_invitation_cannot_be_activated_before_it_is_accepted(api, company_a, ses):
    owner = api.login(company_a.email)
    invited = invite(api, owner, "ana@alpha.hn")
    reply = update(api, owner, invited["id"], {"isActive": True})
    assert (reply.status, reply.json["code"]) == (400, "INVITATION_PENDING")
    assert update(api, owner, invited["id"], {"role": "viewer"}).json["status"] == "invited"
