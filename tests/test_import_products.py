"""The `products` import kind run directly (rows as Row objects): rows checked as POST /products
checks them, the code unique whatever its case in the file and the company, many products a
transaction, a run again after a fault, update mode."""
from __future__ import annotations

from decimal import Decimal

import pytest

from chalicelib.services.imports import products as products_kind
from chalicelib.services.sales_purchases import products
from tests.import_kinds_support import context, problems, rows, run, stop_at_call

PRODUCTS = "/products"


def listed(api, company, query: str = "") -> dict:
    reply = api.get(f"{PRODUCTS}?limit=100{'&q=' + query if query else ''}", key=company.api_key)
    assert reply.status == 200, reply.text
    return reply.json


def test_products_land_as_post_products_makes_them_with_the_spanish_words_read(api, table, company_a):
    checked, applied = run("products", context(table, company_a), rows(
        {"code": "CAF-1", "name": "Café molido 1 lb", "unitPrice": "1,250.50", "cost": "80", "taxRate": "15%"},
        {"code": "SRV-1", "name": "Instalación", "type": "Servicio", "unitPrice": "500", "taxRate": "0"},
        {"code": "BEB-1", "name": "Cerveza", "unitPrice": "35.00", "taxRate": "18", "trackInventory": "no"}))
    assert checked.errors == [] and applied == {"created": 3, "updated": 0}
    assert listed(api, company_a)["total"] == 3
    by_code = {p["code"]: p for p in listed(api, company_a)["products"]}
    # "1,250.50": the thousands separator dropped; "15%" and "18" are 0.15 and 0.18 (Honduras' rates)
    assert (by_code["CAF-1"]["unitPrice"], by_code["CAF-1"]["cost"], by_code["CAF-1"]["taxRate"]) == (Decimal("1250.50"), 80, Decimal("0.15"))
    # a product is stocked unless the row says no; a service never
    assert [by_code[code]["trackInventory"] for code in ("CAF-1", "SRV-1", "BEB-1")] == [True, False, False]
    assert (by_code["SRV-1"]["type"], by_code["SRV-1"]["taxRate"], by_code["BEB-1"]["taxRate"]) == ("service", 0, Decimal("0.18"))
    assert [p["code"] for p in listed(api, company_a, "cafe")["products"]] == ["CAF-1"]
    made = api.post(PRODUCTS, {"code": "X-1", "name": "Otro"}, key=company_a.api_key)
    assert made.status == 201 and listed(api, company_a)["total"] == 4  # the count goes on from the import's


def test_bad_rows_duplicated_codes_and_the_countrys_rates_reported_per_row(api, table, company_a):
    assert api.post(PRODUCTS, {"code": "P-100", "name": "Existente"}, key=company_a.api_key).status == 201
    checked, applied = run("products", context(table, company_a), rows(
        {"code": "P-001", "name": "Uno"},                      # line 2
        {"code": "p-001", "name": "Dos"},                      # line 3: line 2's code in other case
        {"code": "P-100", "name": "Tres"},                     # line 4: the existing product's
        {"code": "P-004", "name": "Cuatro", "taxRate": "13%"},  # line 5: El Salvador's rate, not Honduras'
        {"code": "P-005", "name": "Cinco", "unitPrice": "-3"},  # line 6
        {"code": "P-006", "name": ""}))                         # line 7: no name
    assert applied is None
    assert [(row, column) for row, column, _ in problems(checked)] == [
        (3, "code"), (4, "code"), (5, "taxRate"), (6, "unitPrice"), (7, "name")]
    assert problems(checked)[:2] == [(3, "code", "repeats the value of row 2"),
                                     (4, "code", "already used by another product")]
    assert listed(api, company_a)["total"] == 1


def test_a_run_stopped_after_its_first_unit_lands_every_product_once(api, table, company_a, monkeypatch):
    file_rows = rows(*({"code": f"P-{n:03d}", "name": f"Producto {n:03d}"} for n in range(1, 31)))
    ctx = context(table, company_a, job_id=3)
    checked = products_kind.KIND.check(ctx, file_rows)
    # a product's items: itself, its code's reservation and 5 terms ("p", "001", "p001", "producto",
    # "producto001") = 7; a unit adds the count once: 13 products = 92 <= 98, 14 = 99. 30 = 13 + 13 + 4
    assert [len(unit.entries) for unit in checked.plan.creates] == [13, 13, 4]
    calls = stop_at_call(monkeypatch, products, "add_product_batch", 2, RuntimeError("the Lambda stopped"),
                         lambda transaction, company_id, items: len(items))
    with pytest.raises(RuntimeError):
        products_kind.KIND.apply(ctx, checked.plan)
    assert listed(api, company_a)["total"] == 13
    again, applied = run("products", ctx, file_rows)
    assert again.errors == [] and applied == {"created": 30, "updated": 0}
    # the first unit was not written again: calls 1 and 2 of the first run, 3 and 4 of the second
    assert calls == [13, 13, 13, 4]
    assert listed(api, company_a)["total"] == 30
    assert len(products.code_holders(table, company_a.company_id)) == 30


def test_update_mode_changes_the_existing_products_row_columns_only(api, table, company_a):
    made = api.post(PRODUCTS, {"code": "P-1", "name": "Viejo", "unitPrice": "10.00", "cost": "4.00"},
                    key=company_a.api_key).json
    checked, applied = run("products", context(table, company_a, update=True), rows(
        {"code": "p-1", "name": "Nuevo nombre", "unitPrice": "12.50"}))
    assert checked.errors == [] and applied == {"created": 0, "updated": 1}
    after = api.get(f"{PRODUCTS}/{made['id']}", key=company_a.api_key).json
    assert (after["code"], after["name"], after["unitPrice"], after["cost"], after["version"]) == (
        "p-1", "Nuevo nombre", Decimal("12.50"), 4, 2)
    assert [p["id"] for p in listed(api, company_a, "nuevo")["products"]] == [made["id"]]
    assert listed(api, company_a, "viejo")["total"] == 0
    assert listed(api, company_a)["total"] == 1
