"""Concurrent documents through the whole pipeline: fiscal numbers stay gap-free and unique under
contention (CAI ranges and per-type sequences), an exhausted range refuses exactly the surplus,
and stock never goes below zero when the company forbids it. moto is serialized by conftest, so
the conditional transactions behave as DynamoDB's do; a request that loses a race runs again
(chalicelib/store/transaction.py run_with_retries) and should never end in 503."""
from __future__ import annotations

import threading
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from decimal import Decimal
from typing import Any

import pytest

from chalicelib.store import keys
from tests.documents_support import Shop

pytestmark = pytest.mark.emulator("races writers: on the emulator, transactions in flight conflict")

CONCURRENT = 20


def _sales_number(n: int) -> str:
    return f"001-001-01-{n:08d}"


def _purchase_number(n: int) -> str:
    return f"001-001-94-{n:08d}"


def _all_at_once(shop: Shop, bodies: list[dict[str, Any]]) -> list[tuple[int, Any]]:
    """POSTs every body from its own thread, all released together; (status, json) in order."""
    barrier = threading.Barrier(len(bodies))

    def send(body: dict[str, Any]) -> tuple[int, Any]:
        barrier.wait()
        reply = shop.api.post("/documents", body, key=shop.key)
        return reply.status, reply.json

    with ThreadPoolExecutor(len(bodies)) as pool:
        return list(pool.map(send, bodies))


def _body(shop: Shop, doc_type: str, product: int | None = None, quantity: Any = 1, n: int = 0) -> dict[str, Any]:
    partner = shop.supplier if doc_type == "103" else shop.customer
    return {"type": doc_type, "businessPartnerId": partner, "date": "2026-11-02", "reference": f"R{n}",
            "lines": [{"productId": product or shop.service, "quantity": quantity, "unitPrice": 100}]}


def _outcome(results: list[tuple[int, Any]]) -> Counter:
    """201s counted as 201, failures by their error code (503 CONCURRENT_UPDATE shows up here)."""
    return Counter(201 if status == 201 else f"{status} {body.get('code')}" for status, body in results)


def _range(shop: Shop) -> Any:
    reply = shop.api.get(f"/cai/{shop.cai_range['id']}", key=shop.key)
    assert reply.status == 200, reply.text
    return reply.json


def _listed_total(shop: Shop, doc_type: str) -> int:
    reply = shop.api.get(f"/documents?type={doc_type}&limit=100", key=shop.key)
    assert reply.status == 200, reply.text
    assert len(reply.json["documents"]) == reply.json["total"]
    return reply.json["total"]


def test_concurrent_sales_invoices_take_consecutive_numbers_of_one_cai_range(api, company_a, table):
    shop = Shop(api, company_a)
    results = _all_at_once(shop, [_body(shop, "01", n=n) for n in range(CONCURRENT)])
    created = [body for status, body in results if status == 201]
    # whatever happened to the others, the ones created hold 1..n of the range, no gap, no twice
    assert sorted(body["number"] for body in created) == [_sales_number(n) for n in range(1, len(created) + 1)]
    assert {body["cai"]["rangeId"] for body in created} <= {shop.cai_range["id"]}
    cai = _range(shop)
    assert (cai["nextNumber"], cai["remaining"]) == (len(created) + 1, 1000 - len(created))
    assert _listed_total(shop, "01") == len(created)
    # every invoice reached the customer's balance once
    assert Decimal(str(shop.partner(shop.customer)["receivableBalance"])) == Decimal("115") * len(created)
    # and none was refused: losing the race for the number makes a request run again
    assert _outcome(results) == Counter({201: CONCURRENT}), _outcome(results)
    assert cai["nextNumber"] == CONCURRENT + 1
    # a number retaken at commit moved its search-index item too: each number finds its invoice
    for body in created:
        found = shop.api.get(f"/documents?q={body['number']}", key=shop.key).json["documents"]
        assert [document["id"] for document in found] == [body["id"]]
    # and its open-document index item (bank statement suggestions read its number there)
    for body in created:
        item = table.get(keys.open_document(company_a.company_id, shop.customer, keys.RECEIVABLE_SIDE,
                                            body["dueDate"], body["id"]))
        assert item["number"] == body["number"]


def test_a_range_with_five_numbers_left_serves_exactly_five_of_twenty(api, company_a):
    shop = Shop(api, company_a, range_size=10)
    for n in range(5):
        assert shop.document("01", [(shop.service, 1, 100)])["number"] == _sales_number(n + 1)
    assert _range(shop)["remaining"] == 5
    results = _all_at_once(shop, [_body(shop, "01", n=n) for n in range(CONCURRENT)])
    assert _outcome(results) == Counter({201: 5, "400 CAI_EXHAUSTED": CONCURRENT - 5}), _outcome(results)
    assert sorted(body["number"] for status, body in results if status == 201) == \
        [_sales_number(n) for n in range(6, 11)]
    cai = _range(shop)
    assert (cai["nextNumber"], cai["remaining"]) == (11, 0)
    # the refused invoices left nothing behind
    assert _listed_total(shop, "01") == 10


def test_concurrent_sales_never_take_stock_below_zero(api, company_a):
    shop = Shop(api, company_a)
    assert api.get("/companies", key=shop.key).json["allowNegativeStock"] is False
    shop.document("103", [(shop.product, 5, 60)])
    assert shop.stock() == 5
    results = _all_at_once(shop, [_body(shop, "01", shop.product, n=n) for n in range(10)])
    assert _outcome(results) == Counter({201: 5, "400 INSUFFICIENT_STOCK": 5}), _outcome(results)
    assert shop.stock() == 0
    # the refused ones took no number: the five sold carry 1..5 and the range continues at 6
    assert sorted(body["number"] for status, body in results if status == 201) == \
        [_sales_number(n) for n in range(1, 6)]
    assert _range(shop)["nextNumber"] == 6
    movements = api.get(f"/inventory/movements?productId={shop.product}", key=shop.key).json
    assert sum(Decimal(str(m["quantity"])) for m in movements["movements"]) == 0
    assert len(movements["movements"]) == 6


def test_concurrent_purchase_invoices_take_consecutive_numbers_of_their_sequence(api, company_a):
    shop = Shop(api, company_a)
    results = _all_at_once(shop, [_body(shop, "103", shop.product, n=n) for n in range(CONCURRENT)])
    created = [body for status, body in results if status == 201]
    assert sorted(body["number"] for body in created) == [_purchase_number(n) for n in range(1, len(created) + 1)]
    assert all(body["cai"] is None for body in created)
    assert shop.stock() == len(created)
    assert _listed_total(shop, "103") == len(created)
    # the next one continues the sequence
    assert shop.document("103", [(shop.service, 1, 100)])["number"] == _purchase_number(len(created) + 1)
    assert _outcome(results) == Counter({201: CONCURRENT}), _outcome(results)


def test_concurrent_el_salvador_dtes_take_gap_free_control_numbers_of_each_type(api, company_a):
    """Every DTE type at once (facturas, créditos fiscales, the notes correcting one, facturas de
    sujeto excluido and comprobantes de retención): each tipoDte has its own control-number
    sequence, and each is 1..n with no gap and no number twice."""
    from tests.dte_support import taxpayer_of

    shop = Shop(api, company_a, country="SV")
    taxpayer = taxpayer_of(shop)
    farmer = shop.created("/business-partners", {"name": "Juan Pérez", "type": "supplier", "taxId": "012345678",
                                                 "department": "05", "municipality": "11", "address": "Santa Tecla",
                                                 "phone": "7000-1234", "email": "juan@example.com"})["id"]
    supplier = shop.created("/business-partners", {
        "name": "Distribuidora Gamma", "type": "supplier", "taxId": "0614-030303-103-9", "nrc": "112233-4",
        "economicActivityCode": "46510", "economicActivity": "Venta al por mayor", "department": "06",
        "municipality": "14", "address": "Boulevard de los Héroes", "email": "ventas@gamma.example"})["id"]
    line = [{"productId": shop.service, "quantity": 1, "unitPrice": 10}]
    free_line = [{"description": "Varios", "quantity": 1, "unitPrice": 10, "taxRate": 0}]
    source = shop.document("01", [(shop.service, 10, 100)], partner=taxpayer)
    purchase = shop.document("103", [(shop.product, 10, 100)], partner=supplier)
    assert source["dte"]["tipoDte"] == "03"
    today = shop.default_date
    bodies = ([{"type": "01", "businessPartnerId": shop.customer, "lines": line, "date": today}] * 4
              + [{"type": "01", "businessPartnerId": taxpayer, "lines": line, "date": today}] * 4
              + [{"type": note, "businessPartnerId": taxpayer, "sourceDocumentId": source["id"], "lines": line,
                  "date": today} for note in ("06", "07") for _ in range(4)]
              + [{"type": "103", "businessPartnerId": farmer, "lines": free_line, "date": today}] * 4
              + [{"type": "05", "businessPartnerId": supplier, "sourceDocumentId": purchase["id"], "lines": free_line,
                  "withholding": {"tax": "iva", "side": "purchases"}, "date": today}] * 4)
    results = _all_at_once(shop, bodies)
    assert _outcome(results) == Counter({201: len(bodies)}), _outcome(results)
    numbers: dict[str, list[str]] = {}
    for _, body in results:
        assert body["dte"]["status"] == "accepted", body["dte"]
        numbers.setdefault(body["dte"]["tipoDte"], []).append(body["dte"]["numeroControl"])
    expected_counts = {"01": 4, "03": 5, "05": 4, "06": 4, "14": 4, "07": 4}  # the 03 the notes correct came first
    for tipo, taken in numbers.items():
        count = expected_counts[tipo]
        first = 2 if tipo == "03" else 1
        assert sorted(taken) == [f"DTE-{tipo}-00010001-{n:015d}" for n in range(first, count + 1)], tipo
    assert set(numbers) == set(expected_counts)
