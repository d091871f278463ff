"""What inventory adjustments and transfers share: the goods their lines name (checked and read
with their positions), the warehouses, and how they are stored and listed (by date, newest first)."""
from __future__ import annotations

from typing import Any

from chalicelib.errors import NotFound, ValidationFailed
from chalicelib.messages.phrases import Phrase
from chalicelib.services.inventory.stock_moves import position_keys
from chalicelib.store import keys
from chalicelib.store.listing import Page, list_range
from chalicelib.store.table import Table
from chalicelib.store.transaction import Transaction


def load_goods(table: Table, company_id: int, lines: list[dict[str, Any]]
               ) -> tuple[dict[str, Any], dict[int, dict[str, Any]], dict[int, dict[str, Any]]]:
    """The company, the lines' products and their stock positions, in one BatchGetItem. Each line
    names a different active product that keeps stock."""
    product_ids = [line["productId"] for line in lines]
    wanted = [keys.company(company_id), *(keys.entity(company_id, keys.PRODUCT, p) for p in set(product_ids)),
              *position_keys(company_id, set(product_ids))]
    found = table.batch_get(wanted)
    company = found.get(keys.pair(keys.company(company_id)))
    if company is None:
        raise NotFound("Company not found.")
    problems: list[dict[str, str]] = []
    first_line: dict[int, int] = {}
    products: dict[int, dict[str, Any]] = {}
    for index, product_id in enumerate(product_ids):
        field = f"lines[{index}].productId"
        product = found.get(keys.pair(keys.entity(company_id, keys.PRODUCT, product_id)))
        if product_id in first_line:
            problems.append({"field": field, "message": Phrase("the product is on another line (lines[{}])",
                                                               first_line[product_id])})
        elif product is None:
            problems.append({"field": field, "message": "no such product"})
        elif not product.get("isActive", True):
            problems.append({"field": field, "message": "the product is inactive"})
        elif product.get("type", "product") != "product" or not product.get("trackInventory", True):
            problems.append({"field": field, "message": "no such stocked product: it is a service or does not "
                                                        "track inventory"})
        else:
            products[product_id] = product
        first_line.setdefault(product_id, index)
    if problems:
        raise ValidationFailed(Phrase("{}: {}", problems[0]['field'], problems[0]['message']), details=problems)
    positions = {item["productId"]: item for key in position_keys(company_id, products)
                 if (item := found.get(keys.pair(key))) is not None}
    return company, products, positions


def require_warehouse(table: Table, company_id: int, warehouse_id: int, field: str) -> dict[str, Any]:
    warehouse = table.get(keys.small_record(company_id, keys.WAREHOUSE, warehouse_id))
    if warehouse is None:
        raise ValidationFailed.for_field(field, "no such warehouse")
    if not warehouse.get("isActive", True):
        raise ValidationFailed.for_field(field, "the warehouse is inactive")
    return warehouse


def put_record(transaction: Transaction, company_id: int, kind: str, record: dict[str, Any]) -> None:
    """A new adjustment or transfer, listed by date, and counted."""
    transaction.put_new({**keys.entity(company_id, kind, record["id"]),
                         **keys.dated_record_index(company_id, kind, record["date"], record["id"]),
                         "itemType": kind, **{name: value for name, value in record.items() if value is not None}})
    transaction.increment(keys.entity_count(company_id, kind), "total")


def list_stock_records(table: Table, company_id: int, kind: str, *, page: int, limit: int, cursor: str | None) -> Page:
    """Newest first (by date, then id); `total` from the count kept with them."""
    counted = table.get(keys.entity_count(company_id, kind)) or {}
    return list_range(table, partition=keys.collection_partition(company_id, kind), low=None, high=None, filters={},
                      page=page, limit=limit, cursor=cursor, descending=True, total=int(counted.get("total", 0)))


def get_stock_record(table: Table, company_id: int, kind: str, record_id: int, label: str) -> dict[str, Any]:
    item = table.get(keys.entity(company_id, kind, record_id))
    if item is None:
        raise NotFound(Phrase("{} not found.", label))
    return item
