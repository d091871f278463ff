"""14. Moving in (`--only data-imports`): 10,000 partners and then 10,000 products imported from one
CSV file each (POST /imports, the job run as the worker runs it, in-process over the embedded moto):
wall time, rows per second, DynamoDB calls and transactions, and the write units per row computed
as on-demand billing counts them (capacity.py's meter, on a second run of 1,000 rows: the meter's
peeks cost time). Target: each 10,000-row import within 60 s locally."""
from __future__ import annotations

import base64
import csv
import io
import time
from typing import Any, Callable

from infra.bench.common import CallCounter, bench_company, bench_environment

PARTNER_HEADINGS = ("name", "type", "taxId", "email", "creditLimit")
PRODUCT_HEADINGS = ("code", "name", "type", "unitPrice", "taxRate", "trackInventory")


def _honduran_rtn(n: int) -> str:
    return f"0801{1990 + n % 30:04d}{n:06d}"[:14]


def partner_rows(count: int, start: int = 0) -> list[tuple[Any, ...]]:
    return [(f"Cliente {n:05d} S. de R.L.", "customer", _honduran_rtn(n), f"cliente{n}@example.hn", "5000")
            for n in range(start, start + count)]


def product_rows(count: int, start: int = 0) -> list[tuple[Any, ...]]:
    return [(f"P{n:06d}", f"Producto {n:05d}", "product", "125.50", "0.15", "true")
            for n in range(start, start + count)]


def csv_file(headings: tuple[str, ...], rows: list[tuple[Any, ...]]) -> bytes:
    text = io.StringIO()
    writer = csv.writer(text)
    writer.writerow(headings)
    writer.writerows(rows)
    return text.getvalue().encode()


def _imported(client: Any, company: Any, kind: str, content: bytes) -> dict[str, Any]:
    reply = client.post("/imports", {"kind": kind, "fileName": f"{kind}.csv",
                                      "content": base64.b64encode(content).decode()}, key=company.api_key)
    assert reply.status in (201, 202), (reply.status, reply.json)
    job = reply.json
    assert job["status"] == "done", job
    return job


def _one_kind(kind: str, headings: tuple[str, ...], rows_of: Callable[[int, int], list[tuple[Any, ...]]],
              rows: int, metered_rows: int) -> dict[str, Any]:
    from moto import mock_aws

    with mock_aws():
        import boto3

        from app import app
        from infra.bench.capacity import CapacityMeter, summed
        from tests.support import ApiClient

        table, company = bench_company(f"Mudanza {kind} S.A.", f"mudanza-{kind}@example.com")
        client = ApiClient(app)
        content = csv_file(headings, rows_of(rows, 0))
        counter = CallCounter(table.client)
        started = time.perf_counter()
        job = _imported(client, company, kind, content)
        seconds = time.perf_counter() - started
        calls = counter.take()
        transactions = list(counter.transaction_items)
        meter = CapacityMeter(table.client, boto3.client("dynamodb"))
        _imported(client, company, kind, csv_file(headings, rows_of(metered_rows, rows)))
        units = summed(meter.take())
        meter.enabled = False
        return {"rows": rows, "fileBytes": len(content), "seconds": round(seconds, 1),
                "rowsPerSecond": round(rows / seconds), "result": job.get("result"), "dynamodbCalls": calls,
                "transactions": len(transactions), "itemsPerTransaction": max(transactions or [0]),
                "writeUnitsPerRow": round(units["writeUnits"] / metered_rows, 2),
                "readUnitsPerRow": round(units["readUnits"] / metered_rows, 2),
                "meteredRows": metered_rows, "target": "<= 60 s for 10,000 rows"}


def data_imports(rows: int = 10_000, metered_rows: int = 1_000) -> dict[str, Any]:
    bench_environment(auth_at_gateway=False)
    return {"partners": _one_kind("partners", PARTNER_HEADINGS, lambda n, s: partner_rows(n, s), rows, metered_rows),
            "products": _one_kind("products", PRODUCT_HEADINGS, lambda n, s: product_rows(n, s), rows, metered_rows),
            "note": "in-process over the embedded moto (its time, not DynamoDB's); units as on-demand billing counts them"}
