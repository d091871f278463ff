"""Stock at weighted average cost, worked by hand: purchases and imports (with landed costs) bring
goods in at their value, sales and purchase returns take them out at the average at that moment,
sales returns bring them back at the cost they left at, counts and damage adjust them against a
gain or a loss, an opening stock against opening equity, transfers move them with no entry; the
valuation at any date equals the inventory account. Every figure is worked out in the comments."""
from __future__ import annotations

from decimal import Decimal as D
from typing import Any

import pytest

from tests.documents_support import Shop, outbox_payloads
from tests.support import make_company


@pytest.fixture
def shop(api, company_a) -> Shop:
    return Shop(api, company_a, inventory=True)


def product(shop: Shop, product_id: int | None = None) -> dict[str, Any]:
    reply = shop.api.get(f"/products/{product_id or shop.product}", key=shop.key)
    assert reply.status == 200, reply.text
    return reply.json


def costs(shop: Shop, product_id: int | None = None) -> tuple[D, D, D]:
    """(on hand, value, average cost) of a product across the warehouses."""
    item = product(shop, product_id)
    return D(str(item["stockQuantity"])), D(str(item["stockValue"])), D(str(item["averageCost"]))


def adjust(shop: Shop, expect: int = 201, **body: Any) -> Any:
    reply = shop.api.post("/inventory/adjustments", {"warehouseId": 1, **body}, key=shop.key)
    assert reply.status == expect, reply.text
    return reply.json


def transfer(shop: Shop, expect: int = 201, **body: Any) -> Any:
    reply = shop.api.post("/inventory/transfers", body, key=shop.key)
    assert reply.status == expect, reply.text
    return reply.json


def valuation(shop: Shop, date: str) -> Any:
    reply = shop.api.get(f"/inventory/valuation?date={date}", key=shop.key)
    assert reply.status == 200, reply.text
    return reply.json


def rows(report: Any) -> list[tuple]:
    return [(item["productId"], item["warehouseId"], D(str(item["quantity"])), D(str(item["averageCost"])),
             D(str(item["value"]))) for item in report["items"]]


def entry_sums(shop: Shop, entry_id: int) -> dict[str, tuple[D, D]]:
    """code -> (debits, credits) of one journal entry, lines of one account added up."""
    entry = shop.api.get(f"/journal-entries/{entry_id}", key=shop.key).json
    codes = {account_id: code for code, account_id in shop.books.accounts.items()}
    sums: dict[str, tuple[D, D]] = {}
    for line in entry["lines"]:
        debit, credit = sums.get(codes[line["chartOfAccountId"]], (D(0), D(0)))
        sums[codes[line["chartOfAccountId"]]] = (debit + D(str(line["debit"])), credit + D(str(line["credit"])))
    return sums


def balance_at(shop: Shop, code: str, date: str) -> D:
    listed = {row["code"]: row for row in shop.books.trial_balance(date)["accounts"]}
    return D(str(listed[code]["balance"])) if code in listed else D(0)


def test_a_month_of_a_hardware_shop_worked_by_hand(shop, table):
    chair = shop.product  # reference cost 60: it no longer decides the cost of sales
    second = shop.created("/warehouses", {"name": "Bodega Norte"})["id"]

    shop.document("103", [(chair, 10, 100)], date="2026-11-02")  # 10 x 100 = 1,000
    shop.document("103", [(chair, 10, 200)], date="2026-11-05")  # 10 x 200 = 2,000
    # 20 units worth 3,000: the average is 3,000 / 20 = 150
    assert costs(shop) == (20, D("3000.00"), D("150.0000"))

    sale = shop.document("01", [(chair, 5, 300)], date="2026-11-10")
    # 5 at the average 150 = 750 to cost of sales; 15 units worth 3,000 - 750 = 2,250 are left
    assert shop.entry_lines(sale["journalEntryId"])["5101"] == (D("750.00"), 0)
    assert shop.entry_lines(sale["journalEntryId"])["110501"] == (0, D("750.00"))
    assert costs(shop) == (15, D("2250.00"), D("150.0000"))
    assert shop.balance("110501") == D("2250.00")

    shop.document("103", [(chair, 4, 200)], date="2026-11-12")  # 4 x 200 = 800
    # 19 units worth 2,250 + 800 = 3,050: the average is now 3,050 / 19 = 160.526315...
    assert costs(shop) == (19, D("3050.00"), D("160.5263"))

    note = shop.document("06", [(chair, 1, 300)], sourceDocumentId=sale["id"], date="2026-11-14")
    # the returned chair comes back at the 150 it left at, not today's 160.53: 20 units worth
    # 3,050 + 150 = 3,200, average 160; cost of sales 750 - 150 = 600
    assert shop.entry_lines(note["journalEntryId"])["110501"] == (D("150.00"), 0)
    assert shop.entry_lines(note["journalEntryId"])["5101"] == (0, D("150.00"))
    assert costs(shop) == (20, D("3200.00"), D("160.0000"))
    assert shop.balance("5101") == D("600.00")

    count = adjust(shop, date="2026-11-20", reason="count", lines=[{"productId": chair, "countedQuantity": 18}])
    # the count finds 18 of the 20: 2 missing at the average 160 = 320 lost; 18 worth 2,880
    assert count["lines"] == [{"productId": chair, "quantity": -2, "countedQuantity": 18, "previousQuantity": 20,
                               "unitCost": 160, "value": -320}]
    assert count["totalValue"] == -320
    assert shop.entry_lines(count["journalEntryId"]) == {"5106": (D("320.00"), 0), "110501": (0, D("320.00"))}
    assert costs(shop) == (18, D("2880.00"), D("160.0000"))

    moved = transfer(shop, fromWarehouseId=1, toWarehouseId=second, date="2026-11-25",
                     lines=[{"productId": chair, "quantity": 8}])
    assert moved["lines"] == [{"productId": chair, "quantity": 8, "unitCost": 160}]
    # no entry: the company holds the same 18 chairs at the same 160
    assert costs(shop) == (18, D("2880.00"), D("160.0000"))
    assert shop.stock(chair, 1) == 10 and shop.stock(chair, second) == 8

    month_end = valuation(shop, "2026-11-30")
    # 10 x 160 = 1,600 in the first warehouse, 8 x 160 = 1,280 in the second: 2,880, the account
    assert rows(month_end) == [(chair, 1, 10, D("160.0000"), D("1600.00")),
                               (chair, second, 8, D("160.0000"), D("1280.00"))]
    assert D(str(month_end["totalValue"])) == D("2880.00") == balance_at(shop, "110501", "2026-11-30")
    assert D(str(month_end["accountsBalance"])) == D("2880.00") and D(str(month_end["difference"])) == 0
    assert [a["code"] for a in month_end["inventoryAccounts"]] == ["110501"]
    # the day of the sale: 15 chairs worth 2,250, all in the first warehouse
    assert rows(valuation(shop, "2026-11-10")) == [(chair, 1, 15, D("150.0000"), D("2250.00"))]
    assert balance_at(shop, "110501", "2026-11-10") == D("2250.00")
    # before the first purchase: nothing
    assert valuation(shop, "2026-11-01")["items"] == [] and balance_at(shop, "110501", "2026-11-01") == 0

    kardex = shop.api.get(f"/inventory/movements?productId={chair}&limit=100", key=shop.key).json["movements"]
    assert [(m["date"], m["kind"], D(str(m["quantity"])), D(str(m["unitCost"])), D(str(m["value"])))
            for m in kardex] == [
        ("2026-11-02", "confirmation", 10, 100, D("1000.00")), ("2026-11-05", "confirmation", 10, 200, D("2000.00")),
        ("2026-11-10", "confirmation", -5, 150, D("-750.00")), ("2026-11-12", "confirmation", 4, 200, D("800.00")),
        ("2026-11-14", "confirmation", 1, 150, D("150.00")), ("2026-11-20", "adjustment", -2, 160, D("-320.00")),
        ("2026-11-25", "transfer", -8, 160, D("-1280.00")), ("2026-11-25", "transfer", 8, 160, D("1280.00"))]
    assert sum(D(str(m["value"])) for m in kardex) == D("2880.00")
    assert shop.books.trial_balance()["totalDebit"] == shop.books.trial_balance()["totalCredit"]


def test_an_opening_stock_for_a_new_company(api, table):
    new = make_company(table, "Ferretería Nueva", "owner@nueva.hn")
    shop = Shop(api, new, inventory=True)
    adjustment = adjust(shop, date="2026-01-01", reason="opening", notes="inventario inicial",
                        lines=[{"productId": shop.product, "quantity": 50, "unitCost": "12.5"}])
    # 50 x 12.50 = 625 on inventory, against opening equity
    assert adjustment["totalValue"] == 625 and adjustment["reason"] == "opening"
    assert shop.entry_lines(adjustment["journalEntryId"]) == {"110501": (D("625.00"), 0), "3401": (0, D("625.00"))}
    assert costs(shop) == (50, D("625.00"), D("12.5000"))
    assert D(str(valuation(shop, "2026-01-01")["totalValue"])) == D("625.00") == balance_at(shop, "110501", "2026-01-01")
    assert api.get(f"/inventory/adjustments/{adjustment['id']}", key=shop.key).json == adjustment
    listed = api.get("/inventory/adjustments", key=shop.key).json
    assert listed["total"] == 1 and listed["adjustments"] == [adjustment]
    assert [p["event"] for p in outbox_payloads(table, new.company_id)].count("inventory_adjustment.created") == 1

    # an opening stock names its unit cost and only adds
    refused = adjust(shop, 400, reason="opening", lines=[{"productId": shop.product, "quantity": 5}])
    assert refused["details"] == [{"field": "lines[0].unitCost", "message": "required for an opening stock"}]
    refused = adjust(shop, 400, reason="opening", lines=[{"productId": shop.product, "countedQuantity": 40,
                                                          "unitCost": 10}])
    assert refused["details"][0]["field"] == "lines[0].countedQuantity"
    assert costs(shop) == (50, D("625.00"), D("12.5000"))


def test_an_import_carries_its_landed_costs_into_the_goods(shop):
    desk = shop.created("/products", {"code": "P-2", "name": "Escritorio", "unitPrice": 500, "taxRate": 0.15})["id"]
    imported = shop.document("104", [(shop.product, 10, 100), (desk, 5, 200), (None, 1, 300)])
    # freight 300 shared by the goods' amounts 1,000 and 1,000: 150 each. Chairs 1,150 / 10 = 115,
    # desks 1,150 / 5 = 230. Tax 15 % on the goods only: 300. Payable 2,300 + 300 = 2,600
    assert costs(shop) == (10, D("1150.00"), D("115.0000"))
    assert costs(shop, desk) == (5, D("1150.00"), D("230.0000"))
    assert shop.entry_lines(imported["journalEntryId"]) == {
        "110501": (D("2300.00"), 0), "110401": (D("300.00"), 0), "210102": (0, D("2600.00"))}
    # cancelled, the goods leave at what they came in at
    shop.action(imported["id"], "cancel")
    assert costs(shop) == (0, 0, D("115.0000")) and shop.balance("110501") == 0


def test_landed_costs_are_shared_to_the_cent(shop):
    desk = shop.created("/products", {"code": "P-2", "name": "Escritorio", "unitPrice": 500, "taxRate": 0.15})["id"]
    lamp = shop.created("/products", {"code": "P-3", "name": "Lámpara", "unitPrice": 50, "taxRate": 0.15})["id"]
    shop.document("104", [(shop.product, 1, 100), (desk, 1, 100), (lamp, 1, 100), (None, 1, 100)])
    # 100 shared three ways: 33.333... each; the cent left goes to the largest remainder (the first of equals)
    values = sorted(costs(shop, item)[1] for item in (shop.product, desk, lamp))
    assert values == [D("133.33"), D("133.33"), D("133.34")] and sum(values) == D("400.00")


def test_a_purchase_return_leaves_at_the_average_and_the_difference_goes_to_cost_of_sales(shop):
    shop.document("103", [(shop.product, 10, 100)])
    second = shop.document("103", [(shop.product, 10, 200)])  # 20 units worth 3,000: average 150
    note = shop.document("105", [(shop.product, 2, 200)], sourceDocumentId=second["id"])
    # the supplier credits 2 x 200 = 400 + 15 % = 460; the chairs leave at 2 x 150 = 300; the 100
    # credited beyond their cost lowers cost of sales
    assert shop.entry_lines(note["journalEntryId"]) == {
        "210101": (D("460.00"), 0), "110501": (0, D("300.00")), "5101": (0, D("100.00")), "110401": (0, D("60.00"))}
    assert costs(shop) == (18, D("2700.00"), D("150.0000"))


def test_part_of_a_sale_returned_comes_back_at_its_share_of_the_cost_to_the_cent(shop):
    shop.document("103", [(shop.product, 5, D("31.16"))])  # 5 x 31.16 = 155.80
    shop.document("103", [(shop.product, 1, D("31.15"))])  # + 31.15: 6 units worth 186.95
    sale = shop.document("01", [(shop.product, 6, 50)])  # all 6 leave with all the value: 186.95
    assert costs(shop)[:2] == (0, 0)
    note = shop.document("06", [(shop.product, 3, 50)], sourceDocumentId=sale["id"])
    # 3 of the 6 come back at 3 x 186.95 / 6 = 560.85 / 6 = 93.475 -> 93.48 (half-up); a unit cost
    # first (186.95 / 6 = 31.158333...) would make 3 x 31.158333... = 93.474999... -> 93.47
    assert shop.entry_lines(note["journalEntryId"])["110501"] == (D("93.48"), 0)
    assert costs(shop)[:2] == (3, D("93.48"))


def test_goods_sold_short_take_the_cost_of_the_goods_that_arrive(shop):
    shop.api.put(f"/companies/{shop.company.company_id}", {"allowNegativeStock": True}, key=shop.key)
    sale = shop.document("01", [(shop.product, 5, 100)])
    # nothing was ever bought: 5 at the reference cost 60 = 300; 5 short carried at -300
    assert shop.entry_lines(sale["journalEntryId"])["5101"] == (D("300.00"), 0)
    assert costs(shop) == (-5, D("-300.00"), D("60.0000"))
    purchase = shop.document("103", [(shop.product, 10, 80)])
    # 10 x 80 = 800 arrive: the 5 sold cost 5 x 80 = 400, not 300, so 100 more goes to cost of
    # sales; 5 left worth 800 - 400 = 400 (80 each)
    assert entry_sums(shop, purchase["journalEntryId"]) == {
        "110501": (D("800.00"), D("100.00")), "5101": (D("100.00"), 0), "110401": (D("120.00"), 0),
        "210101": (0, D("920.00"))}
    assert costs(shop) == (5, D("400.00"), D("80.0000"))
    assert shop.balance("5101") == D("400.00") and shop.balance("110501") == D("400.00")


def test_a_receipt_that_covered_a_shortage_is_undone_at_what_it_moved_the_stock_by(shop):
    shop.api.put(f"/companies/{shop.company.company_id}", {"allowNegativeStock": True}, key=shop.key)
    shop.document("01", [(shop.product, 5, 100)])  # 5 short at the reference cost 60: -300
    purchase = shop.document("103", [(shop.product, 10, 120)])
    # 1,200 arrive; the 5 short cost 600, not 300: 300 more to cost of sales; 5 left worth
    # -300 + 1,200 - 300 = 600
    assert costs(shop) == (5, D("600.00"), D("120.0000"))
    shop.action(purchase["id"], "unconfirm")
    # the purchase moved the stock by 1,200 - 300 = 900: that goes back, and its entry with it.
    # Back to 5 short carried at -300, on the account too; cost of sales back to 300
    assert costs(shop) == (-5, D("-300.00"), D("120.0000"))
    assert shop.balance("110501") == D("-300.00") and shop.balance("5101") == D("300.00")

    shop.document("103", [(shop.product, 10, 100)])  # 5 on hand worth 500 (the shortage settled at 100)
    sale = shop.document("01", [(shop.product, 5, 150)])  # the 5 at 100: 0 left
    shop.document("103", [(shop.product, 5, 200)])  # 5 worth 1,000
    shop.document("01", [(shop.product, 10, 150)])  # 1,000 for the 5 held, 5 short at 200: -1,000
    assert costs(shop) == (-5, D("-1000.00"), D("200.0000"))
    note = shop.document("06", [(shop.product, 5, 150)], sourceDocumentId=sale["id"])
    # the 5 come back at the 100 they left at (500) and cover the 5 short carried at 1,000:
    # 500 back from cost of sales; nothing left, worth nothing
    assert costs(shop) == (0, 0, D("100.0000"))
    shop.action(note["id"], "cancel")
    # undone: the stock moved by 500 + 500 = 1,000 goes back: 5 short at -1,000, as before
    assert costs(shop) == (-5, D("-1000.00"), D("100.0000"))
    assert shop.balance("110501") == D("-1000.00")


def test_a_purchase_undone_after_sales_writes_off_what_no_goods_carry(shop):
    first = shop.document("103", [(shop.product, 10, 100)])  # 1,000
    shop.document("103", [(shop.product, 10, 10)])  # 100: 20 units worth 1,100, average 55
    shop.document("01", [(shop.product, 10, 100)])  # 10 x 55 = 550 to cost of sales; 10 left worth 550
    undone = shop.action(first["id"], "unconfirm")
    # the first purchase's 10 chairs leave at their 1,000: 550 - 1,000 = -450 would be left on no
    # chairs; the 450 comes back from cost of sales (the chairs sold were the ones at 10: 100)
    assert costs(shop) == (0, 0, D("55.0000"))
    revaluation = undone["reversalEntryIds"][-1]
    assert shop.entry_lines(revaluation) == {"110501": (D("450.00"), 0), "5101": (0, D("450.00"))}
    assert shop.balance("5101") == D("100.00") and shop.balance("110501") == 0


def test_documents_recorded_out_of_date_order_keep_the_books_and_the_valuation_equal(shop):
    """The rule (docs/decisions.md): a movement is costed at the average when it is recorded,
    whatever its date; earlier costs are not recomputed. The valuation at any date is the value
    of the movements dated up to it, which is what the inventory account holds at that date."""
    shop.document("103", [(shop.product, 10, 100)], date="2026-11-10")  # 10 worth 1,000
    shop.document("01", [(shop.product, 5, 150)], date="2026-11-20")  # 5 at 100 = 500: 5 worth 500 left
    shop.document("103", [(shop.product, 5, 220)], date="2026-11-25")  # + 5 x 220 = 1,100: 10 worth 1,600
    # recorded now, dated the 15th: 5 at today's average 1,600 / 10 = 160 = 800 (the 15th held 10
    # chairs, and the 20th 10 - 5 - 5 = 0: no day goes below zero, so it is accepted; issue 39)
    late = shop.document("01", [(shop.product, 5, 300)], date="2026-11-15")
    assert shop.entry_lines(late["journalEntryId"])["5101"] == (D("800.00"), 0)
    assert costs(shop) == (5, D("800.00"), D("160.0000"))  # 1,600 - 800
    for date, quantity, value in (("2026-11-12", 10, "1000.00"),  # the first purchase
                                  ("2026-11-15", 5, "200.00"),    # 1,000 - 800
                                  ("2026-11-20", 0, "-300.00"),   # 200 - 500: value on no chairs
                                  ("2026-11-30", 5, "800.00")):   # - 300 + 1,100
        report = valuation(shop, date)
        assert D(str(report["totalValue"])) == D(value) == balance_at(shop, "110501", date), date
        assert D(str(report["totalQuantity"])) == quantity, date


def test_adjustments_and_transfers_refuse_what_they_cannot_do_and_write_nothing(api, shop, company_b):
    service, second = shop.service, shop.created("/warehouses", {"name": "Bodega 2"})["id"]
    shop.document("103", [(shop.product, 3, 100)])
    before = (costs(shop), shop.balance("110501"), api.get("/inventory/movements?limit=100", key=shop.key).json)

    def field_of(reply: Any) -> str:
        return reply["details"][0]["field"]

    assert field_of(adjust(shop, 400, reason="damage", lines=[{"productId": shop.product, "quantity": 1}])) == \
        "lines[0].quantity"
    assert field_of(adjust(shop, 400, reason="damage", lines=[{"productId": shop.product, "countedQuantity": 5}])) == \
        "lines[0].countedQuantity"  # a count of damage that finds more than the 3 on hand
    assert adjust(shop, 400, reason="count", lines=[{"productId": shop.product, "quantity": -4}])["code"] == \
        "INSUFFICIENT_STOCK"
    assert field_of(adjust(shop, 400, reason="count", lines=[{"productId": service, "quantity": 1}])) == \
        "lines[0].productId"
    assert field_of(adjust(shop, 400, reason="other", lines=[{"productId": shop.product, "quantity": 1},
                                                              {"productId": shop.product, "quantity": 2}])) == \
        "lines[1].productId"
    assert field_of(adjust(shop, 400, reason="other", lines=[{"productId": shop.product, "quantity": 0}])) == \
        "lines[0].quantity"
    assert field_of(adjust(shop, 400, reason="other", lines=[{"productId": shop.product, "quantity": 1,
                                                              "countedQuantity": 1}])) == "lines[0]"
    assert field_of(adjust(shop, 400, warehouseId=99, reason="other",
                           lines=[{"productId": shop.product, "quantity": 1}])) == "warehouseId"
    assert field_of(transfer(shop, 400, fromWarehouseId=1, toWarehouseId=1,
                             lines=[{"productId": shop.product, "quantity": 1}])) == "toWarehouseId"
    assert transfer(shop, 400, fromWarehouseId=1, toWarehouseId=second,
                    lines=[{"productId": shop.product, "quantity": 4}])["code"] == "INSUFFICIENT_STOCK"
    assert field_of(transfer(shop, 400, fromWarehouseId=second, toWarehouseId=1,
                             lines=[{"productId": 999, "quantity": 1}])) == "lines[0].productId"
    assert (costs(shop), shop.balance("110501"),
            api.get("/inventory/movements?limit=100", key=shop.key).json) == before
    assert api.get("/inventory/adjustments", key=shop.key).json["total"] == 0
    assert api.get("/inventory/transfers", key=shop.key).json["total"] == 0

    # another company sees none of it, and cannot use this company's products
    other = Shop(api, company_b, inventory=True)
    mine = adjust(shop, reason="other", lines=[{"productId": shop.product, "quantity": 1}])
    moved = transfer(shop, fromWarehouseId=1, toWarehouseId=second, lines=[{"productId": shop.product, "quantity": 1}])
    assert api.get(f"/inventory/adjustments/{mine['id']}", key=other.key).status == 404
    assert api.get(f"/inventory/transfers/{moved['id']}", key=other.key).status == 404
    assert api.get("/inventory/adjustments", key=other.key).json["total"] == 0
    assert api.get("/inventory/transfers", key=other.key).json["total"] == 0
    assert valuation(other, "2099-12-31")["items"] == []
    foreign = shop.created("/products", {"code": "P-X", "name": "Solo de Alfa", "unitPrice": 1})["id"]
    assert field_of(adjust(other, 400, reason="other", lines=[{"productId": foreign, "quantity": 1,
                                                               "unitCost": 1}])) == "lines[0].productId"


def test_the_valuation_exports_say_what_the_json_says(shop):
    import csv
    import io

    from openpyxl import load_workbook
    from pypdf import PdfReader

    def exported(accept: str) -> bytes:
        answer = shop.api.http.request("GET", "/inventory/valuation?date=2026-11-30", body=b"",
                                       headers={"authorization": f"Bearer {shop.key}", "accept": accept})
        assert answer.status_code == 200, answer.body[:300]
        return answer.body

    shop.document("103", [(shop.product, 3, 100)], date="2026-11-02")  # 3 at 100
    shop.document("103", [(shop.product, 1, 120)], date="2026-11-03")  # 4 worth 420: 105 each
    rows = list(csv.reader(io.StringIO(exported("text/csv").decode("utf-8-sig"))))
    assert rows[0] == ["Código", "Producto", "Bodega", "Cantidad", "Costo promedio", "Valor"]
    assert rows[1] == ["P-1", "Silla", "Principal", "4.00", "105.00", "420.00"]
    assert rows[2] == ["", "Total", "", "4.00", "", "420.00"]
    assert rows[3] == ["110501", "Inventario de mercadería", "", "", "", "420.00"]
    assert rows[4] == ["", "Diferencia con la contabilidad", "", "", "", "0.00"]
    sheet = load_workbook(io.BytesIO(exported(
        "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"))).active
    values = [[cell.value for cell in row] for row in sheet.iter_rows()]
    assert ["P-1", "Silla", "Principal", 4, 105, 420] in values
    text = "".join(page.extract_text() for page in PdfReader(io.BytesIO(exported("application/pdf"))).pages)
    assert "Valuación de inventario" in text and "420.00" in text
