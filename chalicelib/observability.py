"""Structured logging (Powertools Logger) with a correlation id per request, and metrics
(Powertools Metrics: CloudWatch embedded metric format, written to the log) that the template's
alarms and dashboard read."""
from __future__ import annotations

import contextlib
import os
from typing import Any, ContextManager, Iterator

from aws_lambda_powertools import Logger

SERVICE = "business-api"
METRICS_NAMESPACE = "BusinessApi"
logger = Logger(service=SERVICE)


def publish_counts(counts: dict[str, int]) -> None:
    """One EMF record of counts (dimension `service`), e.g. what the hourly run did."""
    _publish({}, {name: (value, "Count") for name, value in counts.items()})


def record_request(route: str, outcome: str, milliseconds: float, counted: str | None) -> None:
    """One EMF record per request: `Requests` and `RequestLatency` by route and outcome (OK or the
    error code), and the business metric the route counts on success (DocumentsCreated, ...)."""
    metrics = {"Requests": (1, "Count"), "RequestLatency": (milliseconds, "Milliseconds")}
    if counted:
        metrics[counted] = (1, "Count")
    _publish({"route": route, "outcome": outcome}, metrics)


def record_delivery(delivered: bool, milliseconds: float | None) -> None:
    """One webhook delivery attempt: attempts, failures, the receiver's latency."""
    metrics = {"WebhookDeliveryAttempts": (1, "Count"), "WebhookDeliveryFailures": (0 if delivered else 1, "Count")}
    if milliseconds is not None:
        metrics["WebhookDeliveryLatency"] = (milliseconds, "Milliseconds")
    _publish({}, metrics)


def _publish(dimensions: dict[str, str], metrics: dict[str, tuple[float, str]]) -> None:
    from chalicelib.settings import get_settings

    if not get_settings().metrics_enabled:
        return
    # ephemeral: no state shared between threads (the local stack serves requests concurrently)
    from aws_lambda_powertools.metrics import EphemeralMetrics, MetricUnit

    record = EphemeralMetrics(namespace=METRICS_NAMESPACE, service=SERVICE)
    for name, value in dimensions.items():
        record.add_dimension(name=name, value=value)
    for name, (value, unit) in metrics.items():
        record.add_metric(name=name, unit=MetricUnit[unit], value=value)
    record.flush_metrics()


_tracer: Any = None


def tracer() -> Any:
    """Powertools Tracer (X-Ray, patching boto3 so every DynamoDB call is a subsegment) in a
    function with active tracing; None elsewhere (tests, the local stack)."""
    global _tracer
    if _tracer is None and os.environ.get("AWS_LAMBDA_FUNCTION_NAME") and \
            os.environ.get("POWERTOOLS_TRACE_DISABLED", "").lower() not in ("1", "true"):
        from aws_lambda_powertools import Tracer

        _tracer = Tracer(service=SERVICE)
    return _tracer


def traced(name: str, **annotations: str) -> ContextManager[Any]:
    """A subsegment around a request (or a run), annotated (searchable in X-Ray) with its
    correlation id and route."""
    active = tracer()
    if active is None:
        return contextlib.nullcontext()
    return _annotated(active, name, annotations)


@contextlib.contextmanager
def _annotated(active: Any, name: str, annotations: dict[str, str]) -> Iterator[Any]:
    with active.provider.in_subsegment(name) as subsegment:
        for key, value in annotations.items():
            subsegment.put_annotation(key, value)
        yield subsegment
