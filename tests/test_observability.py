"""What operations reads: one embedded-metric record per request (requests and latency by route
and outcome, the business counts of the routes that create), webhook delivery metrics, and a
traced subsegment per request annotated with its correlation id."""
from __future__ import annotations

import contextlib
import json

import pytest

from chalicelib import observability
from tests.documents_support import Shop


def records(capsys) -> list[dict]:
    """The EMF records written to the log since the last read."""
    return [json.loads(line) for line in capsys.readouterr().out.splitlines() if line.startswith('{"_aws"')]


def request_records(capsys) -> list[dict]:
    return [record for record in records(capsys) if "Requests" in record]


def test_every_request_counts_its_route_outcome_and_latency(api, company_a, capsys):
    shop = Shop(api, company_a)
    capsys.readouterr()
    shop.document("01", [(shop.service, 1, 50)])
    [created] = request_records(capsys)
    assert (created["route"], created["outcome"], created["service"]) == ("POST /documents", "OK", "business-api")
    assert created["Requests"] == [1.0] and created["DocumentsCreated"] == [1.0] and created["RequestLatency"][0] > 0
    [directive] = created["_aws"]["CloudWatchMetrics"]
    assert directive["Namespace"] == "BusinessApi" and sorted(directive["Dimensions"][0]) == ["outcome", "route", "service"]
    assert {metric["Name"]: metric["Unit"] for metric in directive["Metrics"]} == {
        "Requests": "Count", "RequestLatency": "Milliseconds", "DocumentsCreated": "Count"}

    refused = api.post("/documents", {"type": "01", "businessPartnerId": 999999, "lines": []}, key=company_a.api_key)
    assert refused.status == 400
    [failed] = request_records(capsys)
    assert failed["outcome"] == refused.json["code"] and "DocumentsCreated" not in failed

    body = {"type": "01", "businessPartnerId": shop.customer, "date": "2026-11-02",
            "lines": [{"productId": shop.service, "quantity": 1, "unitPrice": 10}]}
    headers = {"Idempotency-Key": "obs-1"}
    assert api.post("/documents", body, key=company_a.api_key, headers=headers).status == 201
    replay = api.post("/documents", body, key=company_a.api_key, headers=headers)
    assert replay.headers.get("Idempotent-Replayed") == "true"
    first, again = request_records(capsys)
    assert first["DocumentsCreated"] == [1.0] and "DocumentsCreated" not in again  # a replay creates nothing


def test_metrics_can_be_turned_off(api, company_a, capsys, settings_env):
    settings_env(METRICS_ENABLED="0")
    capsys.readouterr()
    assert api.get("/business-partners", key=company_a.api_key).status == 200
    assert request_records(capsys) == []


def test_a_webhook_delivery_attempt_counts_its_outcome_and_latency(capsys, settings_env):
    capsys.readouterr()
    observability.record_delivery(False, 120.0)
    [record] = records(capsys)
    assert (record["WebhookDeliveryAttempts"], record["WebhookDeliveryFailures"], record["WebhookDeliveryLatency"]) == (
        [1.0], [1.0], [120.0])


class FakeSubsegment:
    def __init__(self, name: str, opened: list) -> None:
        self.name, self.annotations = name, {}
        opened.append(self)

    def put_annotation(self, key: str, value: str) -> None:
        self.annotations[key] = value


class FakeTracer:
    """Powertools Tracer's escape hatch, as the functions use it (a real one needs X-Ray's daemon)."""

    def __init__(self) -> None:
        self.opened: list[FakeSubsegment] = []
        self.provider = self

    @contextlib.contextmanager
    def in_subsegment(self, name: str):
        yield FakeSubsegment(name, self.opened)


def test_each_request_is_a_subsegment_annotated_with_its_correlation_id(api, company_a, monkeypatch):
    fake = FakeTracer()
    monkeypatch.setattr(observability, "_tracer", fake)
    reply = api.get("/business-partners", key=company_a.api_key, headers={"X-Request-Id": "trace-me-42"})
    assert reply.status == 200 and reply.headers["X-Request-Id"] == "trace-me-42"
    [segment] = fake.opened
    assert segment.name == "## GET /business-partners"
    assert segment.annotations == {"correlation_id": "trace-me-42", "route": "GET /business-partners"}


def test_no_tracer_outside_a_traced_function(monkeypatch):
    monkeypatch.setattr(observability, "_tracer", None)
    monkeypatch.delenv("AWS_LAMBDA_FUNCTION_NAME", raising=False)
    assert observability.tracer() is None
    with observability.traced("## nothing", correlation_id="x") as segment:
        assert segment is None


@pytest.mark.parametrize("disabled", ["true", "1"])
def test_tracing_can_be_disabled_in_a_function(monkeypatch, disabled):
    monkeypatch.setattr(observability, "_tracer", None)
    monkeypatch.setenv("AWS_LAMBDA_FUNCTION_NAME", "business-api-APIHandler")
    monkeypatch.setenv("POWERTOOLS_TRACE_DISABLED", disabled)
    assert observability.tracer() is None


def test_every_function_runs_in_a_traced_subsegment(table, monkeypatch):
    import app

    fake = FakeTracer()
    monkeypatch.setattr(observability, "_tracer", fake)
    app.scheduled_invoices_run.func({})  # the functions as Lambda calls them, past chalice's event wrapping
    app.webhook_fanout.func([])  # an empty batch: nothing to fan out
    assert [segment.name for segment in fake.opened] == ["## scheduled_invoices", "## webhook_fanout"]
