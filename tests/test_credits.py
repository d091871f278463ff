"""Credit summaries on a scripted history whose figures are worked out by hand."""
from __future__ import annotations

import datetime as dt
from decimal import Decimal

import pytest

from tests.documents_support import Shop

D = Decimal


@pytest.fixture
def shop(api, company_a, monkeypatch) -> Shop:
    from chalicelib import clock
    # 12:00 on 20 November in Tegucigalpa
    monkeypatch.setattr(clock, "now", lambda: dt.datetime(2026, 11, 20, 18, 0, tzinfo=dt.timezone.utc))
    return Shop(api, company_a)


def summary(shop: Shop, side: str, partner_id: int) -> dict:
    reply = shop.api.get(f"/credits/{side}/{partner_id}/summary", key=shop.key)
    assert reply.status == 200, reply.text
    return reply.json


def test_client_summary(shop):
    shop.api.put(f"/business-partners/{shop.customer}", {"credit_limit": 1000, "credit_block_days": 60}, key=shop.key)
    cash = shop.created("/payments/methods", {"name": "Efectivo"})
    a = shop.document("01", [(shop.service, 1, 100)], date="2026-10-01", dueDate="2026-10-15")   # 115.00
    b = shop.document("01", [(shop.service, 2, 100)], date="2026-11-01", dueDate="2026-12-01")   # 230.00
    shop.api.post(f"/payments/documents/{a['id']}/payments", {"paymentMethodId": cash["id"], "amount": 15},
                  key=shop.key)                                                                   # A owes 100.00
    shop.document("06", [(shop.service, 1, 50)], date="2026-11-02", sourceDocumentId=b["id"])    # -57.50
    d = shop.document("07", [(shop.service, 1, 20)], date="2026-11-03", dueDate="2026-11-10",
                      sourceDocumentId=b["id"])                                                   # 23.00

    got = summary(shop, "client", shop.customer)
    # 100.00 + 230.00 + 23.00 - 57.50
    assert D(str(got["pendingBalance"])) == D("295.50")
    assert (D(str(got["credit_limit"])), D(str(got["available"]))) == (D("1000.00"), D("704.50"))
    assert (got["overdueDays"], got["oldestDueDate"], got["pendingDocumentCount"]) == (36, "2026-10-15", 3)
    assert [(p["id"], D(str(p["pending"])), p["overdueDays"]) for p in got["pendingDocuments"]] == [
        (a["id"], D("100.00"), 36), (d["id"], D("23.00"), 10), (b["id"], D("230.00"), 0)]

    shop.api.post(f"/payments/documents/{a['id']}/payments", {"paymentMethodId": cash["id"], "amount": 100},
                  key=shop.key)
    got = summary(shop, "client", shop.customer)
    assert (D(str(got["pendingBalance"])), got["overdueDays"], got["pendingDocumentCount"]) == (D("195.50"), 10, 2)


def test_supplier_summary_and_who_may_be_asked(api, shop, company_b):
    purchase = shop.document("103", [(shop.service, 1, 100)], date="2026-11-01", dueDate="2026-11-30")  # 115.00
    certificate = shop.document("05", [(None, 1, 15)], partner=shop.supplier)
    shop.api.post(f"/payments/documents/{purchase['id']}/payments",
                  {"withholdingDocumentId": certificate["id"], "amount": 15}, key=shop.key)
    got = summary(shop, "supplier", shop.supplier)
    assert (D(str(got["pendingBalance"])), got["available"], got["overdueDays"], got["pendingDocumentCount"]) == (
        D("100.00"), None, 0, 1)
    assert shop.api.get(f"/credits/client/{shop.supplier}/summary", key=shop.key).status == 404
    assert shop.api.get(f"/credits/supplier/{shop.customer}/summary", key=shop.key).status == 404
    assert api.get(f"/credits/supplier/{shop.supplier}/summary", key=company_b.api_key).status == 404
