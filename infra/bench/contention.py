"""The write ceiling of one company: concurrent clients creating sales invoices, all for one
company and, as the comparison, each for its own company, on the faithful DynamoDB layer
(infra/devstack/faithful_dynamodb.py) with a simulated latency on every call. Two more runs keep the one
company but give each client a branch of its own (its own CAI range, as each cash desk of a
Honduran shop has its own point of emission), selling to one customer or each to its own: what
one company's shared items cost, apart from its one series' numbers, which the law makes serial,
and apart from one customer's balance."""
from __future__ import annotations

import statistics
import threading
import time
from collections import Counter
from typing import Any


def _percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))] if ordered else 0.0


def contention_runs(client_counts: tuple[int, ...], seconds: float, latency_ms: float) -> list[dict[str, Any]]:
    from moto import mock_aws

    from infra.bench.common import bench_environment, document_shop
    from infra.devstack import faithful_dynamodb
    from tests.documents_support import Shop
    from tests.support import make_company

    bench_environment(auth_at_gateway=False)
    records = []
    for clients in client_counts:
        # (companies, series, customers): one company, one series, one customer; then a series per
        # client, with one customer and with one each; a company per client
        for companies, series, customers in sorted({(1, 1, 1), (1, clients, 1), (1, clients, clients),
                                                    (clients, clients, clients)}):
            with mock_aws():
                faithful_dynamodb.reset()
                table, first = document_shop("Tienda 0", "owner0@bench.hn")
                shops = [first] + [Shop(first.api, make_company(table, f"Tienda {n}", f"owner{n}@bench.hn"),
                                        range_size=1_000_000) for n in range(1, companies)]
                one_company = companies == 1
                branches = _branch_per_client(first, series) if one_company and series > 1 else [None]
                buyers = _customer_per_client(first, customers) if one_company and customers > 1 else [None]
                with faithful_dynamodb.behaving(call_latency_s=latency_ms / 1000):
                    records.append(_run(shops, branches, buyers, clients, seconds, latency_ms))
    return records


def _customer_per_client(shop: Any, clients: int) -> list[int]:
    return [shop.customer] + [shop.created("/business-partners", {"name": f"Cliente {n}", "type": "customer"})["id"]
                              for n in range(2, clients + 1)]


def _branch_per_client(shop: Any, clients: int) -> list[int]:
    """Branches 2.. with a CAI range each (the first client keeps branch 1 and its range)."""
    branches = [1]
    for n in range(2, clients + 1):
        branch = shop.created("/branch", {"name": f"Caja {n}", "code": f"{n:03d}"})["id"]
        shop.created("/cai", {"cai": shop.cai_range["cai"], "branchId": branch, "emissionPoint": "001",
                              "documentType": "01", "rangeStart": 1, "rangeEnd": 1_000_000,
                              "deadline": shop.cai_range["deadline"]})
        branches.append(branch)
    return branches


# The clients play Lambdas, each with a CPU of its own, but here they share one interpreter: with
# the default 5 ms switch interval a client back from a DynamoDB call waits for every other
# client's slice of CPU before it goes on, and a short section that must run alone (the number's
# lease) stretches to hundreds of milliseconds. A short interval keeps the queue for the CPU fair.
SWITCH_INTERVAL_S = 0.0005


def _run(shops: list[Any], branches: list[int | None], buyers: list[int | None], clients: int, seconds: float,
         latency_ms: float) -> dict[str, Any]:
    import sys

    from chalicelib.store.table import get_table

    previous_interval = sys.getswitchinterval()
    sys.setswitchinterval(SWITCH_INTERVAL_S)
    try:
        return _drive(shops, branches, buyers, clients, seconds, latency_ms, get_table())
    finally:
        sys.setswitchinterval(previous_interval)


def _drive(shops: list[Any], branches: list[int | None], buyers: list[int | None], clients: int, seconds: float,
           latency_ms: float, table: Any) -> dict[str, Any]:
    transactions: Counter[str] = Counter()
    table.client.meta.events.register(
        "before-call.dynamodb.TransactWriteItems", lambda **_: transactions.update(["calls"]))
    latencies: list[float] = []
    outcomes: Counter[int] = Counter()
    lock = threading.Lock()
    barrier = threading.Barrier(clients)
    deadline: list[float] = []

    def client(n: int) -> None:
        shop = shops[n % len(shops)]
        branch, buyer = branches[n % len(branches)], buyers[n % len(buyers)]
        body = {"type": "01", "businessPartnerId": buyer or shop.customer, "date": "2026-11-02",
                "lines": [{"productId": shop.service, "quantity": 1, "unitPrice": 100}],
                **({"branchId": branch} if branch is not None else {})}
        barrier.wait()
        if n == 0:
            deadline.append(time.perf_counter() + seconds)
        while not deadline:
            time.sleep(0.001)
        while time.perf_counter() < deadline[0]:
            started = time.perf_counter()
            status = shop.api.post("/documents", body, key=shop.key).status
            with lock:
                latencies.append(time.perf_counter() - started)
                outcomes[status] += 1

    threads = [threading.Thread(target=client, args=(n,)) for n in range(clients)]
    started = time.perf_counter()
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    elapsed = time.perf_counter() - started
    created = outcomes[201]
    requests = sum(outcomes.values())
    return {"clients": clients, "companies": len(shops), "series": max(len(shops), len(branches)),
            "customers": max(len(shops), len(buyers)),
            "latencyMs": latency_ms,
            "seconds": round(elapsed, 2), "invoices": created,
            "invoicesPerSecond": round(created / elapsed, 2),
            "failed": requests - created,
            "p50": round(statistics.median(latencies) * 1000, 1) if latencies else None,
            "p99": round(_percentile(latencies, 0.99) * 1000, 1),
            "retriesPerRequest": round((transactions["calls"] - requests) / max(requests, 1), 3),
            "outcomes": {str(status): count for status, count in sorted(outcomes.items())}}
