"""Inventory: warehouses, stock per product and warehouse, and the movements that change it.
Stock only changes inside a document's transaction (`StockWrites`), each change with its
movement record, so stock always equals the sum of its movements."""
from __future__ import annotations

from decimal import Decimal
from typing import Any

from chalicelib.domain.documents import merged_quantities
from chalicelib.errors import ApiError, ValidationFailed
from chalicelib.services import records
from chalicelib.services.commands import Command
from chalicelib.store import keys
from chalicelib.store.listing import GSI1, Page
from chalicelib.store.table import Table
from chalicelib.store.transaction import Transaction

# --- warehouses ----------------------------------------------------------------------------------

def list_warehouses(table: Table, company_id: int, page: int, limit: int) -> Page:
    return records.small_page(records.small_records(table, company_id, keys.WAREHOUSE), page, limit)


def get_warehouse(table: Table, company_id: int, warehouse_id: int) -> dict[str, Any]:
    return records.get_small_record(table, company_id, keys.WAREHOUSE, warehouse_id, "Warehouse")


def _require_branch(transaction: Transaction, company_id: int, item: dict[str, Any]) -> None:
    records.require_reference(transaction, company_id, keys.BRANCH, item, "branchId", "branch")


def create_warehouse(command: Command, fields: dict[str, Any]) -> dict[str, Any]:
    return records.create_small_record(command, keys.WAREHOUSE, fields,
                                       lambda transaction, item: _require_branch(transaction, command.company_id, item))


def update_warehouse(command: Command, warehouse_id: int, changes: dict[str, Any],
                     expected_version: int | None) -> dict[str, Any]:
    current = get_warehouse(command.table, command.company_id, warehouse_id)
    records.keep_default_active(command.table, command.company_id, "defaultWarehouseId", warehouse_id, changes,
                                "warehouse")
    return records.update_item(command, keys.small_record(command.company_id, keys.WAREHOUSE, warehouse_id),
                               current, changes, expected_version,
                               lambda transaction, item: _require_branch(transaction, command.company_id, item)
                               if "branchId" in changes else None)


# --- stock ---------------------------------------------------------------------------------------

class InsufficientStock(ApiError):
    status = 400
    code = "INSUFFICIENT_STOCK"


class StockWrites:
    """The stock changes of one command: one update per product and warehouse (conditioned on
    enough stock when it goes down and the company does not allow negative stock) and one
    movement record per document line."""

    def __init__(self, company_id: int, allow_negative: bool) -> None:
        self.company_id = company_id
        self.allow_negative = allow_negative
        self._lines: list[tuple[int, int, Decimal, dict[str, Any]]] = []
        self._fields: dict[tuple[int, int], str] = {}

    def move(self, *, product_id: int, warehouse_id: int, quantity: Decimal, date: str, document: dict[str, Any],
             line: int, field: str, kind: str) -> None:
        """`quantity` is signed: positive into the warehouse, negative out of it."""
        movement = {**keys.stock_movement(self.company_id, product_id, date, int(document["id"]),
                                          int(document["version"]), line),
                    "itemType": "STOCK_MOVEMENT", "productId": product_id, "warehouseId": warehouse_id,
                    "quantity": quantity, "date": date, "documentId": int(document["id"]),
                    "documentType": document["type"], "documentNumber": document.get("number"), "kind": kind}
        movement.update(keys.movement_index(self.company_id, movement["SK"], product_id))
        self._lines.append((product_id, warehouse_id, quantity, movement))
        self._fields.setdefault((product_id, warehouse_id), field)

    @property
    def item_count(self) -> int:
        return len(self._lines) + len({(p, w) for p, w, _, _ in self._lines})

    def apply(self, transaction: Transaction) -> None:
        merged = merged_quantities([(p, w, q) for p, w, q, _ in self._lines])
        for (product_id, warehouse_id), quantity in merged.items():
            if quantity == 0:
                continue
            index = keys.stock_by_warehouse_index(self.company_id, warehouse_id, product_id)
            names = {"#q": "quantity", "#p": "productId", "#w": "warehouseId", "#t": "itemType",
                     "#gpk": "GSI1PK", "#gsk": "GSI1SK"}
            values: dict[str, Any] = {":q": quantity, ":p": product_id, ":w": warehouse_id, ":t": "STOCK",
                                      ":gpk": index["GSI1PK"], ":gsk": index["GSI1SK"]}
            condition = None
            if quantity < 0 and not self.allow_negative:
                condition, values[":need"] = "#q >= :need", -quantity
            field = self._fields[(product_id, warehouse_id)]
            transaction.update(keys.stock(self.company_id, product_id, warehouse_id),
                               "ADD #q :q SET #p = :p, #w = :w, #t = :t, #gpk = :gpk, #gsk = :gsk",
                               condition=condition, names=names, values=values,
                               on_fail=InsufficientStock(
                                   f"Not enough stock of product {product_id} in warehouse {warehouse_id} "
                                   f"for {-quantity}.", details=[{"field": field, "message": "insufficient stock"}]))
        for _, _, quantity, movement in self._lines:
            if quantity != 0:
                transaction.put(movement)


def list_stock(table: Table, company_id: int, *, product_id: int | None, warehouse_id: int | None,
               page: int, limit: int) -> Page:
    if warehouse_id is not None:
        items = table.query_all(partition=("GSI1PK", keys.stock_by_warehouse_index(company_id, warehouse_id, 0)["GSI1PK"]),
                                index=GSI1, **({"sort_prefix": ("GSI1SK", keys.sortable_id(product_id))}
                                               if product_id is not None else {}))
    else:
        items = table.query_all(partition=("PK", keys.stock_partition(company_id)), consistent=True,
                                **({"sort_prefix": ("SK", keys.sortable_id(product_id) + "#")}
                                   if product_id is not None else {}))
    return records.small_page(items, page, limit)


def list_movements(table: Table, company_id: int, *, product_id: int | None, start_date: str | None,
                   end_date: str | None, page: int, limit: int) -> Page:
    """Oldest first. With a product, its own partition (its kardex); otherwise every product.
    The range is read whole for an exact `total`: narrow it with the dates."""
    if start_date and end_date and start_date > end_date:
        raise ValidationFailed.for_field("startDate", "must not be after endDate")
    high = f"{end_date}#~" if end_date else None
    if product_id is not None:
        criteria: dict[str, Any] = {"partition": ("PK", keys.product_movements_partition(company_id, product_id)),
                                    "consistent": True, "sort_range": ("SK", start_date, high)}
    else:
        criteria = {"partition": ("GSI1PK", f"C#{company_id}#STKMV"), "index": GSI1,
                    "sort_range": ("GSI1SK", start_date, high)}
    return records.small_page(table.query_all(**criteria), page, limit)
