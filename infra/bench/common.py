"""Shared by the benchmark sections: the environment, a company, call counting."""
from __future__ import annotations

import os
import statistics
import time
import warnings
from collections import Counter
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]


class CallCounter:
    def __init__(self, client: Any) -> None:
        self.calls: Counter[str] = Counter()
        self.transaction_items: list[int] = []  # items of each TransactWriteItems, in order
        client.meta.events.register("before-call.dynamodb", self._count)
        client.meta.events.register("provide-client-params.dynamodb.TransactWriteItems", self._items)

    def _count(self, model: Any, **_: Any) -> None:
        self.calls[model.name] += 1

    def _items(self, params: Any, **_: Any) -> None:
        self.transaction_items.append(len(params.get("TransactItems", [])))

    def take(self) -> dict[str, int]:
        taken = dict(self.calls)
        self.calls.clear()
        return taken


def bench_environment(auth_at_gateway: bool) -> None:
    os.environ.update({"AWS_ACCESS_KEY_ID": "bench", "AWS_SECRET_ACCESS_KEY": "bench",
                       "AWS_DEFAULT_REGION": "us-east-1", "TABLE_NAME": "bench", "FILES_BUCKET": "bench-files",
                       "AUTH_AT_GATEWAY": "1" if auth_at_gateway else "0", "POWERTOOLS_LOG_LEVEL": "WARNING",
                       "METRICS_ENABLED": "0"})
    os.environ.pop("AWS_ENDPOINT_URL", None)
    warnings.filterwarnings("ignore")
    # the figures alone on stdout: no request log lines (a logger made before this) nor metric records
    from chalicelib.observability import logger
    from chalicelib.settings import reset_settings
    logger.setLevel("WARNING")
    reset_settings()
    from infra.devstack import faithful_dynamodb, moto_speedups
    moto_speedups.install()
    faithful_dynamodb.install()


def bench_company(name: str, email: str) -> tuple[Any, Any]:
    """Inside mock_aws: a fresh table and a company with its owner and API key."""
    import boto3

    from chalicelib.settings import reset_settings
    from chalicelib.store.table import get_table, reset_table
    from infra.deploy.resources import create_bucket, create_table
    from tests.support import make_company

    reset_settings()
    reset_table()
    create_table(boto3.client("dynamodb"), "bench")
    create_bucket(boto3.client("s3"), "bench-files")
    table = get_table()
    return table, make_company(table, name, email)


class QueryProbe:
    """Each Query's time (botocore + the embedded moto) and the items it read (Count,
    ScannedCount), by table or index and partition: which read grows with the data."""

    def __init__(self, client: Any) -> None:
        self.seen: dict[str, list[tuple[float, int, int]]] = {}
        client.meta.events.register("provide-client-params.dynamodb.Query", self._start)
        client.meta.events.register("after-call.dynamodb.Query", self._end)

    def _start(self, params: Any, context: Any, **_: Any) -> None:
        partition = params["ExpressionAttributeValues"][":p"]["S"]
        context["probe"] = (f"{params.get('IndexName', 'table')} {partition}", time.perf_counter())

    def _end(self, parsed: Any, context: Any, **_: Any) -> None:
        label, started = context.get("probe", ("?", time.perf_counter()))
        self.seen.setdefault(label, []).append((time.perf_counter() - started, parsed.get("Count", 0),
                                                parsed.get("ScannedCount", 0)))

    def take(self) -> dict[str, Any]:
        taken = {label: {"medianMs": round(statistics.median(t for t, _, _ in runs) * 1000, 2),
                         "itemsReturned": max(c for _, c, _ in runs), "itemsScanned": max(s for _, _, s in runs)}
                 for label, runs in self.seen.items()}
        self.seen.clear()
        return taken


def timed_requests(gateway: Any, counter: CallCounter, method: str, path: str, headers: dict[str, str],
                    body: bytes, samples: int, status: int, probe: QueryProbe | None = None) -> dict[str, Any]:
    """One warm-up request, then `samples` timed ones: median latency and the DynamoDB calls of
    each request (one dict when every request made the same calls, as it should), and with a
    probe each Query's time and items."""
    assert gateway.handle(method, path, headers, body)["statusCode"] == status
    counter.take()
    counter.transaction_items.clear()
    if probe is not None:
        probe.take()
    latencies, calls = [], []
    for _ in range(samples):
        started = time.perf_counter()
        response = gateway.handle(method, path, headers, body)
        latencies.append(time.perf_counter() - started)
        assert response["statusCode"] == status, response
        calls.append(counter.take())
    distinct = [dict(c) for c in {tuple(sorted(c.items())): c for c in calls}.values()]
    result: dict[str, Any] = {"medianMs": round(statistics.median(latencies) * 1000, 2),
                              "callsPerRequest": distinct[0] if len(distinct) == 1 else distinct}
    if counter.transaction_items:
        result["transactionItems"] = sorted(set(counter.transaction_items))
    if probe is not None:
        result["queries"] = probe.take()
    return result


def document_shop(name: str, email: str) -> tuple[Any, Any]:
    """Inside mock_aws: a fresh table and a company ready for documents (the standard chart, a
    customer, a supplier, a stocked product P-1, a service S-1 and a CAI range for 01), set up
    through the in-process API (tests/documents_support.py)."""
    from app import app
    from tests.documents_support import Shop
    from tests.support import ApiClient

    table, company = bench_company(name, email)
    return table, Shop(ApiClient(app), company, range_size=1_000_000)


def copy_invoices(table: Any, company_id: int, partner_id: int, template: dict[str, Any], count: int,
                   first_day: Any, *, skip_days: int = 0, open_items: bool = False) -> set[str]:
    """`count` copies of a stored invoice of the partner, each with its own id, number and date
    (the days after `first_day`, cycling over a year), indexed by the service's own `_stored`, with
    their per-day counts (company and partner) added as the service adds them, and their
    open-document items when `open_items`. Returns the dates used."""
    import datetime

    from chalicelib.domain.documents import format_number
    from chalicelib.services.sales_purchases import document_partners, documents
    from chalicelib.store import keys
    from chalicelib.store.table import to_attributes

    last_id = table.add(keys.id_sequence(company_id, keys.DOCUMENT), "value", count)
    per_day: Counter[str] = Counter()
    requests = []
    for n, document_id in enumerate(range(last_id - count + 1, last_id + 1), start=skip_days):
        date = (first_day + datetime.timedelta(days=n % 365)).isoformat()
        per_day[date] += 1
        item = {**template, **keys.document(company_id, document_id), "id": document_id,
                "date": date, "dueDate": date, "number": format_number("001", "002", "01", document_id),
                "createdAt": f"{date}T15:00:00.000Z", "updatedAt": f"{date}T15:00:00.000Z"}
        requests.append({"PutRequest": {"Item": to_attributes(documents._stored(item))}})
        if open_items:
            requests.append({"PutRequest": {"Item": to_attributes(document_partners.open_document_item(company_id, item))}})
    for start in range(0, len(requests), 25):
        pending = {table.name: requests[start:start + 25]}
        while pending:
            pending = table.client.batch_write_item(RequestItems=pending).get("UnprocessedItems") or None
    attribute = f"{template['status']}_{template['type']}"
    for date, documents_that_day in per_day.items():
        for key in (keys.day_counts(company_id, date), keys.day_counts(company_id, date, partner_id)):
            table.add(key, attribute, documents_that_day)
    return set(per_day)
