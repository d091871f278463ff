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
from tests.test_inventory_costing import adjust, balance_at, costs, rows, transfer, valuation


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
