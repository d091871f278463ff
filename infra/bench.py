"""Benchmarks (not part of `make test`): `python -m infra.bench` or `make bench`.

1. Cold import time of the API module against a bare chalice + boto3 client import, measured in
   the same run, in fresh interpreters (median of N). Target: ratio <= 1.5.
2. DynamoDB calls per request for each route, as deployed: the REQUEST authorizer's calls and
   the API Lambda's calls are counted apart. Target: one GetItem/Query per read, one
   TransactWriteItems per write.
3. General ledger, first page, of one account with 50 postings, while the company's OTHER
   accounts hold 100 and then 10,000 postings: DynamoDB calls and median latency (in-process,
   over the embedded moto). Target: latency ratio <= 1.2, the same calls."""
from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
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
        client.meta.events.register("before-call.dynamodb", self._count)

    def _count(self, model: Any, **_: Any) -> None:
        self.calls[model.name] += 1

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
    import time

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


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--runs", type=int, default=9)
    parser.add_argument("--ledger-samples", type=int, default=50)
    args = parser.parse_args()
    sys.path.insert(0, str(ROOT))
    print("import time (fresh interpreter, median of", args.runs, "runs)")
    print(json.dumps(import_times(args.runs), indent=2))
    print("\nDynamoDB calls per request (authorizer | API Lambda)")
    for row in calls_per_request():
        print(f"  {row['route']:<34} {row['status']}  authorizer {row['authorizer_calls']}  "
              f"api {row['api_calls']}")
    print("\nGeneral ledger first page: 50 postings of the account, 100 vs 10,000 on other accounts")
    print(json.dumps(ledger_scaling(args.ledger_samples), indent=2))


if __name__ == "__main__":
    main()
