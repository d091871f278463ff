"""Smoke test: twenty concurrent payments of a quarter of one invoice each, over HTTP against
the real local stack (its own server threads, the embedded moto behind its lock): exactly four
win, the other sixteen are a 400 JSON, and the invoice, its payments, the bank account and the
customer's balance all agree afterwards."""
from __future__ import annotations

import threading
from concurrent.futures import ThreadPoolExecutor
from decimal import Decimal

import pytest

from tests.test_local_stack import call, fresh_stack

pytestmark = pytest.mark.smoke

CAI = "35A4E1-6C8E5B-2F49A3-0C6F26-2C3E5A-0A"
RACERS = 20
D = Decimal


def test_twenty_concurrent_quarter_payments_over_http_let_exactly_four_win(tmp_path):
    with fresh_stack(tmp_path) as (stack, credentials):
        base, headers = stack.base, {"Authorization": f"Bearer {credentials['apiKey']}"}

        def created(path: str, body: dict) -> dict:
            status, _, reply = call("POST", f"{base}{path}", body, headers=headers)
            assert status == 201, (path, status, reply)
            return reply

        def get(path: str) -> dict:
            status, _, reply = call("GET", f"{base}{path}", headers=headers)
            assert status == 200, (path, status, reply)
            return reply

        # the demo company is Honduran and starts with the standard chart and its rules
        accounts = get("/chart-of-accounts?type=asset&limit=100")["accounts"]
        bancos = next(account["id"] for account in accounts if account["code"] == "110103")
        customer = created("/business-partners", {"name": "Cliente Concurrente", "type": "customer"})["id"]
        service = created("/products", {"code": "SRV-1", "name": "Instalación", "type": "service",
                                        "unitPrice": 100, "taxRate": 0.15})["id"]
        account = created("/bank-accounts", {"name": "Cuenta corriente", "bankName": "Banco Atlántida",
                                             "accountNumber": "0101-22", "openingBalanceDate": "2026-01-01",
                                             "chartOfAccountId": bancos})
        method = created("/payments/methods", {"name": "Transferencia", "bankAccountId": account["id"]})["id"]
        created("/cai", {"cai": CAI, "branchId": 1, "emissionPoint": "001", "documentType": "01",
                         "rangeStart": 1, "rangeEnd": 5000, "deadline": "2099-12-31"})
        invoice = created("/documents", {"type": "01", "businessPartnerId": customer,
                                         "lines": [{"productId": service, "quantity": 4, "unitPrice": 100}]})
        assert invoice["status"] == "confirmed" and invoice["number"].startswith("001-001-01-"), invoice
        total = D(str(invoice["total"]))
        assert total == D("460.00") and D(str(invoice["pending"])) == total
        quarter = total / 4
        assert quarter == quarter.quantize(D("0.01"))

        path = f"{base}/payments/documents/{invoice['id']}/payments"
        start = threading.Barrier(RACERS)

        def pay(racer: int) -> tuple[int, dict]:
            start.wait(timeout=30)  # every request leaves at once, each on its own connection
            body = {"paymentMethodId": method, "amount": float(quarter), "reference": f"CONCURRENTE-{racer}"}
            status, _, reply = call("POST", path, body, headers=headers)
            return status, reply

        with ThreadPoolExecutor(RACERS) as pool:
            replies = list(pool.map(pay, range(RACERS)))

        statuses = sorted(status for status, _ in replies)
        assert statuses == [201] * 4 + [400] * 16, replies
        refused = [reply for status, reply in replies if status == 400]
        assert all(isinstance(reply, dict) and reply.get("code") == "AMOUNT_EXCEEDS_PENDING" for reply in refused), \
            refused
        won = [reply for status, reply in replies if status == 201]
        assert len({payment["id"] for payment in won}) == 4
        assert all(D(str(payment["amount"])) == quarter and payment["status"] == "confirmed" for payment in won)

        document = get(f"/documents/{invoice['id']}")
        assert (D(str(document["pending"])), D(str(document["paidTotal"]))) == (0, total), document
        listed = get(f"/payments/documents/{invoice['id']}/payments?limit=100")
        live = [payment for payment in listed["payments"] if payment["status"] != "cancelled"]
        assert len(live) == 4 and sum(D(str(payment["amount"])) for payment in live) == total, listed
        assert {payment["id"] for payment in live} == {payment["id"] for payment in won}
        partner = get(f"/business-partners/{customer}")
        assert D(str(partner["receivableBalance"])) == 0, partner
        assert D(str(get(f"/bank-accounts/{account['id']}")["balance"])) == total
        summary = get(f"/credits/client/{customer}/summary")
        assert (summary["pendingDocumentCount"], summary["pendingDocuments"]) == (0, []), summary
