"""Payment gateways (the secret is write-only), payment links, and the gateways' signed
notifications: a payment registered once per gateway transaction, refusals recorded."""
from __future__ import annotations

import datetime as dt
import hashlib
import hmac
import json
import threading
import time
from decimal import Decimal

import pytest

from chalicelib import clock
from chalicelib.auth import sealing
from chalicelib.services.integrations import gateways
from chalicelib.store import keys
from tests.documents_support import Shop, outbox_payloads
from tests.support import ORIGIN

D = Decimal
SECRET_A = "gwa_secret_0123456789abcdefXYZ1"
SECRET_B = "gwb_secret_abcdefghijklmnopQRS2"


def fingerprint(secret: str) -> str:
    return "sha256:" + hashlib.sha256(secret.encode()).hexdigest()[:12]


@pytest.fixture
def shop(api, company_a) -> Shop:
    return Shop(api, company_a)


def new_method(shop: Shop, **fields) -> dict:
    return shop.created("/payments/methods", {"name": "Pasarela", **fields})


def new_gateway(shop: Shop, provider: str = "gateway-a", **fields) -> dict:
    method = fields.pop("paymentMethodId", None) or new_method(shop)["id"]
    secret = SECRET_A if provider == "gateway-a" else SECRET_B
    return shop.created("/payments/gateways", {"name": f"Cobros {provider}", "provider": provider,
                                               "paymentMethodId": method, "secret": secret, **fields})


def generate(shop: Shop, document_id: int, gateway_id: int, expect: int = 201, **fields) -> dict:
    reply = shop.api.post("/payments/generate-link", {"documentId": document_id, "gatewayId": gateway_id, **fields},
                          key=shop.key)
    assert reply.status == expect, reply.text
    return reply.json


def gateway_a_body(link_id: str, transaction_id: str, amount: str, *, event: str = "payment.succeeded",
                   currency: str = "HNL", paid_at: str | None = None) -> bytes:
    paid_at = paid_at or dt.datetime.now(dt.timezone.utc).isoformat()
    return json.dumps({"event": event, "data": {"linkId": link_id, "transactionId": transaction_id, "amount": amount,
                                                "currency": currency, "paidAt": paid_at}}).encode()


def gateway_b_body(link_id: str, charge_id: str, cents: int, *, event: str = "charge.completed") -> bytes:
    return json.dumps({"type": event, "charge": {"id": charge_id, "reference": link_id, "amountCents": cents,
                                                 "currency": "hnl", "created": int(time.time())}}).encode()


def signed_a(body: bytes, secret: str = SECRET_A) -> dict[str, str]:
    return {"X-Gateway-A-Signature": hmac.new(secret.encode(), body, hashlib.sha256).hexdigest()}


def signed_b(body: bytes, timestamp: int | None = None, secret: str = SECRET_B) -> dict[str, str]:
    timestamp = int(time.time()) if timestamp is None else timestamp
    signature = hmac.new(secret.encode(), f"{timestamp}.".encode() + body, hashlib.sha256).hexdigest()
    return {"Gateway-B-Signature": f"t={timestamp},v1={signature}"}


def notify(api, provider: str, body: bytes, headers: dict[str, str]):
    """As a gateway sends it: no API key, no cookie, no Origin."""
    return api.request("POST", f"/webhooks/{provider}", raw=body, headers=headers)


def payments_of(shop: Shop, document_id: int) -> list[dict]:
    return shop.api.get(f"/payments/documents/{document_id}/payments", key=shop.key).json["payments"]


def pending(shop: Shop, document_id: int) -> tuple[Decimal, Decimal]:
    document = shop.get(document_id)
    return D(str(document["pending"])), D(str(document["paidTotal"]))


def decision(table, shop: Shop, provider: str, transaction_id: str) -> dict | None:
    return table.get(keys.gateway_callback(shop.company.company_id, provider, transaction_id))


# --- gateways -------------------------------------------------------------------------------------

def test_gateways_are_created_listed_and_rotated_without_ever_showing_the_secret(api, shop, table):
    method = new_method(shop)
    body = {"name": "Cobros en línea", "provider": "gateway-a", "paymentMethodId": method["id"], "secret": SECRET_A}
    created = api.post("/payments/gateways", body, key=shop.key, headers={"idempotency-key": "gw-1"})
    assert created.status == 201, created.text
    assert {name: created.json[name] for name in ("name", "provider", "paymentMethodId", "isActive", "hasSecret",
                                                  "secretFingerprint", "version")} == {
        "name": "Cobros en línea", "provider": "gateway-a", "paymentMethodId": method["id"], "isActive": True,
        "hasSecret": True, "secretFingerprint": fingerprint(SECRET_A), "version": 1}
    replayed = api.post("/payments/gateways", body, key=shop.key, headers={"idempotency-key": "gw-1"})
    assert replayed.header("Idempotent-Replayed") == "true" and replayed.text == created.text
    gateway_id = created.json["id"]
    shown = api.get(f"/payments/gateways/{gateway_id}", key=shop.key)
    listed = api.get("/payments/gateways", key=shop.key)
    assert listed.json["total"] == 1 and listed.json["paymentGateways"][0]["id"] == gateway_id
    rotated = api.put(f"/payments/gateways/{gateway_id}", {"secret": SECRET_B, "name": "Cobros"}, key=shop.key)
    assert rotated.status == 200 and rotated.json["version"] == 2 and rotated.json["secretFingerprint"] == fingerprint(SECRET_B)
    for reply in (created, replayed, shown, listed, rotated):
        assert "secret" not in json.loads(reply.text) and SECRET_A[:12] not in reply.text
        assert SECRET_B[:12] not in reply.text
    stored = table.get(keys.small_record(shop.company.company_id, keys.PAYMENT_GATEWAY, gateway_id))
    # kept sealed (notifications are verified with it), never as it is
    assert "secret" not in stored and SECRET_B[:12] not in json.dumps(stored, default=str)
    assert sealing.opened_text(stored, shop.company.company_id, gateways.SECRET_PURPOSE) == SECRET_B
    idempotency_record = table.get(keys.idempotency(shop.company.company_id, "gw-1"))
    assert SECRET_A[:12] not in json.dumps(idempotency_record, default=str)
    assert SECRET_A[:12] not in json.dumps(outbox_payloads(table, shop.company.company_id), default=str)


def test_gateway_input_is_validated(api, shop):
    method = new_method(shop)
    inactive = new_method(shop, isActive=False)
    good = {"name": "G", "provider": "gateway-b", "paymentMethodId": method["id"], "secret": SECRET_B}
    for changes, field in (({"provider": "gateway-c"}, "provider"), ({"secret": "too-short"}, "secret"),
                           ({"secret": "has spaces in the middle"}, "secret"), ({"paymentMethodId": 99}, "paymentMethodId"),
                           ({"paymentMethodId": inactive["id"]}, "paymentMethodId"), ({"url": "x"}, "url"),
                           ({"paymentMethodId": "1"}, "paymentMethodId")):
        refused = api.post("/payments/gateways", {**good, **changes}, key=shop.key)
        assert refused.status == 400 and refused.json["details"][0]["field"] == field, (changes, refused.text)
    for missing in ("name", "provider", "paymentMethodId", "secret"):
        body = {name: value for name, value in good.items() if name != missing}
        refused = api.post("/payments/gateways", body, key=shop.key)
        assert refused.status == 400 and refused.json["details"][0]["field"] == missing
    gateway = new_gateway(shop)
    path = f"/payments/gateways/{gateway['id']}"
    for changes, field in (({"provider": "gateway-b"}, "provider"), ({"secret": None}, "secret"),
                           ({"secret": "short"}, "secret"), ({"paymentMethodId": inactive["id"]}, "paymentMethodId")):
        refused = api.put(path, changes, key=shop.key)
        assert refused.status == 400 and refused.json["details"][0]["field"] == field, (changes, refused.text)
    assert api.get(path, key=shop.key).json["version"] == 1
    assert api.get("/payments/gateways", key=shop.key).json["total"] == 1


def test_another_companys_gateways_are_404(api, shop, company_b):
    gateway = new_gateway(shop)
    other_key, path = company_b.api_key, f"/payments/gateways/{gateway['id']}"
    assert api.get(path, key=other_key).status == 404
    assert api.put(path, {"name": "mine"}, key=other_key).status == 404
    other_session = api.login(company_b.email)
    assert api.delete(path, cookie=other_session, origin=ORIGIN).status == 404
    assert api.get("/payments/gateways", key=other_key).json["total"] == 0
    assert api.get(path, key=shop.key).json["name"] == gateway["name"]


def test_deleting_a_gateway_is_web_only_and_waits_for_its_links_to_expire(api, shop, company_a, settings_env,
                                                                          monkeypatch):
    used, unused = new_gateway(shop), new_gateway(shop, "gateway-b")
    invoice = shop.document("01", [(shop.service, 1, 100)])
    generate(shop, invoice["id"], used["id"])
    forbidden = api.delete(f"/payments/gateways/{unused['id']}", key=shop.key)
    assert forbidden.status == 403 and forbidden.json["code"] == "API_KEY_DELETE_FORBIDDEN"
    session = api.login(company_a.email)
    in_use = api.delete(f"/payments/gateways/{used['id']}", cookie=session, origin=ORIGIN)
    assert in_use.status == 400 and in_use.json["code"] == "RECORD_IN_USE"
    deleted = api.delete(f"/payments/gateways/{unused['id']}", cookie=session, origin=ORIGIN)
    assert deleted.status == 200 and deleted.json == {"id": unused["id"], "deleted": True}
    assert api.get(f"/payments/gateways/{unused['id']}", key=shop.key).status == 404
    settings_env(PAYMENT_LINK_TTL_HOURS="0")  # links expire at once
    shortlived = new_gateway(shop)
    generate(shop, invoice["id"], shortlived["id"])
    # a payment made in time may be notified days later: the gateway stays a week after its last link
    waiting = api.delete(f"/payments/gateways/{shortlived['id']}", cookie=session, origin=ORIGIN)
    assert waiting.status == 400 and waiting.json["code"] == "RECORD_IN_USE"
    week_later = clock.now() + dt.timedelta(days=7, minutes=1)
    monkeypatch.setattr(clock, "now", lambda: week_later)
    assert api.delete(f"/payments/gateways/{shortlived['id']}", cookie=session, origin=ORIGIN).status == 200


# --- payment links --------------------------------------------------------------------------------

def test_a_link_collects_the_pending_total_or_part_of_it(api, shop, table, settings_env):
    settings_env(PAYMENT_LINK_BASE_URL="https://cobros.example.hn/pagar/", PAYMENT_LINK_TTL_HOURS="48")
    gateway = new_gateway(shop)
    invoice = shop.document("01", [(shop.service, 1, 100)])  # 115.00
    before = time.time()
    reply = api.post("/payments/generate-link", {"documentId": invoice["id"], "gatewayId": gateway["id"]},
                     key=shop.key, headers={"idempotency-key": "link-1"})
    assert reply.status == 201, reply.text
    link = reply.json
    assert link["linkId"].startswith("pl_") and len(link["linkId"]) == 27
    assert link["url"] == "https://cobros.example.hn/pagar/" + link["linkId"]
    assert (D(str(link["amount"])), link["currency"], link["documentId"], link["gatewayId"], link["status"]) == (
        D("115.00"), "HNL", invoice["id"], gateway["id"], "active")
    expires = dt.datetime.fromisoformat(link["expiresAt"].replace("Z", "+00:00")).timestamp()
    assert before + 48 * 3600 - 5 <= expires <= time.time() + 48 * 3600
    replayed = api.post("/payments/generate-link", {"documentId": invoice["id"], "gatewayId": gateway["id"]},
                        key=shop.key, headers={"idempotency-key": "link-1"})
    assert replayed.json["linkId"] == link["linkId"]
    stored = table.get(keys.payment_link(link["linkId"]))
    assert (stored["companyId"], stored["gatewayId"], stored["documentId"], stored["provider"]) == (
        shop.company.company_id, gateway["id"], invoice["id"], "gateway-a")
    part = generate(shop, invoice["id"], gateway["id"], amount=15.5)
    assert D(str(part["amount"])) == D("15.50") and part["linkId"] != link["linkId"]
    assert pending(shop, invoice["id"]) == (D("115.00"), 0)  # a link is a request, not a payment


def test_links_are_only_for_confirmed_sales_documents_with_something_pending(api, shop, company_b):
    gateway = new_gateway(shop)
    invoice = shop.document("01", [(shop.service, 1, 100)])
    too_much = generate(shop, invoice["id"], gateway["id"], 400, amount=115.01)
    assert too_much["code"] == "AMOUNT_EXCEEDS_PENDING"
    assert generate(shop, invoice["id"], gateway["id"], 400, amount=0)["details"][0]["field"] == "amount"
    draft = shop.document("01", [(shop.service, 1, 100)], status="draft")
    assert generate(shop, draft["id"], gateway["id"], 400)["code"] == "DOCUMENT_NOT_PAYABLE"
    purchase = shop.document("103", [(shop.service, 1, 100)])
    assert generate(shop, purchase["id"], gateway["id"], 400)["code"] == "DOCUMENT_NOT_PAYABLE"
    cash = new_method(shop)
    paid = shop.document("01", [(shop.service, 1, 10)])
    shop.api.post(f"/payments/documents/{paid['id']}/payments", {"paymentMethodId": cash["id"], "amount": 11.5},
                  key=shop.key)
    assert generate(shop, paid["id"], gateway["id"], 400)["code"] == "DOCUMENT_NOT_PAYABLE"
    assert generate(shop, 999, gateway["id"], 404)["code"] == "NOT_FOUND"
    unknown_gateway = generate(shop, invoice["id"], 999, 400)
    assert unknown_gateway["details"][0]["field"] == "gatewayId"
    inactive = new_gateway(shop, isActive=False)
    assert generate(shop, invoice["id"], inactive["id"], 400)["code"] == "PAYMENT_GATEWAY_INACTIVE"
    method = new_method(shop)
    switched_off = new_gateway(shop, paymentMethodId=method["id"])
    api.put(f"/payments/methods/{method['id']}", {"isActive": False}, key=shop.key)
    assert generate(shop, invoice["id"], switched_off["id"], 400)["code"] == "PAYMENT_METHOD_INACTIVE"
    # another company's document and gateway
    other = Shop(api, company_b)
    other_gateway = new_gateway(other)
    while api.get(f"/payments/gateways/{other_gateway['id']}", key=shop.key).status != 404:
        other_gateway = new_gateway(other)
    other_invoice = other.document("01", [(other.service, 1, 100)])
    while api.get(f"/documents/{other_invoice['id']}", key=shop.key).status != 404:  # an id only company B has
        other_invoice = other.document("01", [(other.service, 1, 100)])
    assert generate(shop, other_invoice["id"], gateway["id"], 404)["code"] == "NOT_FOUND"
    assert generate(shop, invoice["id"], other_gateway["id"], 400)["details"][0]["field"] == "gatewayId"
    cash_terms = shop.created("/payment-conditions", {"name": "Contado", "type": "cash"})
    cash_invoice = shop.document("01", [(shop.service, 1, 100)], paymentConditionId=cash_terms["id"])
    assert generate(shop, cash_invoice["id"], gateway["id"], 400, amount=50)["code"] == "CASH_CONDITION_UNMET"
    generate(shop, cash_invoice["id"], gateway["id"])


# --- notifications --------------------------------------------------------------------------------

def test_gateway_a_notification_registers_the_payment_once(api, shop, table):
    method = new_method(shop)
    gateway = new_gateway(shop, paymentMethodId=method["id"])
    invoice = shop.document("01", [(shop.service, 1, 100)])  # 115.00
    link = generate(shop, invoice["id"], gateway["id"])
    body = gateway_a_body(link["linkId"], "txa_1001", "115.00")
    first = notify(api, "gateway-a", body, signed_a(body))
    assert first.status == 200, first.text
    assert first.json["status"] == "accepted" and first.json["transactionId"] == "txa_1001"
    assert pending(shop, invoice["id"]) == (0, D("115.00"))
    [payment] = payments_of(shop, invoice["id"])
    assert (payment["id"], payment["reference"], payment["paymentMethodId"], D(str(payment["amount"])),
            payment["status"]) == (first.json["paymentId"], "txa_1001", method["id"], D("115.00"), "confirmed")
    assert shop.entry_lines(payment["journalEntryId"]) == {"110101": (D("115.00"), 0), "110201": (0, D("115.00"))}
    assert table.get(keys.payment_link(link["linkId"]))["status"] == "paid"
    recorded = decision(table, shop, "gateway-a", "txa_1001")
    assert (recorded["status"], recorded["paymentId"], recorded["amount"]) == ("accepted", payment["id"], D("115.00"))

    again = notify(api, "gateway-a", body, signed_a(body))
    assert again.status == 200 and again.json == first.json
    assert len(payments_of(shop, invoice["id"])) == 1 and pending(shop, invoice["id"]) == (0, D("115.00"))


def test_gateway_b_notification_with_its_own_format_and_signature(api, shop, table):
    gateway = new_gateway(shop, "gateway-b")
    invoice = shop.document("01", [(shop.service, 2, 100)])  # 230.00
    link = generate(shop, invoice["id"], gateway["id"], amount=100)
    body = gateway_b_body(link["linkId"], "ch_77", 4000)
    accepted = notify(api, "gateway-b", body, signed_b(body))
    assert accepted.status == 200 and accepted.json["status"] == "accepted", accepted.text
    assert pending(shop, invoice["id"]) == (D("190.00"), D("40.00"))
    assert [p["reference"] for p in payments_of(shop, invoice["id"])] == ["ch_77"]
    stored = table.get(keys.payment_link(link["linkId"]))
    assert (stored["status"], stored["paidTotal"]) == ("active", D("40.00"))  # 40 of the link's 100
    rest = gateway_b_body(link["linkId"], "ch_78", 6000)
    assert notify(api, "gateway-b", rest, signed_b(rest)).json["status"] == "accepted"
    assert table.get(keys.payment_link(link["linkId"]))["status"] == "paid"
    # re-signed later with a new timestamp, it is the same charge: answered the same, paid once
    again = notify(api, "gateway-b", body, signed_b(body, int(time.time()) + 2))
    assert again.json == accepted.json and len(payments_of(shop, invoice["id"])) == 2
    # gateway-a's scheme on gateway-b's route is refused
    assert notify(api, "gateway-b", body, {"Gateway-B-Signature": signed_a(body, SECRET_B)["X-Gateway-A-Signature"]}
                  ).status == 401


def test_unsigned_or_badly_signed_notifications_change_nothing(api, shop, table):
    gateway_a, gateway_b = new_gateway(shop), new_gateway(shop, "gateway-b")
    invoice = shop.document("01", [(shop.service, 1, 100)])
    link_a, link_b = generate(shop, invoice["id"], gateway_a["id"]), generate(shop, invoice["id"], gateway_b["id"])
    body_a = gateway_a_body(link_a["linkId"], "txa_1", "115.00")
    body_b = gateway_b_body(link_b["linkId"], "ch_1", 11500)
    stale = int(time.time()) - 301
    attempts = [
        ("gateway-a", body_a, {}, "SIGNATURE_REQUIRED"),
        ("gateway-a", body_a, signed_a(body_a, SECRET_B), "INVALID_SIGNATURE"),
        ("gateway-a", body_a.replace(b"115.00", b"1.00"), signed_a(body_a), "INVALID_SIGNATURE"),
        ("gateway-b", body_b, {}, "SIGNATURE_REQUIRED"),
        ("gateway-b", body_b, signed_b(body_b, secret=SECRET_A), "INVALID_SIGNATURE"),
        ("gateway-b", body_b, signed_b(body_b, stale), "SIGNATURE_EXPIRED"),
    ]
    for provider, body, headers, code in attempts:
        reply = notify(api, provider, body, headers)
        assert reply.status == 401 and reply.json["code"] == code, (provider, headers, reply.text)
    assert pending(shop, invoice["id"]) == (D("115.00"), 0) and payments_of(shop, invoice["id"]) == []
    assert decision(table, shop, "gateway-a", "txa_1") is None and decision(table, shop, "gateway-b", "ch_1") is None
    # the genuine notification still goes through afterwards
    assert notify(api, "gateway-a", body_a, signed_a(body_a)).json["status"] == "accepted"


def test_unknown_links_wrong_routes_and_malformed_payloads(api, shop):
    gateway_b = new_gateway(shop, "gateway-b")
    invoice = shop.document("01", [(shop.service, 1, 100)])
    link_b = generate(shop, invoice["id"], gateway_b["id"])
    unknown = gateway_a_body("pl_" + "a" * 24, "txa_1", "1.00")
    assert notify(api, "gateway-a", unknown, signed_a(unknown)).status == 404
    # a gateway-b link is not found through gateway-a's route
    wrong_route = gateway_a_body(link_b["linkId"], "txa_2", "1.00")
    assert notify(api, "gateway-a", wrong_route, signed_a(wrong_route, SECRET_B)).status == 404
    malformed = notify(api, "gateway-b", b'{"type": "charge.completed", ', {})
    assert malformed.status == 400 and malformed.json["code"] == "MALFORMED_JSON"
    missing = gateway_b_body(link_b["linkId"], "ch_1", 100).replace(b'"amountCents"', b'"amount"')
    refused = notify(api, "gateway-b", missing, signed_b(missing))
    assert refused.status == 400 and refused.json["details"][0]["field"] == "charge.amountCents"
    assert payments_of(shop, invoice["id"]) == []


def test_events_other_than_a_collected_payment_are_acknowledged_and_ignored(api, shop, table):
    gateway = new_gateway(shop)
    invoice = shop.document("01", [(shop.service, 1, 100)])
    link = generate(shop, invoice["id"], gateway["id"])
    body = gateway_a_body(link["linkId"], "txa_9", "115.00", event="payment.failed")
    assert notify(api, "gateway-a", body, {}).status == 401  # still signed
    reply = notify(api, "gateway-a", body, signed_a(body))
    assert reply.status == 200 and reply.json["status"] == "ignored"
    assert payments_of(shop, invoice["id"]) == [] and decision(table, shop, "gateway-a", "txa_9") is None


def test_concurrent_notifications_of_one_transaction_register_one_payment(api, shop, table):
    gateway = new_gateway(shop)
    invoice = shop.document("01", [(shop.service, 1, 100)])
    link = generate(shop, invoice["id"], gateway["id"], amount=50)
    body = gateway_a_body(link["linkId"], "txa_same", "50.00")
    start, replies = threading.Barrier(6), []

    def deliver() -> None:
        start.wait()
        replies.append(notify(api, "gateway-a", body, signed_a(body)))

    threads = [threading.Thread(target=deliver) for _ in range(6)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert [reply.status for reply in replies] == [200] * 6, [reply.text for reply in replies]
    assert len({reply.text for reply in replies}) == 1 and replies[0].json["status"] == "accepted"
    assert len(payments_of(shop, invoice["id"])) == 1
    assert pending(shop, invoice["id"]) == (D("65.00"), D("50.00"))


def test_payments_above_the_pending_total_are_refused_and_recorded(api, shop, table):
    cash = new_method(shop)
    gateway = new_gateway(shop)
    invoice = shop.document("01", [(shop.service, 1, 100)])  # 115.00
    link = generate(shop, invoice["id"], gateway["id"])  # for 115.00
    paid = api.post(f"/payments/documents/{invoice['id']}/payments", {"paymentMethodId": cash["id"], "amount": 100},
                    key=shop.key)
    assert paid.status == 201
    body = gateway_a_body(link["linkId"], "txa_over", "115.00")
    refused = notify(api, "gateway-a", body, signed_a(body))
    assert refused.status == 200, refused.text
    assert (refused.json["status"], refused.json["code"], refused.json["paymentId"]) == (
        "refused", "AMOUNT_EXCEEDS_PENDING", None)
    assert pending(shop, invoice["id"]) == (D("15.00"), D("100.00")) and len(payments_of(shop, invoice["id"])) == 1
    recorded = decision(table, shop, "gateway-a", "txa_over")
    assert (recorded["status"], recorded["code"], recorded["amount"], recorded["transactionId"], recorded["linkId"]) == (
        "refused", "AMOUNT_EXCEEDS_PENDING", D("115.00"), "txa_over", link["linkId"])
    assert "115.00" in recorded["reason"]
    assert table.get(keys.payment_link(link["linkId"]))["status"] == "active"
    # the decision stands: the same notification is answered the same
    assert notify(api, "gateway-a", body, signed_a(body)).json == refused.json


def test_expired_links_and_other_currencies_are_refused_and_recorded(api, shop, table):
    gateway = new_gateway(shop)
    invoice = shop.document("01", [(shop.service, 1, 100)])
    link = generate(shop, invoice["id"], gateway["id"])
    after_expiry = (dt.datetime.now(dt.timezone.utc) + dt.timedelta(days=8)).isoformat()
    late = gateway_a_body(link["linkId"], "txa_late", "115.00", paid_at=after_expiry)
    reply = notify(api, "gateway-a", late, signed_a(late))
    assert (reply.status, reply.json["status"], reply.json["code"]) == (200, "refused", "PAYMENT_LINK_EXPIRED")
    dollars = gateway_a_body(link["linkId"], "txa_usd", "115.00", currency="USD")
    reply = notify(api, "gateway-a", dollars, signed_a(dollars))
    assert (reply.json["status"], reply.json["code"]) == ("refused", "CURRENCY_MISMATCH")
    assert payments_of(shop, invoice["id"]) == []
    assert decision(table, shop, "gateway-a", "txa_late")["status"] == "refused"
    assert decision(table, shop, "gateway-a", "txa_usd")["code"] == "CURRENCY_MISMATCH"


def test_a_payment_above_what_the_link_asks_for_is_refused_and_recorded(api, shop, table):
    gateway = new_gateway(shop)
    invoice = shop.document("01", [(shop.service, 1, 100)])  # 115.00
    link = generate(shop, invoice["id"], gateway["id"], amount="50.00")
    first = gateway_a_body(link["linkId"], "txa_part", "30.00")
    assert notify(api, "gateway-a", first, signed_a(first)).json["status"] == "accepted"
    over = gateway_a_body(link["linkId"], "txa_more", "20.01")  # 20.00 left on the link
    reply = notify(api, "gateway-a", over, signed_a(over))
    assert (reply.status, reply.json["status"], reply.json["code"]) == (200, "refused", "AMOUNT_EXCEEDS_LINK")
    assert decision(table, shop, "gateway-a", "txa_more")["status"] == "refused"
    assert pending(shop, invoice["id"]) == (D("85.00"), D("30.00"))


def test_a_refusal_from_the_companys_own_setup_is_deferred_for_the_gateway_to_retry(api, shop, table):
    method = new_method(shop)
    gateway = new_gateway(shop, paymentMethodId=method["id"])
    invoice = shop.document("01", [(shop.service, 1, 100)])
    link = generate(shop, invoice["id"], gateway["id"])
    assert api.put(f"/payments/methods/{method['id']}", {"isActive": False}, key=shop.key).status == 200
    body = gateway_a_body(link["linkId"], "txa_setup", "115.00")
    deferred = notify(api, "gateway-a", body, signed_a(body))
    assert deferred.status == 503 and deferred.json["code"] == "PAYMENT_DEFERRED", deferred.text
    assert decision(table, shop, "gateway-a", "txa_setup") is None and payments_of(shop, invoice["id"]) == []
    assert api.put(f"/payments/methods/{method['id']}", {"isActive": True}, key=shop.key).status == 200
    retried = notify(api, "gateway-a", body, signed_a(body))  # the gateway's retry, once the setup is fixed
    assert retried.status == 200 and retried.json["status"] == "accepted", retried.text
    assert pending(shop, invoice["id"]) == (D("0.00"), D("115.00"))


def test_decided_notifications_are_listed_newest_first_for_someone_to_act_on(api, shop, company_b):
    gateway = new_gateway(shop)
    invoice = shop.document("01", [(shop.service, 1, 100)])  # 115.00
    link = generate(shop, invoice["id"], gateway["id"])
    for transaction_id, amount in (("txa_ok", "100.00"), ("txa_over", "100.00")):
        body = gateway_a_body(link["linkId"], transaction_id, amount)
        notify(api, "gateway-a", body, signed_a(body))
    path = f"/payments/gateways/{gateway['id']}/notifications"
    listed = api.get(path, key=shop.key).json
    assert listed["total"] == 2
    assert [(n["transactionId"], n["status"], n["code"], n["amount"]) for n in listed["notifications"]] == [
        ("txa_over", "refused", "AMOUNT_EXCEEDS_LINK", D("100.00")), ("txa_ok", "accepted", None, D("100.00"))]
    assert listed["notifications"][1]["paymentId"] == payments_of(shop, invoice["id"])[0]["id"]
    first = api.get(path + "?limit=1", key=shop.key).json
    second = api.get(path + f"?limit=1&cursor={first['nextCursor']}", key=shop.key).json
    assert [n["transactionId"] for n in first["notifications"] + second["notifications"]] == ["txa_over", "txa_ok"]
    assert api.get(path, key=company_b.api_key).status == 404


def test_only_the_two_gateway_callbacks_live_under_webhooks_and_they_need_no_credentials():
    import app  # noqa: F401  (declaring the routes fills ROUTES)
    from chalicelib.api.routing import ROUTES, Access

    inbound = {(spec.method, spec.path, spec.access) for spec in ROUTES if spec.path.startswith("/webhooks")}
    assert inbound == {("POST", "/webhooks/gateway-a", Access.PUBLIC), ("POST", "/webhooks/gateway-b", Access.PUBLIC)}
    assert not any(spec.access is Access.PUBLIC for spec in ROUTES
                   if not spec.path.startswith("/webhooks/")
                   and spec.path not in ("/auth/login", "/auth/accept-invitation", "/openapi.json"))
