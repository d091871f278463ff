"""Payment conditions and payment methods: their rules, their use by partners and documents,
web-only deletes and tenant isolation."""
from __future__ import annotations

import pytest

from tests.documents_support import Shop
from tests.support import ORIGIN


@pytest.fixture
def shop(api, company_a) -> Shop:
    return Shop(api, company_a)


def test_conditions_carry_credit_days_only_when_they_are_credit(api, company_a):
    key = company_a.api_key
    cash = api.post("/payment-conditions", {"name": "Contado", "type": "cash"}, key=key)
    assert cash.status == 201 and cash.json["creditDays"] == 0
    credit = api.post("/payment-conditions", {"name": "Crédito 30 días", "type": "credit", "creditDays": 30}, key=key)
    assert credit.status == 201 and credit.json["creditDays"] == 30
    for body, field in (({"name": "x", "type": "credit"}, "creditDays"),
                        ({"name": "x", "type": "cash", "creditDays": 5}, "creditDays"),
                        ({"name": "x", "type": "later"}, "type"),
                        ({"name": "x", "type": "credit", "creditDays": -1}, "creditDays"),
                        ({"name": "x", "type": "credit", "creditDays": 0}, "creditDays"),
                        ({"name": "x", "type": "credit", "creditDays": "30"}, "creditDays"),
                        ({"type": "cash"}, "name")):
        refused = api.post("/payment-conditions", body, key=key)
        assert refused.status == 400 and refused.json["details"][0]["field"] == field, (body, refused.text)
    assert api.put(f"/payment-conditions/{cash.json['id']}", {"type": "credit"}, key=key).status == 400
    changed = api.put(f"/payment-conditions/{cash.json['id']}", {"type": "credit", "creditDays": 15}, key=key)
    assert changed.status == 200 and changed.json["creditDays"] == 15 and changed.json["version"] == 2
    back = api.put(f"/payment-conditions/{cash.json['id']}", {"type": "cash"}, key=key)
    assert back.status == 200 and back.json["creditDays"] == 0
    listed = api.get("/payment-conditions", key=key).json
    assert listed["total"] == 2 and [c["name"] for c in listed["paymentConditions"]] == ["Contado", "Crédito 30 días"]


def test_a_credit_condition_sets_document_due_dates(api, shop):
    key = shop.key
    thirty = shop.created("/payment-conditions", {"name": "30 días", "type": "credit", "creditDays": 30})
    eight = shop.created("/payment-conditions", {"name": "8 días", "type": "credit", "creditDays": 8})
    assert api.put(f"/business-partners/{shop.customer}", {"paymentConditionId": thirty["id"]}, key=key).status == 200
    from_partner = shop.document("01", [(shop.service, 1, 10)], date="2026-11-20")
    assert (from_partner["dueDate"], from_partner["paymentConditionId"]) == ("2026-12-20", thirty["id"])
    from_document = shop.document("01", [(shop.service, 1, 10)], date="2026-11-20", paymentConditionId=eight["id"])
    assert from_document["dueDate"] == "2026-11-28"
    explicit = shop.document("01", [(shop.service, 1, 10)], date="2026-11-20", dueDate="2026-11-21")
    assert explicit["dueDate"] == "2026-11-21"
    missing = shop.document("01", [(shop.service, 1, 10)], paymentConditionId=99, expect=400)
    assert missing["details"][0]["field"] == "paymentConditionId"


def test_a_condition_partners_use_cannot_be_deleted_and_deletes_are_web_only(api, company_a):
    key = company_a.api_key
    used = api.post("/payment-conditions", {"name": "30 días", "type": "credit", "creditDays": 30}, key=key).json
    other = api.post("/payment-conditions", {"name": "Contado", "type": "cash"}, key=key).json
    partner = api.post("/business-partners", {"name": "Cliente", "type": "customer", "paymentConditionId": used["id"]},
                       key=key).json
    refused = api.post("/business-partners", {"name": "Otro", "type": "customer", "paymentConditionId": 99}, key=key)
    assert refused.status == 400 and refused.json["details"][0]["field"] == "paymentConditionId"
    assert api.delete(f"/payment-conditions/{used['id']}", key=key).json["code"] == "API_KEY_DELETE_FORBIDDEN"
    cookie = api.login(company_a.email)
    in_use = api.delete(f"/payment-conditions/{used['id']}", cookie=cookie, origin=ORIGIN)
    assert in_use.status == 400 and in_use.json["code"] == "RECORD_IN_USE"
    assert api.put(f"/business-partners/{partner['id']}", {"paymentConditionId": other["id"]}, key=key).status == 200
    assert api.delete(f"/payment-conditions/{other['id']}", cookie=cookie, origin=ORIGIN).status == 400
    deleted = api.delete(f"/payment-conditions/{used['id']}", cookie=cookie, origin=ORIGIN)
    assert deleted.status == 200 and deleted.json == {"id": used["id"], "deleted": True}
    assert api.get(f"/payment-conditions/{used['id']}", key=key).status == 404
    assert api.put(f"/business-partners/{partner['id']}", {"paymentConditionId": None}, key=key).status == 200
    assert api.delete(f"/payment-conditions/{other['id']}", cookie=cookie, origin=ORIGIN).status == 200


def test_payment_methods(api, company_a):
    key = company_a.api_key
    cash = api.post("/payments/methods", {"name": "Efectivo", "isCashMethod": True}, key=key)
    assert cash.status == 201, cash.text
    assert (cash.json["isCashMethod"], cash.json["requiresConfirmation"], cash.json["isActive"],
            cash.json["bankAccountId"]) == (True, False, True, None)
    cheque = api.post("/payments/methods", {"name": "Cheque", "requiresConfirmation": True}, key=key).json
    no_bank = api.post("/payments/methods", {"name": "Transferencia", "bankAccountId": 7}, key=key)
    assert no_bank.status == 400 and no_bank.json["details"][0]["field"] == "bankAccountId"
    for body in ({"name": ""}, {"name": "x", "isCashMethod": []}, {"name": "x", "bankAccountId": 0},
                 {"name": "x", "fee": 1}):
        assert api.post("/payments/methods", body, key=key).status == 400, body
    inactive = api.put(f"/payments/methods/{cheque['id']}", {"isActive": False}, key=key)
    assert inactive.status == 200 and inactive.json["isActive"] is False
    assert api.put(f"/payments/methods/{cheque['id']}", {"bankAccountId": 3}, key=key).status == 400
    listed = api.get("/payments/methods", key=key).json
    assert listed["total"] == 2 and [m["name"] for m in listed["paymentMethods"]] == ["Efectivo", "Cheque"]
    assert api.delete(f"/payments/methods/{cheque['id']}", key=key).status == 403
    cookie = api.login(company_a.email)
    assert api.delete(f"/payments/methods/{cheque['id']}", cookie=cookie, origin=ORIGIN).status == 200
    assert api.get("/payments/methods", key=key).json["total"] == 1


def test_another_companys_conditions_and_methods_are_404(api, company_a, company_b):
    condition = api.post("/payment-conditions", {"name": "Contado", "type": "cash"}, key=company_a.api_key).json
    method = api.post("/payments/methods", {"name": "Efectivo"}, key=company_a.api_key).json
    cookie = api.login(company_b.email)
    for path in (f"/payment-conditions/{condition['id']}", f"/payments/methods/{method['id']}"):
        assert api.get(path, key=company_b.api_key).status == 404
        assert api.put(path, {"name": "Robado"}, key=company_b.api_key).status == 404
        assert api.delete(path, cookie=cookie, origin=ORIGIN).status == 404
    assert api.get("/payment-conditions", key=company_b.api_key).json["total"] == 0
    assert api.get("/payments/methods", key=company_b.api_key).json["total"] == 0
    refused = api.post("/business-partners", {"name": "x", "type": "customer", "paymentConditionId": condition["id"]},
                       key=company_b.api_key)
    assert refused.status == 400
    assert api.get(f"/payment-conditions/{condition['id']}", key=company_a.api_key).json["name"] == "Contado"
