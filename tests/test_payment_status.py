"""paymentStatus through the API: on GET /documents/{id} and the list, as of the company's today
(the clock moved as other tests do), and the list filtered by it, paged with an exact total.

Every invoice: service lines at 100.00 + ISV 15 % (1 line: 115.00; 2: 230.00), dated 2026-11-02."""
from __future__ import annotations

import datetime as dt

import pytest

from tests.documents_support import Shop


def at(monkeypatch, moment: dt.datetime) -> None:
    from chalicelib import clock
    monkeypatch.setattr(clock, "now", lambda: moment)


# 12:00 on 20 November in Tegucigalpa (UTC-6)
NOV_20 = dt.datetime(2026, 11, 20, 18, 0, tzinfo=dt.timezone.utc)
# 12:00 on 1 December in Tegucigalpa
DEC_1 = dt.datetime(2026, 12, 1, 18, 0, tzinfo=dt.timezone.utc)
# 21:00 on 30 November in Tegucigalpa, already 1 December in UTC
NOV_30_EVENING = dt.datetime(2026, 12, 1, 3, 0, tzinfo=dt.timezone.utc)


@pytest.fixture
def shop(api, company_a, monkeypatch) -> Shop:
    at(monkeypatch, NOV_20)
    return Shop(api, company_a)


@pytest.fixture
def invoices(shop):
    """unpaid (due 30 Nov), partly paid (due 30 Nov), paid, overdue (due 15 Nov), a purchase due
    10 Nov, a draft and a quote."""
    cash = shop.created("/payments/methods", {"name": "Efectivo"})["id"]

    def pay(document, amount):
        reply = shop.api.post(f"/payments/documents/{document['id']}/payments",
                              {"paymentMethodId": cash, "amount": amount}, key=shop.key)
        assert reply.status == 201, reply.text

    made = {
        "unpaid": shop.document("01", [(shop.service, 1, 100)], dueDate="2026-11-30"),           # 115.00
        "partly": shop.document("01", [(shop.service, 2, 100)], dueDate="2026-11-30"),           # 230.00
        "paid": shop.document("01", [(shop.service, 1, 100)], dueDate="2026-11-30"),             # 115.00
        "overdue": shop.document("01", [(shop.service, 1, 100)], dueDate="2026-11-15"),          # 115.00
        "purchase": shop.document("103", [(shop.service, 1, 100)], dueDate="2026-11-10"),        # 115.00
        "draft": shop.document("01", [(shop.service, 1, 100)], status="draft"),
        "quote": shop.document("100", [(shop.service, 1, 100)]),
    }
    pay(made["partly"], 30)    # 230.00 - 30.00 = 200.00 pending
    pay(made["paid"], 115)     # 115.00 - 115.00 = 0
    return made


def status_of(shop, document):
    return shop.get(document["id"])["paymentStatus"]


def listed(shop, query):
    reply = shop.api.get(f"/documents?{query}", key=shop.key)
    assert reply.status == 200, reply.text
    return reply.json


def test_each_document_reads_its_payment_status(shop, invoices):
    expected = {"unpaid": "unpaid",          # 115.00 pending of 115.00, due 30 Nov, today 20 Nov
                "partly": "partially_paid",  # 0 < 200.00 < 230.00
                "paid": "paid",              # pending 0
                "overdue": "overdue",        # due 15 Nov < 20 Nov, 115.00 pending
                "purchase": "overdue",       # what we owe the supplier, due 10 Nov < 20 Nov
                "draft": None, "quote": None}
    assert {name: status_of(shop, document) for name, document in invoices.items()} == expected
    shown = shop.get(invoices["partly"]["id"])
    assert (shown["pending"], shown["total"], shown["status"]) == (200, 230, "confirmed")
    # the list carries it too, with the due date a person looks for
    by_id = {item["id"]: item for item in listed(shop, "limit=50")["documents"]}
    assert {name: by_id[document["id"]].get("paymentStatus") for name, document in invoices.items()} == expected
    overdue = by_id[invoices["overdue"]["id"]]
    assert (overdue["dueDate"], overdue["daysOverdue"]) == ("2026-11-15", 5)   # 20 Nov - 15 Nov
    assert by_id[invoices["unpaid"]["id"]].get("daysOverdue") is None


def test_a_cancelled_note_has_no_payment_status(shop, invoices):
    note = shop.document("07", [(shop.service, 1, 10)], sourceDocumentId=invoices["unpaid"]["id"],
                         dueDate="2026-11-30")  # 11.50
    assert status_of(shop, note) == "unpaid"
    shop.action(note["id"], "cancel", {"reason": "error"})
    assert status_of(shop, note) is None


def test_an_invoice_becomes_overdue_the_day_after_its_due_date(shop, invoices, monkeypatch):
    # 21:00 on 30 November in Tegucigalpa: still the due date there, though UTC is at 1 December
    at(monkeypatch, NOV_30_EVENING)
    assert status_of(shop, invoices["unpaid"]) == "unpaid"
    assert status_of(shop, invoices["partly"]) == "partially_paid"
    at(monkeypatch, DEC_1)
    assert status_of(shop, invoices["unpaid"]) == "overdue"     # 30 Nov < 1 Dec, 115.00 pending
    assert shop.get(invoices["unpaid"]["id"])["daysOverdue"] == 1          # 1 Dec - 30 Nov
    assert shop.get(invoices["overdue"]["id"])["daysOverdue"] == 16        # 15 Nov -> 1 Dec: 15 + 1
    assert status_of(shop, invoices["partly"]) == "overdue"     # 200.00 still pending
    assert status_of(shop, invoices["paid"]) == "paid"          # paid stays paid


def ids(page):
    return [item["id"] for item in page["documents"]]


def test_the_list_is_filtered_by_payment_status_with_exact_totals(shop, invoices):
    unpaid, partly, paid, overdue, purchase = (invoices[name]["id"] for name in
                                               ("unpaid", "partly", "paid", "overdue", "purchase"))
    # same date for all: newest first is the higher id first
    assert (ids(got := listed(shop, "paymentStatus=overdue")), got["total"]) == ([purchase, overdue], 2)
    assert (ids(got := listed(shop, "paymentStatus=overdue&type=01")), got["total"]) == ([overdue], 1)
    assert (ids(got := listed(shop, "paymentStatus=unpaid")), got["total"]) == ([unpaid], 1)
    assert (ids(got := listed(shop, "paymentStatus=partially_paid")), got["total"]) == ([partly], 1)
    assert (ids(got := listed(shop, "paymentStatus=paid")), got["total"]) == ([paid], 1)
    assert ids(listed(shop, f"paymentStatus=overdue&businessPartnerId={shop.customer}")) == [overdue]
    assert ids(listed(shop, "paymentStatus=overdue&q=Cliente")) == [overdue]
    assert listed(shop, "paymentStatus=overdue&endDate=2026-11-01")["total"] == 0


def test_a_filtered_list_pages_by_page_once_the_clock_moves(shop, invoices, monkeypatch):
    at(monkeypatch, DEC_1)
    # overdue on 1 Dec, the longest overdue first (all are dated 2 Nov): the purchase (due 10 Nov, 21 days),
    # "overdue" (15 Nov, 16 days), then "unpaid" and "partly" (30 Nov, 1 day; by id, "unpaid" was made first)
    expected = [invoices[name]["id"] for name in ("purchase", "overdue", "unpaid", "partly")]
    first, second, third = (listed(shop, f"paymentStatus=overdue&limit=3&page={page}") for page in (1, 2, 3))
    assert (ids(first), ids(second), ids(third)) == (expected[:3], expected[3:], [])
    assert {first["total"], second["total"], third["total"]} == {4}
    assert listed(shop, "paymentStatus=unpaid")["total"] == 0


def test_a_filtered_list_refuses_a_cursor_and_an_unknown_status(shop):
    reply = shop.api.get("/documents?paymentStatus=overdue&cursor=abc", key=shop.key)
    assert reply.status == 400 and reply.json["details"][0]["field"] == "cursor", reply.text
    reply = shop.api.get("/documents?paymentStatus=late", key=shop.key)
    assert reply.status == 400 and reply.json["details"][0]["field"] == "paymentStatus", reply.text
