"""Webhook subscriptions (web app only), the fan-out of outbox events, one delivery attempt at a
time with a stand-in sender, the history, redelivery and the test send."""
from __future__ import annotations

import base64
import hashlib
import hmac
import json

import boto3
import pytest

from chalicelib import jsoncodec
from chalicelib.events import queue as queue_module
from chalicelib.services.integrations import webhook_http, webhooks
from chalicelib.store import keys
from infra.deploy.resources import create_queues
from tests.documents_support import outbox_payloads
from tests.support import ORIGIN

URL = "https://hooks.example.com/receiver"


PUBLIC, PRIVATE = "93.184.216.34", "10.0.0.5"
NAMES = {"hooks.example.com": PUBLIC, "other.example.com": PUBLIC, "rebound.example.com": PRIVATE}


@pytest.fixture(autouse=True)
def fake_dns(monkeypatch):
    """Names resolve from this table only: the tests never depend on the machine's DNS."""
    def resolve(host, port, **_):
        if host not in NAMES:
            raise OSError("Name or service not known")
        return [(2, 1, 6, "", (NAMES[host], port))]
    monkeypatch.setattr(webhooks, "resolve_host", resolve)


@pytest.fixture
def queues(aws, settings_env):
    urls = create_queues(boto3.client("sqs"), "test")
    settings_env(WEBHOOK_QUEUE_URL=urls["WebhookDeliveriesQueue"], WEBHOOK_BACKOFF_BASE_S="30")
    queue_module.reset_queue()
    yield urls
    queue_module.reset_queue()


@pytest.fixture
def session(api, company_a, queues):
    return api.login(company_a.email)


def web(api, method: str, path: str, cookie: str, body=None):
    return api.request(method, path, body=body, cookie=cookie, origin=ORIGIN)


def subscribe(api, cookie: str, events=("business_partner.created",), url: str = URL, **fields):
    reply = web(api, "POST", "/settings/webhooks", cookie, {"name": "ERP", "url": url, "events": list(events), **fields})
    assert reply.status == 201, reply.text
    return reply.json


class Sent:
    """A stand-in for the HTTP sender: records what would go over the wire, answers from a script."""

    def __init__(self, *answers: webhook_http.DeliveryResult) -> None:
        self.answers, self.calls = list(answers), []

    def __call__(self, url, body, headers, *, timeout, allow_insecure):
        self.calls.append({"url": url, "body": body, "headers": headers, "timeout": timeout})
        return self.answers.pop(0)


def answer(status: int | None, error: str | None = None) -> webhook_http.DeliveryResult:
    return webhook_http.DeliveryResult(status=status, duration_ms=12, error=error, response_excerpt="ok")


def messages(queues, name: str = "WebhookDeliveriesQueue") -> list[dict]:
    sqs = boto3.client("sqs")
    found = sqs.receive_message(QueueUrl=queues[name], MaxNumberOfMessages=10, AttributeNames=["All"],
                                VisibilityTimeout=0).get("Messages", [])
    return found


def new_events(table, company_id: int) -> list[dict]:
    items, _ = table.query(partition=("PK", f"C#{company_id}#EVT"), consistent=True)
    return items


def test_subscriptions_are_web_only_show_the_secret_once_and_validate_url_and_events(api, company_a, company_b,
                                                                                       session):
    created = subscribe(api, session, events=["business_partner.created", "document.confirmed",
                                              "business_partner.created"])
    assert created["secret"].startswith("whsec_") and len(base64.b64decode(created["secret"][6:])) == 32
    assert created["events"] == ["business_partner.created", "document.confirmed"] and created["isActive"] is True
    shown = web(api, "GET", f"/settings/webhooks/{created['id']}", session).json
    assert "secret" not in shown and shown["url"] == URL
    listed = web(api, "GET", "/settings/webhooks", session).json
    assert listed["total"] == 1 and "secret" not in listed["webhooks"][0]

    by_key = api.get("/settings/webhooks", key=company_a.api_key)
    assert by_key.status == 403 and by_key.json["code"] == "WEB_SESSION_REQUIRED"
    assert api.post("/settings/webhooks", {"name": "x", "url": URL, "events": ["payment.created"]},
                    key=company_a.api_key).status == 403

    for url in ("http://hooks.example.com/x", "https://127.0.0.1/x", "https://10.0.0.8/x", "https://[::1]/x",
                "https://169.254.169.254/latest", "https://2130706433/", "https://user:pw@hooks.example.com/",
                "ftp://hooks.example.com/", "https://rebound.example.com/x"):
        refused = web(api, "POST", "/settings/webhooks", session, {"name": "x", "url": url, "events": ["payment.created"]})
        assert refused.status == 400 and refused.json["details"][0]["field"] == "url", (url, refused.text)
    for events in ([], ["webhook.test"], ["document.deleted"], "payment.created"):
        refused = web(api, "POST", "/settings/webhooks", session, {"name": "x", "url": URL, "events": events})
        assert refused.status == 400 and refused.json["details"][0]["field"].startswith("events"), refused.text
    assert web(api, "GET", "/settings/webhooks", session).json["total"] == 1

    updated = web(api, "PUT", f"/settings/webhooks/{created['id']}", session, {"isActive": False,
                                                                               "url": "https://other.example.com/h"})
    assert updated.status == 200 and updated.json["isActive"] is False and "secret" not in updated.json
    bad = web(api, "PUT", f"/settings/webhooks/{created['id']}", session, {"url": "https://192.168.1.5/"})
    assert bad.status == 400
    other = api.login(company_b.email)
    assert web(api, "GET", f"/settings/webhooks/{created['id']}", other).status == 404
    assert web(api, "DELETE", f"/settings/webhooks/{created['id']}", other).status == 404
    assert web(api, "DELETE", f"/settings/webhooks/{created['id']}", session).json == {"id": created["id"],
                                                                                       "deleted": True}
    assert web(api, "GET", f"/settings/webhooks/{created['id']}", session).status == 404


def test_an_idempotent_replay_of_the_creation_does_not_show_the_secret_again(api, session):
    body = {"name": "ERP", "url": URL, "events": ["payment.created"]}
    first = api.request("POST", "/settings/webhooks", body=body, cookie=session, origin=ORIGIN,
                        headers={"Idempotency-Key": "wh-1"})
    again = api.request("POST", "/settings/webhooks", body=body, cookie=session, origin=ORIGIN,
                        headers={"Idempotency-Key": "wh-1"})
    assert first.json["secret"] and again.json["secret"] is None and again.json["id"] == first.json["id"]


def test_fan_out_queues_one_delivery_per_matching_active_subscription_and_ignores_replays(api, table, company_a,
                                                                                          company_b, session,
                                                                                          queues):
    wanted = subscribe(api, session, events=["business_partner.created"])
    subscribe(api, session, events=["product.created"])
    subscribe(api, session, events=["business_partner.created"], isActive=False)
    other_company = subscribe(api, api.login(company_b.email), events=["business_partner.created"])
    api.post("/business-partners", {"name": "Cliente", "type": "customer"}, key=company_a.api_key)
    events = new_events(table, company_a.company_id)
    assert [event["payload"]["event"] for event in events] == ["business_partner.created"]

    queue = queue_module.get_queue()
    assert webhooks.fan_out(table, queue, events) == 1
    assert webhooks.fan_out(table, queue, events) == 0  # the stream replays: nothing more
    sent = messages(queues)
    assert len(sent) == 1
    message = json.loads(sent[0]["Body"])
    assert (message["companyId"], message["webhookId"]) == (company_a.company_id, wanted["id"])
    history = web(api, "GET", f"/settings/webhooks/{wanted['id']}/deliveries", session).json["deliveries"]
    assert [(d["id"], d["event"], d["status"], d["attemptCount"]) for d in history] == [
        (message["deliveryId"], "business_partner.created", "pending", 0)]
    assert history[0]["payload"] == jsoncodec.loads(jsoncodec.dumps(events[0]["payload"]))
    other = web(api, "GET", f"/settings/webhooks/{other_company['id']}/deliveries", api.login(company_b.email))
    assert other.json["deliveries"] == []


def test_a_replayed_batch_queues_only_the_deliveries_it_lacks_and_a_burst_costs_few_calls(api, table, company_a,
                                                                                           session, queues):
    subscribe(api, session, events=["business_partner.created"])
    for n in range(30):
        api.post("/business-partners", {"name": f"Cliente {n}", "type": "customer"}, key=company_a.api_key)
    events = new_events(table, company_a.company_id)
    queue = queue_module.get_queue()
    assert webhooks.fan_out(table, queue, events[:1]) == 1
    sends = []
    original = queue.client.send_message_batch
    queue.client.send_message_batch = lambda **kwargs: sends.append(len(kwargs["Entries"])) or original(**kwargs)
    assert webhooks.fan_out(table, queue, events) == 29  # the first is there already: not sent again
    assert sends == [10, 10, 4, 5]  # two transactions of records (25 + 5), messages ten at a time
    waiting = boto3.client("sqs").get_queue_attributes(QueueUrl=queues["WebhookDeliveriesQueue"],
                                                       AttributeNames=["ApproximateNumberOfMessages"])
    assert waiting["Attributes"]["ApproximateNumberOfMessages"] == "30"
    assert all(table.get(keys.webhook_delivery(company_a.company_id, int(json.loads(m["Body"])["webhookId"]),
                                               json.loads(m["Body"])["deliveryId"]))["enqueued"]
               for m in messages(queues))


def queued_partner_event(api, table, company, session, queues, monkeypatch):
    """A subscription, a partner created, its delivery fanned out; the queue's delays recorded."""
    created = subscribe(api, session)
    api.post("/business-partners", {"name": "Cliente", "type": "customer"}, key=company.api_key)
    queue = queue_module.get_queue()
    webhooks.fan_out(table, queue, new_events(table, company.company_id))
    message = json.loads(messages(queues)[0]["Body"])
    delays = []
    monkeypatch.setattr(queue, "delay", lambda receipt, seconds: delays.append(seconds))
    return created, queue, message, delays


def test_a_delivery_is_signed_over_its_exact_body_and_retried_with_backoff_until_it_succeeds(api, table, company_a,
                                                                                            session, queues,
                                                                                            monkeypatch):
    created, queue, message, delays = queued_partner_event(api, table, company_a, session, queues, monkeypatch)
    sender = Sent(answer(500), answer(None, "timeout"), answer(204))

    outcomes = [webhooks.deliver(table, queue, message, receive_count=n, receipt_handle="r", send=sender)
                for n in (1, 2, 3)]
    assert outcomes == [False, False, True] and delays == [30, 60]
    # the same delivery id and exactly the same bytes each time, the body the spec's compact JSON
    bodies = {call["body"] for call in sender.calls}
    assert len(bodies) == 1
    body = bodies.pop()
    payload = json.loads(body)
    assert body == json.dumps(payload, separators=(",", ":"), ensure_ascii=False).encode()
    assert set(payload) == {"event", "companyId", "resourceType", "resourceId", "occurredAt", "data"}
    assert (payload["event"], payload["companyId"], payload["resourceType"]) == (
        "business_partner.created", company_a.company_id, "business_partner")
    for call in sender.calls:
        headers = call["headers"]
        assert call["url"] == URL and call["timeout"] == 10
        assert headers["Content-Type"] == "application/json" and headers["User-Agent"] == "Service-Webhooks/1.0"
        assert headers["X-Service-Event"] == "business_partner.created"
        assert headers["X-Service-Delivery-Id"] == headers["webhook-id"] == message["deliveryId"]
        expected = hmac.new(created["secret"].encode(), body, hashlib.sha256).hexdigest()
        assert headers["X-Service-Signature"] == f"sha256={expected}"
        key = base64.b64decode(created["secret"].removeprefix("whsec_"))
        signed = f"{message['deliveryId']}.{headers['webhook-timestamp']}.".encode() + body
        assert headers["webhook-signature"] == "v1," + base64.b64encode(
            hmac.new(key, signed, hashlib.sha256).digest()).decode()

    # the secret is kept sealed, never as it is
    stored = table.get(keys.small_record(company_a.company_id, keys.WEBHOOK, created["id"]))
    assert "secret" not in stored and created["secret"] not in json.dumps(stored, default=str)
    delivery = web(api, "GET", f"/settings/webhooks/{created['id']}/deliveries", session).json["deliveries"][0]
    assert delivery["status"] == "delivered" and delivery["attemptCount"] == 3
    assert [(a["attempt"], a["statusCode"], a["error"]) for a in delivery["attempts"]] == [
        (1, 500, None), (2, None, "timeout"), (3, 204, None)]
    # a duplicate message of a delivered delivery sends nothing
    assert webhooks.deliver(table, queue, message, receive_count=1, receipt_handle="r", send=Sent()) is True


def test_the_fourth_failure_marks_the_delivery_failed_and_leaves_it_to_the_dead_letter_queue(api, table, company_a,
                                                                                             session, queues,
                                                                                             monkeypatch):
    created, queue, message, delays = queued_partner_event(api, table, company_a, session, queues, monkeypatch)
    sender = Sent(*[answer(503)] * 4)
    outcomes = [webhooks.deliver(table, queue, message, receive_count=n, receipt_handle="r", send=sender)
                for n in (1, 2, 3, 4)]
    assert outcomes == [False] * 4 and delays == [30, 60, 120, 0]
    delivery = web(api, "GET", f"/settings/webhooks/{created['id']}/deliveries", session).json["deliveries"][0]
    assert (delivery["status"], delivery["attemptCount"]) == ("failed", 4)

    # redelivery: the same delivery, four more attempts if needed; the sender sees the same id
    again = web(api, "POST", f"/settings/webhooks/{created['id']}/deliveries/{delivery['id']}/redeliver", session)
    assert again.status == 200 and again.json["status"] == "pending"
    # while it is being attempted, no second redelivery runs beside it
    busy = web(api, "POST", f"/settings/webhooks/{created['id']}/deliveries/{delivery['id']}/redeliver", session)
    assert busy.status == 409 and busy.json["code"] == "DELIVERY_IN_PROGRESS"
    resent = [json.loads(m["Body"]) for m in messages(queues)]
    redelivery = {**message, "generation": 1}
    assert redelivery in resent
    # the earlier generation's message, should it come back, is dropped unsent
    assert webhooks.deliver(table, queue, message, receive_count=4, receipt_handle="r", send=Sent()) is True
    retry = Sent(answer(200))
    assert webhooks.deliver(table, queue, redelivery, receive_count=1, receipt_handle="r", send=retry) is True
    assert retry.calls[0]["headers"]["X-Service-Delivery-Id"] == delivery["id"]
    final = web(api, "GET", f"/settings/webhooks/{created['id']}/deliveries", session).json["deliveries"][0]
    assert (final["status"], final["attemptCount"], final["attempts"][-1]["attempt"]) == ("delivered", 5, 5)
    unknown = web(api, "POST", f"/settings/webhooks/{created['id']}/deliveries/dlv_1_{'0' * 20}/redeliver", session)
    assert unknown.status == 404
    assert web(api, "POST", f"/settings/webhooks/{created['id']}/deliveries/nonsense/redeliver", session).status == 404


def test_inactive_or_deleted_subscriptions_get_nothing_and_the_test_button_sends_webhook_test(api, table, company_a,
                                                                                             session, queues):
    created = subscribe(api, session, events=["payment.created"])
    tested = web(api, "POST", f"/settings/webhooks/{created['id']}/test", session)
    assert tested.status == 201 and tested.json["event"] == "webhook.test"
    assert tested.json["payload"]["resourceType"] == "webhook" and tested.json["payload"]["resourceId"] == created["id"]
    message = json.loads(messages(queues)[0]["Body"])
    assert message["deliveryId"] == tested.json["id"]
    # not an outbox event: a test reaches no other subscription
    assert [p for p in outbox_payloads(table, company_a.company_id) if p["event"] == "webhook.test"] == []

    web(api, "PUT", f"/settings/webhooks/{created['id']}", session, {"isActive": False})
    queue = queue_module.get_queue()
    assert webhooks.deliver(table, queue, message, receive_count=1, receipt_handle="r", send=Sent()) is True
    history = web(api, "GET", f"/settings/webhooks/{created['id']}/deliveries", session).json["deliveries"]
    assert history[0]["status"] == "skipped"
    inactive = web(api, "POST", f"/settings/webhooks/{created['id']}/test", session)
    assert inactive.status == 400 and inactive.json["code"] == "WEBHOOK_INACTIVE"


def test_deliveries_list_newest_first_with_a_cursor(api, table, company_a, session, queues):
    created = subscribe(api, session)
    for number in range(5):
        api.post("/business-partners", {"name": f"Cliente {number}", "type": "customer"}, key=company_a.api_key)
    webhooks.fan_out(table, queue_module.get_queue(), new_events(table, company_a.company_id))
    path = f"/settings/webhooks/{created['id']}/deliveries?limit=2"
    seen, cursor = [], None
    while True:
        page = web(api, "GET", path + (f"&cursor={cursor}" if cursor else ""), session).json
        seen.extend(d["payload"]["data"]["name"] for d in page["deliveries"])
        cursor = page["nextCursor"]
        if not cursor:
            break
    assert seen == [f"Cliente {number}" for number in reversed(range(5))]
    assert web(api, "GET", path + "&cursor=garbage", session).status == 400


def test_the_lambda_handlers_take_stream_inserts_of_events_and_report_failed_messages(api, table, company_a,
                                                                                      session, queues, monkeypatch):
    from chalice.app import DynamoDBEvent, SQSEvent

    from chalicelib.events import handlers
    from chalicelib.store.table import to_attributes

    subscribe(api, session, url="https://unknown-yet.example.net/hook")  # a name that does not resolve yet
    api.post("/business-partners", {"name": "Cliente", "type": "customer"}, key=company_a.api_key)
    event_item = new_events(table, company_a.company_id)[0]
    partner_item = table.get({"PK": f"C#{company_a.company_id}#BP#1", "SK": "BP"})

    def record(name, item):
        return {"eventID": "1", "eventName": name, "eventSourceARN": handlers.STREAM_ARN_PLACEHOLDER,
                "awsRegion": "us-east-1", "dynamodb": {"Keys": {}, "NewImage": to_attributes(item),
                                                       "SequenceNumber": "1", "SizeBytes": 1,
                                                       "StreamViewType": "NEW_AND_OLD_IMAGES",
                                                       "ApproximateCreationDateTime": 1700000000}}

    stream = DynamoDBEvent({"Records": [record("INSERT", partner_item), record("MODIFY", event_item),
                                        record("INSERT", event_item)]}, None)
    assert handlers.fan_out_records(stream) == 1
    sent = messages(queues)
    assert len(sent) == 1
    sender = Sent(answer(502))
    monkeypatch.setattr(webhooks.webhook_http, "post", sender)
    monkeypatch.setattr(queue_module.DeliveryQueue, "delay", lambda self, receipt, seconds: None)
    batch = SQSEvent({"Records": [{"messageId": "m-1", "receiptHandle": "r-1", "body": sent[0]["Body"],
                                   "attributes": {"ApproximateReceiveCount": "1"}}]}, None)
    assert handlers.deliver_messages(batch) == {"batchItemFailures": [{"itemIdentifier": "m-1"}]}
    assert [call["url"] for call in sender.calls] == ["https://unknown-yet.example.net/hook"]
