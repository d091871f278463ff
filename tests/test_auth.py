"""The spec's Authentication rules 1-9 and its error table, through the HTTP pipeline."""
from __future__ import annotations

import datetime as dt

import pytest

from chalicelib.domain.roles import ACCOUNTANT, VIEWER
from chalicelib.services.identity import accounts, api_keys
from chalicelib.store import keys
from chalicelib.store.transaction import Transaction
from tests.support import ORIGIN, PASSWORD

PARTNER = {"name": "Cliente Uno", "type": "customer"}


def test_no_credentials_is_401(api, company_a):
    reply = api.get("/business-partners")
    assert reply.status == 401
    assert reply.json["code"] == "AUTHENTICATION_REQUIRED"
    assert reply.json["message"]


@pytest.mark.parametrize("bearer", [True, False], ids=["authorization-bearer", "x-api-key"])
def test_both_header_forms_authenticate(api, company_a, bearer):
    reply = api.get("/business-partners", key=company_a.api_key, bearer=bearer)
    assert reply.status == 200, reply.text


@pytest.mark.parametrize("credential", [
    "ak_AAAAAAAAAAAAAAAA:sk_whatever",   # unknown key id
    "not-a-key",                          # malformed
    "ak_AAAAAAAAAAAAAAAA:",               # no secret
])
def test_unknown_or_malformed_key_is_401_invalid(api, company_a, credential):
    reply = api.get("/business-partners", key=credential)
    assert reply.status == 401
    assert reply.json["code"] == "INVALID_API_KEY"


def test_wrong_secret_is_401_invalid(api, company_a):
    key_id = company_a.api_key.split(":")[0]
    reply = api.get("/business-partners", key=f"{key_id}:sk_wrong")
    assert reply.status == 401
    assert reply.json["code"] == "INVALID_API_KEY"


def test_non_bearer_authorization_scheme_is_401(api, company_a):
    reply = api.get("/business-partners", headers={"authorization": f"Basic {company_a.api_key}"})
    assert reply.status == 401
    assert reply.json["code"] == "INVALID_API_KEY"


def test_revoked_key_is_401_invalid(api, company_a):
    cookie = api.login(company_a.email)
    key_id = company_a.api_key.split(":")[0]
    revoked = api.post(f"/settings/api-keys/{key_id}/revoke", cookie=cookie, origin=ORIGIN)
    assert revoked.status == 200, revoked.text
    assert revoked.json["status"] == "revoked"
    reply = api.get("/business-partners", key=company_a.api_key)
    assert reply.status == 401
    assert reply.json["code"] == "INVALID_API_KEY"


def test_expired_key_is_401_expired(api, table, company_a):
    item, secret, transaction = api_keys.issue_key(table, company_a.company_id, company_a.user_id, "short",
                                                   (dt.date.today() + dt.timedelta(days=2)).isoformat())
    transaction.commit()
    Transaction(table).update(keys.api_key(item["id"]), "SET keyExpiresAt = :past",
                              values={":past": "2020-01-01T00:00:00.000Z"}).commit()
    reply = api.get("/business-partners", key=f"{item['id']}:{secret}")
    assert reply.status == 401
    assert reply.json["code"] == "API_KEY_EXPIRED"


def test_key_without_active_owner_or_admin_is_401_no_user(api, table, company_a):
    # the key's user is demoted to accountant: the key no longer has an owner/admin behind it
    Transaction(table).update(keys.membership(company_a.company_id, company_a.user_id), "SET #r = :r",
                              names={"#r": "role"}, values={":r": ACCOUNTANT}).commit()
    reply = api.get("/business-partners", key=company_a.api_key)
    assert reply.status == 401
    assert reply.json["code"] == "API_KEY_NO_USER"


def test_key_of_deactivated_user_is_401_no_user(api, table, company_a):
    Transaction(table).update(keys.user(company_a.user_id), "SET isActive = :f",
                              values={":f": False}).commit()
    reply = api.get("/business-partners", key=company_a.api_key)
    assert reply.status == 401
    assert reply.json["code"] == "API_KEY_NO_USER"


def test_session_cookie_wins_over_api_key(api, company_a, company_b):
    cookie = api.login(company_a.email)
    # B's key is ignored: the cookie decides the company
    reply = api.get("/companies", cookie=cookie, key=company_b.api_key)
    assert reply.status == 200
    assert reply.json["id"] == company_a.company_id


def test_stale_cookie_falls_back_to_a_valid_key(api, company_a):
    reply = api.get("/companies", cookie="not-a-session", key=company_a.api_key)
    assert reply.status == 200
    assert reply.json["id"] == company_a.company_id


def test_invalid_cookie_alone_is_401_invalid_session(api, company_a):
    reply = api.get("/companies", cookie="forged")
    assert reply.status == 401
    assert reply.json["code"] == "INVALID_SESSION"


def test_logout_ends_the_session(api, company_a):
    cookie = api.login(company_a.email)
    reply = api.post("/auth/logout", cookie=cookie, origin=ORIGIN)
    assert reply.status == 200
    assert "Max-Age=0" in reply.header("Set-Cookie")
    assert api.get("/auth/me", cookie=cookie).status == 401


def test_login_rejects_wrong_password_and_unknown_email_alike(api, company_a):
    wrong = api.post("/auth/login", {"email": company_a.email, "password": "nope-nope"}, origin=ORIGIN)
    unknown = api.post("/auth/login", {"email": "ghost@x.hn", "password": PASSWORD}, origin=ORIGIN)
    assert wrong.status == unknown.status == 401
    assert wrong.json == unknown.json
    assert wrong.json["code"] == "INVALID_CREDENTIALS"


def test_login_sets_a_safe_cookie(api, company_a):
    reply = api.post("/auth/login", {"email": company_a.email, "password": PASSWORD}, origin=ORIGIN)
    cookie = reply.header("Set-Cookie")
    assert cookie.startswith("accessToken=")
    assert "HttpOnly" in cookie and "SameSite=Lax" in cookie
    assert reply.json["companyId"] == company_a.company_id
    assert reply.json["role"] == "owner"


def test_sessions_are_stored_hashed(api, table, company_a):
    cookie = api.login(company_a.email)
    assert table.get(keys.session(cookie)) is None
    from chalicelib.auth.secrets import sha256_hex
    assert table.get(keys.session(sha256_hex(cookie)))["userId"] == company_a.user_id


def test_me_and_switch_company(api, table, company_a, company_b):
    accounts.add_member(table, company_b.company_id, company_a.user_id, VIEWER)
    cookie = api.login(company_a.email)
    me = api.get("/auth/me", cookie=cookie).json
    assert {c["companyId"] for c in me["companies"]} == {company_a.company_id, company_b.company_id}
    switched = api.post("/auth/switch-company", {"companyId": company_b.company_id}, cookie=cookie,
                        origin=ORIGIN)
    assert switched.status == 200, switched.text
    assert switched.json["role"] == VIEWER
    assert api.get("/companies", cookie=cookie).json["id"] == company_b.company_id
    # a viewer may read but not write
    denied = api.post("/business-partners", PARTNER, cookie=cookie, origin=ORIGIN)
    assert denied.status == 403
    assert denied.json["code"] == "PERMISSION_DENIED"


def test_switch_to_a_company_the_user_is_not_in_is_404(api, company_a, company_b):
    cookie = api.login(company_a.email)
    reply = api.post("/auth/switch-company", {"companyId": company_b.company_id}, cookie=cookie,
                     origin=ORIGIN)
    assert reply.status == 404


# --- rules 6-8: what an API key may not do -------------------------------------------------

def test_key_management_with_an_api_key_is_403(api, company_a):
    for method, path in (("GET", "/settings/api-keys"), ("POST", "/settings/api-keys"),
                         ("POST", "/settings/api-keys/ak_AAAAAAAAAAAAAAAA/revoke")):
        reply = api.request(method, path, key=company_a.api_key, body={"name": "x"} if method == "POST" else None)
        assert reply.status == 403, (method, path)
        assert reply.json["code"] == "API_KEY_MANAGEMENT_FORBIDDEN"


@pytest.mark.parametrize("path", ["/business-partners/1", "/products/1", "/companies/1",
                                  "/settings/api-keys"])
def test_any_delete_with_an_api_key_is_403(api, company_a, path):
    reply = api.delete(path, key=company_a.api_key)
    assert reply.status == 403
    assert reply.json["code"] == "API_KEY_DELETE_FORBIDDEN"


@pytest.mark.parametrize("method,path,body", [
    ("POST", "/companies", {"name": "Otra"}),
    ("GET", "/auth/me", None),
    ("POST", "/auth/switch-company", {"companyId": 1}),
    ("POST", "/auth/logout", None),
])
def test_web_only_routes_refuse_api_keys(api, company_a, method, path, body):
    reply = api.request(method, path, body=body, key=company_a.api_key)
    assert reply.status == 403
    assert reply.json["code"] == "WEB_SESSION_REQUIRED"


def test_api_key_lifecycle_in_the_web_app(api, company_a):
    cookie = api.login(company_a.email)
    created = api.post("/settings/api-keys", {"name": "ERP sync", "expiresAt": "2099-12-31"},
                       cookie=cookie, origin=ORIGIN)
    assert created.status == 201, created.text
    body = created.json
    assert body["key"] == f"{body['id']}:{body['secret']}"
    assert body["id"].startswith("ak_") and len(body["id"]) == 19
    assert body["expiresAt"].startswith("2099-12-31T23:59:59")
    assert api.get("/business-partners", key=body["key"]).status == 200
    listed = api.get("/settings/api-keys", cookie=cookie).json["apiKeys"]
    assert body["id"] in {k["id"] for k in listed}
    assert all("secret" not in k and "secretHash" not in k for k in listed)


def test_only_owners_and_admins_create_keys(api, table, company_a, company_b):
    accounts.add_member(table, company_b.company_id, company_a.user_id, ACCOUNTANT)
    cookie = api.login(company_a.email)
    api.post("/auth/switch-company", {"companyId": company_b.company_id}, cookie=cookie, origin=ORIGIN)
    reply = api.post("/settings/api-keys", {"name": "x"}, cookie=cookie, origin=ORIGIN)
    assert reply.status == 403
    assert reply.json["code"] == "PERMISSION_DENIED"


def test_create_company_makes_the_caller_owner(api, company_a):
    cookie = api.login(company_a.email)
    created = api.post("/companies", {"name": "Nueva S.A.", "country": "SV"}, cookie=cookie, origin=ORIGIN)
    assert created.status == 201, created.text
    assert created.json["currency"] == "USD"
    me = api.get("/auth/me", cookie=cookie).json
    assert {"companyId": created.json["id"], "name": "Nueva S.A.", "role": "owner"} in me["companies"]


# --- rule 9: the origin check -----------------------------------------------------------------

def test_session_write_without_origin_is_403_no_origin(api, company_a):
    cookie = api.login(company_a.email)
    reply = api.post("/business-partners", PARTNER, cookie=cookie)
    assert reply.status == 403
    assert reply.json["code"] == "CSRF_NO_ORIGIN"


def test_write_from_a_foreign_origin_is_403_even_with_a_key(api, company_a):
    cookie = api.login(company_a.email)
    for credentials in ({"cookie": cookie}, {"key": company_a.api_key}):
        reply = api.post("/business-partners", PARTNER, origin="https://evil.example", **credentials)
        assert reply.status == 403
        assert reply.json["code"] == "CSRF_ORIGIN"


def test_referer_counts_as_origin(api, company_a):
    cookie = api.login(company_a.email)
    ok = api.post("/business-partners", PARTNER, cookie=cookie,
                  headers={"referer": "http://localhost:8000/app/partners?x=1"})
    assert ok.status == 201
    bad = api.post("/business-partners", PARTNER, cookie=cookie,
                   headers={"referer": "https://evil.example/localhost:8000"})
    assert bad.json["code"] == "CSRF_ORIGIN"


def test_api_key_without_origin_may_write(api, company_a):
    assert api.post("/business-partners", PARTNER, key=company_a.api_key).status == 201


def test_reads_need_no_origin(api, company_a):
    cookie = api.login(company_a.email)
    assert api.get("/business-partners", cookie=cookie).status == 200


def test_allowed_origins_come_from_configuration(api, company_a, settings_env):
    settings_env(ALLOWED_ORIGINS="https://app.example.hn")
    # login itself is origin-checked
    reply = api.post("/auth/login", {"email": company_a.email, "password": PASSWORD},
                     origin="https://app.example.hn")
    assert reply.status == 200
    reply = api.post("/auth/login", {"email": company_a.email, "password": PASSWORD}, origin=ORIGIN)
    assert reply.json["code"] == "CSRF_ORIGIN"


def test_login_without_origin_is_403_no_origin(api, company_a):
    reply = api.post("/auth/login", {"email": company_a.email, "password": PASSWORD})
    assert reply.status == 403
    assert reply.json["code"] == "CSRF_NO_ORIGIN"


def test_store_failure_while_checking_a_key_is_403_csrf_api_key_error(api, company_a, monkeypatch):
    from botocore.exceptions import ClientError

    from chalicelib.store.table import Table

    def broken(self, key, consistent=True):
        raise ClientError({"Error": {"Code": "InternalServerError", "Message": "boom"}}, "GetItem")

    monkeypatch.setattr(Table, "get", broken)
    reply = api.post("/business-partners", PARTNER, key=company_a.api_key)
    assert reply.status == 403
    assert reply.json["code"] == "CSRF_API_KEY_ERROR"
    assert "boom" not in reply.text


# --- rule 2: company scope ----------------------------------------------------------------------

def test_foreign_company_id_in_query_or_body_is_403_mismatch(api, company_a, company_b):
    reply = api.get(f"/business-partners?companyId={company_b.company_id}", key=company_a.api_key)
    assert reply.status == 403
    assert reply.json["code"] == "COMPANY_MISMATCH"
    reply = api.post("/business-partners", {**PARTNER, "company_id": company_b.company_id},
                     key=company_a.api_key)
    assert reply.status == 403
    assert reply.json["code"] == "COMPANY_MISMATCH"


def test_own_company_id_is_tolerated(api, company_a):
    reply = api.post("/business-partners", {**PARTNER, "companyId": company_a.company_id},
                     key=company_a.api_key)
    assert reply.status == 201, reply.text
    assert api.get(f"/business-partners?companyId={company_a.company_id}",
                   key=company_a.api_key).status == 200


# --- rate limit ----------------------------------------------------------------------------------

def test_rate_limit_per_key_when_enabled(api, company_a, company_b, settings_env):
    settings_env(RATE_LIMIT_ENABLED="1", RATE_LIMIT_REQUESTS="3", RATE_LIMIT_WINDOW_SECONDS="3600")
    for _ in range(3):
        assert api.get("/business-partners", key=company_a.api_key).status == 200
    limited = api.get("/business-partners", key=company_a.api_key)
    assert limited.status == 429
    assert limited.json["code"] == "RATE_LIMIT_EXCEEDED"
    assert 1 <= int(limited.header("Retry-After")) <= 3600
    # another key has its own window
    assert api.get("/business-partners", key=company_b.api_key).status == 200


def test_rate_limit_is_off_by_default(api, company_a, settings_env, table):
    # a limit of 2 that would refuse the third request, were the limiter on without being asked
    settings_env(RATE_LIMIT_REQUESTS="2", RATE_LIMIT_WINDOW_SECONDS="3600")
    for _ in range(5):
        assert api.get("/business-partners", key=company_a.api_key).status == 200
    windows, _ = table.query(partition=("PK", f"C#{company_a.company_id}#RATE"))
    assert windows == []  # nothing counted either


def test_a_user_of_sixty_companies_finds_and_enters_every_one(api, table, company_a, company_b):
    """An accounting firm keeping its clients' books: no company is out of reach, none is cut off
    without saying so, and another company never shows."""
    from tests.support import make_company

    clients = []
    for n in range(1, 60):  # company_a ("Alpha...") and 59 clients: 60 companies
        client = make_company(table, f"Cliente {n:02d} S. de R.L.", f"dueno{n}@clientes.hn")
        accounts.add_member(table, client.company_id, company_a.user_id, ACCOUNTANT)
        clients.append(client)
    cookie = api.login(company_a.email)
    me = api.get("/auth/me", cookie=cookie).json
    assert me["companiesTotal"] == 60 and len(me["companies"]) == 50
    assert company_b.company_id not in {c["companyId"] for c in me["companies"]}
    names = [c["name"] for c in me["companies"]]
    assert names == sorted(names, key=str.casefold)

    listed = api.get("/auth/companies?limit=100", cookie=cookie).json
    assert listed["total"] == 60 and len(listed["companies"]) == 60
    assert {c["companyId"] for c in listed["companies"]} == {company_a.company_id} | {c.company_id for c in clients}
    second_page = api.get("/auth/companies?limit=50&page=2", cookie=cookie).json
    assert [c["name"] for c in second_page["companies"]] == [c["name"] for c in listed["companies"][50:]]
    found = api.get("/auth/companies?q=cliente 42", cookie=cookie).json
    assert [c["name"] for c in found["companies"]] == ["Cliente 42 S. de R.L."] and found["total"] == 1
    assert api.get("/auth/companies?q=Beta", cookie=cookie).json["total"] == 0  # company_b is not the user's

    # the last by name, beyond the first 50: entered, and the session's view carries it
    last = clients[-1]
    switched = api.post("/auth/switch-company", {"companyId": last.company_id}, cookie=cookie, origin=ORIGIN)
    assert switched.status == 200, switched.text
    assert switched.json["companyId"] == last.company_id and switched.json["role"] == ACCOUNTANT
    me = api.get("/auth/me", cookie=cookie).json
    assert last.company_id in {c["companyId"] for c in me["companies"]} and len(me["companies"]) == 50
    assert api.get("/companies", cookie=cookie).json["name"] == "Cliente 59 S. de R.L."
    refused = api.post("/auth/switch-company", {"companyId": company_b.company_id}, cookie=cookie, origin=ORIGIN)
    assert refused.status == 404
