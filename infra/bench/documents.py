"""4-7. Writing documents and payments; listing documents and a credit summary as the data grows."""
from __future__ import annotations

import json
import time
from typing import Any

from infra.bench.common import CallCounter, QueryProbe, bench_environment, copy_invoices, document_shop, timed_requests


def document_writes(samples: int) -> dict[str, Any]:
    bench_environment(auth_at_gateway=False)
    from moto import mock_aws

    with mock_aws():
        from app import app
        from infra.devstack.gateway import LocalApiGateway

        table, shop = document_shop("Ventas S.A.", "ventas@example.com")
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
            rows[f"stockedLines{count}"] = timed_requests(gateway, counter, "POST", "/documents", headers, body,
                                                           samples, 201)
        rows["latencyRatio20to1"] = round(rows["stockedLines20"]["medianMs"] / rows["stockedLines1"]["medianMs"], 3)
        rows["note"] = "calls include the in-app authentication (GetItem + BatchGetItem)"
        return rows


def document_list_scaling(samples: int) -> dict[str, Any]:
    bench_environment(auth_at_gateway=False)
    import datetime

    from moto import mock_aws

    with mock_aws():
        from app import app
        from chalicelib.services.sales_purchases import documents
        from infra.devstack.gateway import LocalApiGateway

        table, shop = document_shop("Listado S.A.", "listado@example.com")
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
            days.update(copy_invoices(table, company_id, shop.customer, template, total - seeded, first_day,
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
                    **timed_requests(gateway, counter, "GET", path, headers, b"", samples, 200, probe)}

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
    bench_environment(auth_at_gateway=False)
    from moto import mock_aws

    with mock_aws():
        from app import app
        from infra.devstack.gateway import LocalApiGateway

        table, shop = document_shop("Cobros S.A.", "cobros@example.com")
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
            rows[name] = timed_requests(gateway, counter, "POST", f"/payments/documents/{invoice['id']}/payments",
                                         headers, body, samples, 201)
        rows["latencyRatioBankToCash"] = round(rows["bankAccount"]["medianMs"] / rows["cash"]["medianMs"], 3)
        rows["note"] = "calls include the in-app authentication (GetItem + BatchGetItem)"
        return rows


def credit_summary_scaling(samples: int) -> dict[str, Any]:
    bench_environment(auth_at_gateway=False)
    import datetime
    from decimal import Decimal

    from moto import mock_aws

    with mock_aws():
        from app import app
        from chalicelib.domain.documents import KINDS
        from chalicelib.services.sales_purchases import documents
        from chalicelib.store import keys
        from chalicelib.store.transaction import Transaction
        from infra.devstack.gateway import LocalApiGateway

        table, shop = document_shop("Créditos S.A.", "creditos@example.com")
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
            copy_invoices(table, company_id, partner_id, template, count, first_day, open_items=True)
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
                                   **timed_requests(gateway, counter, "GET", path, headers, b"", samples, 200,
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
