"""11. The balance sheet and the income statement of a year holding 100 and then 10,000 posted
entries (sales, costs and expenses spread over its months): DynamoDB calls and median latency
(in-process, over the embedded moto). Target: the same calls whatever the year holds."""
from __future__ import annotations

from typing import Any

from infra.bench.common import CallCounter, bench_company, bench_environment, timed_requests

PATHS = {"balanceSheet": "/reports/balance-sheet?date=2026-12-31&compareDate=2025-12-31",
         "incomeStatement": "/reports/income-statement?startDate=2026-01-01&endDate=2026-12-31"}


def statements_scaling(samples: int) -> dict[str, Any]:
    bench_environment(auth_at_gateway=False)
    from moto import mock_aws

    with mock_aws():
        from app import app
        from chalicelib.auth.principal import API_KEY, Principal
        from chalicelib.services.accounting import chart, journal
        from chalicelib.services.commands import Command
        from infra.devstack.gateway import LocalApiGateway

        table, company = bench_company("Estados S.A.", "estados@example.com")
        command = Command(Principal(API_KEY, company.company_id, company.user_id, "owner"), table)
        accounts = {code: int(chart.create_account(command, {"code": code, "name": code, "type": kind})["id"])
                    for code, kind in (("1101", "asset"), ("2101", "liability"), ("3101", "equity"),
                                       ("4101", "income"), ("5101", "cost"), ("6101", "expense"), ("6102", "expense"))}
        pairs = (("1101", "4101"), ("5101", "2101"), ("6101", "1101"), ("6102", "2101"))
        written = 0

        def fill(total: int) -> None:
            nonlocal written
            while written < total:
                debit, credit = pairs[written % len(pairs)]
                day = f"2026-{1 + written % 12:02d}-{1 + written % 28:02d}"
                journal.create_entry(command, {"date": day, "status": "posted", "lines": [
                    {"chartOfAccountId": accounts[debit], "debit": 10, "credit": 0},
                    {"chartOfAccountId": accounts[credit], "debit": 0, "credit": 10}]})
                written += 1

        counter = CallCounter(table.client)
        gateway = LocalApiGateway(app)
        headers = {"authorization": f"Bearer {company.api_key}"}

        def measure() -> dict[str, Any]:
            return {"entries": written, **{name: timed_requests(gateway, counter, "GET", path, headers, b"", samples, 200)
                                           for name, path in PATHS.items()}}

        fill(100)
        small = measure()
        fill(10_000)
        large = measure()
        return {"with100": small, "with10000": large,
                "note": "calls include the in-app authentication (GetItem + BatchGetItem)"}
