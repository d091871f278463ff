"""Invitations end to end: invite (e-mailed through moto's SES), accept (logs in), every way a
link stops working, a user of another company joining, and Idempotency-Key replays."""
from __future__ import annotations

import datetime as dt
import json

from chalicelib import clock
from chalicelib.auth.secrets import sha256_hex
from chalicelib.store import keys
from tests.support import ORIGIN, PASSWORD
from tests.users_support import (
    USERS,
    accept,
    invite,
    mailed_text,
    mailed_token,
    scan,
    session_of,
    users_by_email,
)

NEW_PASSWORD = "clave-segura-123"


def test_invite_accept_and_list(api, table, company_a, ses):
    owner = api.login(company_a.email)
    invited = invite(api, owner, "Ana@Alpha.hn", role="seller", name="Ana López")
    assert {name: invited[name] for name in ("email", "name", "role", "isActive", "status", "invitedByUserId",
                                             "version", "invitationEmailSent")} == {
        "email": "ana@alpha.hn", "name": "Ana López", "role": "seller", "isActive": False, "status": "invited",
        "invitedByUserId": company_a.user_id, "version": 1, "invitationEmailSent": True}
    assert invited["invitationExpiresAt"] > clock.now_iso() and invited["lastLoginAt"] is None
    assert "token" not in json.dumps(invited)
    listed = users_by_email(api, owner)
    assert listed["ana@alpha.hn"]["status"] == "invited" and listed["ana@alpha.hn"]["invitedAt"]
    assert listed[company_a.email]["status"] == "active" and listed[company_a.email]["role"] == "owner"

    text = mailed_text(ses, "ana@alpha.hn")
    token = mailed_token(ses, "ana@alpha.hn")
    assert f"http://127.0.0.1:8000/app/#/accept-invitation?token={token}" in text
    assert "Alpha S. de R.L." in text
    # no password yet: the invited user cannot log in
    refused = api.post("/auth/login", {"email": "ana@alpha.hn", "password": NEW_PASSWORD}, origin=ORIGIN)
    assert refused.status == 401

    accepted = accept(api, token, NEW_PASSWORD, name="Ana María López")
    assert accepted.status == 200, accepted.text
    assert (accepted.json["companyId"], accepted.json["role"]) == (company_a.company_id, "seller")
    assert accepted.json["user"]["name"] == "Ana María López"
    cookie = session_of(accepted)
    assert "HttpOnly" in accepted.header("Set-Cookie")
    me = api.get("/auth/me", cookie=cookie)
    assert me.status == 200 and me.json["user"]["email"] == "ana@alpha.hn"
    ana = users_by_email(api, owner)["ana@alpha.hn"]
    assert (ana["status"], ana["isActive"], ana["version"]) == ("active", True, 2)
    assert ana["lastLoginAt"] and ana["name"] == "Ana María López"
    assert api.post("/auth/login", {"email": "ana@alpha.hn", "password": NEW_PASSWORD}, origin=ORIGIN).status == 200

    stored = json.dumps(scan(table), default=str)
    assert token not in stored and sha256_hex(token) in stored


def test_the_link_is_printed_when_configured_and_a_refused_email_still_answers_201(api, company_a, settings_env,
                                                                                   capsys):
    # no `ses` fixture: moto's SES refuses the unverified sender
    settings_env(LOG_INVITATION_LINKS="1", APP_BASE_URL="https://app.example.hn")
    owner = api.login(company_a.email)
    invited = invite(api, owner, "luis@alpha.hn")
    assert invited["invitationEmailSent"] is False and invited["status"] == "invited"
    printed = capsys.readouterr().out
    line = next(line for line in printed.splitlines() if "luis@alpha.hn" in line)
    token = line.split("https://app.example.hn/app/#/accept-invitation?token=")[1].strip()
    assert accept(api, token, NEW_PASSWORD).status == 200


def test_links_are_not_printed_by_default(api, company_a, ses, capsys):
    invite(api, api.login(company_a.email), "luis@alpha.hn")
    assert "accept-invitation" not in capsys.readouterr().out


def _still_invited(api, owner, email_address):
    user = users_by_email(api, owner)[email_address]
    assert (user["status"], user["isActive"], user["lastLoginAt"]) == ("invited", False, None)
    assert api.post("/auth/login", {"email": email_address, "password": NEW_PASSWORD}, origin=ORIGIN).status == 401


def test_forged_and_expired_links_are_refused_and_change_nothing(api, company_a, ses, monkeypatch):
    owner = api.login(company_a.email)
    invite(api, owner, "ana@alpha.hn")
    token = mailed_token(ses, "ana@alpha.hn")
    for forged in ("not-a-token", token[:-1] + ("A" if token[-1] != "A" else "B")):
        reply = accept(api, forged, NEW_PASSWORD)
        assert (reply.status, reply.json["code"]) == (400, "INVITATION_INVALID")
    real_now = clock.now
    monkeypatch.setattr(clock, "now", lambda: real_now() + dt.timedelta(days=7, minutes=1))
    expired = accept(api, token, NEW_PASSWORD)
    assert (expired.status, expired.json["code"]) == (400, "INVITATION_EXPIRED")
    assert "expired" in expired.json["message"]
    monkeypatch.setattr(clock, "now", real_now)
    _still_invited(api, owner, "ana@alpha.hn")


def test_a_link_works_once(api, company_a, ses):
    invite(api, api.login(company_a.email), "ana@alpha.hn")
    token = mailed_token(ses, "ana@alpha.hn")
    assert accept(api, token, NEW_PASSWORD).status == 200
    again = accept(api, token, "another-password-1")
    assert (again.status, again.json["code"]) == (400, "INVITATION_USED")
    # the second try set nothing: the first password still logs in
    assert api.post("/auth/login", {"email": "ana@alpha.hn", "password": NEW_PASSWORD}, origin=ORIGIN).status == 200
    refused = api.post("/auth/login", {"email": "ana@alpha.hn", "password": "another-password-1"}, origin=ORIGIN)
    assert refused.status == 401


def test_a_resent_invitation_retires_the_previous_link(api, company_a, ses):
    owner = api.login(company_a.email)
    invited = invite(api, owner, "ana@alpha.hn")
    old = mailed_token(ses, "ana@alpha.hn")
    resent = api.post(f"{USERS}/{invited['id']}/resend-invitation", cookie=owner, origin=ORIGIN)
    assert resent.status == 200, resent.text
    assert resent.json["invitationEmailSent"] is True and resent.json["version"] == 2
    new = mailed_token(ses, "ana@alpha.hn")
    assert new != old and len(ses) == 2
    superseded = accept(api, old, NEW_PASSWORD)
    assert (superseded.status, superseded.json["code"]) == (400, "INVITATION_USED")
    _still_invited(api, owner, "ana@alpha.hn")
    assert accept(api, new, NEW_PASSWORD).status == 200
    # only an invitation still pending can be resent
    done = api.post(f"{USERS}/{invited['id']}/resend-invitation", cookie=owner, origin=ORIGIN)
    assert (done.status, done.json["code"]) == (400, "INVITATION_NOT_PENDING")


def test_a_removed_invitation_cannot_be_accepted(api, company_a, ses):
    owner = api.login(company_a.email)
    invited = invite(api, owner, "ana@alpha.hn")
    assert api.delete(f"{USERS}/{invited['id']}", cookie=owner, origin=ORIGIN).status == 200
    reply = accept(api, mailed_token(ses, "ana@alpha.hn"), NEW_PASSWORD)
    assert (reply.status, reply.json["code"]) == (400, "INVITATION_USED")
    assert "ana@alpha.hn" not in users_by_email(api, owner)


def test_a_new_users_password_follows_the_rules(api, company_a, ses):
    invite(api, api.login(company_a.email), "ana@alpha.hn")
    short = accept(api, mailed_token(ses, "ana@alpha.hn"), "short")
    assert short.status == 400 and short.json["details"][0]["field"] == "password"


def test_a_user_of_another_company_joins_with_their_own_login(api, table, company_a, company_b, ses):
    owner = api.login(company_a.email)
    users_before = sum(1 for item in scan(table) if item.get("itemType") == "USER")
    invited = invite(api, owner, company_b.email, role="accountant", name="Someone Else")
    # until accepted, only what this company supplied (tests/test_probe_findings.py)
    assert invited["id"] != company_b.user_id and invited["name"] == "Someone Else"
    assert sum(1 for item in scan(table) if item.get("itemType") == "USER") == users_before
    token = mailed_token(ses, company_b.email)

    # an invitation never sets the password of an existing account
    wrong = accept(api, token, NEW_PASSWORD)
    assert (wrong.status, wrong.json["code"]) == (400, "INVITATION_PASSWORD_WRONG")
    assert wrong.json["details"][0]["field"] == "password"
    assert users_by_email(api, owner)[company_b.email]["status"] == "invited"
    assert api.post("/auth/login", {"email": company_b.email, "password": NEW_PASSWORD}, origin=ORIGIN).status == 401

    accepted = accept(api, token, PASSWORD, name="Ignored Name")
    assert accepted.status == 200, accepted.text
    assert (accepted.json["companyId"], accepted.json["role"]) == (company_a.company_id, "accountant")
    assert accepted.json["user"]["name"] == "Owner of Beta S.A."
    assert {c["companyId"] for c in accepted.json["companies"]} == {company_a.company_id, company_b.company_id}
    cookie = session_of(accepted)
    assert api.get("/companies", cookie=cookie).json["id"] == company_a.company_id
    switched = api.post("/auth/switch-company", {"companyId": company_b.company_id}, cookie=cookie, origin=ORIGIN)
    assert (switched.status, switched.json["role"]) == (200, "owner")
    # one login, both companies
    again = api.login(company_b.email)
    assert len(api.get("/auth/me", cookie=again).json["companies"]) == 2


def test_inviting_a_member_again_is_409(api, table, company_a, ses):
    owner = api.login(company_a.email)
    for email_address in (company_a.email, "ana@alpha.hn"):
        if email_address != company_a.email:
            invite(api, owner, email_address)
        reply = api.post(USERS, {"email": email_address, "name": "X", "role": "viewer"}, cookie=owner, origin=ORIGIN)
        assert (reply.status, reply.json["code"]) == (409, "USER_ALREADY_MEMBER")
        assert reply.json["details"][0]["field"] == "email"
    assert len(users_by_email(api, owner)) == 2


def test_an_address_that_cannot_be_mailed_is_refused_before_anything_is_written(api, table, company_a, ses):
    """Found by fuzzing: a control character (U+001D, a line break to Python's mail headers) in
    the address got past the check and broke the invitation e-mail: a 500 after the write."""
    owner = api.login(company_a.email)
    before = scan(table)
    for address in ("ana@alpha.hn\u001d", "ana\u0085@alpha.hn", "ana@alpha", "Ana <ana@alpha.hn>"):
        reply = api.post(USERS, {"email": address, "name": "Ana", "role": "viewer"}, cookie=owner, origin=ORIGIN)
        assert (reply.status, reply.json["code"], reply.json["details"][0]["field"]) == (400, "VALIDATION_ERROR",
                                                                                          "email"), address
    assert scan(table) == before


def test_an_idempotency_key_replay_invites_once_and_shows_no_token(api, table, company_a, ses):
    owner = api.login(company_a.email)
    headers = {"Idempotency-Key": "invite-ana-1"}
    first = api.post(USERS, {"email": "ana@alpha.hn", "name": "Ana", "role": "seller"}, cookie=owner, origin=ORIGIN,
                     headers=headers)
    again = api.post(USERS, {"email": "ana@alpha.hn", "name": "Ana", "role": "seller"}, cookie=owner, origin=ORIGIN,
                     headers=headers)
    assert (first.status, again.status) == (201, 201)
    assert again.header("Idempotent-Replayed") == "true" and again.json["id"] == first.json["id"]
    assert again.json["invitationEmailSent"] is None
    token = mailed_token(ses, "ana@alpha.hn")
    assert token not in again.text and token not in first.text
    assert len(ses) == 1
    assert sum(1 for item in scan(table) if item.get("itemType") == "INVITATION") == 1
    stored = table.get(keys.idempotency(company_a.company_id, "invite-ana-1"))
    assert token not in stored["body"]
