"""Smoke test: webhook delivery through the real local stack (stream poller -> fan-out -> SQS
-> deliverer) to receivers on localhost over real HTTP: a healthy one, one failing twice, one
always failing (four attempts, then the dead-letter queue) and one that hangs past the timeout."""
from __future__ import annotations

import base64
import hashlib
import hmac
import json
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import boto3
import pytest

from tests.test_local_stack import call, fresh_stack

pytestmark = pytest.mark.smoke

HANG_SECONDS = 3


class Receiver:
    """Records every request per path; answers by path: /ok 200, /flaky 500 twice then 200,
    /down always 500, /hang after HANG_SECONDS."""

    def __init__(self) -> None:
        self.requests: dict[str, list[dict]] = {}
        self.lock = threading.Lock()
        receiver = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args):  # quiet
                pass

            def do_POST(self):
                body = self.rfile.read(int(self.headers.get("Content-Length", 0)))
                with receiver.lock:
                    seen = receiver.requests.setdefault(self.path, [])
                    seen.append({"headers": dict(self.headers), "body": body, "at": time.monotonic()})
                    count = len(seen)
                if self.path == "/hang":
                    time.sleep(HANG_SECONDS)
                status = {"/ok": 200, "/down": 500, "/hang": 200}.get(self.path, 500 if count <= 2 else 204)
                self.send_response(status)
                self.send_header("Content-Length", "0")
                self.end_headers()

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.server.daemon_threads = True
        self.base = f"http://127.0.0.1:{self.server.server_address[1]}"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def seen(self, path: str) -> list[dict]:
        with self.lock:
            return list(self.requests.get(path, []))


def wait_for(check, timeout: float, what: str):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        result = check()
        if result:
            return result
        time.sleep(0.2)
    raise AssertionError(f"timed out waiting for {what}")


def test_deliveries_retries_dead_letters_and_timeouts_over_the_local_stack(tmp_path):
    receiver = Receiver()
    try:
        with fresh_stack(tmp_path, {"WEBHOOK_TIMEOUT_S": "1", "WEBHOOK_BACKOFF_BASE_S": "1"}) as (stack, credentials):
            base = stack.base
            status, headers, _ = call("POST", f"{base}/auth/login", {"email": credentials["email"],
                                                                     "password": credentials["password"]},
                                      headers={"Origin": base})
            assert status == 200
            web = {"Cookie": headers["Set-Cookie"].split(";")[0], "Origin": base}
            secrets, ids = {}, {}
            for path in ("/ok", "/flaky", "/down", "/hang"):
                status, _, created = call("POST", f"{base}/settings/webhooks", {
                    "name": path, "url": receiver.base + path, "events": ["business_partner.created"]}, headers=web)
                assert status == 201, created
                secrets[path], ids[path] = created["secret"], created["id"]

            status, _, partner = call("POST", f"{base}/business-partners", {"name": "Webhook SA", "type": "customer"},
                                      headers={"X-API-Key": credentials["apiKey"]})
            assert status == 201

            first = wait_for(lambda: receiver.seen("/ok"), 30, "the healthy receiver")[0]
            body = first["body"]
            payload = json.loads(body)
            assert (payload["event"], payload["resourceId"], payload["data"]["name"]) == (
                "business_partner.created", partner["id"], "Webhook SA")
            assert first["headers"]["X-Service-Event"] == "business_partner.created"
            assert first["headers"]["User-Agent"] == "Service-Webhooks/1.0"
            expected = hmac.new(secrets["/ok"].encode(), body, hashlib.sha256).hexdigest()
            assert hmac.compare_digest(first["headers"]["X-Service-Signature"], f"sha256={expected}")
            key = base64.b64decode(secrets["/ok"].removeprefix("whsec_"))
            signed = f"{first['headers']['webhook-id']}.{first['headers']['webhook-timestamp']}.".encode() + body
            assert first["headers"]["webhook-signature"] == "v1," + base64.b64encode(
                hmac.new(key, signed, hashlib.sha256).digest()).decode()

            flaky = wait_for(lambda: (lambda seen: seen if len(seen) >= 3 else None)(receiver.seen("/flaky")), 40,
                             "the third attempt at the flaky receiver")
            assert len({attempt["headers"]["X-Service-Delivery-Id"] for attempt in flaky}) == 1
            assert len({attempt["body"] for attempt in flaky}) == 1
            assert flaky[2]["at"] - flaky[1]["at"] >= 1.5  # backoff 1 s, then 2 s

            sqs = boto3.client("sqs", endpoint_url=f"http://127.0.0.1:{stack.moto_port}", region_name="us-east-1",
                               aws_access_key_id="local", aws_secret_access_key="local")
            dlq = next(url for url in sqs.list_queues()["QueueUrls"] if url.endswith("WebhookDeliveriesDLQ"))

            def dead_lettered():
                found = sqs.receive_message(QueueUrl=dlq, MaxNumberOfMessages=10, VisibilityTimeout=0).get("Messages", [])
                return [json.loads(message["Body"]) for message in found]

            dead = wait_for(dead_lettered, 60, "the always-failing delivery in the dead-letter queue")
            assert [message["webhookId"] for message in dead] == [ids["/down"]]
            assert len(receiver.seen("/down")) == 4
            status, _, history = call("GET", f"{base}/settings/webhooks/{ids['/down']}/deliveries", headers=web)
            assert [(d["status"], d["attemptCount"]) for d in history["deliveries"]] == [("failed", 4)]
            assert [a["statusCode"] for a in history["deliveries"][0]["attempts"]] == [500] * 4

            status, _, hung = call("GET", f"{base}/settings/webhooks/{ids['/hang']}/deliveries", headers=web)
            attempts = hung["deliveries"][0]["attempts"]
            assert attempts and all(a["error"] == "timeout" and a["statusCode"] is None for a in attempts)
            assert all(900 <= a["durationMs"] < HANG_SECONDS * 1000 for a in attempts)
            status, _, healthy = call("GET", f"{base}/settings/webhooks/{ids['/flaky']}/deliveries", headers=web)
            assert [(d["status"], d["attemptCount"]) for d in healthy["deliveries"]] == [("delivered", 3)]
    finally:
        receiver.server.shutdown()
