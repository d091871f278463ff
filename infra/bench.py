"""Benchmarks (not part of `make test`): `python -m infra.bench` or `make bench`.

1. Cold import time of the API module against a bare chalice + boto3 client import, measured in
   the same run, in fresh interpreters (median of N). Target: ratio <= 1.5.
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
   calls whatever the history."""
from __future__ import annotations

import argparse
import json
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


def document_list_scaling(samples: int) -> dict[str, Any]:
    _bench_environment(auth_at_gateway=False)
    import datetime

    from moto import mock_aws

    with mock_aws():
        from app import app
        from chalicelib.domain.documents import format_number
        from chalicelib.services import documents
        from chalicelib.store import keys
        from chalicelib.store.table import to_attributes
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
            count = total - seeded
            last_id = table.add(keys.id_sequence(company_id, keys.DOCUMENT), "value", count)
            per_day: Counter[str] = Counter()
            requests = []
            for n, document_id in enumerate(range(last_id - count + 1, last_id + 1), start=seeded):
                date = (first_day + datetime.timedelta(days=n % 365)).isoformat()
                per_day[date] += 1
                item = {**template, **documents.document_key(company_id, document_id), "id": document_id,
                        "date": date, "dueDate": date, "number": format_number("001", "002", "01", document_id),
                        "createdAt": f"{date}T15:00:00.000Z", "updatedAt": f"{date}T15:00:00.000Z"}
                requests.append({"PutRequest": {"Item": to_attributes(documents._stored(item))}})
            for start in range(0, len(requests), 25):
                pending = {table.name: requests[start:start + 25]}
                while pending:
                    pending = table.client.batch_write_item(RequestItems=pending).get("UnprocessedItems") or None
            attribute = f"{template['status']}_{template['type']}"
            per_day[keys.ALL_DAYS] = count
            for date, documents_that_day in per_day.items():
                for key in (keys.document_day_count(company_id, date),
                            keys.document_day_count(company_id, date, shop.customer)):
                    table.add(key, attribute, documents_that_day)
            seeded = total
            days.update(day for day in per_day if day != keys.ALL_DAYS)

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
        from chalicelib.domain.documents import KINDS, format_number
        from chalicelib.services import documents
        from chalicelib.store import keys
        from chalicelib.store.table import to_attributes
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
            last_id = table.add(keys.id_sequence(company_id, keys.DOCUMENT), "value", count)
            per_day: Counter[str] = Counter()
            requests = []
            for n, document_id in enumerate(range(last_id - count + 1, last_id + 1)):
                date = (first_day + datetime.timedelta(days=n % 365)).isoformat()
                per_day[date] += 1
                item = {**template, **documents.document_key(company_id, document_id), "id": document_id,
                        "date": date, "dueDate": date, "number": format_number("001", "002", "01", document_id),
                        "createdAt": f"{date}T15:00:00.000Z", "updatedAt": f"{date}T15:00:00.000Z"}
                requests.append({"PutRequest": {"Item": to_attributes(documents._stored(item))}})
                requests.append({"PutRequest": {"Item": to_attributes(documents.open_document_item(company_id,
                                                                                                    item))}})
            for start in range(0, len(requests), 25):
                pending = {table.name: requests[start:start + 25]}
                while pending:
                    pending = table.client.batch_write_item(RequestItems=pending).get("UnprocessedItems") or None
            attribute = f"{template['status']}_{template['type']}"
            per_day[keys.ALL_DAYS] = count
            for date, documents_that_day in per_day.items():
                for key in (keys.document_day_count(company_id, date),
                            keys.document_day_count(company_id, date, partner_id)):
                    table.add(key, attribute, documents_that_day)
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


SECTIONS = ("import", "calls", "ledger", "documents", "document-list", "payments", "credits")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--runs", type=int, default=9)
    parser.add_argument("--ledger-samples", type=int, default=50)
    parser.add_argument("--document-samples", type=int, default=20)
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


if __name__ == "__main__":
    main()
