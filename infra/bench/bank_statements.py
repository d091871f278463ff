"""15. Bank statements (`--only bank-statements`): a 10,000-line BAC-style CSV imported into a bank
account (POST /bank-accounts/{id}/statements, in-process over the embedded moto), then every page of
its unmatched lines listed with their suggestions (GET .../statement-lines?status=unmatched, 100 a
page, by cursor): wall time of each and DynamoDB calls per 100 lines, and the items of the largest
transaction. Target: both within 30 s locally."""
from __future__ import annotations

import base64
import time
from typing import Any

from infra.bench.common import CallCounter, bench_company, bench_environment

MAPPING = {"encoding": "cp1252", "delimiter": ",", "skipRows": 3, "dateColumn": "Fecha", "dateFormat": "DD/MM/YYYY",
           "descriptionColumn": "Descripción", "referenceColumn": "Referencia", "debitColumn": "Débito",
           "creditColumn": "Crédito", "balanceColumn": "Saldo"}
PAGE = 100


def statement_csv(lines: int) -> bytes:
    """A year of a busy account: `lines` lines over 2026, deposits and payments alternating, each
    with its running balance (so no two lines are alike)."""
    rows = ["BANCO DE AMERICA CENTRAL HONDURAS", "Cuenta:,200012345", "Moneda:,HNL",
            "Fecha,Descripción,Referencia,Débito,Crédito,Saldo"]
    balance = 100_000 * 100  # in cents
    for n in range(lines):
        day = n * 365 // lines
        date = time.strftime("%d/%m/%Y", time.gmtime(1767225600 + day * 86400))  # from 2026-01-01
        cents = 1000 + (n * 7919) % 250_000
        if n % 2:
            balance -= cents
            rows.append(f"{date},Pago proveedor {n},CHQ{n:06d},{cents / 100:.2f},,{balance / 100:.2f}")
        else:
            balance += cents
            rows.append(f"{date},Depósito cliente {n},DEP{n:06d},,{cents / 100:.2f},{balance / 100:.2f}")
    return ("\r\n".join(rows) + "\r\n").encode("cp1252")


def bank_statements(lines: int = 10_000) -> dict[str, Any]:
    bench_environment(auth_at_gateway=False)
    from moto import mock_aws

    with mock_aws():
        from app import app
        from tests.support import OPENING_CHART, OPENING_RULES, ApiClient, Books

        table, company = bench_company("Conciliación S.A.", "conciliacion@example.com")
        client = ApiClient(app)
        books = Books(client, company, full=False, chart=OPENING_CHART, rules=OPENING_RULES)
        account = client.post("/bank-accounts", {"name": "Cuenta corriente", "openingBalance": "100000.00",
                                                 "openingBalanceDate": "2025-12-31",
                                                 "chartOfAccountId": books["110103"]}, key=company.api_key).json
        base = f"/bank-accounts/{account['id']}"
        assert client.put(f"{base}/statement-mapping", MAPPING, key=company.api_key).status == 200
        content = statement_csv(lines)
        counter = CallCounter(table.client)
        started = time.perf_counter()
        reply = client.post(f"{base}/statements", {"fileName": "2026.csv", "content": base64.b64encode(content).decode()},
                            key=company.api_key)
        import_seconds = time.perf_counter() - started
        assert reply.status == 201, reply.text
        import_calls = counter.take()
        transactions = list(counter.transaction_items)
        started, listed, pages, cursor = time.perf_counter(), 0, 0, None
        while True:
            query = f"status=unmatched&limit={PAGE}" + (f"&cursor={cursor}" if cursor else "")
            page = client.get(f"{base}/statement-lines?{query}", key=company.api_key)
            assert page.status == 200, page.text
            listed, pages, cursor = listed + len(page.json["statementLines"]), pages + 1, page.json["nextCursor"]
            if not cursor:
                break
        list_seconds = time.perf_counter() - started
        list_calls = counter.take()
        assert listed == lines == page.json["total"], (listed, page.json["total"])
        return {"lines": lines, "fileBytes": len(content), "statement": {name: reply.json[name] for name in ("linesImported", "linesSkipped", "periodStart", "periodEnd")},
                "import": {"seconds": round(import_seconds, 1), "dynamodbCalls": import_calls,
                           "callsPer100Lines": round(sum(import_calls.values()) * 100 / lines, 1),
                           "transactions": len(transactions), "itemsPerTransaction": max(transactions or [0])},
                "unmatchedPages": {"pages": pages, "seconds": round(list_seconds, 1), "dynamodbCalls": list_calls,
                                   "callsPer100Lines": round(sum(list_calls.values()) * 100 / lines, 1)},
                "target": "<= 30 s for 10,000 lines",
                "note": "in-process over the embedded moto (its time, not DynamoDB's); suggestions as "
                        "services/statements/suggestions.py computes them on this branch"}
