"""Company, business partners and products end to end: API -> service -> store, with the
outbox event written in the same transaction, optimistic versions, listing and isolation."""
from __future__ import annotations

from decimal import Decimal

import pytest

from chalicelib.store import keys
from tests.support import ORIGIN


def outbox(table, company_id):
    items, _ = table.query(partition=("PK", f"C#{company_id}#EVT"), consistent=True)
    return [item["payload"] for item in items]


def create_partner(api, company, **fields):
    body = {"name": "Cliente", "type": "customer", **fields}
    reply = api.post("/business-partners", body, key=company.api_key)
    assert reply.status == 201, reply.text
    return reply.json


# --- company -----------------------------------------------------------------------------------

def test_get_company_of_the_context(api, company_a):
    reply = api.get("/companies", key=company_a.api_key)
    assert reply.status == 200
    assert reply.json["id"] == company_a.company_id
    assert reply.json["currency"] == "HNL" and reply.json["creditLimitPolicy"] == "off"


def test_update_company_is_sparse_and_versioned(api, company_a):
    path = f"/companies/{company_a.company_id}"
    reply = api.put(path, {"taxId": "08019999123456", "creditLimitPolicy": "block"}, key=company_a.api_key)
    assert reply.status == 200, reply.text
    assert reply.json["taxId"] == "08019999123456" and reply.json["name"] == "Alpha S. de R.L."
    assert reply.json["version"] == 2
    stale = api.put(path, {"phone": "2222-0000", "version": 1}, key=company_a.api_key)
    assert stale.status == 409 and stale.json["code"] == "VERSION_CONFLICT"
    stale = api.put(path, {"phone": "2222-0000"}, key=company_a.api_key, headers={"if-match": '"1"'})
    assert stale.status == 409 and stale.json["code"] == "VERSION_CONFLICT"
    fresh = api.put(path, {"phone": "2222-0000"}, key=company_a.api_key, headers={"if-match": "2"})
    assert fresh.status == 200 and fresh.json["version"] == 3


def test_update_company_covers_every_setting_of_the_design(api, company_a):
    path = f"/companies/{company_a.company_id}"
    settings = {"name": "Alpha Centroamérica", "taxId": "06141234567890", "country": "SV", "currency": "USD",
                "address": "Col. Escalón, San Salvador", "email": "conta@alpha.sv", "phone": "+503 2200-0000",
                "creditLimitPolicy": "warn", "allowNegativeStock": True}
    reply = api.put(path, settings, key=company_a.api_key)
    assert reply.status == 200, reply.text
    current = api.get("/companies", key=company_a.api_key).json
    assert {field: current[field] for field in settings} == settings


@pytest.mark.parametrize("change", [{"country": "GT"}, {"currency": "EUR"}, {"creditLimitPolicy": "maybe"},
                                    {"email": "not-an-address"}, {"allowNegativeStock": "sometimes"},
                                    {"creditLimit": 5}])
def test_update_company_refuses_bad_settings_and_changes_nothing(api, company_a, change):
    before = api.get("/companies", key=company_a.api_key).json
    reply = api.put(f"/companies/{company_a.company_id}", change, key=company_a.api_key)
    assert reply.status == 400 and reply.json["code"] == "VALIDATION_ERROR", reply.text
    assert reply.json["details"]
    assert api.get("/companies", key=company_a.api_key).json == before


def test_update_company_rejects_null_for_required_fields(api, company_a):
    reply = api.put(f"/companies/{company_a.company_id}", {"name": None}, key=company_a.api_key)
    assert reply.status == 400


def test_update_another_company_is_404(api, company_a, company_b):
    reply = api.put(f"/companies/{company_b.company_id}", {"name": "Mine now"}, key=company_a.api_key)
    assert reply.status == 404
    assert api.get("/companies", key=company_b.api_key).json["name"] == "Beta S.A."


# --- business partners -------------------------------------------------------------------------

def test_partner_create_get_update_with_credit_fields(api, table, company_a):
    created = create_partner(api, company_a, taxId="0801199900123", credit_limit=5000.5,
                             credit_block_days=30, email="pagos@cliente.hn")
    assert created["credit_limit"] == Decimal("5000.50") and created["credit_block_days"] == 30
    assert created["receivableBalance"] == 0 and created["payableBalance"] == 0
    assert '"credit_limit":5000.50' in api.get(f"/business-partners/{created['id']}",
                                               key=company_a.api_key).text
    updated = api.put(f"/business-partners/{created['id']}", {"credit_limit": 7500, "email": None},
                      key=company_a.api_key)
    assert updated.status == 200, updated.text
    assert updated.json["credit_limit"] == 7500 and updated.json["email"] is None
    assert updated.json["name"] == "Cliente" and updated.json["version"] == 2
    stored = table.get(keys.entity(company_a.company_id, keys.PARTNER, created["id"]))
    assert "email" not in stored and stored["credit_limit"] == Decimal("7500.00")


def test_partner_events_have_the_spec_payload_shape(api, table, company_a):
    created = create_partner(api, company_a)
    api.put(f"/business-partners/{created['id']}", {"name": "Cliente Renombrado"}, key=company_a.api_key)
    events = outbox(table, company_a.company_id)
    assert [e["event"] for e in events] == ["business_partner.created", "business_partner.updated"]
    for event in events:
        assert set(event) == {"event", "companyId", "resourceType", "resourceId", "occurredAt", "data"}
        assert event["companyId"] == company_a.company_id
        assert event["resourceType"] == "business_partner" and event["resourceId"] == created["id"]
        assert event["occurredAt"].endswith("Z")
    assert events[1]["data"]["name"] == "Cliente Renombrado"


def test_failed_write_leaves_no_event_and_no_count(api, table, company_a):
    reply = api.post("/business-partners", {"name": "X", "type": "customer", "paymentConditionId": 77},
                     key=company_a.api_key)
    assert reply.status == 400
    assert reply.json["details"] == [{"field": "paymentConditionId", "message": "no such payment condition"}]
    assert outbox(table, company_a.company_id) == []
    assert api.get("/business-partners", key=company_a.api_key).json["total"] == 0


def test_unchanged_update_writes_nothing(api, table, company_a):
    created = create_partner(api, company_a)
    same = api.put(f"/business-partners/{created['id']}", {"name": "Cliente"}, key=company_a.api_key)
    assert same.json["version"] == 1
    assert len(outbox(table, company_a.company_id)) == 1


def test_partner_list_pages_and_cursor(api, company_a):
    ids = [create_partner(api, company_a, name=f"Cliente {n}")["id"] for n in range(7)]
    first = api.get("/business-partners?limit=3", key=company_a.api_key).json
    assert first["total"] == 7 and first["page"] == 1 and first["limit"] == 3
    assert [p["id"] for p in first["businessPartners"]] == ids[:3]
    third = api.get("/business-partners?limit=3&page=3", key=company_a.api_key).json
    assert [p["id"] for p in third["businessPartners"]] == ids[6:]
    assert third["nextCursor"] is None
    seen, cursor = [], None
    while True:
        query = "limit=2" + (f"&cursor={cursor}" if cursor else "")
        page = api.get(f"/business-partners?{query}", key=company_a.api_key).json
        seen += [p["id"] for p in page["businessPartners"]]
        cursor = page["nextCursor"]
        if not cursor:
            break
    assert seen == ids


def test_default_page_size_is_20(api, company_a):
    assert api.get("/business-partners", key=company_a.api_key).json["limit"] == 20


def test_a_cursor_from_another_company_is_refused(api, company_a, company_b):
    for n in range(3):
        create_partner(api, company_b, name=f"B{n}")
    cursor = api.get("/business-partners?limit=1", key=company_b.api_key).json["nextCursor"]
    reply = api.get(f"/business-partners?limit=1&cursor={cursor}", key=company_a.api_key)
    assert reply.status == 400
    assert reply.json["details"][0]["field"] == "cursor"


# --- products -----------------------------------------------------------------------------------

def test_product_create_update_and_unique_code(api, table, company_a, company_b):
    body = {"code": "CAF-001", "name": "Café molido 500 g", "unitPrice": 120, "cost": 80.5, "taxRate": 0.15}
    created = api.post("/products", body, key=company_a.api_key)
    assert created.status == 201, created.text
    product = created.json
    assert product["trackInventory"] is True and product["unitPrice"] == 120
    assert '"unitPrice":120.00' in created.text
    duplicate = api.post("/products", {**body, "code": "caf-001"}, key=company_a.api_key)
    assert duplicate.status == 409 and duplicate.json["code"] == "DUPLICATE_CODE"
    # the code is unique per company only
    assert api.post("/products", body, key=company_b.api_key).status == 201
    other = api.post("/products", {**body, "code": "CAF-002"}, key=company_a.api_key).json
    clash = api.put(f"/products/{other['id']}", {"code": "CAF-001"}, key=company_a.api_key)
    assert clash.status == 409
    renamed = api.put(f"/products/{product['id']}", {"code": "CAF-100", "unitPrice": 130},
                      key=company_a.api_key)
    assert renamed.status == 200 and renamed.json["code"] == "CAF-100"
    # the old code is free again, the new one is taken
    assert api.put(f"/products/{other['id']}", {"code": "CAF-001"}, key=company_a.api_key).status == 200
    assert api.post("/products", {**body, "code": "CAF-100"}, key=company_a.api_key).status == 409
    events = [e["event"] for e in outbox(table, company_a.company_id)]
    assert events == ["product.created", "product.created", "product.updated", "product.updated"]


def test_service_products_do_not_track_inventory(api, company_a):
    reply = api.post("/products", {"code": "SRV-1", "name": "Consultoría", "type": "service"},
                     key=company_a.api_key)
    assert reply.json["trackInventory"] is False and reply.json["taxRate"] == Decimal("0.15")
    assert '"unitPrice":0.00,"cost":0.00' in reply.text
    assert '"name":"Consultoría"' in reply.text  # UTF-8, not \u escapes


@pytest.mark.parametrize("rate", [0.12, -0.15, 1, "0.15x"])
def test_product_tax_rate_must_be_an_isv_rate(api, company_a, rate):
    reply = api.post("/products", {"code": "X", "name": "X", "taxRate": rate}, key=company_a.api_key)
    assert reply.status == 400
    assert reply.json["details"][0]["field"] == "taxRate"


# --- tenant isolation -----------------------------------------------------------------------------

def test_another_companys_ids_are_404_and_lists_are_separate(api, company_a, company_b):
    # ids are per company: A's partner 2 and product 2 have no twin in B
    create_partner(api, company_a, name="Primero")
    partner = create_partner(api, company_a)
    api.post("/products", {"code": "A0", "name": "A0"}, key=company_a.api_key)
    product = api.post("/products", {"code": "A1", "name": "A"}, key=company_a.api_key).json
    assert partner["id"] == product["id"] == 2
    create_partner(api, company_b, name="De B")
    for path in (f"/business-partners/{partner['id']}", f"/products/{product['id']}"):
        assert api.get(path, key=company_b.api_key).status == 404
        reply = api.put(path, {"name": "hijacked"}, key=company_b.api_key)
        assert reply.status == 404 and reply.json["code"] == "NOT_FOUND"
    assert api.get(f"/business-partners/{partner['id']}", key=company_a.api_key).json["name"] == "Cliente"
    listed_b = api.get("/business-partners", key=company_b.api_key).json
    assert [p["name"] for p in listed_b["businessPartners"]] == ["De B"] and listed_b["total"] == 1
    # B's own partner 1 is B's, never A's
    assert api.get("/business-partners/1", key=company_b.api_key).json["name"] == "De B"
    assert api.get("/products", key=company_b.api_key).json["total"] == 0


def test_session_users_see_only_their_company(api, company_a, company_b):
    create_partner(api, company_b, name="Secreto de B")
    cookie = api.login(company_a.email)
    listed = api.get("/business-partners", cookie=cookie).json
    assert listed["businessPartners"] == [] and listed["total"] == 0
    created = api.post("/business-partners", {"name": "De A", "type": "supplier"}, cookie=cookie, origin=ORIGIN)
    assert created.status == 201
    assert api.get("/business-partners", key=company_b.api_key).json["total"] == 1
