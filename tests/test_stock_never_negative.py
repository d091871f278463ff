"""Stock never negative at any date (issue 39, point 5), worked by hand. With negative stock
disallowed, a movement that takes goods away on a date is refused when the warehouse's stock at
the end of that date, or of any later day, would go below zero: back-dated sales, purchase
returns, transfers and cancellations of goods that came in alike. The refusal names the product,
the warehouse and the first day that would go below zero; nothing is written."""
from __future__ import annotations

from decimal import Decimal as D

import pytest

from tests.documents_support import Shop
from tests.support import ORIGIN, RACES
from tests.test_inventory_concurrency import all_at_once
from tests.test_inventory_costing import balance_at, costs, transfer, valuation
from tests.test_stock_at_a_date import stock_at
from tests.users_support import member

BOUGHT_ON, BACK_THEN = "2026-11-02", "2020-03-10"


@pytest.fixture
def shop(api, company_a) -> Shop:
    return Shop(api, company_a, inventory=True)


def refused_for_stock(reply, field: str, *names: str) -> dict:
    """A 400 INSUFFICIENT_STOCK naming the line's field, and in its message each of `names`."""
    assert (reply.status, reply.json["code"]) == (400, "INSUFFICIENT_STOCK"), reply.text
    assert reply.json["details"] == [{"field": field, "message": "insufficient stock"}], reply.text
    for name in names:
        assert name in reply.json["message"], (name, reply.json["message"])
    return reply.json


def test_goods_bought_in_2026_cannot_be_transferred_or_sold_in_2020(api, table, shop, company_a):
    """The finding: 40 chairs bought in 2026 at 45.00 (40 x 45 = 1,800.00), then a seller moved
    them to another warehouse and sold them, both dated 2020: today's main accepted both, and 2020
    showed -40 chairs and -1,800.00 of inventory."""
    chair, north = shop.product, shop.created("/warehouses", {"name": "Bodega Norte"})["id"]
    shop.document("103", [(chair, 40, 45)], date=BOUGHT_ON)
    _, seller = member(api, table, company_a, "vendedor@alpha.example", "seller")

    moved = api.post("/inventory/transfers", {"fromWarehouseId": 1, "toWarehouseId": north, "date": BACK_THEN,
                                              "lines": [{"productId": chair, "quantity": 40}]}, cookie=seller, origin=ORIGIN)
    # warehouse 1 held nothing on 10 March 2020: 0 - 40 = -40 that day
    body = refused_for_stock(moved, "lines[0].quantity", f"product {chair} (Silla)", "warehouse 1", BACK_THEN, "-40")
    assert "on hand" not in body["message"]
    sold = api.post("/documents", {"type": "01", "businessPartnerId": shop.customer, "date": BACK_THEN,
                                   "warehouseId": 1, "lines": [{"productId": chair, "quantity": 40, "unitPrice": 100}]},
                    cookie=seller, origin=ORIGIN)
    refused_for_stock(sold, "lines[0].quantity", f"product {chair} (Silla)", "warehouse 1", BACK_THEN, "-40")
    # in Spanish too, naming the same
    spanish = api.post("/documents", {"type": "01", "businessPartnerId": shop.customer, "date": BACK_THEN,
                                      "warehouseId": 1, "lines": [{"productId": chair, "quantity": 40,
                                                                   "unitPrice": 100}]},
                       cookie=seller, origin=ORIGIN, headers={"Accept-Language": "es"})
    assert spanish.json["message"].startswith(f"No hay existencias suficientes del producto {chair} (Silla) en la "
                                              f"bodega 1 el {BACK_THEN}"), spanish.json["message"]

    # nothing written: 40 worth 1,800.00 today; nothing on any day of 2020
    assert costs(shop) == (40, D("1800.00"), D("45.0000"))
    assert stock_at(shop, "2020-12-31") == [(chair, 1, 0)]  # the north warehouse never held any
    assert D(str(valuation(shop, "2020-12-31")["totalValue"])) == 0 == balance_at(shop, "110501", "2020-12-31")
    assert api.get("/inventory/transfers", key=shop.key).json["total"] == 0


def test_goods_bought_in_2020_are_transferred_and_sold_in_2020(shop):
    """Accepted back-dated movements: every date stays at zero or above."""
    chair, north = shop.product, shop.created("/warehouses", {"name": "Bodega Norte"})["id"]
    shop.document("103", [(chair, 40, 45)], date="2020-01-15")  # 40 x 45 = 1,800.00
    shop.document("103", [(chair, 10, 45)], date=BOUGHT_ON)     # + 10 x 45 = 450.00 in 2026
    transfer(shop, fromWarehouseId=1, toWarehouseId=north, date=BACK_THEN,
             lines=[{"productId": chair, "quantity": 40}])
    # the north warehouse held 40 from 10 March 2020: selling 30 then leaves 10 at 45 = 450.00
    sale = shop.document("01", [(chair, 30, 100)], date=BACK_THEN, warehouseId=north)
    assert shop.entry_lines(sale["journalEntryId"])["5101"] == (D("1350.00"), 0)  # 30 x 45
    # 2020 ends with 0 + 10 chairs worth 450.00; today 10 + 10 worth 900.00
    assert stock_at(shop, "2020-12-31") == [(chair, 1, 0), (chair, north, 10)]
    assert D(str(valuation(shop, "2020-12-31")["totalValue"])) == D("450.00") == balance_at(shop, "110501",
                                                                                            "2020-12-31")
    assert costs(shop) == (20, D("900.00"), D("45.0000"))


def test_a_back_dated_purchase_return_may_not_leave_a_later_sale_short(shop):
    chair = shop.product
    purchase = shop.document("103", [(chair, 10, 10)], date="2026-11-02")  # 10 x 10 = 100
    shop.document("01", [(chair, 8, 25)], date="2026-11-12")               # 8 sold: 2 left
    shop.document("103", [(chair, 10, 10)], date="2026-11-20")             # + 10: 12 today
    # 5 returned on the 5th: 10 - 5 = 5 then, but the sale of the 12th leaves 5 - 8 = -3 that day
    # (today's main checked today's 12 only and accepted it)
    reply = shop.api.post("/documents", {"type": "105", "businessPartnerId": shop.supplier, "date": "2026-11-05",
                                         "sourceDocumentId": purchase["id"],
                                         "lines": [{"productId": chair, "quantity": 5, "unitPrice": 10}]}, key=shop.key)
    refused_for_stock(reply, "lines[0].quantity", f"product {chair}", "warehouse 1", "2026-11-12", "-3")
    assert costs(shop) == (12, D("120.00"), D("10.0000"))
    # 2 returned then leaves 0 after the sale: accepted
    shop.document("105", [(chair, 2, 10)], date="2026-11-05", sourceDocumentId=purchase["id"])
    assert [stock_at(shop, day) for day in ("2026-11-05", "2026-11-12", "2026-11-20")] == [
        [(chair, 1, 8)], [(chair, 1, 0)], [(chair, 1, 10)]]


def test_undoing_a_purchase_on_its_date_may_not_leave_the_sale_of_its_goods_short(shop):
    """A purchase whose goods were sold since, unconfirmed as of its own date: the sale that
    followed would have sold goods the company never had."""
    chair = shop.product
    first = shop.document("103", [(chair, 40, 45)], date="2026-11-02")  # 40 x 45 = 1,800.00
    shop.document("01", [(chair, 40, 100)], date="2026-11-12")          # all 40 sold
    shop.document("103", [(chair, 40, 45)], date="2026-11-20")          # 40 more: 40 today
    # undone on the 2nd: 40 - 40 = 0 that day, and the sale of the 12th leaves 0 - 40 = -40
    reply = shop.api.post(f"/documents/{first['id']}/unconfirm", {"date": "2026-11-02"}, key=shop.key)
    refused_for_stock(reply, "lines[0].quantity", f"product {chair}", "warehouse 1", "2026-11-12", "-40")
    assert shop.get(first["id"])["status"] == "confirmed"
    # undone on the 20th instead: 40 on the 2nd, 40 - 40 = 0 on the 12th, 0 + 40 - 40 = 0 on the 20th
    shop.action(first["id"], "unconfirm", {"date": "2026-11-20"})
    assert [stock_at(shop, day) for day in ("2026-11-02", "2026-11-12", "2026-11-20")] == [
        [(chair, 1, 40)], [(chair, 1, 0)], [(chair, 1, 0)]]


@RACES
def test_back_dated_sales_racing_cannot_together_leave_a_later_day_short(shop):
    """Each sale alone fits; two together would leave the 20th short. They race: each reads the
    position, then the later movements; the position's write is conditioned on its sequence, so
    the losers run again, see the winner's sale and are refused."""
    chair = shop.product
    shop.document("103", [(chair, 10, 10)], date="2026-11-02")  # 10
    shop.document("01", [(chair, 4, 25)], date="2026-11-20")    # 10 - 4 = 6 on the 20th
    shop.document("103", [(chair, 10, 10)], date="2026-11-25")  # 16 today
    sale = {"type": "01", "businessPartnerId": shop.customer, "date": "2026-11-05", "warehouseId": 1,
            "lines": [{"productId": chair, "quantity": 4, "unitPrice": 25}]}
    results = all_at_once(shop, [("/documents", sale)] * 4)
    # one sale of 4 on the 5th: 6 then, 6 - 4 = 2 on the 20th; a second would leave 2 - 4 = -2 on
    # the 20th (today's main accepted all four: 16 - 16 = 0 today)
    assert sorted(status for status, _ in results) == [201, 400, 400, 400], results
    for status, body in results:
        if status == 400:
            assert body["code"] == "INSUFFICIENT_STOCK" and "on 2026-11-20" in body["message"], body
    assert [stock_at(shop, day) for day in ("2026-11-05", "2026-11-20")] == [[(chair, 1, 6)], [(chair, 1, 2)]]
    assert costs(shop)[0] == 12  # 16 - 4


def test_only_a_back_dated_movement_reads_the_kardex_and_only_from_its_date(shop, monkeypatch):
    """DynamoDB-honest: a sale dated on or after the product's last movement reads no movement;
    a back-dated one reads the product's kardex once, from the day after its date (a Query on
    the sort key, never a Scan)."""
    from chalicelib.store.table import Table

    chair = shop.product
    shop.document("103", [(chair, 10, 10)], date="2026-11-02")
    shop.document("01", [(chair, 2, 25)], date="2026-11-20")
    kardex_reads: list[dict] = []
    original = Table.query_all

    def counted(self, **criteria):
        if "#STKMV#" in str(criteria.get("partition")):
            kardex_reads.append(criteria)
        return original(self, **criteria)

    monkeypatch.setattr(Table, "query_all", counted)
    shop.document("01", [(chair, 1, 25)], date="2026-11-20")  # on the last movement's day: nothing later
    assert kardex_reads == []
    shop.document("01", [(chair, 1, 25)], date="2026-11-05")  # back-dated: the movements after the 5th
    assert [(read["partition"][1].endswith(f"#STKMV#{chair}"), read["sort_range"][1]) for read in kardex_reads] == [
        (True, "2026-11-05#~")]
