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


def statement(shop: Shop, side: str, partner_id: int, query: str = "", what: str = "statement") -> dict:
    reply = shop.api.get(f"/credits/{side}/{partner_id}/{what}{query}", key=shop.key)
    assert reply.status == 200, reply.text
    return reply.json


def rows(got: dict) -> list[tuple]:
    return [(m["date"], m["documentType"], m.get("paymentKind"), D(str(m["charge"])), D(str(m["credit"])),
             D(str(m["balance"]))) for m in got["movements"]]


def test_client_statement_opening_movements_running_balance_and_closing(shop):
    cash = shop.created("/payments/methods", {"name": "Efectivo"})
    order = shop.document("101", [(shop.service, 1, 100)], date="2026-09-20")
    shop.api.post(f"/payments/documents/{order['id']}/payments", {"paymentMethodId": cash["id"], "amount": 40,
                                                                  "paymentDate": "2026-09-20"}, key=shop.key)
    a = shop.document("01", [(shop.service, 1, 100)], date="2026-09-25")                           # +115.00
    shop.api.post(f"/payments/documents/{a['id']}/payments", {"paymentMethodId": cash["id"], "amount": 15,
                                                              "paymentDate": "2026-10-05"}, key=shop.key)  # -15.00
    b = shop.document("01", [(shop.service, 2, 100)], date="2026-10-10", sourceDocumentId=order["id"])  # +230.00
    applied = shop.api.post(f"/payments/documents/{b['id']}/apply-advances-from-source",
                            {"paymentDate": "2026-10-12"}, key=shop.key)                              # -40.00
    assert applied.status == 201, applied.text
    note = shop.document("06", [(shop.service, 1, 50)], date="2026-10-15", sourceDocumentId=b["id"])  # -57.50
    # applying the note moves no balance: the note itself already did
    reply = shop.api.post(f"/payments/documents/{b['id']}/payments", {"creditNoteId": note["id"], "amount": 57.5,
                                                                      "paymentDate": "2026-10-16"}, key=shop.key)
    assert reply.status == 201, reply.text
    paid = shop.api.post(f"/payments/documents/{b['id']}/payments", {"paymentMethodId": cash["id"], "amount": 100,
                                                                     "paymentDate": "2026-11-02"}, key=shop.key).json
    cancelled = shop.api.post(f"/payments/documents/{b['id']}/payments/{paid['id']}/cancel",
                              {"reason": "cheque sin fondos", "date": "2026-11-05"}, key=shop.key)  # +100.00
    assert cancelled.status == 200, cancelled.text
    shop.document("01", [(shop.service, 1, 20)], date="2026-11-20")                                  # +23.00
    shop.document("103", [(shop.service, 1, 100)], date="2026-10-20")  # the supplier's: not on this statement

    got = statement(shop, "client", shop.customer, "?startDate=2026-10-01&endDate=2026-11-10")
    # before 1 October: 115.00 charged
    assert (D(str(got["openingBalance"])), got["startDate"], got["endDate"]) == (D("115.00"), "2026-10-01", "2026-11-10")
    assert rows(got) == [
        ("2026-10-05", "01", "method", 0, D("15.00"), D("100.00")),
        ("2026-10-10", "01", None, D("230.00"), 0, D("330.00")),
        ("2026-10-12", "01", "advance", 0, D("40.00"), D("290.00")),
        ("2026-10-15", "06", None, 0, D("57.50"), D("232.50")),
        ("2026-11-02", "01", "method", 0, D("100.00"), D("132.50")),
        ("2026-11-05", "01", "method", D("100.00"), 0, D("232.50")),
    ]
    assert (D(str(got["totalCharges"])), D(str(got["totalCredits"])), D(str(got["closingBalance"]))) == (
        D("330.00"), D("212.50"), D("232.50"))
    assert got["movements"][-1]["description"].startswith("Anulación")
    # the whole history ends at the partner's balance
    everything = statement(shop, "client", shop.customer, "?startDate=2026-01-01&endDate=2026-12-31")
    assert D(str(everything["closingBalance"])) == D(str(shop.partner(shop.customer)["receivableBalance"])) == D("255.50")
    assert D(str(everything["openingBalance"])) == 0 and len(everything["movements"]) == 8

    # pages of 4 carry the running balance across the cursor
    first = statement(shop, "client", shop.customer, "?startDate=2026-01-01&endDate=2026-12-31&limit=4")
    second = statement(shop, "client", shop.customer,
                       f"?startDate=2026-01-01&endDate=2026-12-31&limit=4&cursor={first['nextCursor']}")
    assert rows(first) + rows(second) == rows(everything) and second["nextCursor"] is None
    moves = statement(shop, "client", shop.customer, "?startDate=2026-01-01&endDate=2026-12-31", what="movements")
    assert rows(moves) == rows(everything) and "openingBalance" not in moves


def test_supplier_statement_and_refusals(shop, api, company_b):
    cash = shop.created("/payments/methods", {"name": "Efectivo"})
    purchase = shop.document("103", [(shop.service, 2, 100)], date="2026-11-03")                     # +230.00
    shop.api.post(f"/payments/documents/{purchase['id']}/payments", {"paymentMethodId": cash["id"], "amount": 30,
                                                                     "paymentDate": "2026-11-04"}, key=shop.key)
    got = statement(shop, "supplier", shop.supplier, "?startDate=2026-11-01&endDate=2026-11-30")
    assert rows(got) == [("2026-11-03", "103", None, D("230.00"), 0, D("230.00")),
                         ("2026-11-04", "103", "method", 0, D("30.00"), D("200.00"))]
    # the default period: 1 January to today (20 November, local)
    default = statement(shop, "supplier", shop.supplier)
    assert (default["startDate"], default["endDate"], D(str(default["closingBalance"]))) == (
        "2026-01-01", "2026-11-20", D("200.00"))

    backwards = shop.api.get(f"/credits/supplier/{shop.supplier}/statement?startDate=2026-12-01&endDate=2026-11-01",
                             key=shop.key)
    assert backwards.status == 400 and backwards.json["details"][0]["field"] == "startDate"
    assert shop.api.get(f"/credits/supplier/{shop.supplier}/statement?startDate=nope", key=shop.key).status == 400
    assert shop.api.get(f"/credits/supplier/{shop.supplier}/statement?cursor=garbage", key=shop.key).status == 400
    # a supplier is not a client; another company's partner does not exist
    assert shop.api.get(f"/credits/client/{shop.supplier}/statement", key=shop.key).status == 404
    assert api.get(f"/credits/supplier/{shop.supplier}/movements", key=company_b.api_key).status == 404
