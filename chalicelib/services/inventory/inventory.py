"""Inventory: warehouses, stock per product and warehouse, and the movements that change it
(written by services/inventory/stock_moves.py inside the command that moves the goods)."""
from __future__ import annotations

from typing import Any

from chalicelib.errors import ValidationFailed
from chalicelib.services import records
from chalicelib.services.commands import Command
from chalicelib.services.inventory.stock_moves import movements_after, quantities_on
from chalicelib.store import keys
from chalicelib.store.listing import Page
from chalicelib.store.repositories import stock
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

def list_stock(table: Table, company_id: int, *, product_id: int | None, warehouse_id: int | None,
               page: int, limit: int, date: str | None = None) -> Page:
    """Stock per product and warehouse, from the products' positions (one item per product holds
    its quantity in each warehouse): one GetItem for a product, else one Query of the positions.
    At a `date`, the end of that day: movements dated after it are taken back (one Query per
    product that moved later)."""
    if product_id is not None:
        position = table.get(keys.stock_position(company_id, product_id))
        positions = [position] if position else []
    else:
        positions = stock.positions(table, company_id)
    later = movements_after(table, company_id, date, positions) if date else {}
    levels = [{"productId": position["productId"], "warehouseId": warehouse, "quantity": quantity}
              for position in positions
              for warehouse, quantity in sorted(quantities_on(position, later.get(position["productId"], [])).items())
              if warehouse_id is None or warehouse == warehouse_id]
    return records.small_page(levels, page, limit)


def list_movements(table: Table, company_id: int, *, product_id: int | None, start_date: str | None,
                   end_date: str | None, page: int, limit: int) -> Page:
    """Oldest first. With a product, its own partition (its kardex); otherwise every product.
    The range is read whole for an exact `total`: narrow it with the dates."""
    if start_date and end_date and start_date > end_date:
        raise ValidationFailed.for_field("startDate", "must not be after the end date")
    return records.small_page(stock.movements_between(table, company_id, product_id, start_date, end_date), page,
                              limit)
