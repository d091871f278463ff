"""3. The general ledger's first page while the other accounts grow."""
from __future__ import annotations

from typing import Any

from infra.bench.common import CallCounter, bench_company, bench_environment, timed_requests


def ledger_scaling(samples: int) -> dict[str, Any]:
    bench_environment(auth_at_gateway=False)
    from moto import mock_aws

    with mock_aws():
        from app import app
        from chalicelib.auth.principal import API_KEY, Principal
        from chalicelib.services.accounting import chart, journal
        from chalicelib.services.commands import Command
        from infra.devstack.gateway import LocalApiGateway

        table, company = bench_company("Ledger S.A.", "ledger@example.com")
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
            return {"otherPostings": written, **timed_requests(gateway, counter, "GET", path, headers, b"", samples, 200)}

        fill_others(100)
        small = measure()
        fill_others(10_000)
        large = measure()
        return {"with100": small, "with10000": large,
                "latencyRatio": round(large["medianMs"] / small["medianMs"], 3),
                "note": "calls include the in-app authentication (GetItem + BatchGetItem)"}
