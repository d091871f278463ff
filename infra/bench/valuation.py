"""12. GET /inventory/valuation of a company with 20 and then 200 stocked products, each bought in
October and sold in November (through the in-process API, over the embedded moto): at the end of
November (no product moved after it: the positions alone) and at the end of October (every product
moved after it: its later movements are read and taken away). DynamoDB calls and median latency.
Target: at a date after the last movement, the same calls whatever the number of products."""
from __future__ import annotations

from typing import Any

from infra.bench.common import CallCounter, bench_environment, document_shop, timed_requests


def valuation_scaling(samples: int) -> dict[str, Any]:
    bench_environment(auth_at_gateway=False)
    from moto import mock_aws

    with mock_aws():
        from app import app
        from infra.devstack.gateway import LocalApiGateway

        table, shop = document_shop("Valuación S.A.", "valuacion@example.com")
        counter = CallCounter(table.client)
        gateway = LocalApiGateway(app)
        headers = {"authorization": f"Bearer {shop.key}"}
        stocked = 0

        def fill(total: int) -> None:
            nonlocal stocked
            while stocked < total:
                product = shop.created("/products", {"code": f"B-{stocked}", "name": f"Producto {stocked}",
                                                     "unitPrice": 50, "taxRate": 0.15})["id"]
                shop.document("103", [(product, 10, 20 + stocked % 7)], date="2026-10-15")
                shop.document("01", [(product, 3, 50)], date="2026-11-10")
                stocked += 1

        def measure() -> dict[str, Any]:
            return {"products": stocked, **{name: timed_requests(
                gateway, counter, "GET", f"/inventory/valuation?date={date}", headers, b"", samples, 200)
                for name, date in (("monthEnd", "2026-11-30"), ("monthBefore", "2026-10-31"))}}

        fill(20)
        small = measure()
        fill(200)
        large = measure()
        return {"with20": small, "with200": large,
                "note": "calls include the in-app authentication (GetItem + BatchGetItem)"}
