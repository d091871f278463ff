"""Stock as of a date, worked by hand: `GET /inventory/stock?date=` leaves out the movements dated
after the day; a count dated D compares with the warehouse's stock on D (not with today's) and
posts the difference at D's average cost; movements dated later keep the cost they were recorded
at, the stock's value still equals the inventory account on every date, and a back-dated count
that would leave a later date below zero is refused."""
from __future__ import annotations

from decimal import Decimal as D
from typing import Any

import pytest

from tests.documents_support import Shop
from tests.test_inventory_costing import adjust, balance_at, costs, entry_sums, rows, transfer, valuation


@pytest.fixture
def shop(api, company_a) -> Shop:
    return Shop(api, company_a, inventory=True)


def stock_at(shop: Shop, date: str | None = None, **query: Any) -> list[tuple[int, int, D]]:
    """(product, warehouse, quantity) rows of GET /inventory/stock, at a date or now."""
    params = "&".join(f"{name}={value}" for name, value in {"date": date, **query}.items() if value is not None)
    reply = shop.api.get(f"/inventory/stock?{params}", key=shop.key)
    assert reply.status == 200, reply.text
    return [(level["productId"], level["warehouseId"], D(str(level["quantity"]))) for level in reply.json["stock"]]


def test_a_count_compares_with_the_stock_on_its_date_not_with_a_later_transfer(shop):
    """The issue's case: 118 units on hand on the count's day; a transfer dated the day after was
    recorded first. Counting the true 118 changes nothing (today's main recorded +20 at 13 = 260)."""
    chair, north = shop.product, shop.created("/warehouses", {"name": "Bodega Norte"})["id"]
    shop.document("103", [(chair, 118, 13)], date="2026-11-02")  # 118 x 13 = 1,534: average 13
    transfer(shop, fromWarehouseId=1, toWarehouseId=north, date="2026-11-19",
             lines=[{"productId": chair, "quantity": 20}])
    # now: 118 - 20 = 98 in the first warehouse, 20 in the north one
    assert stock_at(shop) == [(chair, 1, 98), (chair, north, 20)]
    # on the 18th the transfer had not happened: 118 and 0
    assert stock_at(shop, "2026-11-18") == [(chair, 1, 118), (chair, north, 0)]
    assert stock_at(shop, "2026-11-19") == stock_at(shop)
    assert stock_at(shop, "2026-11-18", warehouseId=1) == [(chair, 1, 118)]
    assert stock_at(shop, "2026-11-18", productId=chair) == [(chair, 1, 118), (chair, north, 0)]
    # before the purchase: nothing anywhere
    assert stock_at(shop, "2026-11-01") == [(chair, 1, 0), (chair, north, 0)]

    count = adjust(shop, date="2026-11-18", reason="count", lines=[{"productId": chair, "countedQuantity": 118}])
    # counted 118 against the 118 of the 18th: change 0, value 0, no entry
    assert count["lines"] == [{"productId": chair, "quantity": 0, "countedQuantity": 118, "previousQuantity": 118,
                               "unitCost": 0, "value": 0}]
    assert count["totalValue"] == 0 and count["journalEntryId"] is None
    assert costs(shop) == (118, D("1534.00"), D("13.0000"))
    assert stock_at(shop) == [(chair, 1, 98), (chair, north, 20)]
    assert shop.balance("5106") == 0 and shop.balance("110501") == D("1534.00")


def test_a_back_dated_count_posts_the_difference_at_that_days_average(shop):
    chair = shop.product
    shop.document("103", [(chair, 100, 10)], date="2026-11-02")  # 100 x 10 = 1,000: average 10
    shop.document("103", [(chair, 50, 16)], date="2026-11-10")   # + 50 x 16 = 800: 150 worth 1,800, average 12
    sale = shop.document("01", [(chair, 30, 25)], date="2026-11-12")
    # 30 at the average 12 = 360 to cost of sales: 120 worth 1,440 left, average 12
    assert shop.entry_lines(sale["journalEntryId"])["5101"] == (D("360.00"), 0)
    assert costs(shop) == (120, D("1440.00"), D("12.0000"))

    # the count of the 5th, recorded now: 90 chairs were there
    count = adjust(shop, date="2026-11-05", reason="count", lines=[{"productId": chair, "countedQuantity": 90}])
    # on the 5th: 120 - 50 (bought the 10th) + 30 (sold the 12th) = 100 chairs, worth
    # 1,440 - 800 + 360 = 1,000: average 1,000 / 100 = 10. Counted 90: 10 missing x 10 = 100 lost
    # (today's main compared with the 120 on hand now: -30 at 12 = -360)
    assert count["lines"] == [{"productId": chair, "quantity": -10, "countedQuantity": 90, "previousQuantity": 100,
                               "unitCost": 10, "value": -100}]
    assert count["totalValue"] == -100
    # the loss on the 5th: 5106 debit 100, inventory 110501 credit 100
    assert shop.entry_lines(count["journalEntryId"]) == {"5106": (D("100.00"), 0), "110501": (0, D("100.00"))}
    entry = shop.api.get(f"/journal-entries/{count['journalEntryId']}", key=shop.key).json
    assert entry["date"] == "2026-11-05"
    # now: 120 - 10 = 110 chairs worth 1,440 - 100 = 1,340: average 12.181818... shown 12.1818
    assert costs(shop) == (110, D("1340.00"), D("12.1818"))
    # the sale of the 12th keeps the 360 it was recorded at: it is in the books already
    assert shop.balance("5101") == D("360.00")

    # the stock's value equals the inventory account on every date
    # the 5th: 90 x 10 = 900 = 1,000 - 100
    assert rows(valuation(shop, "2026-11-05")) == [(chair, 1, 90, D("10.0000"), D("900.00"))]
    assert balance_at(shop, "110501", "2026-11-05") == D("900.00")
    # the 10th: 90 + 50 = 140 worth 900 + 800 = 1,700, average 12.142857... shown 12.1429
    assert rows(valuation(shop, "2026-11-10")) == [(chair, 1, 140, D("12.1429"), D("1700.00"))]
    assert balance_at(shop, "110501", "2026-11-10") == D("1700.00")
    # the 12th: 140 - 30 = 110 worth 1,700 - 360 = 1,340
    assert rows(valuation(shop, "2026-11-12")) == [(chair, 1, 110, D("12.1818"), D("1340.00"))]
    assert balance_at(shop, "110501", "2026-11-12") == D("1340.00")
    assert stock_at(shop, "2026-11-05") == [(chair, 1, 90)] and stock_at(shop) == [(chair, 1, 110)]

    # a second count the same day sees the first: 90 on hand on the 5th, 92 found: +2 at the
    # 5th's average 900 / 90 = 10 = 20 gained: inventory 110501 debit 20, the gain 4204 credit 20
    found = adjust(shop, date="2026-11-05", reason="count", lines=[{"productId": chair, "countedQuantity": 92}])
    assert found["lines"] == [{"productId": chair, "quantity": 2, "countedQuantity": 92, "previousQuantity": 90,
                               "unitCost": 10, "value": 20}]
    assert shop.entry_lines(found["journalEntryId"]) == {"110501": (D("20.00"), 0), "4204": (0, D("20.00"))}
    # now 112 worth 1,360; on the 5th 92 worth 920
    assert costs(shop) == (112, D("1360.00"), D("12.1429"))
    assert D(str(valuation(shop, "2026-11-05")["totalValue"])) == D("920.00") == balance_at(shop, "110501",
                                                                                           "2026-11-05")
    assert D(str(valuation(shop, "2026-11-30")["difference"])) == 0


def test_a_back_dated_count_may_not_leave_a_later_day_below_zero(shop):
    chair = shop.product
    shop.document("103", [(chair, 10, 10)], date="2026-11-02")  # 10 x 10 = 100
    shop.document("01", [(chair, 8, 25)], date="2026-11-12")    # 8 sold: 2 left
    # on the 5th there were 10; counting 5 takes 5 away then, and the sale of the 12th would
    # leave 5 - 8 = -3: refused, nothing written
    refused = adjust(shop, 400, date="2026-11-05", reason="count",
                     lines=[{"productId": chair, "countedQuantity": 5}])
    assert refused["code"] == "INSUFFICIENT_STOCK"
    assert refused["details"] == [{"field": "lines[0].quantity", "message": "insufficient stock"}]
    assert "-3" in refused["message"]
    assert costs(shop) == (2, D("20.00"), D("10.0000"))
    assert shop.api.get("/inventory/adjustments", key=shop.key).json["total"] == 0
    # counting 8 on the 5th (2 missing then) leaves 8 - 8 = 0 after the sale: allowed; 2 x 10 = 20 lost
    count = adjust(shop, date="2026-11-05", reason="count", lines=[{"productId": chair, "countedQuantity": 8}])
    assert count["lines"][0]["previousQuantity"] == 10 and count["totalValue"] == -20
    # 2 - 2 = 0 chairs now, worth 20 - 20 = 0
    assert costs(shop) == (0, 0, D("10.0000"))
    assert stock_at(shop, "2026-11-05") == [(chair, 1, 8)] and stock_at(shop) == [(chair, 1, 0)]


def test_a_bad_date_is_refused(shop):
    reply = shop.api.get("/inventory/stock?date=2026-13-01", key=shop.key)
    assert reply.status == 400 and reply.json["details"][0]["field"] == "date"


def test_a_back_dated_loss_the_stock_of_today_cannot_carry_is_written_off_in_its_entry(shop):
    """A day's average can be far above today's: a dear purchase still on hand that day was undone
    since (today). Goods taken away on that day at its average leave today's position below
    nothing; the position writes the difference off (goods never carry a negative value), and the
    adjustment's entry must post that write-off too, or the inventory account parts from the stock."""
    chair = shop.product
    shop.document("103", [(chair, 10, 1)], date="2026-11-02")  # 10 x 1 = 10
    dear = shop.document("103", [(chair, 10, 100)], date="2026-11-04")  # + 10 x 100 = 1,000: 20 worth 1,010
    shop.action(dear["id"], "unconfirm")  # today: its 10 chairs leave at their 1,000: 10 worth 10
    assert costs(shop) == (10, D("10.00"), D("1.0000"))

    count = adjust(shop, date="2026-11-05", reason="count", lines=[{"productId": chair, "countedQuantity": 18}])
    # on the 5th: 20 chairs worth 1,010 (the undoing is today): average 50.50; 18 counted, 2 missing
    # x 50.50 = 101 lost on the 5th. Today 10 - 2 = 8 chairs worth 10 - 101 = -91: goods never carry
    # a negative value, so 8 worth 0 and the 91 comes back from cost of sales. The line's value is
    # what the stock moved by: 0 - 10 = -10
    assert count["lines"] == [{"productId": chair, "quantity": -2, "countedQuantity": 18, "previousQuantity": 20,
                               "unitCost": D("50.5"), "value": -10}]
    # the entry of the 5th: the loss 5106 debit 101 / 110501 credit 101, and the write-off
    # 110501 debit 91 / cost of sales 5101 credit 91 (today's main posted the 101 only: 110501 -91)
    assert entry_sums(shop, count["journalEntryId"]) == {
        "5106": (D("101.00"), 0), "110501": (D("91.00"), D("101.00")), "5101": (0, D("91.00"))}
    assert costs(shop) == (8, 0, 0)
    # the stock's value equals the inventory account on every date:
    # today 8 worth 0 = 10 + 1,000 - 1,000 - 101 + 91
    assert D(str(valuation(shop, "2099-12-31")["totalValue"])) == 0 == balance_at(shop, "110501", "2099-12-31")
    # the 5th: 18 chairs worth 0 + 1,000 (the undoing after it left out) = 10 + 1,000 - 101 + 91
    on_the_fifth = valuation(shop, "2026-11-05")
    assert (D(str(on_the_fifth["totalQuantity"])), D(str(on_the_fifth["totalValue"]))) == (18, D("1000.00"))
    assert balance_at(shop, "110501", "2026-11-05") == D("1000.00") and on_the_fifth["difference"] == 0
    # the 4th, before the count: 20 worth 1,010
    assert D(str(valuation(shop, "2026-11-04")["totalValue"])) == D("1010.00") == balance_at(shop, "110501",
                                                                                            "2026-11-04")


def test_the_state_machines_case_with_negative_stock_keeps_the_books(shop):
    """tests/test_inventory_state_machine.py's falsifying example (negative stock allowed), reduced
    to the steps of the product that parted the books: valuation 87.61 against 110501 20.90."""
    reply = shop.api.put(f"/companies/{shop.company.company_id}", {"allowNegativeStock": True}, key=shop.key)
    assert reply.status == 200, reply.text
    chair, second = shop.product, shop.created("/warehouses", {"name": "Bodega 2"})["id"]
    # an import on the 4th: 10 x 316.78 = 3,167.80 + freight 1.39 = 3,169.19
    imported = shop.document("104", [(chair, 10, D("316.78")), (None, 1, D("1.39"))], date="2026-11-04")
    # counted 11 on 20 Oct (nothing then) at 1.98: + 11 x 1.98 = 21.78; 21 worth 3,190.97
    adjust(shop, date="2026-10-20", reason="other", lines=[{"productId": chair, "countedQuantity": 11,
                                                             "unitCost": D("1.98")}])
    shop.action(imported["id"], "cancel")  # today: 10 leave at 3,169.19: 11 worth 21.78
    shop.document("103", [(chair, 6, D("5.09"))], date="2026-11-04")  # + 6 x 5.09 = 30.54: 17 worth 52.32
    # counted 12 on 6 Oct (nothing then) at 2.90: + 12 x 2.90 = 34.80: 29 worth 87.12
    adjust(shop, date="2026-10-06", reason="other", lines=[{"productId": chair, "countedQuantity": 12,
                                                             "unitCost": D("2.90")}])
    assert costs(shop) == (29, D("87.12"), D("3.0041"))  # 87.12 / 29 = 3.00413...
    # 2 taken from the empty second warehouse on the 19th: that day held 29 + the 10 cancelled
    # today = 39 worth 87.12 + 3,169.19 = 3,256.31: 2 x 3,256.31 / 39 = 166.990... = 166.99 lost.
    # Today 27 worth 87.12 - 166.99 = -79.87: 27 worth 0, the 79.87 back from cost of sales
    loss = adjust(shop, warehouseId=second, date="2026-11-19", reason="other",
                  lines=[{"productId": chair, "quantity": -2}])
    assert loss["lines"][0]["value"] == D("-87.12")  # 0 - 87.12
    assert entry_sums(shop, loss["journalEntryId"]) == {
        "5106": (D("166.99"), 0), "110501": (D("79.87"), D("166.99")), "5101": (0, D("79.87"))}
    assert costs(shop) == (27, 0, 0)
    assert stock_at(shop) == [(chair, 1, 29), (chair, second, -2)]
    # every date: today 0 = 3,169.19 + 21.78 - 3,169.19 + 30.54 + 34.80 - 166.99 + 79.87;
    # the 19th: 0 + 3,169.19 (the cancellation after it left out) = 3,169.19;
    # 31 Oct: 21.78 + 34.80 = 56.58 (23 chairs)
    for date, value in (("2099-12-31", D("0.00")), ("2026-11-19", D("3169.19")), ("2026-10-31", D("56.58"))):
        report = valuation(shop, date)
        assert D(str(report["totalValue"])) == value == D(str(report["accountsBalance"])), date
        assert balance_at(shop, "110501", date) == value, date
