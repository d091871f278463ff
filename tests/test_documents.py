"""Documents end to end: each transition of the spec's table with the stock, journal entry,
partner balance, number and events it must leave behind."""
from __future__ import annotations

from decimal import Decimal

import pytest

from chalicelib.store import keys
from tests.documents_support import Shop, outbox_payloads
from tests.support import ORIGIN, walk_cursor

D = Decimal


@pytest.fixture
def shop(api, company_a) -> Shop:
    return Shop(api, company_a)


def events(table, company_id: int, document_id: int) -> list[dict]:
    return [payload for payload in outbox_payloads(table, company_id) if payload["resourceType"] == "document"
            and int(payload["resourceId"]) == document_id]


def test_sales_invoice_is_confirmed_on_creation_with_number_stock_entry_balance_and_events(shop, table):
    shop.document("103", [(shop.product, 10, 50)])
    invoice = shop.document("01", [(shop.product, 2, 100), (shop.service, 1, 50)])

    assert invoice["status"] == "confirmed"
    assert invoice["number"] == "001-001-01-00000001"
    assert invoice["cai"]["cai"] == shop.cai_range["cai"]
    assert invoice["cai"]["rangeEnd"] == "001-001-01-00001000"
    assert (D(str(invoice["subtotal"])), D(str(invoice["taxTotal"])), D(str(invoice["total"]))) == (
        D("250.00"), D("37.50"), D("287.50"))
    assert D(str(invoice["pending"])) == D("287.50")
    assert shop.stock() == 8  # the service line moves nothing
    assert shop.entry_lines(invoice["journalEntryId"]) == {
        # cost of 2 chairs at their average cost 50 (the 10 bought at 50), not the reference cost 60
        "110201": (D("287.50"), 0), "5101": (D("100.00"), 0),
        "410101": (0, D("250.00")), "210201": (0, D("37.50")), "110501": (0, D("100.00"))}
    assert D(str(shop.partner(shop.customer)["receivableBalance"])) == D("287.50")
    entry = shop.api.get(f"/journal-entries/{invoice['journalEntryId']}", key=shop.key).json
    assert entry["entryType"] == "automatic" and entry["status"] == "posted"
    assert entry["source"] == {"type": "document", "id": invoice["id"], "documentType": "01"}

    payloads = events(table, shop.company.company_id, invoice["id"])
    assert sorted(p["event"] for p in payloads) == ["document.confirmed", "document.created"]
    for payload in payloads:
        assert payload["data"] == {"IdFactura": invoice["id"], "type": "01", "number": "00100101" + "00000001",
                                   "total": D("287.50"), "businessPartnerId": shop.customer, "isConfirmed": True,
                                   "codigoGeneracion": None}
        assert payload["resourceId"] == invoice["id"]


def test_draft_invoice_moves_nothing_until_confirmed(shop, table):
    shop.document("103", [(shop.product, 5, 50)])
    draft = shop.document("01", [(shop.product, 1, 100)], status="draft")
    assert draft["status"] == "draft"
    assert draft["number"] is None and draft["journalEntryId"] is None
    assert D(str(draft["pending"])) == 0
    assert shop.stock() == 5
    assert D(str(shop.partner(shop.customer)["receivableBalance"])) == 0
    assert [p["event"] for p in events(table, shop.company.company_id, draft["id"])] == ["document.created"]

    edited = shop.api.put(f"/documents/{draft['id']}", {"lines": [{"productId": shop.product, "quantity": 3,
                                                                    "unitPrice": 90}]}, key=shop.key)
    assert edited.status == 200, edited.text
    assert D(str(edited.json["total"])) == D("310.50")
    assert edited.json["version"] == 2

    confirmed = shop.action(draft["id"], "confirm")
    assert confirmed["status"] == "confirmed"
    assert confirmed["number"] == "001-001-01-00000001"
    assert shop.stock() == 2
    assert D(str(shop.partner(shop.customer)["receivableBalance"])) == D("310.50")
    confirmed_events = [p for p in events(table, shop.company.company_id, draft["id"])
                        if p["event"] == "document.confirmed"]
    assert len(confirmed_events) == 1 and confirmed_events[0]["data"]["isConfirmed"] is True
    assert shop.api.put(f"/documents/{draft['id']}", {"notes": "x"}, key=shop.key).status == 403


def test_purchase_invoice_is_auto_confirmed_with_inventory_tax_and_payable(shop, table):
    purchase = shop.document("103", [(shop.product, 4, 50), (None, 1, 100)])
    assert purchase["status"] == "confirmed"
    assert purchase["number"] == "001-001-94-00000001"
    assert shop.stock() == 4
    assert shop.entry_lines(purchase["journalEntryId"]) == {
        "110501": (D("200.00"), 0), "5102": (D("100.00"), 0), "110401": (D("30.00"), 0), "210101": (0, D("330.00"))}
    assert D(str(shop.partner(shop.supplier)["payableBalance"])) == D("330.00")
    assert sorted(p["event"] for p in events(table, shop.company.company_id, purchase["id"])) == [
        "document.confirmed", "document.created"]


def test_automatic_capture_defers_entry_and_stock_until_confirmation(shop):
    captured = shop.document("103", [(shop.product, 2, 50)], capture="automatic")
    assert captured["status"] == "draft" and captured["journalEntryId"] is None
    assert shop.stock() == 0
    assert shop.balance("210101") == 0
    confirmed = shop.action(captured["id"], "confirm")
    assert confirmed["journalEntryId"] is not None
    assert shop.stock() == 2
    assert shop.balance("210101") == D("115.00")


def test_unconfirm_purchase_reverses_stock_entry_and_balance_then_reconfirm_keeps_number(api, shop, company_a):
    purchase = shop.document("103", [(shop.product, 4, 50)])
    draft = shop.action(purchase["id"], "unconfirm")
    assert draft["status"] == "draft"
    assert draft["number"] == purchase["number"]
    assert draft["journalEntryId"] is None and len(draft["reversalEntryIds"]) == 1
    assert shop.stock() == 0
    assert D(str(shop.partner(shop.supplier)["payableBalance"])) == 0
    assert shop.balance("210101") == 0 and shop.balance("110501") == 0
    original = api.get(f"/journal-entries/{purchase['journalEntryId']}", key=shop.key).json
    assert original["status"] == "reversed"
    reversal = api.get(f"/journal-entries/{draft['reversalEntryIds'][0]}", key=shop.key).json
    assert reversal["entryType"] == "reversal" and reversal["reversalOf"] == purchase["journalEntryId"]

    edited = api.put(f"/documents/{purchase['id']}", {"lines": [{"productId": shop.product, "quantity": 6,
                                                                  "unitPrice": 50}]}, key=shop.key)
    assert edited.status == 200, edited.text
    again = shop.action(purchase["id"], "confirm")
    assert again["number"] == purchase["number"]
    assert shop.stock() == 6
    assert shop.balance("210101") == D("345.00")

    # only an unconfirmed one can be deleted, from the web app
    cookie = api.login(company_a.email)
    refused = api.delete(f"/documents/{purchase['id']}", cookie=cookie, origin=ORIGIN)
    assert refused.status == 400 and refused.json["code"] == "DOCUMENT_NOT_DELETABLE"
    shop.action(purchase["id"], "unconfirm")
    deleted = api.delete(f"/documents/{purchase['id']}", cookie=cookie, origin=ORIGIN)
    assert deleted.status == 200, deleted.text
    assert api.get(f"/documents/{purchase['id']}", key=shop.key).status == 404
    listed = api.get("/documents", key=shop.key).json
    assert listed["total"] == 0 and listed["documents"] == []
    assert shop.stock() == 0 and shop.balance("210101") == 0


def test_unconfirm_refuses_when_the_goods_were_sold(shop):
    purchase = shop.document("103", [(shop.product, 2, 50)])
    shop.document("01", [(shop.product, 2, 100)])
    refused = shop.action(purchase["id"], "unconfirm", expect=400)
    assert refused["code"] == "INSUFFICIENT_STOCK"
    assert shop.get(purchase["id"])["status"] == "confirmed"


def test_sales_credit_note_takes_goods_back_and_cancelling_it_reverses_everything(shop, table):
    shop.document("103", [(shop.product, 5, 50)])
    invoice = shop.document("01", [(shop.product, 2, 100)])
    note = shop.document("06", [(shop.product, 1, 100)], sourceDocumentId=invoice["id"])
    assert note["status"] == "confirmed" and note["number"] == "001-001-06-00000001"
    assert shop.stock() == 4
    # the chair comes back at the cost it left at: 50, the 5 bought at 50 (not the reference cost 60)
    assert shop.entry_lines(note["journalEntryId"]) == {
        "4102": (D("100.00"), 0), "210201": (D("15.00"), 0), "110501": (D("50.00"), 0),
        "110201": (0, D("115.00")), "5101": (0, D("50.00"))}
    assert D(str(shop.partner(shop.customer)["receivableBalance"])) == D("115.00")  # 230 - 115

    cancelled = shop.action(note["id"], "cancel", {"reason": "emitida por error"})
    assert cancelled["status"] == "cancelled" and D(str(cancelled["pending"])) == 0
    assert cancelled["cancelReason"] == "emitida por error"
    assert shop.stock() == 3
    assert D(str(shop.partner(shop.customer)["receivableBalance"])) == D("230.00")
    assert shop.balance("110201") == D("230.00") and shop.balance("4102") == 0
    assert [p["event"] for p in events(table, shop.company.company_id, note["id"])].count("document.cancelled") == 1
    again = shop.action(note["id"], "cancel", expect=400)
    assert again["code"] == "INVALID_DOCUMENT_STATUS"


@pytest.mark.parametrize("doc_type", ["07", "104", "105", "106"])
def test_each_cancellable_type_cancels_back_to_zero(shop, doc_type):
    purchase = shop.document("103", [(shop.product, 5, 50)])
    invoice = shop.document("01", [(shop.product, 1, 100)])
    before_stock = shop.stock()
    before = {code: shop.balance(code) for code in ("110201", "210101", "210102", "110501", "5101", "5104")}
    source = {"07": invoice, "105": purchase, "106": purchase}.get(doc_type)
    fields = {"sourceDocumentId": source["id"]} if source else {}
    document = shop.document(doc_type, [(shop.product, 1, 40)], **fields)
    assert document["journalEntryId"] is not None
    shop.action(document["id"], "cancel")
    assert shop.stock() == before_stock
    assert {code: shop.balance(code) for code in before} == before


@pytest.mark.parametrize("doc_type", ["01", "113", "103", "11", "100", "112", "05"])
def test_other_types_cannot_be_cancelled(shop, doc_type):
    shop.document("103", [(shop.product, 5, 50)])
    document = shop.document(doc_type, [(shop.product, 1, 10)], status="confirmed")
    refused = shop.action(document["id"], "cancel", expect=400)
    assert refused["code"] == "DOCUMENT_NOT_CANCELLABLE"


def test_line_amounts_round_half_up_per_line_with_discounts_and_rates(shop):
    document = shop.api.post("/documents", {
        "type": "01", "businessPartnerId": shop.customer, "date": "2026-11-02", "lines": [
            {"description": "a", "quantity": 3, "unitPrice": 0.335, "taxRate": 0.15},        # 1.005 -> 1.01, tax 0.15
            {"description": "b", "quantity": 1, "unitPrice": 10, "discount": 0.5, "taxRate": 0.18},  # 9.50, 1.71
            {"description": "c", "quantity": 2.5, "unitPrice": 4, "taxRate": 0},             # exempt 10.00
        ]}, key=shop.key)
    assert document.status == 201, document.text
    body = document.json
    assert [(D(str(line["subtotal"])), D(str(line["tax"]))) for line in body["lines"]] == [
        (D("1.01"), D("0.15")), (D("9.50"), D("1.71")), (D("10.00"), D("0.00"))]
    assert (D(str(body["subtotal"])), D(str(body["taxTotal"])), D(str(body["total"]))) == (
        D("20.51"), D("1.86"), D("22.37"))
    assert {rate: D(str(amount)) for rate, amount in body["taxBases"].items()} == {
        "0.15": D("1.01"), "0.18": D("9.50"), "0": D("10.00")}


def test_quotes_start_as_drafts_and_confirmed_ones_move_nothing(shop):
    quote = shop.document("100", [(shop.product, 1, 100)])
    assert quote["status"] == "draft"
    confirmed = shop.action(quote["id"], "confirm")
    assert confirmed["number"] == "001-001-91-00000001"
    assert confirmed["journalEntryId"] is None and D(str(confirmed["pending"])) == 0
    assert shop.stock() == 0
    assert D(str(shop.partner(shop.customer)["receivableBalance"])) == 0


def test_withholding_certificate_is_owed_but_posts_nothing(shop):
    certificate = shop.document("05", [(None, 1, 150)])  # a line without a product is exempt unless told
    assert certificate["status"] == "confirmed"
    assert D(str(certificate["pending"])) == D("150.00") and certificate["journalEntryId"] is None


def test_a_delivery_note_moves_nothing_and_its_invoice_moves_the_goods(shop):
    shop.document("103", [(shop.product, 5, 50)])
    delivery = shop.document("112", [(shop.product, 2, 100)])
    assert delivery["status"] == "confirmed" and delivery["journalEntryId"] is None
    assert shop.stock() == 5
    invoice = shop.document("01", [(shop.product, 2, 100)], sourceDocumentId=delivery["id"])
    assert shop.stock() == 3
    assert set(shop.entry_lines(invoice["journalEntryId"])) == {"110201", "410101", "210201", "5101", "110501"}


def test_expense_posts_to_its_own_account(shop):
    expense = shop.api.post("/documents", {"type": "11", "businessPartnerId": shop.supplier, "date": "2026-11-02",
                                           "lines": [{"description": "Alquiler", "quantity": 1, "unitPrice": 200,
                                                      "taxRate": 0.15}]}, key=shop.key)
    assert expense.status == 201, expense.text
    assert shop.entry_lines(expense.json["journalEntryId"]) == {
        "6199": (D("200.00"), 0), "110401": (D("30.00"), 0), "210101": (0, D("230.00"))}


def test_list_filters_and_exact_totals(shop):
    shop.document("103", [(shop.product, 10, 50)], date="2026-10-05")
    for day in ("2026-11-01", "2026-11-02", "2026-11-03"):
        shop.document("01", [(shop.product, 1, 100)], date=day)
    shop.document("01", [(shop.product, 1, 100)], date="2026-11-04", status="draft")
    other = shop.created("/business-partners", {"name": "Cliente Dos", "type": "customer"})["id"]
    shop.document("01", [(shop.service, 1, 100)], date="2026-11-05", partner=other)

    def listed(query: str) -> dict:
        reply = shop.api.get(f"/documents?{query}", key=shop.key)
        assert reply.status == 200, reply.text
        return reply.json

    everything = listed("limit=2")
    assert everything["total"] == 6 and len(everything["documents"]) == 2
    assert [d["date"] for d in everything["documents"]] == ["2026-11-05", "2026-11-04"]
    assert set(everything["documents"][0]) == {"id", "number", "type", "businessPartnerId", "total", "status",
                                               "createdAt", "date", "pending", "currency", "exchangeRate",
                                               "baseTotal", "basePending", "dueDate", "paymentStatus", "daysOverdue", "dte"}
    assert listed("type=01")["total"] == 5
    assert listed("type=01&status=confirmed")["total"] == 4
    assert listed("status=draft")["total"] == 1
    assert listed("startDate=2026-11-02&endDate=2026-11-04")["total"] == 3
    assert [d["date"] for d in listed("startDate=2026-11-02&endDate=2026-11-04")["documents"]] == [
        "2026-11-04", "2026-11-03", "2026-11-02"]
    by_partner = listed(f"businessPartnerId={shop.customer}&status=confirmed")
    assert by_partner["total"] == 3 and {d["businessPartnerId"] for d in by_partner["documents"]} == {shop.customer}
    assert listed(f"businessPartnerId={other}")["total"] == 1
    page2 = listed("limit=4&page=2")
    assert len(page2["documents"]) == 2 and page2["total"] == 6

    seen = [d["id"] for d in walk_cursor(lambda cursor: listed("limit=2" + (f"&cursor={cursor}" if cursor else "")),
                                         "documents")]
    assert len(seen) == len(set(seen)) == 6


def test_numbers_follow_the_range_and_the_next_range_takes_over(shop, table):
    shop.api.put(f"/cai/{shop.cai_range['id']}", {"rangeEnd": 2}, key=shop.key)
    first = shop.document("01", [(shop.service, 1, 10)])
    second = shop.document("01", [(shop.service, 1, 10)])
    exhausted = shop.document("01", [(shop.service, 1, 10)], expect=400)
    assert exhausted["code"] == "CAI_EXHAUSTED"
    assert [first["number"], second["number"]] == ["001-001-01-00000001", "001-001-01-00000002"]
    shop.created("/cai", {"cai": "AAAAAA-BBBBBB-CCCCCC-DDDDDD-EEEEEE-FF", "branchId": 1, "emissionPoint": "001",
                          "documentType": "01", "rangeStart": 101, "rangeEnd": 200, "deadline": "2099-12-31"})
    third = shop.document("01", [(shop.service, 1, 10)])
    assert third["number"] == "001-001-01-00000101"
    assert third["cai"]["cai"] == "AAAAAA-BBBBBB-CCCCCC-DDDDDD-EEEEEE-FF"
    ranges = {r["id"]: r for r in shop.api.get("/cai", key=shop.key).json["caiRanges"]}
    assert ranges[shop.cai_range["id"]]["remaining"] == 0 and ranges[shop.cai_range["id"]]["nextNumber"] == 3


def test_branch_emission_point_and_establishment_shape_the_number(shop):
    branch = shop.created("/branch", {"name": "Sucursal San Pedro", "code": "002"})
    shop.created("/cai", {"cai": shop.cai_range["cai"], "branchId": branch["id"], "emissionPoint": "003",
                          "documentType": "01", "rangeStart": 51, "rangeEnd": 60, "deadline": "2099-12-31"})
    invoice = shop.document("01", [(shop.service, 1, 10)], branchId=branch["id"])
    assert invoice["number"] == "002-003-01-00000051"
    assert invoice["cai"]["rangeStart"] == "002-003-01-00000051"


def test_stock_and_movements_by_warehouse(shop):
    second = shop.created("/warehouses", {"name": "Bodega norte", "branchId": 1})
    shop.document("103", [(shop.product, 5, 50)])
    shop.document("103", [(shop.product, 3, 50)], warehouseId=second["id"])
    shop.document("01", [(shop.product, 2, 100)], warehouseId=second["id"])
    assert shop.stock(warehouse=1) == 5 and shop.stock(warehouse=second["id"]) == 1
    everything = shop.api.get(f"/inventory/stock?productId={shop.product}", key=shop.key).json
    assert {(s["warehouseId"], D(str(s["quantity"]))) for s in everything["stock"]} == {(1, 5), (second["id"], 1)}
    movements = shop.api.get(f"/inventory/movements?productId={shop.product}", key=shop.key).json
    assert movements["total"] == 3
    assert sum(D(str(m["quantity"])) for m in movements["movements"]) == 6


def test_a_failed_document_leaves_no_trace(shop, table):
    shop.document("01", [(shop.product, 1, 100)], expect=400)  # no stock
    assert shop.api.get("/documents", key=shop.key).json["total"] == 0
    ranges = shop.api.get("/cai", key=shop.key).json["caiRanges"]
    assert ranges[0]["nextNumber"] == 1
    items, _ = table.query(partition=("PK", f"C#{shop.company.company_id}#EVT"), consistent=True)
    assert not [i for i in items if i["payload"]["resourceType"] == "document"]
    assert table.get(keys.day_counts(shop.company.company_id, "2026-11-02")) is None


def test_credit_notes_together_never_credit_more_than_their_invoice(shop):
    invoice = shop.document("01", [(shop.service, 2, 100)])  # 230.00
    shop.document("06", [(shop.service, 1, 100)], sourceDocumentId=invoice["id"])  # 115.00
    too_much = shop.document("06", [(shop.service, 1, 101)], sourceDocumentId=invoice["id"], expect=400)
    assert too_much["code"] == "VALIDATION_ERROR" and too_much["details"][0]["field"] == "lines"
    # a draft note is checked again when it is confirmed, inside the transaction
    draft = shop.document("06", [(shop.service, 1, 100)], sourceDocumentId=invoice["id"], status="draft")
    shop.document("06", [(shop.service, 1, 50)], sourceDocumentId=invoice["id"])  # 57.50: 172.50 credited
    refused = shop.action(draft["id"], "confirm", expect=400)
    assert refused["code"] == "VALIDATION_ERROR"
    assert shop.get(draft["id"])["status"] == "draft"
    assert D(str(shop.partner(shop.customer)["receivableBalance"])) == D("57.50")


def test_a_purchase_with_credit_notes_cannot_be_unconfirmed_until_they_are_cancelled(shop):
    purchase = shop.document("103", [(shop.product, 4, 50)])
    note = shop.document("105", [(shop.product, 1, 50)], sourceDocumentId=purchase["id"])
    assert shop.stock() == 3
    refused = shop.action(purchase["id"], "unconfirm", expect=400)
    assert refused["code"] == "DOCUMENT_HAS_CREDIT_NOTES"
    shop.action(note["id"], "cancel")
    assert shop.action(purchase["id"], "unconfirm")["status"] == "draft"
    assert shop.stock() == 0 and shop.balance("210101") == 0


def test_open_sales_documents_are_listed_under_their_customer_by_due_date(shop, table):
    invoice = shop.document("01", [(shop.service, 1, 100)], dueDate="2026-12-02")
    debit_note = shop.document("07", [(shop.service, 1, 10)], sourceDocumentId=invoice["id"], dueDate="2026-11-20")
    partition = keys.open_documents_partition(shop.company.company_id, shop.customer, keys.RECEIVABLE_SIDE)

    def open_items() -> list[tuple[str, int]]:
        items, _ = table.query(partition=("PK", partition), consistent=True)
        return [(item["dueDate"], int(item["documentId"])) for item in items]

    assert open_items() == [("2026-11-20", debit_note["id"]), ("2026-12-02", invoice["id"])]
    shop.action(debit_note["id"], "cancel")
    assert open_items() == [("2026-12-02", invoice["id"])]


def test_a_credit_note_is_checked_against_its_source_when_it_is_confirmed(shop):
    purchase = shop.document("103", [(shop.service, 1, 100)])
    note = shop.document("105", [(shop.service, 1, 90)], sourceDocumentId=purchase["id"], capture="automatic")
    shop.action(purchase["id"], "unconfirm")
    # the source is a draft again: its notes wait
    assert shop.action(note["id"], "confirm", expect=400)["details"][0]["field"] == "sourceDocumentId"
    shop.api.put(f"/documents/{purchase['id']}", {"lines": [{"productId": shop.service, "quantity": 1,
                                                             "unitPrice": 10}]}, key=shop.key)
    shop.action(purchase["id"], "confirm")
    refused = shop.action(note["id"], "confirm", expect=400)
    assert refused["code"] == "VALIDATION_ERROR" and refused["details"][0]["field"] == "lines"
    assert D(str(shop.partner(shop.supplier)["payableBalance"])) == D("11.50")


def test_an_import_with_credit_notes_cannot_be_cancelled(shop):
    imported = shop.document("104", [(shop.product, 4, 50)])
    note = shop.document("105", [(shop.product, 1, 50)], sourceDocumentId=imported["id"])
    assert shop.action(imported["id"], "cancel", expect=400)["code"] == "DOCUMENT_HAS_CREDIT_NOTES"
    shop.action(note["id"], "cancel")
    assert shop.action(imported["id"], "cancel")["status"] == "cancelled"
    assert shop.stock() == 0 and D(str(shop.partner(shop.supplier)["payableBalance"])) == 0


def test_a_closed_period_refuses_stock_and_balances_even_without_an_entry(shop):
    shop.document("103", [(shop.product, 5, 0)], date="2026-09-10")  # free goods: no amounts to post
    period = shop.created("/accounting-periods", {"name": "Octubre", "startDate": "2026-10-01",
                                                  "endDate": "2026-10-31"})
    assert shop.api.post(f"/accounting-periods/{period['id']}/close", key=shop.key).status == 200
    zero_cost = shop.created("/products", {"code": "P-0", "name": "Muestra", "cost": 0})["id"]
    shop.document("103", [(zero_cost, 5, 0)], date="2026-09-15")
    refused = shop.document("01", [(zero_cost, 1, 0)], date="2026-10-15", expect=400)
    assert refused["code"] == "PERIOD_CLOSED"
    quote = shop.document("100", [(shop.product, 1, 100)], date="2026-10-15", status="confirmed")
    assert quote["status"] == "confirmed"  # a quote touches neither stock nor the books
    assert shop.stock(zero_cost) == 5


def test_a_series_with_cai_ranges_never_falls_back_to_its_sequence(shop):
    purchase_range = shop.created("/cai", {"cai": shop.cai_range["cai"], "branchId": 1, "emissionPoint": "001",
                                           "documentType": "103", "rangeStart": 1, "rangeEnd": 10,
                                           "deadline": "2099-12-31"})
    first = shop.document("103", [(shop.service, 1, 10)])
    assert first["number"] == "001-001-94-00000001"
    shop.api.put(f"/cai/{purchase_range['id']}", {"isActive": False}, key=shop.key)
    assert shop.document("103", [(shop.service, 1, 10)], expect=400)["code"] == "CAI_MISSING"


def test_a_range_cannot_reissue_numbers_the_sequence_already_gave(shop):
    shop.document("11", [(None, 1, 10)])  # 001-001-98-00000001 from the sequence
    refused = shop.api.post("/cai", {"cai": shop.cai_range["cai"], "branchId": 1, "emissionPoint": "001",
                                     "documentType": "11", "rangeStart": 1, "rangeEnd": 10,
                                     "deadline": "2099-12-31"}, key=shop.key)
    assert refused.status == 409 and refused.json["code"] == "CAI_RANGE_OVERLAP"
    shop.created("/cai", {"cai": shop.cai_range["cai"], "branchId": 1, "emissionPoint": "001", "documentType": "11",
                          "rangeStart": 2, "rangeEnd": 10, "deadline": "2099-12-31"})
    assert shop.document("11", [(None, 1, 10)])["number"] == "001-001-98-00000002"


def many_products(shop: Shop, count: int, cost: int = 5) -> list[int]:
    shop.api.put(f"/companies/{shop.company.company_id}", {"allowNegativeStock": True}, key=shop.key)
    return [shop.created("/products", {"code": f"M-{n}", "name": f"Producto {n}", "cost": cost})["id"]
            for n in range(count)]


def test_a_document_accepted_can_always_be_undone_and_a_draft_accepted_confirmed(shop):
    products = many_products(shop, 40)
    for size in range(40, 0, -1):  # the largest import the transaction takes
        reply = shop.api.post("/documents", {"type": "104", "businessPartnerId": shop.supplier, "date": "2026-11-02",
                                             "lines": [{"productId": p, "quantity": 1, "unitPrice": 10}
                                                       for p in products[:size]]}, key=shop.key)
        if reply.status == 201:
            break
        assert reply.json["code"] == "DOCUMENT_TOO_LARGE"
    assert size > 30
    # cancelled in another year: a second day count, period check and balance month
    assert shop.action(reply.json["id"], "cancel", {"date": "2027-01-04"})["status"] == "cancelled"
    for size in range(40, 0, -1):  # the largest sales draft
        draft = shop.api.post("/documents", {"type": "01", "businessPartnerId": shop.customer, "date": "2026-11-02",
                                             "status": "draft", "lines": [{"productId": p, "quantity": 1, "unitPrice": 10}
                                                                          for p in products[:size]]}, key=shop.key)
        if draft.status == 201:
            break
    assert shop.action(draft.json["id"], "confirm")["status"] == "confirmed"


def test_records_beyond_dynamodb_item_size_are_refused_not_failed(shop):
    lines = [{"description": "𝄞" * 300, "quantity": 1, "unitPrice": 1} for _ in range(500)]  # 4 bytes each
    reply = shop.api.post("/documents", {"type": "11", "businessPartnerId": shop.supplier, "lines": lines},
                          key=shop.key)
    assert reply.status == 400 and reply.json["code"] == "DOCUMENT_TOO_LARGE"


def test_cost_of_sales_stays_within_the_money_range(shop):
    product = many_products(shop, 1, cost=1_000_000)[0]
    refused = shop.document("01", [(product, 10_000_000, "0.0001")], expect=400)
    assert refused["details"][0]["field"] == "lines[0].quantity"


def test_a_document_without_date_is_dated_where_the_company_is(shop, monkeypatch):
    import datetime as dt

    from chalicelib import clock
    monkeypatch.setattr(clock, "now", lambda: dt.datetime(2026, 12, 1, 1, 0, tzinfo=dt.timezone.utc))
    reply = shop.api.post("/documents", {"type": "11", "businessPartnerId": shop.supplier,
                                         "lines": [{"description": "Luz", "quantity": 1, "unitPrice": 10}]},
                          key=shop.key)
    assert reply.status == 201 and reply.json["date"] == "2026-11-30"  # 7 p.m. in Tegucigalpa


def test_the_default_branch_and_warehouse_stay_active(shop):
    for path in ("/branch/1", "/warehouses/1"):
        refused = shop.api.put(path, {"isActive": False}, key=shop.key)
        assert refused.status == 400 and refused.json["details"][0]["field"] == "isActive"
    other = shop.created("/warehouses", {"name": "Bodega norte"})
    assert shop.api.put(f"/warehouses/{other['id']}", {"isActive": False}, key=shop.key).status == 200
