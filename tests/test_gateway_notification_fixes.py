"""The card gateways' notification pipeline, as two reviews found it wanting (issue 43): PixelPay's
form callbacks, the hourly recheck starved by what fails for good, collected money left without a
trace, the payment's date taken from an unsigned claim or a late recheck, another link's
transaction, a gateway without its secret, and a provider that does not take the link's currency."""
from __future__ import annotations

import datetime as dt
import hashlib
import json
import urllib.parse
from decimal import Decimal

import pytest

from chalicelib import clock
from chalicelib.domain import pixelpay as formats
from chalicelib.services.integrations import gateway_config, gateway_notifications
from chalicelib.store import keys
from chalicelib.store.transaction import Transaction
from tests.documents_support import Shop
from tests.gateway_support import (
    PIXELPAY_KEY_ID,
    PIXELPAY_SECRET,
    clearing_method,
    dollar_rates,
    generate,
    new_pixelpay_gateway,
    new_wompi_gateway,
    pay_and_notify,
    payments_of,
    pending,
    post,
)

D = Decimal


@pytest.fixture
def shop(api, company_a) -> Shop:
    return Shop(api, company_a)


def decision(table, shop: Shop, transaction_id: str, provider: str = "pixelpay") -> dict | None:
    return table.get(keys.gateway_callback(shop.company.company_id, provider, transaction_id))


def transaction_of(delivery) -> str:
    body = delivery.body.decode()
    if delivery.headers["Content-Type"] == "application/x-www-form-urlencoded":
        return dict(urllib.parse.parse_qsl(body))["payment_uuid"]
    return json.loads(body)["payment_uuid"]


def hourly_list(table) -> list[dict]:
    return table.query_all(partition=("PK", keys.GATEWAY_PENDING_PARTITION), consistent=True)


# --- 1. a form callback ---------------------------------------------------------------------------

def test_a_pixelpay_callback_sent_as_a_form_is_verified_and_booked(api, shop, pixelpay):
    gateway = new_pixelpay_gateway(shop)
    invoice = shop.document("01", [(shop.service, 1, 100)])  # 100 + 15 % ISV = 115.00
    link = generate(shop, invoice["id"], gateway["id"])
    pixelpay.fault(form_callback=True)
    [delivery], [reply] = pay_and_notify(api, pixelpay, link)
    assert delivery.headers["Content-Type"] == "application/x-www-form-urlencoded"
    assert reply.status == 200 and reply.json["status"] == "accepted", reply.text
    [payment] = payments_of(shop, invoice["id"])
    assert (payment["gatewayTransactionId"], D(str(payment["amount"]))) == (transaction_of(delivery), D("115.00"))
    assert pending(shop, invoice["id"]) == (D("0.00"), D("115.00"))
    # a forged form is refused as a forged JSON body is
    fields = dict(urllib.parse.parse_qsl(delivery.body.decode()))
    forged = urllib.parse.urlencode({**fields, "payment_hash": hashlib.md5(b"x").hexdigest()}).encode()
    assert post(api, delivery, body=forged).status == 401
    # other media types stay 415; Wompi's route takes JSON only
    text = api.request("POST", "/webhooks/gateway-a", raw=delivery.body, headers={"Content-Type": "text/plain"})
    assert text.status == 415 and text.json["code"] == "UNSUPPORTED_MEDIA_TYPE"
    form_to_wompi = api.request("POST", "/webhooks/gateway-b", raw=delivery.body, headers=dict(delivery.headers))
    assert form_to_wompi.status == 415


def test_the_openapi_document_describes_both_media_types_of_pixelpays_callback(api):
    document = api.get("/openapi.json").json
    pixelpay_body = document["paths"]["/webhooks/gateway-a"]["post"]["requestBody"]["content"]
    assert set(pixelpay_body) == {"application/json", "application/x-www-form-urlencoded"}
    assert pixelpay_body["application/json"] == pixelpay_body["application/x-www-form-urlencoded"]
    assert set(document["paths"]["/webhooks/gateway-b"]["post"]["requestBody"]["content"]) == {"application/json"}


# --- 2. the hourly run is not starved -------------------------------------------------------------

def test_pending_items_that_fail_for_good_starve_nothing_and_leave_the_hourly_list(api, shop, table, pixelpay):
    gateway = new_pixelpay_gateway(shop)
    invoice = shop.document("01", [(shop.service, 1, 100)])  # 115.00
    stuck_link, real_link = (generate(shop, invoice["id"], gateway["id"], amount=amount)
                             for amount in ("20.00", "40.00"))
    pixelpay.fault(status_unavailable=True)
    [stuck_delivery], [waiting] = pay_and_notify(api, pixelpay, stuck_link)
    [real_delivery], [also_waiting] = pay_and_notify(api, pixelpay, real_link)
    assert waiting.status == also_waiting.status == 503
    pixelpay.reset_faults()
    stuck_uuid, real_uuid = transaction_of(stuck_delivery), transaction_of(real_delivery)
    # PixelPay no longer knows the first transaction (its status call: 406): it fails for good
    held = pixelpay.transactions.pop(stuck_uuid)
    # and 50 older ones of another company whose gateway is gone: 51 failing for good before the real one
    for number in range(50):
        gone = f"P-gone-{number:02d}"
        since = f"2026-01-01T00:00:{number:02d}Z"
        Transaction(table).put({**keys.gateway_pending(999, "pixelpay", gone, since), "itemType": "GATEWAY_PENDING",
                                "companyId": 999, "provider": "pixelpay", "transactionId": gone, "gatewayId": 77,
                                "since": since, "attempts": 0}).commit()
    first = gateway_notifications.run_pending_rechecks(table, attempts=3)
    assert first == {"checked": 52, "decided": 1, "stillPending": 0, "failed": 51, "givenUp": 0}
    assert decision(table, shop, real_uuid)["status"] == "accepted"
    # 115.00 - 40.00 = 75.00 left
    assert pending(shop, invoice["id"]) == (D("75.00"), D("40.00"))
    assert gateway_notifications.run_pending_rechecks(table, attempts=3)["givenUp"] == 0  # 2 failed runs
    third = gateway_notifications.run_pending_rechecks(table, attempts=3)
    assert (third["checked"], third["givenUp"]) == (51, 51) and hourly_list(table) == []
    # off the hourly list, still pending where a person sees it, and the console's recheck completes it
    assert decision(table, shop, stuck_uuid)["status"] == "pending"
    pixelpay.transactions[stuck_uuid] = held
    recheck = f"/payments/gateways/{gateway['id']}/notifications/{stuck_uuid}/recheck"
    rechecked = api.post(recheck, {}, key=shop.key)
    assert rechecked.status == 200 and rechecked.json["status"] == "accepted", rechecked.text
    # 75.00 - 20.00 = 55.00 left
    assert pending(shop, invoice["id"]) == (D("55.00"), D("60.00"))


def test_the_hourly_list_is_oldest_first(api, shop, table, pixelpay):
    gateway = new_pixelpay_gateway(shop)
    invoice = shop.document("01", [(shop.service, 1, 100)])
    links = [generate(shop, invoice["id"], gateway["id"], amount=amount) for amount in ("15.00", "16.00")]
    pixelpay.fault(status_unavailable=True)
    uuids = [transaction_of(pay_and_notify(api, pixelpay, link)[0][0]) for link in links]
    assert [item["transactionId"] for item in hourly_list(table)] == uuids  # in the order they came
    assert [item["attempts"] for item in hourly_list(table)] == [0, 0]
    assert gateway_notifications.run_pending_rechecks(table)["stillPending"] == 2
    assert [item["attempts"] for item in hourly_list(table)] == [1, 1]


# --- 3. collected money always leaves a trace -----------------------------------------------------

def test_a_status_call_refused_by_the_provider_leaves_a_pending_decision(api, shop, table, pixelpay):
    gateway = new_pixelpay_gateway(shop)
    invoice = shop.document("01", [(shop.service, 1, 100)])
    link = generate(shop, invoice["id"], gateway["id"])
    [delivery] = pixelpay.pay(link["url"])
    uuid = transaction_of(delivery)
    held = pixelpay.transactions.pop(uuid)  # the status call answers 406 "Error al encontrar el cobro"
    refused = post(api, delivery)
    assert refused.status == 502 and refused.json["code"] == "GATEWAY_PROVIDER_ERROR", refused.text
    kept = decision(table, shop, uuid)
    assert (kept["status"], kept["code"], kept["linkId"]) == ("pending", "GATEWAY_PROVIDER_ERROR", link["linkId"])
    assert [item["transactionId"] for item in hourly_list(table)] == [uuid]
    listed = api.get(f"/payments/gateways/{gateway['id']}/notifications", key=shop.key).json["notifications"]
    assert [(n["transactionId"], n["status"], n["code"]) for n in listed] == [(uuid, "pending", "GATEWAY_PROVIDER_ERROR")]
    pixelpay.transactions[uuid] = held  # PixelPay never sends the callback again: the hourly run books it
    assert gateway_notifications.run_pending_rechecks(table)["decided"] == 1
    assert decision(table, shop, uuid)["status"] == "accepted" and hourly_list(table) == []
    assert pending(shop, invoice["id"]) == (D("0.00"), D("115.00"))


def test_a_refusal_of_the_companys_setup_is_booked_by_the_hourly_run_once_fixed(api, shop, table, pixelpay):
    gateway = new_pixelpay_gateway(shop)
    invoice = shop.document("01", [(shop.service, 1, 100)])
    link = generate(shop, invoice["id"], gateway["id"])
    method = gateway["paymentMethodId"]
    assert api.put(f"/payments/methods/{method}", {"isActive": False}, key=shop.key).status == 200
    [delivery], [deferred] = pay_and_notify(api, pixelpay, link)
    assert deferred.status == 503 and deferred.json["code"] == "PAYMENT_DEFERRED"
    assert decision(table, shop, transaction_of(delivery))["code"] == "PAYMENT_METHOD_INACTIVE"
    assert gateway_notifications.run_pending_rechecks(table)["stillPending"] == 1
    assert api.put(f"/payments/methods/{method}", {"isActive": True}, key=shop.key).status == 200
    assert gateway_notifications.run_pending_rechecks(table)["decided"] == 1
    assert pending(shop, invoice["id"]) == (D("0.00"), D("115.00"))


# --- 4. when it was paid --------------------------------------------------------------------------

def _later(monkeypatch, moment: dt.datetime) -> None:
    monkeypatch.setattr(clock, "now", lambda: moment)


def test_a_forged_callback_date_does_not_pass_an_expired_link(api, shop, table, pixelpay, monkeypatch):
    gateway = new_pixelpay_gateway(shop)
    invoice = shop.document("01", [(shop.service, 1, 100)])
    link = generate(shop, invoice["id"], gateway["id"])
    expired = clock.parse_iso(link["expiresAt"]) + dt.timedelta(hours=1)
    _later(monkeypatch, expired)  # the customer pays an hour after the link expired
    pixelpay.fault(status_without_date=True)  # PixelPay's status answer says no date
    [delivery] = pixelpay.pay(link["url"])
    # the callback claims a day before: payment_hash signs only order_id|key_id|secret, so it verifies
    claimed = {**json.loads(delivery.body), "transaction_date": "2026-01-02", "transaction_time": "10:00:00"}
    reply = post(api, delivery, body=json.dumps(claimed).encode())
    assert reply.status == 200 and (reply.json["status"], reply.json["code"]) == ("refused", "PAYMENT_LINK_EXPIRED")
    assert payments_of(shop, invoice["id"]) == []


def test_a_payment_in_time_rechecked_after_the_expiry_is_booked(api, shop, table, pixelpay, monkeypatch):
    gateway = new_pixelpay_gateway(shop)
    invoice = shop.document("01", [(shop.service, 1, 100)])
    link = generate(shop, invoice["id"], gateway["id"])
    pixelpay.fault(status_unavailable=True)
    [delivery] = pixelpay.pay(link["url"])  # paid while the link is valid
    undated = {name: value for name, value in json.loads(delivery.body).items()
               if name not in ("transaction_date", "transaction_time")}
    assert post(api, delivery, body=json.dumps(undated).encode()).status == 503
    received_at = decision(table, shop, transaction_of(delivery))["receivedAt"]
    pixelpay.fault(status_unavailable=False, status_without_date=True)
    _later(monkeypatch, clock.parse_iso(link["expiresAt"]) + dt.timedelta(days=1))  # rechecked a day after expiry
    rechecked = api.post(f"/payments/gateways/{gateway['id']}/notifications/{transaction_of(delivery)}/recheck", {},
                         key=shop.key)
    assert rechecked.status == 200 and rechecked.json["status"] == "accepted", rechecked.text
    kept = decision(table, shop, transaction_of(delivery))
    assert clock.parse_iso(kept["paidAt"]) == clock.parse_iso(received_at)  # when the notification reached us


# --- 5. another link's transaction ----------------------------------------------------------------

def test_an_approval_without_order_id_in_the_status_answer_is_not_confirmed(api, shop, table, pixelpay):
    gateway = new_pixelpay_gateway(shop)
    invoice = shop.document("01", [(shop.service, 1, 100)])
    link = generate(shop, invoice["id"], gateway["id"])
    pixelpay.fault(status_without_order_id=True)
    [delivery], [reply] = pay_and_notify(api, pixelpay, link)
    assert reply.status == 502 and reply.json["code"] == "GATEWAY_PROVIDER_ERROR", reply.text
    assert decision(table, shop, transaction_of(delivery))["status"] == "pending"
    assert payments_of(shop, invoice["id"]) == []


def test_a_transaction_of_link_a_is_never_booked_nor_answered_for_link_b(api, shop, table, pixelpay):
    gateway = new_pixelpay_gateway(shop)
    invoice = shop.document("01", [(shop.service, 1, 100)])
    link_a, link_b = (generate(shop, invoice["id"], gateway["id"], amount=amount) for amount in ("40.00", "40.00"))
    [delivery], [accepted] = pay_and_notify(api, pixelpay, link_a)
    assert accepted.json["status"] == "accepted"
    # link B's hash (leaked, or computed by one who has it) with link A's approved transaction
    forged = {**json.loads(delivery.body), "order_id": link_b["linkId"],
              "payment_hash": formats.payment_hash(link_b["linkId"], PIXELPAY_KEY_ID, PIXELPAY_SECRET)}
    reply = post(api, delivery, body=json.dumps(forged).encode())
    assert reply.status == 200, reply.text
    assert (reply.json["status"], reply.json["linkId"], reply.json["paymentId"]) == ("ignored", link_b["linkId"], None)
    assert len(payments_of(shop, invoice["id"])) == 1  # 40.00 once
    assert api.get(f"/payments/links/{link_b['linkId']}", key=shop.key).json["status"] == "active"
    assert decision(table, shop, transaction_of(delivery))["linkId"] == link_a["linkId"]


# --- 6. a gateway without its secret --------------------------------------------------------------

def _without_secret(table, shop: Shop, gateway: dict) -> None:
    """As a company archive restores it: the sealed secret left behind."""
    key = keys.small_record(shop.company.company_id, keys.PAYMENT_GATEWAY, gateway["id"])
    table.client.update_item(TableName=table.name, Key={"PK": {"S": key["PK"]}, "SK": {"S": key["SK"]}},
                             UpdateExpression="REMOVE sealedSecret, secretFingerprint")


def test_a_gateway_without_a_secret_verifies_nothing_and_makes_no_link(api, shop, table, pixelpay):
    gateway = new_pixelpay_gateway(shop)
    invoice = shop.document("01", [(shop.service, 1, 100)])
    link = generate(shop, invoice["id"], gateway["id"])
    _without_secret(table, shop, gateway)
    assert api.get(f"/payments/gateways/{gateway['id']}", key=shop.key).json["hasSecret"] is False
    [delivery] = pixelpay.pay(link["url"])
    empty = {**json.loads(delivery.body), "payment_hash": formats.payment_hash(link["linkId"], PIXELPAY_KEY_ID, "")}
    refused = post(api, delivery, body=json.dumps(empty).encode())
    assert refused.status == 401 and refused.json["code"] == "INVALID_SIGNATURE", refused.text
    assert decision(table, shop, transaction_of(delivery)) is None and payments_of(shop, invoice["id"]) == []
    assert not formats.payment_hash_matches(formats.payment_hash("pl_x", PIXELPAY_KEY_ID, ""), "pl_x",
                                            PIXELPAY_KEY_ID, "")
    no_link = generate(shop, invoice["id"], gateway["id"], 400)
    assert no_link["details"][0]["field"] == "gatewayId", no_link


def test_a_restored_gateway_arrives_inactive(api, table, company_a):
    from chalicelib.services.imports import company_archive

    gateway = {"PK": {"S": keys.small_collection(company_a.company_id, keys.PAYMENT_GATEWAY)}, "SK": {"S": "00001"},
               "provider": {"S": "pixelpay"}, "isActive": {"BOOL": True}, "sealedSecret": {"S": "sealed"},
               "secretFingerprint": {"S": "sha256:abc"}}
    archived = company_archive.archived(gateway, company_a.company_id, 0)
    assert archived["isActive"] == {"BOOL": False} and "sealedSecret" not in archived


# --- 7. a currency the provider does not take -----------------------------------------------------

def test_a_wompi_gateway_moved_to_a_lempira_account_answers_400_not_500(api, shop, table):
    dollar_rates(shop)
    gateway = new_wompi_gateway(shop)
    lempiras = clearing_method(shop, "HNL")
    # its method moved to a lempira bank account after the gateway was made
    moved = api.put(f"/payments/methods/{gateway['paymentMethodId']}", {"bankAccountId": lempiras["bankAccountId"]},
                    key=shop.key)
    if moved.status != 200:  # refused through the API: as an older record may still hold it
        key = keys.small_record(shop.company.company_id, keys.PAYMENT_METHOD, gateway["paymentMethodId"])
        table.client.update_item(TableName=table.name, Key={"PK": {"S": key["PK"]}, "SK": {"S": key["SK"]}},
                                 UpdateExpression="SET bankAccountId = :bank",
                                 ExpressionAttributeValues={":bank": {"N": str(lempiras["bankAccountId"])}})
    assert gateway_config.clearing_account(table, shop.company.company_id,
                                           gateway_config.stored(table, shop.company.company_id,
                                                                 gateway["id"]))["currency"] == "HNL"
    invoice = shop.document("01", [(shop.service, 1, 100)])  # in lempiras
    refused = generate(shop, invoice["id"], gateway["id"], 400)
    assert refused["code"] == "CURRENCY_MISMATCH" and refused["details"][0]["field"] == "gatewayId", refused
