"""Every refusal of the documents, fiscal numbering and inventory capability through the API:
each error code, with the state it must leave unchanged (document, stock, movements, partner
balances, books, list totals, CAI numbers, events); tenant isolation; bad input answered as a
JSON 4xx, never a 500."""
from __future__ import annotations

import datetime as _dt
from decimal import Decimal
from typing import Any

import pytest

from chalicelib import clock
from chalicelib.store import keys
from tests.documents_support import CAI, Shop
from tests.support import ORIGIN, ApiClient, CompanyFixture


@pytest.fixture
def shop(api, company_a):
    return Shop(api, company_a)


# --- helpers -------------------------------------------------------------------------------------

def state(shop: Shop, table: Any, *document_ids: int) -> dict[str, Any]:
    """Everything a refused command must leave as it was."""
    api, key = shop.api, shop.key
    events, _ = table.query(partition=("PK", f"C#{shop.company.company_id}#EVT"), consistent=True)
    return {
        "documents": [api.get(f"/documents/{i}", key=key).json for i in document_ids],
        "list": api.get("/documents?limit=100", key=key).json,
        "stock": api.get("/inventory/stock?limit=100", key=key).json,
        "movements": api.get("/inventory/movements?limit=100", key=key).json,
        "partners": [shop.partner(shop.customer), shop.partner(shop.supplier)],
        "trialBalance": shop.books.trial_balance(),
        "entries": api.get("/journal-entries?limit=100", key=key).json["total"],
        "cai": api.get("/cai?limit=100", key=key).json,
        "events": len(events),
    }


def refused(reply: Any, status: int, code: str, field: str | None = None) -> Any:
    assert reply.status == status and reply.json["code"] == code, (reply.status, reply.text)
    if field is not None:
        assert field in [d["field"] for d in reply.json.get("details") or []], reply.text
    return reply.json


def set_company(api: ApiClient, company: CompanyFixture, **fields: Any) -> None:
    reply = api.put(f"/companies/{company.company_id}", fields, key=company.api_key)
    assert reply.status == 200, reply.text


def set_partner(shop: Shop, partner_id: int, **fields: Any) -> None:
    reply = shop.api.put(f"/business-partners/{partner_id}", fields, key=shop.key)
    assert reply.status == 200, reply.text


def post_doc(shop: Shop, body: dict[str, Any]) -> Any:
    return shop.api.post("/documents", body, key=shop.key)


def body_of(shop: Shop, doc_type: str = "01", lines: list[dict[str, Any]] | None = None, **fields: Any) -> dict:
    partner = shop.supplier if doc_type in ("103", "104", "105", "106", "102", "11") else shop.customer
    return {"type": doc_type, "businessPartnerId": partner, "date": "2026-11-02",
            "lines": lines or [{"productId": shop.product, "quantity": 1, "unitPrice": 100}], **fields}


def stock_in(shop: Shop, quantity: Any = 10, date: str = "2026-11-01") -> Any:
    return shop.document("103", [(shop.product, quantity, 60)], date=date)


def cai_range(shop: Shop, **fields: Any) -> Any:
    body = {"cai": CAI, "branchId": 1, "emissionPoint": "001", "documentType": "01", "rangeStart": 1,
            "rangeEnd": 1000, "deadline": "2099-12-31", **fields}
    return shop.api.post("/cai", body, key=shop.key)


def today(days: int = 0) -> str:
    """The company's (Honduran) today and days from it: the service dates and ages documents by it,
    not by UTC's date (they differ from 00:00 to 06:00 UTC)."""
    return (_dt.date.fromisoformat(clock.today_in("HN")) + _dt.timedelta(days=days)).isoformat()


# --- DOCUMENT_NOT_EDITABLE -----------------------------------------------------------------------

def test_put_on_a_confirmed_or_cancelled_document_is_403_not_editable(api, table, shop):
    stock_in(shop)
    invoice = shop.document("01")
    note = shop.document("06", sourceDocumentId=invoice["id"])
    shop.action(note["id"], "cancel", {"reason": "error"})
    before = state(shop, table, invoice["id"], note["id"])
    for document in (invoice, note):
        for change in ({"notes": "changed"}, {"lines": [{"productId": shop.product, "quantity": 2, "unitPrice": 1}]},
                       {"date": "2026-11-03"}):
            reply = api.put(f"/documents/{document['id']}", change, key=shop.key)
            refused(reply, 403, "DOCUMENT_NOT_EDITABLE")
    assert state(shop, table, invoice["id"], note["id"]) == before
    assert shop.get(note["id"])["status"] == "cancelled" and shop.get(invoice["id"])["status"] == "confirmed"


# --- DOCUMENT_NOT_CANCELLABLE --------------------------------------------------------------------

def test_only_notes_and_imports_can_be_cancelled_once_confirmed(api, table, shop):
    stock_in(shop, 20)
    documents = {  # the 113 takes its number from the invoices' CAI range (both are SAR's Factura)
        "01": shop.document("01"),
        "113": shop.document("113"),
        "103": shop.document("103"),
        "11": shop.document("11", [(None, 1, 40)]),
        "100": shop.document("100", status="confirmed"),
        "101": shop.document("101", status="confirmed"),
        "102": shop.document("102", status="confirmed"),
        "112": shop.document("112"),
        "05": shop.document("05", [(None, 1, 10)]),
    }
    ids = [d["id"] for d in documents.values()]
    before = state(shop, table, *ids)
    for name, document in documents.items():
        reply = api.post(f"/documents/{document['id']}/cancel", {"reason": "no"}, key=shop.key)
        assert reply.status == 400 and reply.json["code"] == "DOCUMENT_NOT_CANCELLABLE", (name, reply.text)
    assert state(shop, table, *ids) == before


# --- INVALID_DOCUMENT_STATUS ---------------------------------------------------------------------

def test_confirm_twice_cancel_twice_and_unconfirm_a_draft_are_invalid_status(api, table, shop):
    stock_in(shop)
    invoice = shop.document("01")
    note = shop.document("06", sourceDocumentId=invoice["id"])
    shop.action(note["id"], "cancel")
    draft_purchase = shop.document("103", status="draft")
    draft_note = shop.document("07", [(None, 1, 5)], sourceDocumentId=invoice["id"], status="draft")
    purchase = shop.document("103")
    shop.action(purchase["id"], "unconfirm")
    ids = (invoice["id"], note["id"], draft_purchase["id"], draft_note["id"], purchase["id"])
    before = state(shop, table, *ids)
    attempts = [
        (invoice["id"], "confirm"),          # confirmed
        (note["id"], "confirm"),             # cancelled
        (note["id"], "cancel"),              # cancelled twice
        (draft_purchase["id"], "unconfirm"),  # a draft
        (purchase["id"], "unconfirm"),       # unconfirmed twice
    ]
    for document_id, action in attempts:
        reply = api.post(f"/documents/{document_id}/{action}", {}, key=shop.key)
        assert reply.status == 400 and reply.json["code"] == "INVALID_DOCUMENT_STATUS", (action, reply.text)
    assert state(shop, table, *ids) == before


# --- DOCUMENT_NOT_UNCONFIRMABLE ------------------------------------------------------------------

def test_only_purchase_invoices_can_be_unconfirmed(api, table, shop):
    stock_in(shop)
    invoice = shop.document("01")
    others = [invoice, shop.document("104"), shop.document("11", [(None, 1, 40)]),
              shop.document("06", sourceDocumentId=invoice["id"]), shop.document("112"),
              shop.document("100"), shop.document("102")]
    ids = [d["id"] for d in others]
    before = state(shop, table, *ids)
    for document in others:
        reply = api.post(f"/documents/{document['id']}/unconfirm", {}, key=shop.key)
        assert reply.status == 400 and reply.json["code"] == "DOCUMENT_NOT_UNCONFIRMABLE", (document["type"],
                                                                                             reply.text)
    assert state(shop, table, *ids) == before


# --- DOCUMENT_HAS_PAYMENTS (a payment crafted on the stored document) ----------------------------

def test_a_paid_document_can_neither_be_unconfirmed_nor_cancelled(api, table, shop):
    purchase = shop.document("103")
    imported = shop.document("104")
    for document in (purchase, imported):
        key = keys.document(shop.company.company_id, document["id"])
        table.add(key, "paidTotal", 10)
        table.add(key, "pending", -10)
    before = state(shop, table, purchase["id"], imported["id"])
    refused(api.post(f"/documents/{purchase['id']}/unconfirm", {}, key=shop.key), 400, "DOCUMENT_HAS_PAYMENTS")
    refused(api.post(f"/documents/{imported['id']}/cancel", {}, key=shop.key), 400, "DOCUMENT_HAS_PAYMENTS")
    assert state(shop, table, purchase["id"], imported["id"]) == before


# --- DELETE --------------------------------------------------------------------------------------

def test_delete_needs_a_web_session_and_a_draft(api, table, shop, company_a):
    stock_in(shop)
    invoice = shop.document("01")
    draft_invoice = shop.document("01", status="draft")
    note = shop.document("06", sourceDocumentId=invoice["id"])
    shop.action(note["id"], "cancel")
    confirmed_purchase = shop.document("103")
    draft_purchase = shop.document("103", status="draft")
    abandoned = shop.document("104", status="draft")
    shop.action(abandoned["id"], "cancel")
    quote = shop.document("100")
    cash = shop.created("/payments/methods", {"name": "Efectivo"})
    order = shop.document("101")
    advance = shop.api.post(f"/payments/documents/{order['id']}/payments", {"paymentMethodId": cash["id"], "amount": 5},
                            key=shop.key)
    assert advance.status == 201, advance.text
    ids = [d["id"] for d in (invoice, draft_invoice, note, confirmed_purchase, draft_purchase, abandoned, quote, order)]
    before = state(shop, table, *ids)
    # an API key may not delete, whatever the document
    for document_id in ids:
        refused(api.delete(f"/documents/{document_id}", key=shop.key), 403, "API_KEY_DELETE_FORBIDDEN")
    cookie = api.login(company_a.email)
    # confirmed or cancelled documents stay; a draft holding an advance too
    for document_id in (invoice["id"], note["id"], confirmed_purchase["id"], abandoned["id"]):
        reply = api.delete(f"/documents/{document_id}", cookie=cookie, origin=ORIGIN)
        assert reply.status == 400 and reply.json["code"] == "DOCUMENT_NOT_DELETABLE", (document_id, reply.text)
    refused(api.delete(f"/documents/{order['id']}", cookie=cookie, origin=ORIGIN), 400, "DOCUMENT_HAS_PAYMENTS")
    assert state(shop, table, *ids) == before
    # the drafts go, and the list total with them
    for draft in (draft_invoice, draft_purchase, quote):
        deleted = api.delete(f"/documents/{draft['id']}", cookie=cookie, origin=ORIGIN)
        assert deleted.status == 200, deleted.text
        assert api.get(f"/documents/{draft['id']}", key=shop.key).status == 404
    listed = api.get("/documents?limit=100", key=shop.key).json
    assert listed["total"] == before["list"]["total"] - 3 == len(listed["documents"])
    assert not {draft_invoice["id"], draft_purchase["id"], quote["id"]} & {d["id"] for d in listed["documents"]}
    refused(api.delete(f"/documents/{draft_purchase['id']}", cookie=cookie, origin=ORIGIN), 404, "NOT_FOUND")


def test_any_draft_is_cancelled_as_it_is_and_stays_so(api, table, shop):
    """Quotes, orders, deliveries and drafts of invoices that will never be confirmed: cancelled,
    nothing posted, no number taken; neither confirmed nor edited afterwards. An order holding
    an advance is refused until the advance is cancelled."""
    stock_in(shop)
    drafts = {doc_type: shop.document(doc_type, status="draft") for doc_type in ("100", "101", "102", "112", "01", "103")}
    cash = shop.created("/payments/methods", {"name": "Efectivo"})
    ids = [d["id"] for d in drafts.values()]
    books = shop.api.get("/journal-entries/trial-balance?date=2099-12-31", key=shop.key).json
    for doc_type, draft in drafts.items():
        cancelled = shop.action(draft["id"], "cancel")
        assert (cancelled["status"], cancelled.get("number"), cancelled.get("journalEntryId")) == \
               ("cancelled", None, None), (doc_type, cancelled)
        refused(api.post(f"/documents/{draft['id']}/confirm", {}, key=shop.key), 400, "INVALID_DOCUMENT_STATUS")
        refused(api.put(f"/documents/{draft['id']}", {"notes": "otra"}, key=shop.key), 403, "DOCUMENT_NOT_EDITABLE")
        refused(api.post(f"/documents/{draft['id']}/cancel", {}, key=shop.key), 400, "DOCUMENT_NOT_CANCELLABLE")
    assert shop.api.get("/journal-entries/trial-balance?date=2099-12-31", key=shop.key).json == books
    listed = api.get("/documents?status=cancelled&limit=100", key=shop.key).json
    assert sorted(d["id"] for d in listed["documents"]) == sorted(ids) and listed["total"] == len(ids)

    order = shop.document("101")
    advance = shop.api.post(f"/payments/documents/{order['id']}/payments", {"paymentMethodId": cash["id"], "amount": 5},
                            key=shop.key).json
    before = state(shop, table, order["id"])
    refused(api.post(f"/documents/{order['id']}/cancel", {}, key=shop.key), 400, "DOCUMENT_HAS_PAYMENTS")
    assert state(shop, table, order["id"]) == before
    shop.api.post(f"/payments/documents/{order['id']}/payments/{advance['id']}/cancel", {"reason": "desistió"},
                  key=shop.key)
    assert shop.action(order["id"], "cancel")["status"] == "cancelled"


# --- CAI -----------------------------------------------------------------------------------------

def test_cai_missing_for_sales_invoices_without_a_range(api, table, shop):
    stock_in(shop)
    branch = shop.created("/branch", {"name": "Sucursal Norte", "code": "002"})
    draft = shop.document("01", status="draft")
    before = state(shop, table, draft["id"])
    # no range at the new branch, for either of SAR's Factura types
    refused(post_doc(shop, body_of(shop, "113", branchId=branch["id"])), 400, "CAI_MISSING")
    refused(post_doc(shop, body_of(shop, "01", branchId=branch["id"])), 400, "CAI_MISSING")
    assert state(shop, table, draft["id"]) == before
    # the only 01 range made inactive
    reply = api.put(f"/cai/{shop.cai_range['id']}", {"isActive": False}, key=shop.key)
    assert reply.status == 200, reply.text
    before = state(shop, table, draft["id"])
    refused(post_doc(shop, body_of(shop, "01")), 400, "CAI_MISSING")
    refused(post_doc(shop, body_of(shop, "113")), 400, "CAI_MISSING")
    refused(api.post(f"/documents/{draft['id']}/confirm", key=shop.key), 400, "CAI_MISSING")
    assert state(shop, table, draft["id"]) == before
    assert shop.get(draft["id"])["status"] == "draft" and shop.get(draft["id"])["number"] is None


def test_cai_expired_after_the_deadline(api, table, company_a):
    shop = Shop(api, company_a, deadline="2026-10-31")
    stock_in(shop, date="2026-10-01")
    draft = shop.document("01", status="draft", date="2026-11-01")
    before = state(shop, table, draft["id"])
    refused(post_doc(shop, body_of(shop, date="2026-11-01")), 400, "CAI_EXPIRED")
    refused(api.post(f"/documents/{draft['id']}/confirm", key=shop.key), 400, "CAI_EXPIRED")
    assert state(shop, table, draft["id"]) == before
    # the deadline itself is still good
    on_deadline = shop.document("01", date="2026-10-31")
    assert on_deadline["number"] == "001-001-01-00000001" and on_deadline["cai"]["deadline"] == "2026-10-31"


def test_cai_exhausted_when_no_numbers_are_left(api, table, company_a):
    shop = Shop(api, company_a, range_size=2)
    stock_in(shop)
    numbers = [shop.document("01")["number"] for _ in range(2)]
    assert numbers == ["001-001-01-00000001", "001-001-01-00000002"]
    draft = shop.document("01", status="draft")
    before = state(shop, table, draft["id"])
    refused(post_doc(shop, body_of(shop)), 400, "CAI_EXHAUSTED")
    refused(api.post(f"/documents/{draft['id']}/confirm", key=shop.key), 400, "CAI_EXHAUSTED")
    assert state(shop, table, draft["id"]) == before
    cai = api.get(f"/cai/{shop.cai_range['id']}", key=shop.key).json
    assert cai["nextNumber"] == 3 and cai["remaining"] == 0
    # a new range of the series takes over
    assert cai_range(shop, rangeStart=3, rangeEnd=10).status == 201
    assert shop.action(draft["id"], "confirm")["number"] == "001-001-01-00000003"


def test_cai_ranges_of_one_series_never_overlap(api, table, shop):
    before = state(shop, table)
    for start, end in ((500, 1500), (1, 1), (1000, 1000), (1, 5000)):
        reply = cai_range(shop, rangeStart=start, rangeEnd=end)
        refused(reply, 409, "CAI_RANGE_OVERLAP", "rangeStart")
    # a reservation invoice is SAR's Factura too (code 01): the same series as the invoices
    refused(cai_range(shop, documentType="113"), 409, "CAI_RANGE_OVERLAP", "rangeStart")
    assert state(shop, table) == before
    # other series, or the next numbers, are fine
    assert cai_range(shop, emissionPoint="002").status == 201
    assert cai_range(shop, documentType="101").status == 201  # (the shop has a range of every series SAR numbers)
    branch = shop.created("/branch", {"name": "Sucursal Norte", "code": "002"})
    assert cai_range(shop, branchId=branch["id"]).status == 201
    following = cai_range(shop, rangeStart=1001, rangeEnd=2000)
    assert following.status == 201, following.text
    # growing a range into its neighbour overlaps too
    before = state(shop, table)
    refused(api.put(f"/cai/{shop.cai_range['id']}", {"rangeEnd": 1001}, key=shop.key), 409, "CAI_RANGE_OVERLAP")
    assert state(shop, table) == before


def test_cai_range_fields_are_validated(api, table, shop):
    stock_in(shop)
    shop.document("01")
    shop.document("01")
    before = state(shop, table)
    cases = [
        ({"cai": "35A4E1-6C8E5B-2F49A3-0C6F26-2C3E5A"}, "cai"),
        ({"cai": "ZZZZZZ-6C8E5B-2F49A3-0C6F26-2C3E5A-0A"}, "cai"),
        ({"branchId": 99}, "branchId"),
        ({"emissionPoint": "01"}, "emissionPoint"),
        ({"emissionPoint": "0001"}, "emissionPoint"),
        ({"documentType": "99"}, "documentType"),
        ({"rangeStart": 0}, "rangeStart"),
        ({"rangeStart": "5000"}, "rangeStart"),
        ({"rangeStart": 5000, "rangeEnd": 4999}, "rangeEnd"),
        ({"rangeStart": 5000, "rangeEnd": 100_000_000}, "rangeEnd"),
        ({"deadline": "2026-02-30"}, "deadline"),
    ]
    failures = []
    for fields, field in cases:
        reply = cai_range(shop, emissionPoint="009", **fields) if "emissionPoint" not in fields else cai_range(
            shop, **fields)
        if reply.status != 400 or reply.json["code"] != "VALIDATION_ERROR" or field not in [
                d["field"] for d in reply.json.get("details") or []]:
            failures.append((fields, reply.status, reply.text))
    # shrinking below the numbers issued
    reply = api.put(f"/cai/{shop.cai_range['id']}", {"rangeEnd": 1}, key=shop.key)
    if reply.status != 400 or reply.json["code"] != "VALIDATION_ERROR" or reply.json["details"][0]["field"] != "rangeEnd":
        failures.append(("shrink", reply.status, reply.text))
    assert not failures
    assert state(shop, table) == before


# --- INSUFFICIENT_STOCK --------------------------------------------------------------------------

def test_insufficient_stock_refuses_until_negative_stock_is_allowed(api, table, company_a, shop):
    draft = shop.document("01", status="draft")
    before = state(shop, table, draft["id"])
    refused(post_doc(shop, body_of(shop)), 400, "INSUFFICIENT_STOCK", "lines[0].quantity")
    refused(api.post(f"/documents/{draft['id']}/confirm", key=shop.key), 400, "INSUFFICIENT_STOCK")
    assert state(shop, table, draft["id"]) == before
    purchase = stock_in(shop, 5)
    before = state(shop, table, draft["id"], purchase["id"])
    # two lines of the same product count together
    two_lines = [{"productId": shop.product, "quantity": 3, "unitPrice": 100},
                 {"productId": shop.service, "quantity": 1, "unitPrice": 50},
                 {"productId": shop.product, "quantity": 3, "unitPrice": 100}]
    refused(post_doc(shop, body_of(shop, lines=two_lines)), 400, "INSUFFICIENT_STOCK", "lines[0].quantity")
    refused(post_doc(shop, body_of(shop, lines=[two_lines[1], {**two_lines[2], "quantity": 6}])), 400,
            "INSUFFICIENT_STOCK", "lines[1].quantity")
    refused(post_doc(shop, body_of(shop, lines=[{"productId": shop.product, "quantity": "5.0001",
                                                 "unitPrice": 100}])), 400, "INSUFFICIENT_STOCK")
    assert state(shop, table, draft["id"], purchase["id"]) == before
    # selling all of it, then undoing the purchase (or a returned sale) would take the stock below zero
    sale = shop.document("01", [(shop.product, 5, 100)])
    returned = shop.document("06", [(shop.product, 1, 100)], sourceDocumentId=sale["id"])
    shop.document("01", [(shop.product, 1, 100)])
    assert shop.stock() == 0
    before = state(shop, table, purchase["id"], returned["id"])
    refused(api.post(f"/documents/{purchase['id']}/unconfirm", {}, key=shop.key), 400, "INSUFFICIENT_STOCK")
    refused(api.post(f"/documents/{returned['id']}/cancel", {}, key=shop.key), 400, "INSUFFICIENT_STOCK")
    assert state(shop, table, purchase["id"], returned["id"]) == before
    # the company may allow negative stock
    set_company(api, company_a, allowNegativeStock=True)
    sold = shop.document("01", [(shop.product, 3, 100)])
    assert sold["status"] == "confirmed" and shop.stock() == -3
    assert shop.action(draft["id"], "confirm")["status"] == "confirmed" and shop.stock() == -4


# --- PERIOD_CLOSED -------------------------------------------------------------------------------

def test_a_closed_period_refuses_documents_dated_inside_and_writes_nothing(api, table, shop):
    purchase = stock_in(shop, 10, date="2026-10-15")
    draft = shop.document("01", status="draft", date="2026-11-10")
    invoice = shop.document("01", date="2026-10-20")
    note = shop.document("06", sourceDocumentId=invoice["id"], date="2026-10-21")
    period = shop.created("/accounting-periods", {"name": "Noviembre", "startDate": "2026-11-01",
                                                  "endDate": "2026-11-30"})
    closed = api.post(f"/accounting-periods/{period['id']}/close", key=shop.key)
    assert closed.status == 200, closed.text
    ids = (purchase["id"], draft["id"], invoice["id"], note["id"])
    before = state(shop, table, *ids)
    for doc_type, date in (("01", "2026-11-10"), ("01", "2026-11-01"), ("103", "2026-11-30"), ("11", "2026-11-15")):
        lines = [{"description": "Varios", "quantity": 1, "unitPrice": 10}] if doc_type == "11" else None
        refused(post_doc(shop, body_of(shop, doc_type, lines=lines, date=date)), 400, "PERIOD_CLOSED")
    refused(api.post(f"/documents/{draft['id']}/confirm", key=shop.key), 400, "PERIOD_CLOSED")
    refused(api.post(f"/documents/{purchase['id']}/unconfirm", {"date": "2026-11-05"}, key=shop.key), 400,
            "PERIOD_CLOSED")
    refused(api.post(f"/documents/{note['id']}/cancel", {"date": "2026-11-05"}, key=shop.key), 400, "PERIOD_CLOSED")
    after = state(shop, table, *ids)
    assert after == before
    assert after["cai"]["caiRanges"][0]["nextNumber"] == 2 and shop.stock() == 10
    assert shop.get(draft["id"])["status"] == "draft"
    # the days around the period are open
    assert shop.document("01", date="2026-10-31")["status"] == "confirmed"
    assert shop.document("01", date="2026-12-01")["status"] == "confirmed"


# --- credit control ------------------------------------------------------------------------------

def test_credit_limit_warns_or_blocks_by_company_policy(api, table, company_a, shop):
    set_partner(shop, shop.customer, credit_limit=200)
    service = [(shop.service, 2, 50)]  # 115.00 with tax
    assert shop.document("01", service)["warnings"] == []
    assert shop.document("01", service)["warnings"] == []  # policy off: 230 > 200 says nothing
    set_company(api, company_a, creditLimitPolicy="warn")
    warned = shop.document("01", service)
    assert warned["status"] == "confirmed" and len(warned["warnings"]) == 1
    assert Decimal(str(shop.partner(shop.customer)["receivableBalance"])) == Decimal("345.00")
    set_company(api, company_a, creditLimitPolicy="block")
    draft = shop.document("01", service, status="draft")
    before = state(shop, table, draft["id"])
    refused(post_doc(shop, body_of(shop, lines=[{"productId": shop.service, "quantity": 1, "unitPrice": 1}])),
            400, "CREDIT_LIMIT_EXCEEDED", "businessPartnerId")
    refused(api.post(f"/documents/{draft['id']}/confirm", key=shop.key), 400, "CREDIT_LIMIT_EXCEEDED")
    assert state(shop, table, draft["id"]) == before
    # credit notes bring the balance back under the limit
    for invoice in api.get("/documents?type=01&status=confirmed", key=shop.key).json["documents"]:
        shop.document("06", service, sourceDocumentId=invoice["id"])
    assert Decimal(str(shop.partner(shop.customer)["receivableBalance"])) == 0
    assert shop.action(draft["id"], "confirm")["warnings"] == []
    # quotes and purchases are not credit-controlled
    assert shop.document("100", [(shop.service, 100, 50)], status="confirmed")["status"] == "confirmed"


def test_credit_blocked_by_overdue_documents(api, table, shop):
    service = [(shop.service, 1, 50)]
    overdue = shop.document("01", service, date=today(-40), dueDate=today(-40))
    set_partner(shop, shop.customer, credit_block_days=30)
    draft = shop.document("01", service, status="draft", date=today())
    before = state(shop, table, overdue["id"], draft["id"])
    refused(post_doc(shop, body_of(shop, lines=[{"productId": shop.service, "quantity": 1, "unitPrice": 1}],
                                   date=today())), 400, "CREDIT_BLOCKED", "businessPartnerId")
    refused(api.post(f"/documents/{draft['id']}/confirm", key=shop.key), 400, "CREDIT_BLOCKED")
    assert state(shop, table, overdue["id"], draft["id"]) == before
    # 40 days overdue are tolerated by a 40-day block
    set_partner(shop, shop.customer, credit_block_days=40)
    assert shop.action(draft["id"], "confirm")["status"] == "confirmed"


def test_the_credit_block_refusal_explains_itself_in_the_callers_language(shop):
    """No field name in what a person reads: the days overdue and the days the customer's block tolerates."""
    service = [(shop.service, 1, 50)]
    shop.document("01", service, date=today(-40), dueDate=today(-40))  # due 40 days ago
    set_partner(shop, shop.customer, credit_block_days=30)
    body = body_of(shop, lines=[{"productId": shop.service, "quantity": 1, "unitPrice": 1}], date=today())
    english = refused(shop.api.post("/documents", body, key=shop.key), 400, "CREDIT_BLOCKED", "businessPartnerId")
    assert english["message"] == ("The customer has documents 40 days overdue, more than the 30 days its credit "
                                  "block tolerates: collect them (or change the customer's credit block) to invoice it.")
    assert english["details"] == [{"field": "businessPartnerId",
                                   "message": "has documents overdue more than 30 days (the customer's credit block)"}]
    spanish = refused(shop.api.post("/documents", body, key=shop.key, headers={"Accept-Language": "es"}),
                      400, "CREDIT_BLOCKED")
    assert spanish["message"] == ("El cliente tiene documentos vencidos hace 40 días, más que los 30 días que tolera "
                                  "su bloqueo de crédito: cóbrelos (o cambie el bloqueo de crédito del cliente) para "
                                  "facturarle.")
    assert spanish["details"] == [{"field": "businessPartnerId",
                                   "message": "tiene documentos vencidos hace más de 30 días (bloqueo de crédito del "
                                              "cliente)"}]
    assert "credit_block_days" not in str(english) + str(spanish)


# --- DOCUMENT_TOO_LARGE --------------------------------------------------------------------------

def forty_products(api: ApiClient, company: CompanyFixture, shop: Shop) -> list[int]:
    set_company(api, company, allowNegativeStock=True)
    return [shop.product] + [shop.created("/products", {"code": f"P-{n}", "name": f"Producto {n}", "unitPrice": 10,
                                                         "cost": 5, "taxRate": 0.15})["id"] for n in range(2, 41)]


def test_a_document_whose_effects_exceed_one_transaction_is_refused(api, table, company_a, shop):
    many = [{"productId": p, "quantity": 1, "unitPrice": 10} for p in forty_products(api, company_a, shop)]
    draft = shop.document("01", [(shop.product, 1, 10)], status="draft")
    before = state(shop, table, draft["id"])
    refused(post_doc(shop, body_of(shop, "01", lines=many)), 400, "DOCUMENT_TOO_LARGE")
    refused(post_doc(shop, body_of(shop, "01", lines=many, status="draft")), 400, "DOCUMENT_TOO_LARGE")
    refused(api.put(f"/documents/{draft['id']}", {"lines": many}, key=shop.key), 400, "DOCUMENT_TOO_LARGE")
    assert state(shop, table, draft["id"]) == before
    # the same 40 lines on a quote move nothing and fit; 25 products fit an invoice
    assert post_doc(shop, body_of(shop, "100", lines=many)).status == 201
    fits = post_doc(shop, body_of(shop, "01", lines=many[:25]))
    assert fits.status == 201, fits.text


def test_an_unconfirmed_purchase_that_was_confirmed_stays_editable(api, company_a, shop):
    """A purchase invoice confirmed with many stocked lines fits its transaction; unconfirmed to
    be corrected, the draft must accept a correction and be confirmed again."""
    # about as many as a purchase can carry (31 since every posting also checks the books' lock: issue 39)
    products = forty_products(api, company_a, shop)[:31]
    purchase = shop.document("103", [(p, 1, 10) for p in products])
    assert purchase["status"] == "confirmed"
    shop.action(purchase["id"], "unconfirm")
    edited = api.put(f"/documents/{purchase['id']}", {"notes": "precio corregido"}, key=shop.key)
    assert edited.status == 200, edited.text
    assert shop.action(purchase["id"], "confirm")["status"] == "confirmed"


# --- VALIDATION_ERROR ----------------------------------------------------------------------------

def test_document_validation_errors_name_the_field_and_write_nothing(api, table, shop):
    stock_in(shop)
    invoice = shop.document("01")
    draft_invoice = shop.document("01", status="draft")
    purchase = shop.document("103")
    other_customer = shop.created("/business-partners", {"name": "Cliente Dos", "type": "customer"})["id"]
    inactive_customer = shop.created("/business-partners", {"name": "Cliente Viejo", "type": "customer"})["id"]
    set_partner(shop, inactive_customer, isActive=False)
    old_product = shop.created("/products", {"code": "P-OLD", "name": "Viejo", "unitPrice": 1})["id"]
    assert api.put(f"/products/{old_product}", {"isActive": False}, key=shop.key).status == 200
    inactive_branch = shop.created("/branch", {"name": "Cerrada", "code": "009"})["id"]
    inactive_warehouse = shop.created("/warehouses", {"name": "Cerrada"})["id"]
    assert api.put(f"/warehouses/{inactive_warehouse}", {"isActive": False}, key=shop.key).status == 200
    note = shop.document("06", [(shop.service, 1, 10)], sourceDocumentId=invoice["id"], date="2026-11-05")
    leaving = shop.created("/business-partners", {"name": "Cliente Tres", "type": "customer"})["id"]
    draft_of_leaving = shop.document("01", [(shop.service, 1, 50)], status="draft", partner=leaving)
    set_partner(shop, leaving, isActive=False)
    fading = shop.created("/products", {"code": "P-FADE", "name": "Saliendo", "unitPrice": 1, "type": "service"})["id"]
    draft_of_fading = shop.document("01", [(shop.service, 1, 50), (fading, 1, 1)], status="draft")
    assert api.put(f"/products/{fading}", {"isActive": False}, key=shop.key).status == 200
    assert api.put(f"/branch/{inactive_branch}", {"isActive": False}, key=shop.key).status == 200
    product_line = {"productId": shop.product, "quantity": 1, "unitPrice": 100}
    cases = [
        ("no such partner", body_of(shop, businessPartnerId=999), "businessPartnerId"),
        ("inactive partner", body_of(shop, businessPartnerId=inactive_customer), "businessPartnerId"),
        ("sale to a supplier", body_of(shop, businessPartnerId=shop.supplier), "businessPartnerId"),
        ("purchase from a customer", body_of(shop, "103", businessPartnerId=shop.customer), "businessPartnerId"),
        ("no such product", body_of(shop, lines=[product_line, {**product_line, "productId": 999}]),
         "lines[1].productId"),
        ("inactive product", body_of(shop, lines=[{**product_line, "productId": old_product}]), "lines[0].productId"),
        ("zero quantity", body_of(shop, lines=[{**product_line, "quantity": 0}]), "lines[0].quantity"),
        ("negative quantity", body_of(shop, lines=[product_line, {**product_line, "quantity": -1}]),
         "lines[1].quantity"),
        ("discount above the line", body_of(shop, lines=[{**product_line, "discount": "100.01"}]),
         "lines[0].discount"),
        ("tax rate 12%", body_of(shop, lines=[{**product_line, "taxRate": 0.12}]), "lines[0].taxRate"),
        ("credit note without source", body_of(shop, "06"), "sourceDocumentId"),
        ("credit note of no document", body_of(shop, "06", sourceDocumentId=999), "sourceDocumentId"),
        ("credit note of a draft", body_of(shop, "06", sourceDocumentId=draft_invoice["id"]), "sourceDocumentId"),
        ("credit note of a purchase", body_of(shop, "06", sourceDocumentId=purchase["id"]), "sourceDocumentId"),
        ("credit note of another customer",
         body_of(shop, "06", businessPartnerId=other_customer, sourceDocumentId=invoice["id"]), "sourceDocumentId"),
        ("debit note without source", body_of(shop, "07"), "sourceDocumentId"),
        ("purchase note of a sale", body_of(shop, "105", sourceDocumentId=invoice["id"]), "sourceDocumentId"),
        ("purchase debit note without source", body_of(shop, "106"), "sourceDocumentId"),
        ("credit note above its invoice", body_of(shop, "06", sourceDocumentId=invoice["id"],
                                                  lines=[{**product_line, "unitPrice": "100.01"}]), "lines"),
        ("line without product or description", body_of(shop, lines=[{"quantity": 1, "unitPrice": 5}]),
         "lines[0].description"),
        ("due before the date", body_of(shop, dueDate="2026-11-01"), "dueDate"),
        ("no such warehouse", body_of(shop, warehouseId=99), "warehouseId"),
        ("no such branch", body_of(shop, branchId=99), "branchId"),
        ("inactive branch", body_of(shop, branchId=inactive_branch), "branchId"),
        ("automatic capture of a sale", body_of(shop, capture="automatic"), "capture"),
        ("automatic capture of an import", body_of(shop, "104", capture="automatic"), "capture"),
        ("inactive warehouse", body_of(shop, warehouseId=inactive_warehouse), "warehouseId"),
    ]
    before = state(shop, table, invoice["id"], draft_invoice["id"], purchase["id"], note["id"], draft_of_leaving["id"],
                   draft_of_fading["id"])
    failures = []
    for name, body, field in cases:
        reply = post_doc(shop, body)
        fields = [d["field"] for d in (reply.json or {}).get("details") or []] if reply.text else []
        if reply.status != 400 or reply.json["code"] != "VALIDATION_ERROR" or field not in fields:
            failures.append((name, reply.status, reply.text))
    # the same checks on a draft's update
    updates = [
        ({"businessPartnerId": shop.supplier}, "businessPartnerId"),
        ({"lines": [{**product_line, "productId": old_product}]}, "lines[0].productId"),
        ({"lines": [{**product_line, "quantity": 0}]}, "lines[0].quantity"),
        ({"dueDate": "2026-10-01"}, "dueDate"),
        ({"warehouseId": 99}, "warehouseId"),
        ({"sourceDocumentId": purchase["id"]}, "sourceDocumentId"),
    ]
    for change, field in updates:
        reply = api.put(f"/documents/{draft_invoice['id']}", change, key=shop.key)
        fields = [d["field"] for d in (reply.json or {}).get("details") or []] if reply.text else []
        if reply.status != 400 or reply.json["code"] != "VALIDATION_ERROR" or field not in fields:
            failures.append((f"PUT {change}", reply.status, reply.text))
    # a draft whose partner or product went inactive is not confirmed
    for document_id, field in ((draft_of_leaving["id"], "businessPartnerId"), (draft_of_fading["id"],
                                                                                "lines[1].productId")):
        reply = api.post(f"/documents/{document_id}/confirm", key=shop.key)
        if reply.status != 400 or reply.json["code"] != "VALIDATION_ERROR" or reply.json["details"][0]["field"] != field:
            failures.append(("confirm", field, reply.status, reply.text))
    # undoing may not be dated before the document
    for document_id, action in ((note["id"], "cancel"), (purchase["id"], "unconfirm")):
        reply = api.post(f"/documents/{document_id}/{action}", {"date": "2026-11-01"}, key=shop.key)
        if reply.status != 400 or reply.json["code"] != "VALIDATION_ERROR" or reply.json["details"][0]["field"] != "date":
            failures.append((action, reply.status, reply.text))
    assert not failures
    assert state(shop, table, invoice["id"], draft_invoice["id"], purchase["id"], note["id"], draft_of_leaving["id"],
                   draft_of_fading["id"]) == before


def test_a_stale_version_is_a_conflict_and_changes_nothing(api, table, shop):
    draft = shop.document("01", [(shop.service, 1, 50)], status="draft")
    before = state(shop, table, draft["id"])
    refused(api.put(f"/documents/{draft['id']}", {"notes": "x", "version": 2}, key=shop.key), 409, "VERSION_CONFLICT")
    refused(api.put(f"/documents/{draft['id']}", {"notes": "x"}, key=shop.key, headers={"if-match": '"7"'}), 409,
            "VERSION_CONFLICT")
    refused(shop.api.post("/branch", {"name": "Otra", "code": "001"}, key=shop.key), 409, "DUPLICATE_CODE", "code")
    assert state(shop, table, draft["id"]) == before
    assert [b["code"] for b in api.get("/branch", key=shop.key).json["branches"]] == ["001"]
    current = api.put(f"/documents/{draft['id']}", {"notes": "x", "version": 1}, key=shop.key)
    assert current.status == 200 and current.json["version"] == 2


def test_a_document_whose_total_overflows_the_money_range_is_refused(api, table, shop):
    """Each line's quantity (<= 1e9) and price (<= 999 999 999 999.99) are in range, their product
    is not: a document, its entry and the partner balance must stay within the money range."""
    huge = [{"productId": shop.service, "quantity": 1_000_000_000, "unitPrice": "999999999999.99"}] * 3
    draft = shop.document("01", [(shop.service, 1, 50)], status="draft")
    before = state(shop, table, draft["id"])
    failures = []
    for doc_type, status in (("01", "confirmed"), ("01", "draft"), ("103", "confirmed"), ("100", "draft")):
        reply = post_doc(shop, body_of(shop, doc_type, lines=huge, status=status))
        if not (400 <= reply.status < 500 and reply.json.get("code")):
            failures.append((doc_type, status, reply.status, reply.text[:160]))
    reply = api.put(f"/documents/{draft['id']}", {"lines": huge}, key=shop.key)
    if not (400 <= reply.status < 500 and reply.json.get("code")):
        failures.append(("PUT", reply.status, reply.text[:160]))
    assert not failures
    assert state(shop, table, draft["id"]) == before


# --- tenant isolation ----------------------------------------------------------------------------

def test_another_companys_documents_and_fiscal_records_are_404_and_untouched(api, table, company_a, company_b, shop):
    purchase = stock_in(shop)
    invoice = shop.document("01")
    note = shop.document("06", sourceDocumentId=invoice["id"])
    draft_purchase = shop.document("103", status="draft")
    branch = shop.created("/branch", {"name": "Sucursal Norte", "code": "002"})
    warehouse = shop.created("/warehouses", {"name": "Bodega Norte", "branchId": branch["id"]})
    ids = (purchase["id"], invoice["id"], note["id"], draft_purchase["id"])
    before = state(shop, table, *ids)
    fiscal_before = {path: api.get(path, key=shop.key).json
                     for path in (f"/branch/{branch['id']}", f"/cai/{shop.cai_range['id']}",
                                  f"/warehouses/{warehouse['id']}")}
    key_b, cookie_b = company_b.api_key, api.login(company_b.email)
    failures = []

    def not_found(method: str, path: str, body: Any = None, **auth: Any) -> None:
        reply = api.request(method, path, body=body, **(auth or {"key": key_b}))
        if reply.status != 404 or reply.json["code"] != "NOT_FOUND":
            failures.append((method, path, reply.status, reply.text))

    for document_id in ids:
        path = f"/documents/{document_id}"
        not_found("GET", path)
        not_found("PUT", path, {"notes": "B was here"})
        for action in ("confirm", "unconfirm", "cancel"):
            not_found("POST", f"{path}/{action}", {})
        not_found("DELETE", path, cookie=cookie_b, origin=ORIGIN)
    for path, change in ((f"/branch/{branch['id']}", {"name": "B"}), (f"/cai/{shop.cai_range['id']}",
                                                                      {"isActive": False}),
                         (f"/warehouses/{warehouse['id']}", {"name": "B"})):
        not_found("GET", path)
        not_found("PUT", path, change)
    assert not failures
    assert state(shop, table, *ids) == before
    assert {path: api.get(path, key=shop.key).json for path in fiscal_before} == fiscal_before
    # B's lists show none of A's
    assert api.get("/documents", key=key_b).json["total"] == 0
    assert api.get(f"/documents?businessPartnerId={shop.customer}", key=key_b).json["total"] == 0
    assert api.get("/inventory/stock", key=key_b).json["stock"] == []
    assert api.get(f"/inventory/stock?productId={shop.product}&warehouseId=1", key=key_b).json["stock"] == []
    assert api.get("/inventory/movements", key=key_b).json["movements"] == []
    assert api.get(f"/inventory/movements?productId={shop.product}", key=key_b).json["movements"] == []
    assert api.get("/cai", key=key_b).json["total"] == 0
    assert [b["code"] for b in api.get("/branch", key=key_b).json["branches"]] == ["001"]
    assert [w["id"] for w in api.get("/warehouses", key=key_b).json["warehouses"]] == [1]


def test_a_document_may_not_refer_to_another_companys_records(api, table, company_a, company_b, shop):
    invoice = shop.document("01", [(shop.service, 1, 50)])
    branch = shop.created("/branch", {"name": "Sucursal Norte", "code": "002"})
    warehouse = shop.created("/warehouses", {"name": "Bodega Norte"})
    key_b = company_b.api_key
    own_customer = api.post("/business-partners", {"name": "Cliente B", "type": "customer"}, key=key_b).json["id"]
    # A's ids that B does not have: A's supplier, product, invoice, branch and warehouse
    assert shop.supplier != own_customer
    base = {"type": "01", "businessPartnerId": own_customer, "date": "2026-11-02", "status": "draft",
            "lines": [{"description": "Varios", "quantity": 1, "unitPrice": 10}]}
    cases = [
        ({**base, "type": "103", "businessPartnerId": shop.supplier}, "businessPartnerId"),
        ({**base, "lines": [{"productId": shop.product, "quantity": 1, "unitPrice": 10}]}, "lines[0].productId"),
        ({**base, "type": "06", "sourceDocumentId": invoice["id"]}, "sourceDocumentId"),
        ({**base, "branchId": branch["id"]}, "branchId"),
        ({**base, "warehouseId": warehouse["id"]}, "warehouseId"),
    ]
    failures = []
    for body, field in cases:
        reply = api.post("/documents", body, key=key_b)
        fields = [d["field"] for d in (reply.json or {}).get("details") or []] if reply.text else []
        if reply.status != 400 or reply.json["code"] != "VALIDATION_ERROR" or field not in fields:
            failures.append((field, reply.status, reply.text))
    # nor may B's CAI ranges and warehouses name A's branch
    for path, body in (("/cai", {"cai": CAI, "branchId": branch["id"], "emissionPoint": "001", "documentType": "01",
                                 "rangeStart": 1, "rangeEnd": 10, "deadline": "2099-12-31"}),
                       ("/warehouses", {"name": "Bodega", "branchId": branch["id"]})):
        reply = api.post(path, body, key=key_b)
        if reply.status != 400 or reply.json["code"] != "VALIDATION_ERROR":
            failures.append((path, reply.status, reply.text))
    assert not failures
    assert api.get("/documents", key=key_b).json["total"] == 0
    assert api.get("/cai", key=key_b).json["total"] == 0
    assert len(api.get("/warehouses", key=key_b).json["warehouses"]) == 1


# --- bad input -----------------------------------------------------------------------------------

LINE = {"productId": 1, "quantity": 1, "unitPrice": 100}
DOCUMENT_BODIES = [
    ({}, "type"),
    ({"type": "99"}, "type"),
    ({"type": 1}, "type"),
    ({"businessPartnerId": "1"}, "businessPartnerId"),
    ({"businessPartnerId": 10 ** 13}, "businessPartnerId"),
    ({"businessPartnerId": -1}, "businessPartnerId"),
    ({"businessPartnerId": 1.5}, "businessPartnerId"),
    ({"businessPartnerId": None}, "businessPartnerId"),
    ({"lines": []}, "lines"),
    ({"lines": "x"}, "lines"),
    ({"lines": [LINE] * 501}, "lines"),
    ({"lines": [None]}, "lines[0]"),
    ({"lines": [{**LINE, "quantity": -1}]}, "lines[0].quantity"),
    ({"lines": [{**LINE, "quantity": "abc"}]}, "lines[0].quantity"),
    ({"lines": [{**LINE, "quantity": 10 ** 30}]}, "lines[0].quantity"),
    ({"lines": [{**LINE, "quantity": "1.00001"}]}, "lines[0].quantity"),
    ({"lines": [{k: v for k, v in LINE.items() if k != "quantity"}]}, "lines[0].quantity"),
    ({"lines": [{**LINE, "unitPrice": "1.23456"}]}, "lines[0].unitPrice"),
    ({"lines": [{**LINE, "unitPrice": 10 ** 15}]}, "lines[0].unitPrice"),
    ({"lines": [{**LINE, "unitPrice": -1}]}, "lines[0].unitPrice"),
    ({"lines": [{**LINE, "discount": -1}]}, "lines[0].discount"),
    ({"lines": [{**LINE, "discount": "0.001"}]}, "lines[0].discount"),
    ({"lines": [{**LINE, "taxRate": "abc"}]}, "lines[0].taxRate"),
    ({"lines": [{**LINE, "productId": "1"}]}, "lines[0].productId"),
    ({"lines": [{**LINE, "color": "red"}]}, "lines[0].color"),
    ({"date": "2026-13-45"}, "date"),
    ({"date": 20261102}, "date"),
    ({"dueDate": "tomorrow"}, "dueDate"),
    ({"status": "cancelled"}, "status"),
    ({"capture": "magic"}, "capture"),
    ({"currency": "EUR"}, "currency"),
    ({"warehouseId": 0}, "warehouseId"),
    ({"sourceDocumentId": "1"}, "sourceDocumentId"),
    ({"number": "001-001-01-00000009"}, "number"),
    ({"total": 1}, "total"),
    ({"color": "red"}, "color"),
]


def checked(reply: Any, field: str | None, what: Any, failures: list) -> None:
    """A 4xx JSON answer with a code (and, for a 400 VALIDATION_ERROR, the field named)."""
    try:
        answer = reply.json
    except ValueError:
        answer = None
    if not 400 <= reply.status < 500 or not isinstance(answer, dict) or not answer.get("code"):
        failures.append((what, reply.status, reply.text[:300]))
    elif field is not None and (answer["code"] != "VALIDATION_ERROR" or field not in
                                [d["field"] for d in answer.get("details") or []]):
        failures.append((what, reply.status, reply.text[:300]))


def test_bad_document_bodies_are_json_4xx_naming_the_field(api, table, company_a):
    key = company_a.api_key
    partner = api.post("/business-partners", {"name": "Cliente", "type": "customer"}, key=key).json["id"]
    product = api.post("/products", {"code": "P-1", "name": "Silla", "unitPrice": 100, "cost": 60},
                       key=key).json["id"]
    assert partner == product == 1  # LINE refers to product 1
    valid = {"type": "01", "businessPartnerId": partner, "date": "2026-11-02", "status": "draft", "lines": [LINE]}
    draft = api.post("/documents", valid, key=key)
    assert draft.status == 201, draft.text
    draft_id = draft.json["id"]
    failures: list = []
    for change, field in DOCUMENT_BODIES:
        body = {**valid, **change} if change else {}
        checked(api.post("/documents", body, key=key), field, ("POST", change if len(str(change)) < 200 else field),
                failures)
    for raw in (b"[]", b"\"x\"", b"{", b"{\"type\": \"01\", \"lines\": [{\"quantity\": 1e400}]}",
                b"{\"lines\": [{\"quantity\": 1" + b"0" * 5000 + b"}]}"):
        checked(api.request("POST", "/documents", raw=raw, key=key), None, ("POST raw", raw[:60]), failures)
    updates = [
        ({"lines": [LINE] * 501}, "lines"),
        ({"lines": []}, "lines"),
        ({"lines": [{**LINE, "quantity": -1}]}, "lines[0].quantity"),
        ({"lines": [{**LINE, "unitPrice": "0.00001"}]}, "lines[0].unitPrice"),
        ({"type": "103"}, "type"),
        ({"status": "confirmed"}, "status"),
        ({"businessPartnerId": None}, "businessPartnerId"),
        ({"date": None}, "date"),
        ({"lines": None}, "lines"),
        ({"version": 0}, "version"),
        ({"color": "red"}, "color"),
    ]
    for change, field in updates:
        checked(api.put(f"/documents/{draft_id}", change, key=key), field, ("PUT", field, str(change)[:80]), failures)
    for raw in (b"[]", b"{", b"\"x\""):
        checked(api.request("PUT", f"/documents/{draft_id}", raw=raw, key=key), None, ("PUT raw", raw), failures)
    for path in ("/documents/0", "/documents/abc", "/documents/99999999999999"):
        checked(api.get(path, key=key), None, ("GET", path), failures)
        checked(api.put(path, {"notes": "x"}, key=key), None, ("PUT", path), failures)
    for action, body, field in (("confirm", {"date": "2026-11-05"}, "date"), ("cancel", {"date": "2026-02-30"}, "date"),
                                ("cancel", {"reason": "x" * 201}, "reason"), ("unconfirm", {"why": "x"}, "why"),
                                ("cancel", {"date": 5}, "date")):
        checked(api.post(f"/documents/{draft_id}/{action}", body, key=key), field, (action, body), failures)
    for query in ("type=99", "status=void", "startDate=2026-12-01&endDate=2026-11-01", "limit=1000", "page=0",
                  "businessPartnerId=abc", "businessPartnerId=-1", "cursor=garbage", "startDate=yesterday"):
        checked(api.get(f"/documents?{query}", key=key), None, ("GET /documents", query), failures)
    for query in ("productId=abc", "warehouseId=0", "limit=101"):
        checked(api.get(f"/inventory/stock?{query}", key=key), None, ("GET stock", query), failures)
    for query in ("productId=x", "startDate=2026-12-01&endDate=2026-11-01", "endDate=2026-02-30"):
        checked(api.get(f"/inventory/movements?{query}", key=key), None, ("GET movements", query), failures)
    assert not failures
    listed = api.get("/documents", key=key).json
    assert listed["total"] == 1 and api.get(f"/documents/{draft_id}", key=key).json == draft.json


CAI_BODY = {"cai": CAI, "branchId": 1, "emissionPoint": "001", "documentType": "01", "rangeStart": 1,
            "rangeEnd": 100, "deadline": "2099-12-31"}


def test_bad_fiscal_and_warehouse_bodies_are_json_4xx_naming_the_field(api, company_a):
    key = company_a.api_key
    rng = api.post("/cai", CAI_BODY, key=key)
    assert rng.status == 201, rng.text
    created_branch = api.post("/branch", {"name": "Norte", "code": "002"}, key=key)
    created_warehouse = api.post("/warehouses", {"name": "Norte"}, key=key)
    assert created_branch.status == created_warehouse.status == 201
    omit = object()
    posts = [
        ("/cai", {"cai": omit}, "cai"),
        ("/cai", {"cai": 123}, "cai"),
        ("/cai", {"branchId": "1"}, "branchId"),
        ("/cai", {"branchId": omit}, "branchId"),
        ("/cai", {"emissionPoint": 1}, "emissionPoint"),
        ("/cai", {"documentType": None}, "documentType"),
        ("/cai", {"rangeStart": -1}, "rangeStart"),
        ("/cai", {"rangeStart": 1.5}, "rangeStart"),
        ("/cai", {"rangeEnd": 10 ** 20}, "rangeEnd"),
        ("/cai", {"deadline": "31/12/2099"}, "deadline"),
        ("/cai", {"isActive": "maybe"}, "isActive"),
        ("/cai", {"nextNumber": 5}, "nextNumber"),
        ("/branch", {"name": omit}, "name"),
        ("/branch", {"name": ""}, "name"),
        ("/branch", {"name": "x" * 201}, "name"),
        ("/branch", {"code": omit}, "code"),
        ("/branch", {"code": 3}, "code"),
        ("/branch", {"code": "3"}, "code"),
        ("/branch", {"code": "0003"}, "code"),
        ("/branch", {"code": "ABC"}, "code"),
        ("/branch", {"address": "x" * 100_000}, "address"),
        ("/branch", {"color": "red"}, "color"),
        ("/warehouses", {"name": omit}, "name"),
        ("/warehouses", {"name": ["x"]}, "name"),
        ("/warehouses", {"branchId": "x"}, "branchId"),
        ("/warehouses", {"branchId": 10 ** 13}, "branchId"),
        ("/warehouses", {"branchId": 99}, "branchId"),
        ("/warehouses", {"color": "red"}, "color"),
    ]
    valid = {"/cai": {**CAI_BODY, "emissionPoint": "005"}, "/branch": {"name": "Sur", "code": "003"},
             "/warehouses": {"name": "Sur"}}
    failures: list = []
    for path, change, field in posts:
        body = {k: v for k, v in {**valid[path], **change}.items() if v is not omit}
        checked(api.post(path, body, key=key), field, ("POST", path, field), failures)
    puts = [
        (f"/cai/{rng.json['id']}", {"rangeEnd": "x"}, "rangeEnd"),
        (f"/cai/{rng.json['id']}", {"rangeEnd": None}, "rangeEnd"),
        (f"/cai/{rng.json['id']}", {"rangeStart": 5}, "rangeStart"),
        (f"/cai/{rng.json['id']}", {"documentType": "113"}, "documentType"),
        (f"/cai/{rng.json['id']}", {"deadline": "2026-02-30"}, "deadline"),
        (f"/cai/{rng.json['id']}", {"cai": "nope"}, "cai"),
        (f"/branch/{created_branch.json['id']}", {"code": "004"}, "code"),
        (f"/branch/{created_branch.json['id']}", {"name": ""}, "name"),
        (f"/branch/{created_branch.json['id']}", {"isActive": None}, "isActive"),
        (f"/warehouses/{created_warehouse.json['id']}", {"branchId": 99}, "branchId"),
        (f"/warehouses/{created_warehouse.json['id']}", {"name": None}, "name"),
        (f"/warehouses/{created_warehouse.json['id']}", {"version": "one"}, "version"),
    ]
    for path, change, field in puts:
        checked(api.put(path, change, key=key), field, ("PUT", path, field), failures)
    for path in ("/cai", "/branch", "/warehouses"):
        for raw in (b"[]", b"{", b"1e999"):
            checked(api.request("POST", path, raw=raw, key=key), None, ("POST raw", path, raw), failures)
        checked(api.get(f"{path}/abc", key=key), None, ("GET", path), failures)
        checked(api.put(f"{path}/0", {}, key=key), None, ("PUT", path), failures)
    assert not failures
    assert api.get("/cai", key=key).json["total"] == 1
    assert api.get("/branch", key=key).json["total"] == 2
    assert api.get("/warehouses", key=key).json["total"] == 2
    assert api.get(f"/cai/{rng.json['id']}", key=key).json == rng.json


def test_a_draft_with_cancelled_advances_on_record_is_cancelled_not_deleted(api, table, shop, company_a):
    cash = shop.created("/payments/methods", {"name": "Efectivo"})
    order = shop.document("101")
    advance = shop.api.post(f"/payments/documents/{order['id']}/payments", {"paymentMethodId": cash["id"], "amount": 5},
                            key=shop.key).json
    shop.api.post(f"/payments/documents/{order['id']}/payments/{advance['id']}/cancel", {"reason": "error"},
                  key=shop.key)
    cookie = api.login(company_a.email)
    refused(api.delete(f"/documents/{order['id']}", cookie=cookie, origin=ORIGIN), 400, "DOCUMENT_HAS_PAYMENTS")
    assert shop.action(order["id"], "cancel")["status"] == "cancelled"
