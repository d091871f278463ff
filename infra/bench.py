"""Benchmarks (not part of `make test`): `python -m infra.bench` or `make bench`.

1. Cold import time of the API module against a bare chalice + boto3 client import, measured in
   the same run, in fresh interpreters (median of N). Target: ratio <= 1.3.
2. DynamoDB calls per request for each route, as deployed: the REQUEST authorizer's calls and
   the API Lambda's calls are counted apart. Target: one GetItem/Query per read, one
   TransactWriteItems per write.
3. General ledger, first page, of one account with 50 postings, while the company's OTHER
   accounts hold 100 and then 10,000 postings: DynamoDB calls and median latency (in-process,
   over the embedded moto). Target: latency ratio <= 1.2, the same calls.
4. POST /documents, a confirmed sales invoice (01) with 1 and with 20 stocked lines: DynamoDB
   calls, items in its one transaction and median latency (in-process, over the embedded moto).
5. GET /documents, first page (limit 20), while the company holds 100 and then 10,000 other
   documents (seeded straight into the table, shaped as the service stores them, spread over a
   year): DynamoDB calls and median latency. Target: latency ratio <= 1.2, the same calls.
6. POST /payments/documents/{id}/payments, a partial payment of a confirmed sales invoice by a
   method without a bank account (cash) and by one with a bank account: DynamoDB calls by
   operation, items in its one transaction and median latency (in-process, over the embedded moto).
7. GET /credits/client/{id}/summary of a customer with 10, 100 and 5,000 confirmed open invoices
   (beyond the first 10, seeded straight into the table as the service stores them: the
   documents, their open-document index items, the partner's openReceivables and
   receivableBalance, the per-day counts): DynamoDB calls and median latency. Target: the same
   calls whatever the history.
8. Webhooks through the real local stack (`python -m infra.local --fresh` in a subprocess,
   WEBHOOK_BACKOFF_BASE_S=1): one subscription to business_partner.created, 500 partners created
   over HTTP by 4 client threads, a receiver on 127.0.0.1 that fails the first attempt of about
   30 % of the deliveries (by their id); until every event is delivered or dead-lettered: counts
   (delivered, duplicates, injected failures, dead-lettered, invalid signatures), commit-to-
   delivery latency (p50/p95/max), wall time and deliveries per second. Target: every event
   delivered once, none dead-lettered, no invalid signature.
9. Scheduler: 1,000 scheduled invoices due today across 50 companies (in-process, over the embedded
   moto), one hourly run: its wall time, the invoices it made (must be 1,000) and its DynamoDB
   calls, in all and per invoice.
10. PDF rendering (pure, no AWS): the "invoice" template for a 5-line and a 200-line sales
   invoice, the 80 mm "ticket" for the same two and the "journal-entry" template for a 10-line
   entry; median of N renders after one warm-up (which loads fpdf2), with pages and bytes.
   Target: the 200-line invoice well under a second."""
from __future__ import annotations

import argparse
import json
import math
import os
import statistics
import subprocess
import sys
import time
import warnings
from collections import Counter
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent

BASELINE = ("import time; t = time.perf_counter(); import chalice, boto3; "
            "boto3.client('dynamodb', region_name='us-east-1'); print(time.perf_counter() - t)")
API = ("import time; t = time.perf_counter(); import app; from chalicelib.store.table import get_table; "
       "get_table(); print(time.perf_counter() - t)")


def _time_import(code: str, runs: int) -> list[float]:
    env = {**os.environ, "AWS_DEFAULT_REGION": "us-east-1", "PYTHONDONTWRITEBYTECODE": "0"}
    return [float(subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=env, check=True,
                                 capture_output=True, text=True).stdout) for _ in range(runs)]


def import_times(runs: int) -> dict[str, Any]:
    _time_import(API, 1)  # compile bytecode once so every measured run is alike
    baseline, api = [], []
    for _ in range(runs):  # interleaved, so machine noise hits both alike
        baseline += _time_import(BASELINE, 1)
        api += _time_import(API, 1)
    result = {"baseline_median_s": round(statistics.median(baseline), 4),
              "api_median_s": round(statistics.median(api), 4)}
    result["ratio"] = round(result["api_median_s"] / result["baseline_median_s"], 3)
    return result


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


def _bench_environment(auth_at_gateway: bool) -> None:
    os.environ.update({"AWS_ACCESS_KEY_ID": "bench", "AWS_SECRET_ACCESS_KEY": "bench",
                       "AWS_DEFAULT_REGION": "us-east-1", "TABLE_NAME": "bench",
                       "AUTH_AT_GATEWAY": "1" if auth_at_gateway else "0", "POWERTOOLS_LOG_LEVEL": "WARNING"})
    os.environ.pop("AWS_ENDPOINT_URL", None)
    warnings.filterwarnings("ignore")
    from infra import moto_speedups
    moto_speedups.install()


def _bench_company(name: str, email: str) -> tuple[Any, Any]:
    """Inside mock_aws: a fresh table and a company with its owner and API key."""
    import boto3

    from chalicelib.settings import reset_settings
    from chalicelib.store.table import get_table, reset_table
    from infra.resources import create_table
    from tests.support import make_company

    reset_settings()
    reset_table()
    create_table(boto3.client("dynamodb"), "bench")
    table = get_table()
    return table, make_company(table, name, email)


def calls_per_request() -> list[dict[str, Any]]:
    _bench_environment(auth_at_gateway=True)
    from moto import mock_aws

    with mock_aws():
        from app import app, authorizer
        from infra.gateway import LocalApiGateway

        table, company = _bench_company("Bench S.A.", "bench@example.com")
        counter = CallCounter(table.client)
        gateway = LocalApiGateway(app)
        local = gateway._gateway  # inject the authorizer's context as API Gateway does
        original = local._generate_lambda_event

        def request(method: str, path: str, body: Any = None, session: str | None = None) -> dict[str, Any]:
            headers = {"cookie": f"accessToken={session}", "origin": "http://localhost:8000"} if session \
                else {"authorization": f"Bearer {company.api_key}"}
            event = {"type": "REQUEST", "methodArn": "arn", "headers": headers}
            policy = authorizer(event, None)
            auth_calls = counter.take()
            context = {k: str(v) for k, v in policy["context"].items()}

            def with_context(*args: Any, **kwargs: Any) -> dict[str, Any]:
                lambda_event = original(*args, **kwargs)
                lambda_event["requestContext"]["authorizer"] = context
                return lambda_event

            local._generate_lambda_event = with_context
            response = gateway.handle(method, path, {**headers, "content-type": "application/json"},
                                      json.dumps(body).encode() if body is not None else b"")
            local._generate_lambda_event = original
            route_calls = counter.take()
            return {"route": f"{method} {path}", "status": response["statusCode"],
                    "authorizer_calls": auth_calls, "api_calls": route_calls,
                    "body": json.loads(response["body"]) if response.get("body") else None}

        rows = []
        partner = request("POST", "/business-partners", {"name": "Bench", "type": "customer"})
        rows.append(partner)
        pid = partner["body"]["id"]
        rows.append(request("GET", f"/business-partners/{pid}"))
        rows.append(request("GET", "/business-partners"))
        rows.append(request("PUT", f"/business-partners/{pid}", {"name": "Bench 2"}))
        product = request("POST", "/products", {"code": "B-1", "name": "Bench"})
        rows.append(product)
        rows.append(request("GET", f"/products/{product['body']['id']}"))
        rows.append(request("GET", "/products"))
        rows.append(request("PUT", f"/products/{product['body']['id']}", {"code": "B-2"}))
        rows.append(request("GET", "/companies"))
        rows.append(request("POST", "/chart-of-accounts", {"code": "110101", "name": "Caja", "type": "asset"}))
        rows.append(request("POST", "/chart-of-accounts", {"code": "3101", "name": "Capital", "type": "equity"}))
        entry = {"date": "2026-11-05", "status": "posted", "lines": [{"chartOfAccountId": 1, "debit": 10},
                                                                     {"chartOfAccountId": 2, "credit": 10}]}
        rows.append(request("POST", "/journal-entries", entry))
        rows.append(request("POST", "/journal-entries", {**entry, "status": "draft"}))
        rows.append(request("POST", "/journal-entries/2/post"))
        rows.append(request("GET", "/journal-entries"))
        rows.append(request("GET", "/journal-entries/ledger?chartOfAccountId=1&startDate=2026-01-01"
                                   "&endDate=2026-12-31"))
        rows.append(request("GET", "/journal-entries/trial-balance?date=2026-12-31"))
        rows.append(request("PUT", f"/companies/{company.company_id}", {"phone": "2222-2222"}))
        from chalicelib.services import sessions
        token, _ = sessions.login(table, company.email, "correct horse battery")
        counter.take()
        rows.append(request("GET", "/settings/api-keys", session=token))
        rows.append(request("POST", "/settings/api-keys", {"name": "bench"}, session=token))
        for row in rows:
            row.pop("body")
        return rows


def ledger_scaling(samples: int) -> dict[str, Any]:
    _bench_environment(auth_at_gateway=False)
    from moto import mock_aws

    with mock_aws():
        from app import app
        from chalicelib.auth.principal import API_KEY, Principal
        from chalicelib.services import chart, journal
        from chalicelib.services.commands import Command
        from infra.gateway import LocalApiGateway

        table, company = _bench_company("Ledger S.A.", "ledger@example.com")
        command = Command(Principal(API_KEY, company.company_id, company.user_id, "owner"), table)

        def account(code: str, account_type: str) -> int:
            return int(chart.create_account(command, {"code": code, "name": code, "type": account_type})["id"])

        def entry(date: str, lines: list[tuple[int, int, int]]) -> None:
            journal.create_entry(command, {"date": date, "status": "posted", "lines": [
                {"chartOfAccountId": a, "debit": d, "credit": c} for a, d, c in lines]})

        target, capital = account("110101", "asset"), account("3101", "equity")
        others = [account(f"61{n:02d}", "expense") for n in range(19)]
        payable = account("210101", "liability")
        for day in range(1, 26):
            entry(f"2026-11-{day:02d}", [(target, 100 + day, 0), (capital, 0, 100 + day)])
            entry(f"2026-11-{day:02d}", [(capital, 5, 0), (target, 0, 5)])
        written = 0

        def fill_others(total: int) -> None:
            nonlocal written
            while written < total:
                day = 1 + (written // 20) % 28
                entry(f"2026-11-{day:02d}", [(other, 1, 0) for other in others] + [(payable, 0, len(others))])
                written += 20

        counter = CallCounter(table.client)
        gateway = LocalApiGateway(app)
        headers = {"authorization": f"Bearer {company.api_key}"}
        path = f"/journal-entries/ledger?chartOfAccountId={target}&startDate=2026-11-01&endDate=2026-11-30"

        def measure() -> dict[str, Any]:
            gateway.handle("GET", path, headers, b"")  # warm
            counter.take()
            latencies = []
            for _ in range(samples):
                started = time.perf_counter()
                response = gateway.handle("GET", path, headers, b"")
                latencies.append(time.perf_counter() - started)
                assert response["statusCode"] == 200, response
            calls = {name: count // samples for name, count in counter.take().items()}
            return {"otherPostings": written, "medianMs": round(statistics.median(latencies) * 1000, 2),
                    "callsPerRequest": calls}

        fill_others(100)
        small = measure()
        fill_others(10_000)
        large = measure()
        return {"with100": small, "with10000": large,
                "latencyRatio": round(large["medianMs"] / small["medianMs"], 3),
                "note": "calls include the in-app authentication (GetItem + BatchGetItem)"}


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


def _timed_requests(gateway: Any, counter: CallCounter, method: str, path: str, headers: dict[str, str],
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


def _document_shop(name: str, email: str) -> tuple[Any, Any]:
    """Inside mock_aws: a fresh table and a company ready for documents (the standard chart, a
    customer, a supplier, a stocked product P-1, a service S-1 and a CAI range for 01), set up
    through the in-process API (tests/documents_support.py)."""
    from app import app
    from tests.documents_support import Shop
    from tests.support import ApiClient

    table, company = _bench_company(name, email)
    return table, Shop(ApiClient(app), company, range_size=1_000_000)


def document_writes(samples: int) -> dict[str, Any]:
    _bench_environment(auth_at_gateway=False)
    from moto import mock_aws

    with mock_aws():
        from app import app
        from infra.gateway import LocalApiGateway

        table, shop = _document_shop("Ventas S.A.", "ventas@example.com")
        products = [shop.product] + [
            shop.created("/products", {"code": f"P-{n}", "name": f"Producto {n}", "unitPrice": 100, "cost": 60,
                                       "taxRate": 0.15})["id"] for n in range(2, 21)]
        shop.document("103", [(product, 100_000, 60) for product in products])  # stock to sell
        counter = CallCounter(table.client)
        gateway = LocalApiGateway(app)
        headers = {"authorization": f"Bearer {shop.key}", "content-type": "application/json"}
        rows = {}
        for count in (1, 20):
            body = json.dumps({"type": "01", "businessPartnerId": shop.customer, "date": "2026-11-02",
                               "lines": [{"productId": product, "quantity": 1, "unitPrice": 100}
                                         for product in products[:count]]}).encode()
            rows[f"stockedLines{count}"] = _timed_requests(gateway, counter, "POST", "/documents", headers, body,
                                                           samples, 201)
        rows["latencyRatio20to1"] = round(rows["stockedLines20"]["medianMs"] / rows["stockedLines1"]["medianMs"], 3)
        rows["note"] = "calls include the in-app authentication (GetItem + BatchGetItem)"
        return rows


def _copy_invoices(table: Any, company_id: int, partner_id: int, template: dict[str, Any], count: int,
                   first_day: Any, *, skip_days: int = 0, open_items: bool = False) -> set[str]:
    """`count` copies of a stored invoice of the partner, each with its own id, number and date
    (the days after `first_day`, cycling over a year), indexed by the service's own `_stored`, with
    their per-day counts (company and partner) added as the service adds them, and their
    open-document items when `open_items`. Returns the dates used."""
    import datetime

    from chalicelib.domain.documents import format_number
    from chalicelib.services import documents
    from chalicelib.store import keys
    from chalicelib.store.table import to_attributes

    last_id = table.add(keys.id_sequence(company_id, keys.DOCUMENT), "value", count)
    per_day: Counter[str] = Counter()
    requests = []
    for n, document_id in enumerate(range(last_id - count + 1, last_id + 1), start=skip_days):
        date = (first_day + datetime.timedelta(days=n % 365)).isoformat()
        per_day[date] += 1
        item = {**template, **documents.document_key(company_id, document_id), "id": document_id,
                "date": date, "dueDate": date, "number": format_number("001", "002", "01", document_id),
                "createdAt": f"{date}T15:00:00.000Z", "updatedAt": f"{date}T15:00:00.000Z"}
        requests.append({"PutRequest": {"Item": to_attributes(documents._stored(item))}})
        if open_items:
            requests.append({"PutRequest": {"Item": to_attributes(documents.open_document_item(company_id, item))}})
    for start in range(0, len(requests), 25):
        pending = {table.name: requests[start:start + 25]}
        while pending:
            pending = table.client.batch_write_item(RequestItems=pending).get("UnprocessedItems") or None
    attribute = f"{template['status']}_{template['type']}"
    per_day[keys.ALL_DAYS] = count
    for date, documents_that_day in per_day.items():
        for key in (keys.document_day_count(company_id, date), keys.document_day_count(company_id, date, partner_id)):
            table.add(key, attribute, documents_that_day)
    return {date for date in per_day if date != keys.ALL_DAYS}


def document_list_scaling(samples: int) -> dict[str, Any]:
    _bench_environment(auth_at_gateway=False)
    import datetime

    from moto import mock_aws

    with mock_aws():
        from app import app
        from chalicelib.services import documents
        from infra.gateway import LocalApiGateway

        table, shop = _document_shop("Listado S.A.", "listado@example.com")
        company_id = shop.company.company_id
        # the first page: 20 invoices through the API, the newest
        template = documents.get_document(table, company_id, shop.document("01", [(shop.service, 1, 100)])["id"])
        for _ in range(19):
            shop.document("01", [(shop.service, 1, 100)])
        index_attributes = ("GSI1PK", "GSI1SK", "GSI2PK", "GSI2SK")
        template = {name: value for name, value in template.items() if name not in index_attributes}
        first_day = datetime.date(2025, 11, 1)
        seeded, days = 0, set()

        def seed(total: int) -> None:
            """Others up to `total`: copies of a stored invoice with their own id, number and date
            (one of the year before the first page's), indexed by the service's own `_stored`, with
            their per-day counts (company and partner) added as the service adds them."""
            nonlocal seeded
            days.update(_copy_invoices(table, company_id, shop.customer, template, total - seeded, first_day,
                                       skip_days=seeded))
            seeded = total

        counter, probe = CallCounter(table.client), QueryProbe(table.client)
        gateway = LocalApiGateway(app)
        headers = {"authorization": f"Bearer {shop.key}"}
        path = "/documents?limit=20"

        def measure() -> dict[str, Any]:
            listed = json.loads(gateway.handle("GET", path, headers, b"")["body"])
            assert listed["total"] == 20 + seeded and len(listed["documents"]) == 20, listed["total"]
            # the seeded documents list like the service's own
            older = gateway.handle("GET", "/documents?limit=5&endDate=2026-10-31", headers, b"")
            assert older["statusCode"] == 200 and len(json.loads(older["body"])["documents"]) == 5, older
            return {"otherDocuments": seeded, "daysWithDocuments": len(days) + 1,
                    **_timed_requests(gateway, counter, "GET", path, headers, b"", samples, 200, probe)}

        seed(100)
        small = measure()
        started = time.perf_counter()
        seed(10_000)
        seeding_s = round(time.perf_counter() - started, 1)
        large = measure()
        return {"with100": small, "with10000": large,
                "latencyRatio": round(large["medianMs"] / small["medianMs"], 3),
                "seeding9900s": seeding_s,
                "note": "calls include the in-app authentication (GetItem + BatchGetItem); queries: each Query "
                        "of the timed requests (botocore + moto), with the items it returned and read"}


def payment_writes(samples: int) -> dict[str, Any]:
    _bench_environment(auth_at_gateway=False)
    from moto import mock_aws

    with mock_aws():
        from app import app
        from infra.gateway import LocalApiGateway

        table, shop = _document_shop("Cobros S.A.", "cobros@example.com")
        account = shop.created("/bank-accounts", {"name": "Cuenta corriente", "openingBalance": 1000,
                                                  "openingBalanceDate": "2026-11-01",
                                                  "chartOfAccountId": shop.books["110103"]})
        methods = {"cash": shop.created("/payments/methods", {"name": "Efectivo", "isCashMethod": True})["id"],
                   "bankAccount": shop.created("/payments/methods", {"name": "Transferencia",
                                                                     "bankAccountId": account["id"]})["id"]}
        counter = CallCounter(table.client)
        gateway = LocalApiGateway(app)
        headers = {"authorization": f"Bearer {shop.key}", "content-type": "application/json"}
        rows: dict[str, Any] = {}
        for name, method in methods.items():
            # one invoice per method, large enough that no sample pays it off (paying off also
            # deletes its open-document item: one transaction item more, no call more)
            invoice = shop.document("01", [(shop.service, 1000, 100)])
            body = json.dumps({"paymentMethodId": method, "amount": 1.00, "paymentDate": "2026-11-10",
                               "reference": "BENCH"}).encode()
            rows[name] = _timed_requests(gateway, counter, "POST", f"/payments/documents/{invoice['id']}/payments",
                                         headers, body, samples, 201)
        rows["latencyRatioBankToCash"] = round(rows["bankAccount"]["medianMs"] / rows["cash"]["medianMs"], 3)
        rows["note"] = "calls include the in-app authentication (GetItem + BatchGetItem)"
        return rows


def credit_summary_scaling(samples: int) -> dict[str, Any]:
    _bench_environment(auth_at_gateway=False)
    import datetime
    from decimal import Decimal

    from moto import mock_aws

    with mock_aws():
        from app import app
        from chalicelib.domain.documents import KINDS
        from chalicelib.services import documents
        from chalicelib.store import keys
        from chalicelib.store.transaction import Transaction
        from infra.gateway import LocalApiGateway

        table, shop = _document_shop("Créditos S.A.", "creditos@example.com")
        company_id = shop.company.company_id
        sizes = (10, 100, 5_000)
        customers = {size: shop.created("/business-partners", {"name": f"Cliente {size}", "type": "customer",
                                                                "credit_limit": 10_000_000})["id"]
                     for size in sizes}
        kind = KINDS["01"]
        first_day = datetime.date(2025, 11, 1)

        def seed(partner_id: int, template: dict[str, Any], count: int) -> float:
            """`count` more open invoices of the partner: copies of its stored invoice with their
            own id, number and date (one of the year before), with what confirming each writes
            about the partner: its open-document item, its per-day counts, and the partner's
            receivableBalance and openReceivables (added as the service adds them)."""
            started = time.perf_counter()
            _copy_invoices(table, company_id, partner_id, template, count, first_day, open_items=True)
            Transaction(table).update(  # the partner update of documents._move_partner_balance, summed
                keys.entity(company_id, keys.PARTNER, partner_id), "ADD #balance :amount, #open :open",
                condition="attribute_exists(PK)",
                names={"#balance": "receivableBalance", "#open": documents.open_count_attribute(kind)},
                values={":amount": Decimal(template["total"]) * count, ":open": count}).commit()
            return round(time.perf_counter() - started, 1)

        seeding: dict[str, float] = {}
        for size, partner_id in customers.items():
            through_api = min(size, 10)
            created = [shop.document("01", [(shop.service, 1, 100)], partner=partner_id, date="2026-11-02")
                       for _ in range(through_api)]
            if size > through_api:
                template = documents.get_document(table, company_id, created[0]["id"])
                template = {name: value for name, value in template.items()
                            if name not in ("GSI1PK", "GSI1SK", "GSI2PK", "GSI2SK")}
                seeding[f"with{size}"] = seed(partner_id, template, size - through_api)

        counter, probe = CallCounter(table.client), QueryProbe(table.client)
        gateway = LocalApiGateway(app)
        headers = {"authorization": f"Bearer {shop.key}"}
        rows: dict[str, Any] = {}
        for size, partner_id in customers.items():
            path = f"/credits/client/{partner_id}/summary"
            summary = json.loads(gateway.handle("GET", path, headers, b"")["body"])
            # what the service would answer: every invoice counted and owed, the oldest first
            assert summary["pendingDocumentCount"] == size, summary["pendingDocumentCount"]
            assert Decimal(str(summary["pendingBalance"])) == Decimal("115.00") * size, summary["pendingBalance"]
            assert len(summary["pendingDocuments"]) == min(size, 100), len(summary["pendingDocuments"])
            assert summary["oldestDueDate"] == (first_day.isoformat() if size > 10 else "2026-11-02")
            rows[f"with{size}"] = {"openDocuments": size, "documentsShown": len(summary["pendingDocuments"]),
                                   **_timed_requests(gateway, counter, "GET", path, headers, b"", samples, 200,
                                                     probe)}
        calls = [rows[f"with{size}"]["callsPerRequest"] for size in sizes]
        rows["sameCalls"] = all(c == calls[0] for c in calls)
        rows["latencyRatio5000to10"] = round(rows["with5000"]["medianMs"] / rows["with10"]["medianMs"], 3)
        rows["latencyRatio5000to100"] = round(rows["with5000"]["medianMs"] / rows["with100"]["medianMs"], 3)
        rows["seedingS"] = seeding
        rows["note"] = ("calls include the in-app authentication (GetItem + BatchGetItem); a summary shows at most "
                        "100 documents, so 10 vs 5,000 also compares 10 vs 100 documents read and rendered: "
                        "100 vs 5,000 isolates the history; queries: each Query of the timed requests")
        return rows


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

        from chalicelib.domain import webhooks as rules

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
                standard = hmac.compare_digest(self.headers.get("webhook-signature") or "", rules.standard_signature(
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
    """A fresh local stack (python -m infra.local, WEBHOOK_BACKOFF_BASE_S=1) in a subprocess, one
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


def scheduler_run(companies: int, per_company: int) -> dict[str, Any]:
    _bench_environment(auth_at_gateway=False)
    from moto import mock_aws

    with mock_aws():
        from app import app
        from chalicelib import clock
        from chalicelib.events.handlers import run_scheduled_invoices
        from chalicelib.store import keys
        from tests.documents_support import Shop
        from tests.support import ApiClient, make_company

        table, first = _bench_company("Programadas 1 S.A.", "programadas1@example.com")
        client = ApiClient(app)
        started = time.perf_counter()
        company_ids = []
        for n in range(companies):
            company = first if n == 0 else make_company(table, f"Programadas {n + 1} S.A.",
                                                        f"programadas{n + 1}@example.com")
            shop = Shop(client, company)
            company_ids.append(company.company_id)
            for _ in range(per_company):
                shop.created("/scheduled-invoices", {
                    "businessPartnerId": shop.customer, "frequency": "monthly", "startDate": clock.today_in("HN"),
                    "lines": [{"productId": shop.service, "quantity": 1, "unitPrice": 100}]})
        setup_s = round(time.perf_counter() - started, 1)
        counter = CallCounter(table.client)
        started = time.perf_counter()
        summary = run_scheduled_invoices({})["scheduledInvoices"]
        run_s = time.perf_counter() - started
        calls = counter.take()
        made = sum(int((table.get(keys.document_day_count(company_id, keys.ALL_DAYS)) or {}).get("confirmed_01", 0))
                   for company_id in company_ids)
        assert made == summary["created"] == companies * per_company, (made, summary)
        return {"companies": companies, "schedules": companies * per_company, "runSummary": summary,
                "invoicesCreated": made, "runSeconds": round(run_s, 2),
                "msPerInvoice": round(run_s * 1000 / made, 2), "dynamodbCalls": calls,
                "callsPerInvoice": {name: round(count / made, 2) for name, count in sorted(calls.items())},
                "transactionItems": sorted(set(counter.transaction_items)), "setupSeconds": setup_s,
                "note": "in-process over the embedded moto: moto's time, not DynamoDB's; the calls are what counts"}


def _printable_invoice(lines: int) -> dict[str, Any]:
    """A confirmed sales invoice shaped as the service stores it: lines at the three ISV rates,
    every fifth with a description long enough to wrap, and its CAI block."""
    from decimal import Decimal

    from chalicelib.domain.documents import document_totals, line_amounts

    stored, amounts = [], []
    for index in range(lines):
        rate = (Decimal("0.15"), Decimal("0"), Decimal("0.18"))[index % 3]
        quantity, price, discount = Decimal(index % 4 + 1), Decimal("149.95"), Decimal("5.00")
        figures = line_amounts(quantity, price, discount, rate, f"lines[{index}]")
        description = (f"Silla ergonómica de oficina, modelo {index}, con cojín lumbar y brazos ajustables en altura"
                       if index % 5 == 0 else f"Artículo número {index}")
        stored.append({"description": description, "quantity": quantity, "unitPrice": price, "discount": discount,
                       "taxRate": rate, "subtotal": figures.subtotal, "tax": figures.tax, "total": figures.total})
        amounts.append((figures, rate))
    totals = document_totals(amounts)
    return {"id": 1, "type": "01", "status": "confirmed", "number": "001-001-01-00000001", "date": "2026-11-02",
            "dueDate": "2026-12-02", "currency": "HNL", "lines": stored, "subtotal": totals.subtotal,
            "taxTotal": totals.tax_total, "total": totals.total,
            "cai": {"cai": "35A4E1-6C8E5B-2F49A3-0C6F26-2C3E5A-0A", "rangeStart": "001-001-01-00000001",
                    "rangeEnd": "001-001-01-00001000", "deadline": "2099-12-31"}}


def pdf_rendering(runs: int) -> dict[str, Any]:
    import io
    from decimal import Decimal

    import pypdf

    from chalicelib.pdf import invoice, journal_entry, ticket

    company = {"id": 1, "name": "Compañía Demostración S. de R.L.", "taxId": "08019999000001",
               "address": "Col. Palmira, Tegucigalpa", "currency": "HNL"}
    partner = {"id": 1, "name": "José Peña Muñoz", "taxId": "08011985123456"}
    entry = {"id": 9, "date": "2026-11-02", "status": "posted", "entryType": "manual", "description": "Planilla",
             "lines": [{"chartOfAccountId": n, "debit": Decimal("100.00") if n % 2 else Decimal(0),
                        "credit": Decimal(0) if n % 2 else Decimal("100.00")} for n in range(1, 11)],
             "totalDebit": Decimal("500.00"), "totalCredit": Decimal("500.00")}
    accounts = {n: {"code": f"1101{n:02d}", "name": f"Cuenta {n}"} for n in range(1, 11)}
    short, long = _printable_invoice(5), _printable_invoice(200)
    cases = {"invoice_5_lines": lambda: invoice.render(company, partner, short),
             "invoice_200_lines": lambda: invoice.render(company, partner, long),
             "ticket_5_lines": lambda: ticket.render(company, partner, short),
             "ticket_200_lines": lambda: ticket.render(company, partner, long),
             "journal_entry_10_lines": lambda: journal_entry.render(company, entry, accounts)}
    result: dict[str, Any] = {}
    for name, render in cases.items():
        content = render()  # warm-up: the first render loads fpdf2
        timings = []
        for _ in range(runs):
            start = time.perf_counter()
            render()
            timings.append(time.perf_counter() - start)
        result[name] = {"median_ms": round(statistics.median(timings) * 1000, 1),
                        "max_ms": round(max(timings) * 1000, 1), "pages": len(pypdf.PdfReader(io.BytesIO(content)).pages),
                        "bytes": len(content)}
    return result


SECTIONS = ("import", "calls", "ledger", "documents", "document-list", "payments", "credits", "webhook-single",
            "webhooks", "scheduler", "pdf")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--runs", type=int, default=9)
    parser.add_argument("--ledger-samples", type=int, default=50)
    parser.add_argument("--document-samples", type=int, default=20)
    parser.add_argument("--webhook-events", type=int, default=500)
    parser.add_argument("--webhook-clients", type=int, default=4)
    parser.add_argument("--webhook-timeout", type=float, default=600.0,
                        help="seconds from the first create to give up waiting for deliveries")
    parser.add_argument("--only", choices=SECTIONS, action="append",
                        help="run only this section (repeatable); default: all of them")
    args = parser.parse_args()
    sections = set(args.only or SECTIONS)
    sys.path.insert(0, str(ROOT))
    if "import" in sections:
        print("import time (fresh interpreter, median of", args.runs, "runs)")
        print(json.dumps(import_times(args.runs), indent=2))
    if "calls" in sections:
        print("\nDynamoDB calls per request (authorizer | API Lambda)")
        for row in calls_per_request():
            print(f"  {row['route']:<34} {row['status']}  authorizer {row['authorizer_calls']}  "
                  f"api {row['api_calls']}")
    if "ledger" in sections:
        print("\nGeneral ledger first page: 50 postings of the account, 100 vs 10,000 on other accounts")
        print(json.dumps(ledger_scaling(args.ledger_samples), indent=2))
    if "documents" in sections:
        print("\nPOST /documents: confirmed sales invoice (01), 1 vs 20 stocked lines")
        print(json.dumps(document_writes(args.document_samples), indent=2))
    if "document-list" in sections:
        print("\nGET /documents first page (limit 20): 100 vs 10,000 other documents in the company")
        print(json.dumps(document_list_scaling(args.document_samples), indent=2))
    if "payments" in sections:
        print("\nPOST /payments/documents/{id}/payments: a partial payment of a sales invoice (01), "
              "method without vs with a bank account")
        print(json.dumps(payment_writes(args.document_samples), indent=2))
    if "credits" in sections:
        print("\nGET /credits/client/{id}/summary: a customer with 10, 100 and 5,000 open invoices")
        print(json.dumps(credit_summary_scaling(args.document_samples), indent=2))
    if "webhook-single" in sections:
        print("\nWebhooks over the local stack: 20 single business_partner.created events, each created after "
              "the previous one arrived, no failure injected (targets: p50 < 1 s, p95 < 1.5 s)")
        print(json.dumps(webhook_delivery(20, 1, 120.0, settle=1.0, one_at_a_time=True), indent=2))
    if "webhooks" in sections:
        print(f"\nWebhooks over the local stack: {args.webhook_events} business_partner.created events, "
              f"{args.webhook_clients} client threads, first attempt of ~30 % failed by the receiver")
        print(json.dumps(webhook_delivery(args.webhook_events, args.webhook_clients, args.webhook_timeout), indent=2))
    if "scheduler" in sections:
        print("\nScheduler: one hourly run, 1,000 scheduled invoices due today across 50 companies")
        print(json.dumps(scheduler_run(50, 20), indent=2))
    if "pdf" in sections:
        print(f"\nPDF rendering (median of {args.runs} renders after a warm-up): invoice and ticket of 5 and 200 "
              "lines, a 10-line journal entry")
        print(json.dumps(pdf_rendering(args.runs), indent=2))


if __name__ == "__main__":
    main()
