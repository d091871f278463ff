"""Idempotency-Key on POST: replay, mismatch, company scope, same transaction."""
from __future__ import annotations

import threading

from chalicelib.store import keys
from tests.support import ORIGIN, RACES

PARTNER = {"name": "Cliente", "type": "customer"}


def test_same_key_and_body_replays_the_first_answer(api, company_a):
    first = api.post("/business-partners", PARTNER, key=company_a.api_key, headers={"idempotency-key": "k-1"})
    again = api.post("/business-partners", PARTNER, key=company_a.api_key, headers={"idempotency-key": "k-1"})
    assert first.status == again.status == 201
    assert again.text == first.text
    assert again.header("Idempotent-Replayed") == "true"
    assert first.header("Idempotent-Replayed") is None
    assert api.get("/business-partners", key=company_a.api_key).json["total"] == 1


def test_same_key_other_body_is_422(api, company_a):
    api.post("/business-partners", PARTNER, key=company_a.api_key, headers={"idempotency-key": "k-2"})
    reply = api.post("/business-partners", {**PARTNER, "name": "Otro"}, key=company_a.api_key,
                     headers={"idempotency-key": "k-2"})
    assert reply.status == 422
    assert reply.json["code"] == "IDEMPOTENCY_KEY_REUSED"
    assert api.get("/business-partners", key=company_a.api_key).json["total"] == 1


def test_same_key_on_another_route_is_422(api, company_a):
    api.post("/business-partners", PARTNER, key=company_a.api_key, headers={"idempotency-key": "k-3"})
    reply = api.post("/products", {"code": "P", "name": "P"}, key=company_a.api_key,
                     headers={"idempotency-key": "k-3"})
    assert reply.status == 422


def test_keys_are_scoped_per_company(api, company_a, company_b):
    a = api.post("/business-partners", PARTNER, key=company_a.api_key, headers={"idempotency-key": "shared"})
    b = api.post("/business-partners", PARTNER, key=company_b.api_key, headers={"idempotency-key": "shared"})
    assert b.status == 201 and b.header("Idempotent-Replayed") is None
    assert a.json["id"] == b.json["id"] == 1
    assert api.get("/business-partners", key=company_b.api_key).json["total"] == 1


def test_record_is_written_with_the_command_and_expires_in_24h(api, table, company_a):
    reply = api.post("/business-partners", PARTNER, key=company_a.api_key, headers={"idempotency-key": "k-4"})
    record = table.get(keys.idempotency(company_a.company_id, "k-4"))
    assert record["status"] == 201 and record["body"] == reply.text
    assert 23 * 3600 < int(record["expiresAt"]) - int(__import__("time").time()) <= 24 * 3600


def test_a_failed_command_records_nothing(api, table, company_a):
    bad = api.post("/business-partners", {**PARTNER, "paymentConditionId": 5}, key=company_a.api_key,
                   headers={"idempotency-key": "k-5"})
    assert bad.status == 400
    assert table.get(keys.idempotency(company_a.company_id, "k-5")) is None
    good = api.post("/business-partners", PARTNER, key=company_a.api_key, headers={"idempotency-key": "k-5"})
    assert good.status == 201


def test_invalid_key_is_400(api, company_a):
    reply = api.post("/business-partners", PARTNER, key=company_a.api_key,
                     headers={"idempotency-key": "x" * 300})
    assert reply.status == 400
    assert reply.json["details"][0]["field"] == "Idempotency-Key"


@RACES
def test_concurrent_twins_create_once(api, company_a):
    replies = []

    def send():
        replies.append(api.post("/business-partners", PARTNER, key=company_a.api_key,
                                headers={"idempotency-key": "twin"}))

    threads = [threading.Thread(target=send) for _ in range(6)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert {r.status for r in replies} == {201}
    assert len({r.json["id"] for r in replies}) == 1
    assert api.get("/business-partners", key=company_a.api_key).json["total"] == 1


def test_revoke_with_a_key_revokes_once_and_replays(api, company_a):
    cookie = api.login(company_a.email)
    created = api.post("/settings/api-keys", {"name": "ERP"}, cookie=cookie, origin=ORIGIN).json
    path = f"/settings/api-keys/{created['id']}/revoke"
    first = api.post(path, cookie=cookie, origin=ORIGIN, headers={"idempotency-key": "revoke-1"})
    again = api.post(path, cookie=cookie, origin=ORIGIN, headers={"idempotency-key": "revoke-1"})
    assert first.status == again.status == 200, first.text
    assert first.json["status"] == "revoked" and again.text == first.text
    assert api.get("/companies", key=created["key"]).status == 401


def test_a_replayed_key_creation_never_shows_the_secret_again(api, table, company_a):
    cookie = api.login(company_a.email)
    first = api.post("/settings/api-keys", {"name": "ERP"}, cookie=cookie, origin=ORIGIN,
                     headers={"idempotency-key": "key-1"})
    again = api.post("/settings/api-keys", {"name": "ERP"}, cookie=cookie, origin=ORIGIN,
                     headers={"idempotency-key": "key-1"})
    assert first.status == again.status == 201
    secret = first.json["secret"]
    assert secret and first.json["key"].endswith(secret)
    assert again.header("Idempotent-Replayed") == "true"
    assert again.json["id"] == first.json["id"] and again.json["secret"] is None and again.json["key"] is None
    record = table.get(keys.idempotency(company_a.company_id, "key-1"))
    assert secret not in record["body"]
    assert len(api.get("/settings/api-keys", cookie=cookie).json["apiKeys"]) == 2  # the fixture's and this one


def test_create_company_honours_the_key(api, company_a):
    cookie = api.login(company_a.email)
    body = {"name": "Gamma S.A.", "country": "HN"}
    first = api.post("/companies", body, cookie=cookie, origin=ORIGIN, headers={"idempotency-key": "co-1"})
    again = api.post("/companies", body, cookie=cookie, origin=ORIGIN, headers={"idempotency-key": "co-1"})
    assert first.status == again.status == 201
    assert again.header("Idempotent-Replayed") == "true" and again.json["id"] == first.json["id"]
    companies = api.get("/auth/me", cookie=cookie).json["companies"]
    assert [c["name"] for c in companies].count("Gamma S.A.") == 1
