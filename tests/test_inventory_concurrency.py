"""Sales and receipts of one product at the same moment: each values its goods against the
product's position as it was read, and the position's write is conditioned on it being unchanged,
so a command that lost the race runs again on fresh figures. Nothing is valued twice at the same
average, no unit is lost, and the books carry exactly the stock's value."""
from __future__ import annotations

import threading
from concurrent.futures import ThreadPoolExecutor
from decimal import ROUND_HALF_UP
from decimal import Decimal as D
from typing import Any

import pytest

from tests.documents_support import Shop

pytestmark = pytest.mark.emulator("races writers: on the emulator, transactions in flight conflict")


@pytest.fixture
def shop(api, company_a) -> Shop:
    return Shop(api, company_a)


def all_at_once(shop: Shop, requests: list[tuple[str, dict[str, Any]]]) -> list[tuple[int, Any]]:
    barrier = threading.Barrier(len(requests))

    def send(request: tuple[str, dict[str, Any]]) -> tuple[int, Any]:
        barrier.wait()
        reply = shop.api.post(request[0], request[1], key=shop.key)
        return reply.status, reply.json

    with ThreadPoolExecutor(len(requests)) as pool:
        return list(pool.map(send, requests))


def document(shop: Shop, doc_type: str, quantity: int, price: int, warehouse: int = 1) -> tuple[str, dict[str, Any]]:
    partner = shop.supplier if doc_type == "103" else shop.customer
    return "/documents", {"type": doc_type, "businessPartnerId": partner, "date": "2026-11-02", "warehouseId": warehouse,
                          "lines": [{"productId": shop.product, "quantity": quantity, "unitPrice": price}]}


def position(shop: Shop) -> tuple[D, D, D]:
    item = shop.api.get(f"/products/{shop.product}", key=shop.key).json
    return D(str(item["stockQuantity"])), D(str(item["stockValue"])), D(str(item["averageCost"]))


def test_parallel_sales_and_receipts_leave_the_average_and_the_stock_exact(shop):
    shop.document("103", [(shop.product, 40, 100)])  # 40 at 100: 4,000
    second = shop.created("/warehouses", {"name": "Bodega 2"})["id"]
    requests = ([document(shop, "01", 2, 180) for _ in range(10)]  # 20 out at 100 = 2,000 of cost
                + [document(shop, "103", 4, 100) for _ in range(5)]  # 20 in at 100 = 2,000
                + [("/inventory/transfers", {"fromWarehouseId": 1, "toWarehouseId": second, "date": "2026-11-02",
                                             "lines": [{"productId": shop.product, "quantity": 1}]})] * 3)
    results = all_at_once(shop, requests)
    assert [status for status, _ in results] == [201] * len(requests), results
    # every price was 100: whatever the order, 40 - 20 + 20 = 40 chairs worth 4,000, average 100
    assert position(shop) == (40, D("4000.00"), D("100.0000"))
    assert shop.stock(shop.product, 1) == 37 and shop.stock(shop.product, second) == 3
    assert shop.balance("110501") == D("4000.00") and shop.balance("5101") == D("2000.00")
    sales = [body for status, body in results[:10]]
    assert {shop.entry_lines(sale["journalEntryId"])["5101"] for sale in sales} == {(D("200.00"), 0)}


def test_parallel_sales_and_receipts_at_other_prices_keep_the_books_the_stock_value(shop):
    shop.document("103", [(shop.product, 30, 100)])  # 30 at 100: 3,000
    requests = [document(shop, "01", 3, 180) for _ in range(6)] + [document(shop, "103", 5, 160) for _ in range(4)]
    results = all_at_once(shop, requests)
    assert [status for status, _ in results] == [201] * len(requests), results
    quantity, value, average = position(shop)
    # 30 - 18 + 20 = 32 chairs; 3,000 + 4 x 800 = 6,200 came in, and what went out is cost of sales
    assert quantity == 32
    assert value + shop.balance("5101") == D("6200.00")
    assert value == shop.balance("110501")
    movements = shop.api.get(f"/inventory/movements?productId={shop.product}&limit=100", key=shop.key).json["movements"]
    assert len(movements) == 11 and sum(D(str(m["value"])) for m in movements) == value
    # each sale took 3 at the average of its moment: between 100 (before any receipt) and 160
    costs = [shop.entry_lines(body["journalEntryId"])["5101"][0] for _, body in results[:6]]
    assert all(D("300.00") <= cost <= D("480.00") for cost in costs)
    assert average == (value / 32).quantize(D("0.0001"), rounding=ROUND_HALF_UP)


def test_parallel_sales_never_take_more_than_the_stock(shop):
    shop.document("103", [(shop.product, 5, 100)])
    results = all_at_once(shop, [document(shop, "01", 2, 180) for _ in range(5)])
    # 5 chairs: two sales of 2 fit, the third would leave -1
    assert sorted(status for status, _ in results) == [201, 201, 400, 400, 400]
    assert {body["code"] for status, body in results if status == 400} == {"INSUFFICIENT_STOCK"}
    assert position(shop) == (1, D("100.00"), D("100.0000"))
