"""15. Bank statements (`--only bank-statements`): a 10,000-line BAC-style CSV imported into a bank
account (POST /bank-accounts/{id}/statements, in-process over the embedded moto), then every page of
its unmatched lines listed with their suggestions (GET .../statement-lines?status=unmatched, 100 a
page, by cursor): wall time of each and DynamoDB calls per 100 lines, and the items of the largest
transaction. The company has OPEN_INVOICES open invoices of CUSTOMERS customers, and one deposit in
twenty pays one of them (its total, its customer named): every page reads the open documents, as a
company that sells on credit makes it. Target: both within 30 s locally."""
from __future__ import annotations

import base64
import time
from typing import Any

from infra.bench.common import CallCounter, bench_company, bench_environment

MAPPING = {"encoding": "cp1252", "delimiter": ",", "skipRows": 3, "dateColumn": "Fecha", "dateFormat": "DD/MM/YYYY",
           "descriptionColumn": "Descripción", "referenceColumn": "Referencia", "debitColumn": "Débito",
           "creditColumn": "Crédito", "balanceColumn": "Saldo"}
PAGE = 100
CUSTOMERS, OPEN_INVOICES = 50, 500


def statement_csv(lines: int, invoices: list[tuple[str, int]]) -> bytes:
    """A year of a busy account: `lines` lines over 2026, deposits and payments alternating, each
    with its running balance (so no two lines are alike); one deposit in twenty is an invoice's
    total (in cents) from its customer."""
    rows = ["BANCO DE AMERICA CENTRAL HONDURAS", "Cuenta:,200012345", "Moneda:,HNL",
            "Fecha,Descripción,Referencia,Débito,Crédito,Saldo"]
    balance = 100_000 * 100  # in cents
    for n in range(lines):
        day = n * 365 // lines
        date = time.strftime("%d/%m/%Y", time.gmtime(1767225600 + day * 86400))  # from 2026-01-01
        cents = 1000 + (n * 7919) % 250_000
        if n % 20 == 0 and invoices:
            customer, cents = invoices[(n // 20) % len(invoices)]
            balance += cents
            rows.append(f"{date},Depósito {customer},DEP{n:06d},,{cents / 100:.2f},{balance / 100:.2f}")
        elif n % 2:
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
        from tests.documents_support import Shop
        from tests.support import ApiClient

        table, company = bench_company("Conciliación S.A.", "conciliacion@example.com")
        client = ApiClient(app)
        shop = Shop(client, company, range_size=OPEN_INVOICES + 10)
        books = shop.books
        invoices = open_invoices(shop)
        account = client.post("/bank-accounts", {"name": "Cuenta corriente", "openingBalance": "100000.00",
                                                 "openingBalanceDate": "2025-12-31",
                                                 "chartOfAccountId": books["110103"]}, key=company.api_key).json
        base = f"/bank-accounts/{account['id']}"
        assert client.put(f"{base}/statement-mapping", MAPPING, key=company.api_key).status == 200
        content = statement_csv(lines, invoices)
        counter = CallCounter(table.client)
        started = time.perf_counter()
        reply = client.post(f"{base}/statements", {"fileName": "2026.csv", "content": base64.b64encode(content).decode()},
                            key=company.api_key)
        import_seconds = time.perf_counter() - started
        assert reply.status == 201, reply.text
        import_calls = counter.take()
        transactions = list(counter.transaction_items)
        started, listed, pages, cursor, documented = time.perf_counter(), 0, 0, None, 0
        while True:
            query = f"status=unmatched&limit={PAGE}" + (f"&cursor={cursor}" if cursor else "")
            page = client.get(f"{base}/statement-lines?{query}", key=company.api_key)
            assert page.status == 200, page.text
            listed, pages, cursor = listed + len(page.json["statementLines"]), pages + 1, page.json["nextCursor"]
            if not cursor:
                break
            documented += sum(1 for line in page.json["statementLines"]
                              if any(s["kind"] == "document" for s in line.get("suggestions") or []))
        list_seconds = time.perf_counter() - started
        list_calls = counter.take()
        assert listed == lines == page.json["total"], (listed, page.json["total"])
        return {"lines": lines, "fileBytes": len(content), "statement": {name: reply.json[name] for name in ("linesImported", "linesSkipped", "periodStart", "periodEnd")},
                "import": {"seconds": round(import_seconds, 1), "dynamodbCalls": import_calls,
                           "callsPer100Lines": round(sum(import_calls.values()) * 100 / lines, 1),
                           "transactions": len(transactions), "itemsPerTransaction": max(transactions or [0])},
                "openInvoices": len(invoices), "linesSuggestingAnInvoice": documented,
                "unmatchedPages": {"pages": pages, "seconds": round(list_seconds, 1), "dynamodbCalls": list_calls,
                                   "callsPer100Lines": round(sum(list_calls.values()) * 100 / lines, 1)},
                "target": "<= 30 s for 10,000 lines",
                "note": "in-process over the embedded moto (its time, not DynamoDB's: its GSI Query reads the "
                        "whole table)"}


def open_invoices(shop: Any) -> list[tuple[str, int]]:
    """OPEN_INVOICES invoices of December 2025, spread over CUSTOMERS customers, each of one service
    at its own price plus 15% ISV: (customer's name, total in cents)."""
    customers = [(f"Distribuidora Número {n}", shop.created("/business-partners", {
        "name": f"Distribuidora Número {n}", "type": "customer"})["id"]) for n in range(CUSTOMERS)]
    made = []
    for n in range(OPEN_INVOICES):
        name, partner = customers[n % CUSTOMERS]
        invoice = shop.document("01", [(shop.service, 1, 100 + n)], partner=partner, date="2025-12-20")
        made.append((name, round(float(invoice["total"]) * 100)))
    return made
