"""8. Webhooks through the real local stack."""
from __future__ import annotations

import json
import math
import time
from collections import Counter
from pathlib import Path
from typing import Any


class _WebhookReceiver:
    """The webhooks section's receiver on 127.0.0.1: fails (500) the first attempt of the
    deliveries whose id hashes to 0-2 mod 10 (about 30 %, decided by the id alone), answers 200
    otherwise; keeps the time (machine clock) of every 2xx answer and checks every request's
    signatures (X-Service-Signature and Standard Webhooks') with the subscription's secret."""

    def __init__(self, fail_first: bool = True) -> None:
        import hashlib
        import hmac
        import threading
        from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

        from chalicelib.domain import webhooks as webhook_rules

        self.secret = ""  # set when the subscription exists, before any event is created
        self.lock = threading.Lock()
        self.attempts: Counter[str] = Counter()  # delivery id -> requests received
        self.ok: dict[str, list[float]] = {}  # delivery id -> times of its 2xx answers
        self.payloads: dict[str, dict[str, Any]] = {}  # delivery id -> its body, parsed
        self.injected = self.invalid_signatures = self.invalid_standard_signatures = self.without_id = 0
        receiver = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args: Any) -> None:  # quiet
                pass

            def do_POST(self) -> None:
                received = time.time()
                body = self.rfile.read(int(self.headers.get("Content-Length") or 0))
                delivery_id = self.headers.get("X-Service-Delivery-Id") or ""
                expected = "sha256=" + hmac.new(receiver.secret.encode(), body, hashlib.sha256).hexdigest()
                signed = hmac.compare_digest(self.headers.get("X-Service-Signature") or "", expected)
                timestamp = self.headers.get("webhook-timestamp") or "0"
                standard = hmac.compare_digest(self.headers.get("webhook-signature") or "", webhook_rules.standard_signature(
                    receiver.secret, self.headers.get("webhook-id") or "", int(timestamp) if timestamp.isdigit() else 0,
                    body))
                fails_first = fail_first and int(hashlib.sha256(delivery_id.encode()).hexdigest(), 16) % 10 < 3
                with receiver.lock:
                    receiver.attempts[delivery_id] += 1
                    receiver.invalid_signatures += not signed
                    receiver.invalid_standard_signatures += not standard
                    if not delivery_id:
                        receiver.without_id += 1
                        status = 400
                    elif fails_first and receiver.attempts[delivery_id] == 1:
                        receiver.injected += 1
                        status = 500
                    else:
                        receiver.ok.setdefault(delivery_id, []).append(received)
                        receiver.payloads.setdefault(delivery_id, json.loads(body))
                        status = 200
                self.send_response(status)
                self.send_header("Content-Length", "0")
                self.end_headers()

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.server.daemon_threads = True
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}/hooks"
        threading.Thread(target=self.server.serve_forever, daemon=True, name="webhook-receiver").start()

    def delivered(self) -> int:
        with self.lock:
            return len(self.ok)


def _epoch(iso: str) -> float:
    import datetime
    return datetime.datetime.fromisoformat(iso.replace("Z", "+00:00")).timestamp()


def _spread(seconds: list[float]) -> dict[str, Any]:
    """p50, p95 (nearest rank) and max, in seconds."""
    if not seconds:
        return {"count": 0}
    ordered = sorted(seconds)

    def rank(fraction: float) -> float:
        return round(ordered[max(0, math.ceil(len(ordered) * fraction) - 1)], 3)

    return {"count": len(ordered), "p50S": rank(0.5), "p95S": rank(0.95), "maxS": round(ordered[-1], 3)}


def webhook_delivery(events: int, clients: int, timeout: float, settle: float = 5.0,
                     one_at_a_time: bool = False) -> dict[str, Any]:
    """A fresh local stack (python -m infra.devstack.local, WEBHOOK_BACKOFF_BASE_S=1) in a subprocess, one
    subscription to business_partner.created pointing at _WebhookReceiver, `events` partners
    created over HTTP by `clients` threads; then waits until every event is delivered or
    dead-lettered (or `timeout` from the first create), and `settle` seconds more for late
    duplicates. `one_at_a_time`: single events, each created after the previous one arrived, and
    no failure injected (the latency of one event on an idle stack)."""
    import tempfile
    from concurrent.futures import ThreadPoolExecutor

    import boto3

    from tests.test_local_stack import Stack, call

    receiver = _WebhookReceiver(fail_first=not one_at_a_time)
    with tempfile.TemporaryDirectory(prefix="bench-webhooks-") as directory:
        state = Path(directory) / "state"
        state.mkdir()
        stack = Stack(state, fresh=True, env={"WEBHOOK_BACKOFF_BASE_S": "1", "RATE_LIMIT_ENABLED": "0"})
        try:
            credentials = stack.wait_ready()
            base = stack.base
            status, headers, _ = call("POST", f"{base}/auth/login", {"email": credentials["email"],
                                                                     "password": credentials["password"]},
                                      headers={"Origin": base})
            assert status == 200, status
            web = {"Cookie": headers["Set-Cookie"].split(";")[0], "Origin": base}
            status, _, subscription = call("POST", f"{base}/settings/webhooks", {
                "name": "bench", "url": receiver.url, "events": ["business_partner.created"]}, headers=web)
            assert status == 201, subscription
            receiver.secret = subscription["secret"]
            sqs = boto3.client("sqs", endpoint_url=f"http://127.0.0.1:{stack.moto_port}", region_name="us-east-1",
                               aws_access_key_id="local", aws_secret_access_key="local")
            queue_urls = sqs.list_queues()["QueueUrls"]
            queue = next(url for url in queue_urls if url.endswith("-WebhookDeliveriesQueue"))
            dlq = next(url for url in queue_urls if url.endswith("-WebhookDeliveriesDLQ"))

            def messages(url: str) -> dict[str, int]:
                attributes = sqs.get_queue_attributes(QueueUrl=url, AttributeNames=[
                    "ApproximateNumberOfMessages", "ApproximateNumberOfMessagesNotVisible"])["Attributes"]
                return {"visible": int(attributes["ApproximateNumberOfMessages"]),
                        "inFlight": int(attributes["ApproximateNumberOfMessagesNotVisible"])}

            api_key = {"X-API-Key": credentials["apiKey"]}

            def create(n: int) -> tuple[int, Any]:
                before = receiver.delivered()
                status, _, body = call("POST", f"{base}/business-partners",
                                       {"name": f"Webhook Bench {n:04d}", "type": "customer"}, headers=api_key)
                deadline = time.time() + 30
                while one_at_a_time and receiver.delivered() == before and time.time() < deadline:
                    time.sleep(0.01)
                return status, body

            started = time.time()
            with ThreadPoolExecutor(clients) as pool:
                created = list(pool.map(create, range(events)))
            creates_done = time.time()
            delivered_by_then = receiver.delivered()
            partners = {body["id"] for status, body in created if status == 201}
            while time.time() < started + timeout and \
                    receiver.delivered() + messages(dlq)["visible"] < len(partners):
                time.sleep(0.25)
            done = time.time()
            time.sleep(settle)
            with receiver.lock:  # what the receiver had by then: the stack keeps delivering until it stops
                ok, payloads, attempts = dict(receiver.ok), dict(receiver.payloads), Counter(receiver.attempts)
                injected = receiver.injected
            dead = messages(dlq)["visible"]
            left = messages(queue)
            records, cursor = [], None
            while True:  # the deliveries as the service recorded them, for where the time went
                path = f"{base}/settings/webhooks/{subscription['id']}/deliveries?limit=100"
                status, _, page = call("GET", path + (f"&cursor={cursor}" if cursor else ""), headers=web)
                assert status == 200, page
                records += page["deliveries"]
                cursor = page["nextCursor"]
                if not cursor:
                    break
            log = stack.read_log()
        finally:
            stack.stop()
            receiver.server.shutdown()

    first_ok = {delivery_id: times[0] for delivery_id, times in ok.items()}
    latency = {delivery_id: at - _epoch(payloads[delivery_id]["occurredAt"]) for delivery_id, at in first_ok.items()}
    retried = {delivery_id for delivery_id, count in attempts.items() if count > 1}
    received_partners = Counter(payload["resourceId"] for payload in payloads.values())
    last = max(first_ok.values(), default=started)
    failures = [line for line in log.splitlines() if " failed:" in line]
    return {
        "eventsCreated": len(partners),
        "createStatuses": dict(Counter(status for status, _ in created)),
        "createPhaseS": round(creates_done - started, 2),
        "createsPerSecond": round(len(partners) / (creates_done - started), 1),
        "deliveredWhenCreatesEnded": delivered_by_then,
        "delivered": len(ok),
        "duplicates": sum(len(times) - 1 for times in ok.values()),
        "firstAttemptFailuresInjected": injected,
        "requestsReceived": sum(attempts.values()),
        "retriedDeliveries": len(retried),
        "deadLettered": dead,
        "leftOnQueue": left,
        "timedOut": done >= started + timeout,
        "allSettledAfterS": round(done - started, 2),
        "invalidSignatures": receiver.invalid_signatures,
        "invalidStandardWebhookSignatures": receiver.invalid_standard_signatures,
        "requestsWithoutDeliveryId": receiver.without_id,
        "partnersWithoutDelivery": len(partners - set(received_partners)),
        "partnersWithSeveralDeliveryIds": sum(1 for count in received_partners.values() if count > 1),
        "commitToDelivery": _spread(list(latency.values())),
        "commitToDeliveryFirstTry": _spread([s for d, s in latency.items() if d not in retried]),
        "commitToDeliveryRetried": _spread([s for d, s in latency.items() if d in retried]),
        "wallS": round(last - started, 2),
        "deliveriesPerSecond": round(len(ok) / (last - started), 2) if last > started else None,
        "drainAfterCreatesS": round(last - creates_done, 2),
        "recorded": {
            "deliveries": len(records),
            "statuses": dict(Counter(record["status"] for record in records)),
            "attemptCounts": dict(sorted(Counter(record["attemptCount"] for record in records).items())),
            # occurredAt -> the delivery record (stream poll + fan-out), -> the end of its first
            # POST (queue wait + deliverer)
            "commitToFanOut": _spread([_epoch(r["createdAt"]) - _epoch(r["occurredAt"]) for r in records]),
            "fanOutToFirstAttemptEnd": _spread([_epoch(r["attempts"][0]["at"]) - _epoch(r["createdAt"])
                                               for r in records if r["attempts"]]),
            "firstAttemptDuration": _spread([r["attempts"][0]["durationMs"] / 1000 for r in records if r["attempts"]]),
        },
        "stackLogFailures": len(failures),
        "firstStackLogFailure": failures[0] if failures else None,
        "note": "latency: the receiver's first 2xx receipt (time.time()) minus the payload's occurredAt, set "
                "when the command builds its transaction, just before the commit; same machine clock",
    }
