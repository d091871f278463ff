"""2. DynamoDB calls per request for each route, authorizer and API Lambda apart."""
from __future__ import annotations

import json
from typing import Any

from infra.bench.common import CallCounter, bench_company, bench_environment


def calls_per_request() -> list[dict[str, Any]]:
    bench_environment(auth_at_gateway=True)
    from moto import mock_aws

    with mock_aws():
        from app import app, authorizer
        from infra.devstack.gateway import LocalApiGateway

        table, company = bench_company("Bench S.A.", "bench@example.com")
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
        from chalicelib.services.identity import sessions
        token, _ = sessions.login(table, company.email, "correct horse battery")
        counter.take()
        rows.append(request("GET", "/settings/api-keys", session=token))
        rows.append(request("POST", "/settings/api-keys", {"name": "bench"}, session=token))
        for row in rows:
            row.pop("body")
        return rows
