"""Card gateways (issue 43) through the real API against the providers' stand-ins: PixelPay and
Wompi gateways (the secret write-only, the clearing account, the fee terms checked), links on the
provider's page with their QR code, and the notification pipeline: verified, confirmed with the
provider's status call before anything is booked, booked once per provider transaction whatever
the number, order or concurrency of its notifications, refusals recorded, a status call that
times out left pending and completed later."""
from __future__ import annotations

import base64
import datetime as dt
import hashlib
import json
import threading
import urllib.parse
from decimal import Decimal

import pytest

from chalicelib import clock
from chalicelib.auth import sealing
from chalicelib.services.integrations import gateway_config, gateway_notifications
from chalicelib.store import keys
from tests.documents_support import Shop, outbox_payloads
from tests.gateway_support import (
    PIXELPAY_KEY_ID,
    PIXELPAY_SECRET,
    clearing_method,
    fee_account,
    generate,
    new_pixelpay_gateway,
    new_wompi_gateway,
    pay_and_notify,
    payments_of,
    pending,
    post,
)
from tests.support import ORIGIN, RACES

D = Decimal


def fingerprint(secret: str) -> str:
    return "sha256:" + hashlib.sha256(secret.encode()).hexdigest()[:12]


@pytest.fixture
def shop(api, company_a) -> Shop:
    return Shop(api, company_a)


def decision(table, shop: Shop, provider: str, transaction_id: str) -> dict | None:
    return table.get(keys.gateway_callback(shop.company.company_id, provider, transaction_id))


def transaction_of(delivery) -> str:
    return json.loads(delivery.body)["payment_uuid"]


def clearing_code(shop: Shop, gateway: dict) -> str:
    bank = shop.api.get(f"/bank-accounts/{gateway['clearingBankAccountId']}", key=shop.key).json
    return next(code for code, account_id in shop.books.accounts.items() if account_id == bank["chartOfAccountId"])


# --- configuration --------------------------------------------------------------------------------

def test_a_pixelpay_gateway_keeps_its_secret_sealed_and_answers_its_clearing_account(api, shop, table):
    method = clearing_method(shop)
    body = {"name": "Cobros con tarjeta", "provider": "pixelpay", "keyId": "1234567890", "secret": PIXELPAY_SECRET,
            "paymentMethodId": method["id"], "feePercent": "3.5", "feeFixed": "5.00", "feeTaxRate": "0.15",
            "feeAccountId": fee_account(shop), "userEmail": "cobros@alpha.example"}
    created = api.post("/payments/gateways", body, key=shop.key, headers={"idempotency-key": "gw-1"})
    assert created.status == 201, created.text
    assert {name: created.json[name] for name in ("provider", "mode", "keyId", "isActive", "hasSecret",
                                                  "secretFingerprint", "clearingBankAccountId", "version")} == {
        "provider": "pixelpay", "mode": "test", "keyId": "1234567890", "isActive": True, "hasSecret": True,
        "secretFingerprint": fingerprint(PIXELPAY_SECRET), "clearingBankAccountId": method["bankAccountId"],
        "version": 1}
    assert (D(str(created.json["feePercent"])), D(str(created.json["feeFixed"])), D(str(created.json["feeTaxRate"])),
            D(str(created.json["clearingBalance"]))) == (D("3.5"), D("5.00"), D("0.15"), D("0.00"))
    replayed = api.post("/payments/gateways", body, key=shop.key, headers={"idempotency-key": "gw-1"})
    assert replayed.header("Idempotent-Replayed") == "true" and replayed.text == created.text
    gateway_id = created.json["id"]
    rotated = api.put(f"/payments/gateways/{gateway_id}", {"secret": "another-secret-0123456789"}, key=shop.key)
    assert rotated.status == 200 and rotated.json["secretFingerprint"] == fingerprint("another-secret-0123456789")
    listed = api.get("/payments/gateways", key=shop.key)
    assert listed.json["paymentGateways"][0]["clearingBankAccountId"] == method["bankAccountId"]
    for reply in (created, replayed, rotated, listed, api.get(f"/payments/gateways/{gateway_id}", key=shop.key)):
        assert "secret" not in json.loads(reply.text) and PIXELPAY_SECRET[:10] not in reply.text
        assert "another-secret" not in reply.text
    stored = table.get(keys.small_record(shop.company.company_id, keys.PAYMENT_GATEWAY, gateway_id))
    assert "secret" not in stored and "another-secret" not in json.dumps(stored, default=str)
    assert sealing.opened_text(stored, shop.company.company_id, gateway_config.SECRET_PURPOSE) == \
        "another-secret-0123456789"
    assert PIXELPAY_SECRET[:10] not in json.dumps(table.get(keys.idempotency(shop.company.company_id, "gw-1")),
                                                  default=str)
    assert PIXELPAY_SECRET[:10] not in json.dumps(outbox_payloads(table, shop.company.company_id), default=str)


def test_gateway_configuration_is_checked(api, shop):
    method = clearing_method(shop)
    dollars = clearing_method(shop, "USD")
    no_bank = shop.created("/payments/methods", {"name": "Efectivo"})
    income = shop.books["410101"]
    good = {"name": "G", "provider": "pixelpay", "keyId": "1234567890", "secret": PIXELPAY_SECRET,
            "paymentMethodId": method["id"]}
    for changes, field in (({"provider": "gateway-a"}, "provider"), ({"mode": "live"}, "mode"),
                           ({"secret": "short"}, "secret"), ({"endpoint": "http://banrural.pixelpay.app"}, "endpoint"),
                           ({"paymentMethodId": no_bank["id"]}, "paymentMethodId"),
                           ({"paymentMethodId": 999}, "paymentMethodId"),
                           ({"provider": "wompi"}, "paymentMethodId"),  # Wompi takes dollars only
                           ({"feePercent": "3.5"}, "feeAccountId"),  # a fee needs its expense account
                           ({"feeFixed": "5", "feeAccountId": income}, "feeAccountId"),
                           ({"feeTaxRate": "0.13"}, "feeTaxRate"),  # El Salvador's IVA, not a Honduran rate
                           ({"feePercent": "101"}, "feePercent"), ({"keyId": ""}, "keyId")):
        refused = api.post("/payments/gateways", {**good, **changes}, key=shop.key)
        assert refused.status == 400 and refused.json["details"][0]["field"] == field, (changes, refused.text)
    for missing in ("name", "provider", "keyId", "secret", "paymentMethodId"):
        refused = api.post("/payments/gateways", {k: v for k, v in good.items() if k != missing}, key=shop.key)
        assert refused.status == 400 and refused.json["details"][0]["field"] == missing
    assert api.post("/payments/gateways", {**good, "provider": "wompi", "paymentMethodId": dollars["id"]},
                    key=shop.key).status == 201
    gateway = new_pixelpay_gateway(shop)
    path = f"/payments/gateways/{gateway['id']}"
    for changes, field in (({"provider": "wompi"}, "provider"), ({"secret": None}, "secret"),
                           ({"paymentMethodId": dollars["id"], "feePercent": "1"}, "feeAccountId"),
                           ({"feeFixed": "1"}, "feeAccountId")):
        refused = api.put(path, changes, key=shop.key)
        assert refused.status == 400 and refused.json["details"][0]["field"] == field, (changes, refused.text)
    assert api.get(path, key=shop.key).json["version"] == 1


def test_another_companys_gateways_and_links_are_404(api, shop, company_b):
    gateway = new_pixelpay_gateway(shop)
    invoice = shop.document("01", [(shop.service, 1, 100)])
    link = generate(shop, invoice["id"], gateway["id"])
    other_key = company_b.api_key
    other = Shop(api, company_b)
    other_gateway = new_pixelpay_gateway(other)
    while api.get(f"/payments/gateways/{other_gateway['id']}", key=shop.key).status != 404:
        other_gateway = new_pixelpay_gateway(other)  # an id only company B has
    assert api.get(f"/payments/gateways/{other_gateway['id']}", key=shop.key).status == 404
    assert api.put(f"/payments/gateways/{other_gateway['id']}", {"name": "mío"}, key=shop.key).status == 404
    session = api.login(shop.company.email)
    assert api.delete(f"/payments/gateways/{other_gateway['id']}", cookie=session, origin=ORIGIN).status == 404
    assert api.get(f"/payments/links/{link['linkId']}", key=other_key).status == 404
    assert api.get(f"/payments/links/{link['linkId']}", key=shop.key).status == 200
    assert api.get("/payments/links/pl_" + "a" * 24, key=shop.key).status == 404
    recheck = f"/payments/gateways/{other_gateway['id']}/notifications/P-1/recheck"
    assert api.post(recheck, {}, key=shop.key).status == 404
    assert generate(shop, invoice["id"], other_gateway["id"], 400)["details"][0]["field"] == "gatewayId"


def test_deleting_a_gateway_is_web_only_and_waits_for_its_links_to_expire(api, shop, company_a, settings_env,
                                                                          monkeypatch):
    used, unused = new_pixelpay_gateway(shop), new_pixelpay_gateway(shop)
    invoice = shop.document("01", [(shop.service, 1, 100)])
    generate(shop, invoice["id"], used["id"])
    forbidden = api.delete(f"/payments/gateways/{unused['id']}", key=shop.key)
    assert forbidden.status == 403 and forbidden.json["code"] == "API_KEY_DELETE_FORBIDDEN"
    session = api.login(company_a.email)
    in_use = api.delete(f"/payments/gateways/{used['id']}", cookie=session, origin=ORIGIN)
    assert in_use.status == 400 and in_use.json["code"] == "RECORD_IN_USE"
    assert api.delete(f"/payments/gateways/{unused['id']}", cookie=session, origin=ORIGIN).status == 200
    week_later = clock.now() + dt.timedelta(days=14, minutes=1)
    monkeypatch.setattr(clock, "now", lambda: week_later)
    assert api.delete(f"/payments/gateways/{used['id']}", cookie=session, origin=ORIGIN).status == 200


# --- links ----------------------------------------------------------------------------------------

def test_a_link_is_the_providers_page_with_its_qr_code(api, shop, table, pixelpay):
    gateway = new_pixelpay_gateway(shop)
    invoice = shop.document("01", [(shop.service, 1, 100)])  # 100 + 15 % ISV = 115.00
    reply = api.post("/payments/generate-link", {"documentId": invoice["id"], "gatewayId": gateway["id"]},
                     key=shop.key, headers={"idempotency-key": "link-1"})
    assert reply.status == 201, reply.text
    link = reply.json
    query = dict(urllib.parse.parse_qsl(urllib.parse.urlsplit(link["url"]).query))
    # PixelPay's hosted page for our link: its order is the link, the callback our gateway-a route
    assert (query["_order_id"], query["_amount"], query["_currency"], query["_callback"]) == (
        link["linkId"], "115.00", "HNL", "https://api.example.test/webhooks/gateway-a")
    assert (link["provider"], link["providerLinkId"], D(str(link["amount"])), link["status"]) == (
        "pixelpay", None, D("115.00"), "active")
    assert link["qrCode"].startswith("data:image/svg+xml;base64,")
    assert b"<svg" in base64.b64decode(link["qrCode"].split(",", 1)[1])
    assert link["createdAt"] <= clock.now_iso()
    replayed = api.post("/payments/generate-link", {"documentId": invoice["id"], "gatewayId": gateway["id"]},
                        key=shop.key, headers={"idempotency-key": "link-1"})
    assert replayed.json["linkId"] == link["linkId"]
    assert api.get(f"/payments/links/{link['linkId']}", key=shop.key).json == link
    part = generate(shop, invoice["id"], gateway["id"], amount=15.5)
    listed = api.get(f"/payments/documents/{invoice['id']}/links", key=shop.key).json
    assert [each["linkId"] for each in listed["paymentLinks"]] == [part["linkId"], link["linkId"]]  # newest first
    assert pending(shop, invoice["id"]) == (D("115.00"), 0)  # a link is a request, not a payment


def test_links_are_only_for_confirmed_sales_documents_with_something_pending(api, shop):
    gateway = new_pixelpay_gateway(shop)
    invoice = shop.document("01", [(shop.service, 1, 100)])
    assert generate(shop, invoice["id"], gateway["id"], 400, amount=115.01)["code"] == "AMOUNT_EXCEEDS_PENDING"
    draft = shop.document("01", [(shop.service, 1, 100)], status="draft")
    assert generate(shop, draft["id"], gateway["id"], 400)["code"] == "DOCUMENT_NOT_PAYABLE"
    purchase = shop.document("103", [(shop.service, 1, 100)])
    assert generate(shop, purchase["id"], gateway["id"], 400)["code"] == "DOCUMENT_NOT_PAYABLE"
    assert generate(shop, 999, gateway["id"], 404)["code"] == "NOT_FOUND"
    assert generate(shop, invoice["id"], 999, 400)["details"][0]["field"] == "gatewayId"
    inactive = new_pixelpay_gateway(shop, isActive=False)
    assert generate(shop, invoice["id"], inactive["id"], 400)["code"] == "PAYMENT_GATEWAY_INACTIVE"
    # a dollar clearing account cannot collect a lempira invoice
    dollars = new_pixelpay_gateway(shop, currency="USD")
    assert generate(shop, invoice["id"], dollars["id"], 400)["code"] == "CURRENCY_MISMATCH"
    assert api.get(f"/payments/documents/{invoice['id']}/links", key=shop.key).json["total"] == 0


# --- notifications: PixelPay ---------------------------------------------------------------------

def test_a_pixelpay_payment_is_confirmed_then_booked_against_the_clearing_account(api, shop, table, pixelpay):
    gateway = new_pixelpay_gateway(shop)
    invoice = shop.document("01", [(shop.service, 1, 100)])  # 115.00
    link = generate(shop, invoice["id"], gateway["id"])
    [delivery], [reply] = pay_and_notify(api, pixelpay, link)
    assert urllib.parse.urlsplit(delivery.url).path == "/webhooks/gateway-a"
    assert reply.status == 200 and reply.json["status"] == "accepted", reply.text
    uuid = transaction_of(delivery)
    [payment] = payments_of(shop, invoice["id"])
    assert (payment["gatewayId"], payment["gatewayTransactionId"], payment["reference"], D(str(payment["amount"]))) \
        == (gateway["id"], uuid, uuid, D("115.00"))
    assert reply.json["paymentId"] == payment["id"]
    # Dr the clearing account 115.00, Cr the receivable 115.00
    assert shop.entry_lines(payment["journalEntryId"]) == {clearing_code(shop, gateway): (D("115.00"), 0),
                                                           "110201": (0, D("115.00"))}
    shown = api.get(f"/payments/gateways/{gateway['id']}", key=shop.key).json
    assert D(str(shown["clearingBalance"])) == D("115.00")  # what PixelPay holds for the company
    assert pending(shop, invoice["id"]) == (D("0.00"), D("115.00"))
    assert api.get(f"/payments/links/{link['linkId']}", key=shop.key).json["status"] == "paid"
    listed = api.get(f"/payments/gateways/{gateway['id']}/notifications", key=shop.key).json
    assert [(n["transactionId"], n["status"], n["paymentId"]) for n in listed["notifications"]] == [
        (uuid, "accepted", payment["id"])]


def test_a_forged_pixelpay_notification_changes_nothing(api, shop, table, pixelpay):
    gateway = new_pixelpay_gateway(shop)
    invoice = shop.document("01", [(shop.service, 1, 100)])
    link = generate(shop, invoice["id"], gateway["id"])
    pixelpay.fault(bad_hash=True)
    [forged] = pixelpay.pay(link["url"])
    refused = post(api, forged)
    assert refused.status == 401 and refused.json["code"] == "INVALID_SIGNATURE", refused.text
    pixelpay.reset_faults()
    [genuine] = pixelpay.pay(link["url"])
    payload = json.loads(genuine.body)
    tampered = json.dumps({**payload, "payment_hash": hashlib.md5(b"x").hexdigest()}).encode()
    assert post(api, genuine, body=tampered).status == 401
    unsigned = json.dumps({k: v for k, v in payload.items() if k != "payment_hash"}).encode()
    assert post(api, genuine, body=unsigned).json["code"] == "SIGNATURE_REQUIRED"
    assert payments_of(shop, invoice["id"]) == [] and pending(shop, invoice["id"]) == (D("115.00"), 0)
    assert decision(table, shop, "pixelpay", transaction_of(forged)) is None
    assert post(api, genuine).json["status"] == "accepted"  # the genuine one still goes through


def test_duplicate_and_reordered_notifications_book_once(api, shop, table, pixelpay):
    gateway = new_pixelpay_gateway(shop)
    invoice = shop.document("01", [(shop.service, 1, 100)])  # 115.00
    first, second = (generate(shop, invoice["id"], gateway["id"], amount=amount) for amount in ("40.00", "75.00"))
    pixelpay.fault(duplicate_callback=True)
    early = pixelpay.pay(first["url"])
    late = pixelpay.pay(second["url"])
    assert len(early) == len(late) == 2  # PixelPay sends each callback twice
    # the later payment's notifications come first, then the earlier's, then one of each again
    replies = [post(api, delivery) for delivery in (late[0], early[0], late[1], early[1], early[0])]
    assert [reply.status for reply in replies] == [200] * 5, [reply.text for reply in replies]
    assert replies[0].json == replies[2].json and replies[1].json == replies[3].json == replies[4].json
    assert {reply.json["status"] for reply in replies} == {"accepted"}
    # 40.00 + 75.00 = 115.00, each once
    assert sorted(D(str(p["amount"])) for p in payments_of(shop, invoice["id"])) == [D("40.00"), D("75.00")]
    assert pending(shop, invoice["id"]) == (D("0.00"), D("115.00"))
    counter = table.get(keys.gateway_decision_count(shop.company.company_id, gateway["id"]))
    assert counter["total"] == 2


def test_a_declined_sandbox_payment_books_nothing(api, shop, table, pixelpay):
    gateway = new_pixelpay_gateway(shop)
    invoice = shop.document("01", [(shop.service, 1, 100)])
    link = generate(shop, invoice["id"], gateway["id"], amount="2.00")  # the sandbox declines 2.00
    [delivery], [reply] = pay_and_notify(api, pixelpay, link)
    assert reply.status == 200 and reply.json["status"] == "ignored", reply.text
    assert payments_of(shop, invoice["id"]) == [] and decision(table, shop, "pixelpay", transaction_of(delivery)) is None
    assert api.get(f"/payments/links/{link['linkId']}", key=shop.key).json["status"] == "active"


def test_an_amount_other_than_the_links_is_refused_and_recorded(api, shop, table, pixelpay):
    gateway = new_pixelpay_gateway(shop)
    invoice = shop.document("01", [(shop.service, 1, 100)])  # 115.00
    link = generate(shop, invoice["id"], gateway["id"], amount="100.00")
    # the customer edits the page's amount: PixelPay charges 1.00, signs it and confirms it
    tampered = link["url"].replace("_amount=100.00", "_amount=1.00")
    assert tampered != link["url"]
    [delivery], [reply] = pay_and_notify(api, pixelpay, {**link, "url": tampered})
    assert reply.status == 200, reply.text
    assert (reply.json["status"], reply.json["code"], reply.json["paymentId"]) == ("refused", "AMOUNT_MISMATCH", None)
    recorded = decision(table, shop, "pixelpay", transaction_of(delivery))
    assert (recorded["status"], recorded["code"], recorded["amount"]) == ("refused", "AMOUNT_MISMATCH", D("1.00"))
    assert payments_of(shop, invoice["id"]) == [] and pending(shop, invoice["id"]) == (D("115.00"), 0)
    assert post(api, delivery).json == reply.json  # the decision stands


def test_a_status_call_that_times_out_leaves_it_pending_and_a_retry_completes_it(api, shop, table, pixelpay):
    gateway = new_pixelpay_gateway(shop)
    invoice = shop.document("01", [(shop.service, 1, 100)])  # 115.00
    # the sandbox's error cases are 3.00 and 5.00 to 14.00: these amounts approve
    links = [generate(shop, invoice["id"], gateway["id"], amount=amount) for amount in ("15.00", "20.00", "30.00")]
    pixelpay.fault(status_timeout=True)
    deliveries = [pixelpay.pay(link["url"])[0] for link in links]
    for delivery in deliveries:
        reply = post(api, delivery)
        assert reply.status == 503 and reply.json["code"] == "GATEWAY_UNAVAILABLE", reply.text
    assert payments_of(shop, invoice["id"]) == []
    uuids = [transaction_of(delivery) for delivery in deliveries]
    assert [decision(table, shop, "pixelpay", uuid)["status"] for uuid in uuids] == ["pending"] * 3
    recheck = f"/payments/gateways/{gateway['id']}/notifications/{uuids[1]}/recheck"
    still = api.post(recheck, {}, key=shop.key)
    assert still.status == 503 and still.json["code"] == "GATEWAY_UNAVAILABLE"
    pixelpay.reset_faults()
    # PixelPay's retry of the first, the recheck route for the second, the hourly run for the third
    assert post(api, deliveries[0]).json["status"] == "accepted"
    rechecked = api.post(recheck, {}, key=shop.key)
    assert rechecked.status == 200 and rechecked.json["status"] == "accepted", rechecked.text
    from chalicelib.events.handlers import run_scheduled_invoices

    summary = run_scheduled_invoices({})
    assert summary["gatewayRechecks"]["decided"] == 1
    # 15.00 + 20.00 + 30.00 = 65.00 paid, 115.00 - 65.00 = 50.00 left
    assert pending(shop, invoice["id"]) == (D("50.00"), D("65.00"))
    assert [decision(table, shop, "pixelpay", uuid)["status"] for uuid in uuids] == ["accepted"] * 3
    assert gateway_notifications.run_pending_rechecks(table)["checked"] == 0  # none left pending
    assert api.post(recheck, {}, key=shop.key).json == rechecked.json
    counter = table.get(keys.gateway_decision_count(shop.company.company_id, gateway["id"]))
    assert counter["total"] == 3


@RACES
def test_two_notifications_of_one_transaction_at_once_book_exactly_one_payment(api, shop, table, pixelpay):
    gateway = new_pixelpay_gateway(shop)
    invoice = shop.document("01", [(shop.service, 1, 100)])
    link = generate(shop, invoice["id"], gateway["id"], amount=50)
    [delivery] = pixelpay.pay(link["url"])
    start, replies = threading.Barrier(4), []

    def deliver() -> None:
        start.wait()
        replies.append(post(api, delivery))

    threads = [threading.Thread(target=deliver) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert [reply.status for reply in replies] == [200] * 4, [reply.text for reply in replies]
    assert len({reply.text for reply in replies}) == 1 and replies[0].json["status"] == "accepted"
    assert len(payments_of(shop, invoice["id"])) == 1
    assert pending(shop, invoice["id"]) == (D("65.00"), D("50.00"))  # 115.00 - 50.00


def test_unknown_links_and_malformed_notifications(api, shop, pixelpay):
    gateway = new_pixelpay_gateway(shop)
    invoice = shop.document("01", [(shop.service, 1, 100)])
    link = generate(shop, invoice["id"], gateway["id"])
    [delivery] = pixelpay.pay(link["url"])
    unknown = delivery.body.replace(link["linkId"].encode(), b"pl_" + b"a" * 24)
    assert post(api, delivery, body=unknown).status == 404
    malformed = post(api, delivery, body=b'{"order_id": ')
    assert malformed.status == 400
    # PixelPay's notification on Wompi's route is not Wompi's
    wrong = api.request("POST", "/webhooks/gateway-b", raw=delivery.body, headers=dict(delivery.headers))
    assert wrong.status in (400, 401, 404)
    assert payments_of(shop, invoice["id"]) == []


def test_a_refusal_from_the_companys_own_setup_is_deferred_for_the_provider_to_retry(api, shop, table, pixelpay):
    gateway = new_pixelpay_gateway(shop)
    invoice = shop.document("01", [(shop.service, 1, 100)])
    link = generate(shop, invoice["id"], gateway["id"])
    method = gateway["paymentMethodId"]
    assert api.put(f"/payments/methods/{method}", {"isActive": False}, key=shop.key).status == 200
    [delivery] = pixelpay.pay(link["url"])
    deferred = post(api, delivery)
    assert deferred.status == 503 and deferred.json["code"] == "PAYMENT_DEFERRED", deferred.text
    # the money was collected: a pending decision keeps its trace and the reason, in case PixelPay never retries
    kept = decision(table, shop, "pixelpay", transaction_of(delivery))
    assert (kept["status"], kept["code"], kept["amount"]) == ("pending", "PAYMENT_METHOD_INACTIVE", D("115.00"))
    assert post(api, delivery).status == 503  # still the setup: still pending
    assert api.put(f"/payments/methods/{method}", {"isActive": True}, key=shop.key).status == 200
    assert post(api, delivery).json["status"] == "accepted"
    assert pending(shop, invoice["id"]) == (D("0.00"), D("115.00"))
    assert gateway_notifications.run_pending_rechecks(table)["checked"] == 0  # decided: off the hourly list


# --- notifications: Wompi ------------------------------------------------------------------------

def test_a_wompi_payment_is_verified_confirmed_and_booked_once(api, shop, table, wompi):
    from tests.gateway_support import dollar_rates

    dollar_rates(shop)
    gateway = new_wompi_gateway(shop)
    invoice = shop.document("01", [(shop.service, 1, 100)], currency="USD")  # USD 115.00
    link = generate(shop, invoice["id"], gateway["id"])
    assert link["provider"] == "wompi" and link["providerLinkId"]
    deliveries = wompi.pay(link["url"])
    assert deliveries and urllib.parse.urlsplit(deliveries[0].url).path == "/webhooks/gateway-b"
    forged = dict(deliveries[0].headers)
    forged = {name: ("0" * 64 if name.lower() == "wompi_hash" else value) for name, value in forged.items()}
    assert post(api, deliveries[0], headers=forged).status == 401
    assert payments_of(shop, invoice["id"]) == []
    replies = [post(api, delivery) for delivery in deliveries + deliveries]
    assert {reply.json["status"] for reply in replies} == {"accepted"}, [reply.text for reply in replies]
    [payment] = payments_of(shop, invoice["id"])
    assert (payment["gatewayId"], D(str(payment["amount"]))) == (gateway["id"], D("115.00"))
    assert pending(shop, invoice["id"]) == (D("0.00"), D("115.00"))


def test_only_the_two_provider_callbacks_live_under_webhooks_and_they_need_no_credentials():
    import app  # noqa: F401  (declaring the routes fills ROUTES)
    from chalicelib.api.routing import ROUTES, Access

    inbound = {(spec.method, spec.path, spec.access) for spec in ROUTES if spec.path.startswith("/webhooks")}
    assert inbound == {("POST", "/webhooks/gateway-a", Access.PUBLIC), ("POST", "/webhooks/gateway-b", Access.PUBLIC)}
    assert not any(spec.access is Access.PUBLIC for spec in ROUTES
                   if not spec.path.startswith("/webhooks/")
                   and spec.path not in ("/auth/login", "/auth/accept-invitation", "/openapi.json"))


def test_a_declined_wompi_payment_books_nothing_and_a_status_timeout_is_completed_later(api, shop, table, wompi):
    from tests.gateway_support import dollar_rates

    dollar_rates(shop)
    gateway = new_wompi_gateway(shop)
    invoice = shop.document("01", [(shop.service, 1, 100)], currency="USD")  # USD 115.00
    declined = generate(shop, invoice["id"], gateway["id"], amount="15.00")
    assert wompi.pay(declined["url"], cvv="111") == []  # declined: Wompi notifies successful payments only
    link = generate(shop, invoice["id"], gateway["id"], amount="100.00")
    wompi.fault(status_timeout=True)
    [delivery] = wompi.pay(link["url"])
    waiting = post(api, delivery)
    assert (waiting.status, waiting.json["code"]) == (503, "GATEWAY_UNAVAILABLE"), waiting.text
    assert payments_of(shop, invoice["id"]) == []
    wompi.reset_faults()
    transaction_id = json.loads(delivery.body)["IdTransaccion"]
    rechecked = api.post(f"/payments/gateways/{gateway['id']}/notifications/{transaction_id}/recheck", {},
                         key=shop.key)
    assert rechecked.status == 200 and rechecked.json["status"] == "accepted", rechecked.text
    assert post(api, delivery).json == rechecked.json  # Wompi's retry: the same answer, nothing more
    # USD 115.00 - 100.00 = 15.00 left
    assert pending(shop, invoice["id"]) == (D("15.00"), D("100.00"))


def test_the_migration_retires_gateways_of_the_invented_formats(api, shop, table):
    from infra.ops.migrations import MIGRATIONS

    retire = dict(MIGRATIONS)["gatewaysOfInventedFormatsRetired"]
    gateway = new_pixelpay_gateway(shop)
    key = keys.small_record(shop.company.company_id, keys.PAYMENT_GATEWAY, gateway["id"])
    # as stored before issue 43: an invented provider, active
    table.client.update_item(TableName=table.name, Key={"PK": {"S": key["PK"]}, "SK": {"S": key["SK"]}},
                             UpdateExpression="SET provider = :old", ExpressionAttributeValues={":old": {"S": "gateway-a"}})
    assert retire(table) == 1 and retire(table) == 0  # idempotent
    shown = api.get(f"/payments/gateways/{gateway['id']}", key=shop.key).json
    assert (shown["provider"], shown["legacyProvider"], shown["isActive"], shown["version"]) == (
        "gateway-a", "gateway-a", False, 2)
    invoice = shop.document("01", [(shop.service, 1, 100)])
    assert generate(shop, invoice["id"], gateway["id"], 400)["code"] == "PAYMENT_GATEWAY_INACTIVE"
    refused = api.put(f"/payments/gateways/{gateway['id']}", {"isActive": True}, key=shop.key)
    assert refused.status == 400 and refused.json["details"][0]["field"] == "provider"


def test_what_a_role_may_not_do_with_gateways_is_403_and_changes_nothing(api, shop, table):
    """Gateways are configured by who manages the company (owner, administrator); a seller makes
    links and records payouts as bank transfers (WRITE), a viewer only reads."""
    from tests.users_support import member

    gateway = new_pixelpay_gateway(shop)
    invoice = shop.document("01", [(shop.service, 1, 100)])        # 100.00 + 15 % = 115.00
    _, seller = member(api, table, shop.company, "vendedora@alpha.example", "seller")
    _, viewer = member(api, table, shop.company, "lectora@alpha.example", "viewer")
    bank = shop.created("/bank-accounts", {"name": "Banco destino", "currency": "HNL", "openingBalance": "0.00",
                                           "openingBalanceDate": "2026-11-01",
                                           "chartOfAccountId": shop.books.accounts["110103"]})

    def as_(cookie, method, path, body=None):
        return api.request(method, path, body=body, cookie=cookie, origin=ORIGIN)

    create = {"name": "Otra", "provider": "pixelpay", "mode": "test", "keyId": PIXELPAY_KEY_ID,
              "secret": PIXELPAY_SECRET, "paymentMethodId": gateway["paymentMethodId"]}
    for cookie in (seller, viewer):
        assert as_(cookie, "POST", "/payments/gateways", create).status == 403
        assert as_(cookie, "PUT", f"/payments/gateways/{gateway['id']}", {"name": "Cambiada"}).status == 403
    refused = [as_(viewer, "POST", "/payments/generate-link", {"documentId": invoice["id"], "gatewayId": gateway["id"]}),
               as_(viewer, "POST", f"/payments/gateways/{gateway['id']}/notifications/P-1/recheck", {}),
               as_(viewer, "POST", f"/payments/gateways/{gateway['id']}/payouts",
                   {"bankAccountId": bank["id"], "amount": "1.00", "payoutDate": "2026-11-28"})]
    assert [reply.status for reply in refused] == [403, 403, 403], [reply.text for reply in refused]
    # nothing changed: one gateway, its name, no link
    listed = api.get("/payments/gateways", key=shop.key).json["paymentGateways"]
    assert [(item["id"], item["name"]) for item in listed] == [(gateway["id"], gateway["name"])]
    assert api.get(f"/payments/documents/{invoice['id']}/links", key=shop.key).json["paymentLinks"] == []
    # the seller makes the link (the customer pays through it)
    made = as_(seller, "POST", "/payments/generate-link", {"documentId": invoice["id"], "gatewayId": gateway["id"]})
    assert made.status == 201, made.text
