"""9. One hourly run of the scheduler."""
from __future__ import annotations

import time
from typing import Any

from infra.bench.common import CallCounter, bench_company, bench_environment


def scheduler_run(companies: int, per_company: int) -> dict[str, Any]:
    bench_environment(auth_at_gateway=False)
    from moto import mock_aws

    with mock_aws():
        from app import app
        from chalicelib import clock
        from chalicelib.events.handlers import run_scheduled_invoices
        from chalicelib.services.sales_purchases import document_list
        from tests.documents_support import Shop
        from tests.support import ApiClient, make_company

        table, first = bench_company("Programadas 1 S.A.", "programadas1@example.com")
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
        made = sum(document_list.document_total(table, company_id, document_type="01", status="confirmed")
                   for company_id in company_ids)
        assert made == summary["created"] == companies * per_company, (made, summary)
        return {"companies": companies, "schedules": companies * per_company, "runSummary": summary,
                "invoicesCreated": made, "runSeconds": round(run_s, 2),
                "msPerInvoice": round(run_s * 1000 / made, 2), "dynamodbCalls": calls,
                "callsPerInvoice": {name: round(count / made, 2) for name, count in sorted(calls.items())},
                "transactionItems": sorted(set(counter.transaction_items)), "setupSeconds": setup_s,
                "note": "in-process over the embedded moto: moto's time, not DynamoDB's; the calls are what counts"}
