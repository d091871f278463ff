"""Branches, CAI ranges, warehouses, stock and stock movements, inventory adjustments and transfers,
and the inventory valuation. Models and services load on first use; handlers return plain records
that the route's response model renders."""
from __future__ import annotations

from typing import Any

from chalice import Blueprint

from chalicelib.api.exports import report_answer
from chalicelib.api.routing import ACCOUNTING, MANAGE, Call, endpoint, page_body
from chalicelib.exports import REPORT_TYPES

blueprint = Blueprint(__name__)
FISCAL, INVENTORY = "Fiscal numbering", "Inventory"
M = "chalicelib.models.inventory:"
PAGE = "chalicelib.models.base:PageQuery"
LIST = "chalicelib.models.base:ListQuery"


@endpoint(blueprint, "GET", "/branch", summary="List branches (establishments)", tag=FISCAL, query=PAGE,
          response=M + "BranchList")
def list_branches(call: Call) -> Any:
    from chalicelib.services.sales_purchases import fiscal

    return page_body("branches", fiscal.list_branches(call.command.table, call.principal.company_id,
                                                      call.query.page, call.query.limit))


@endpoint(blueprint, "GET", "/branch/{id}", summary="One branch", tag=FISCAL, response=M + "Branch")
def get_branch(call: Call) -> Any:
    from chalicelib.services.sales_purchases import fiscal

    return fiscal.get_branch(call.command.table, call.principal.company_id, call.ids["id"])


@endpoint(blueprint, "POST", "/branch", summary="Create a branch", tag=FISCAL, body=M + "BranchCreate",
          response=M + "Branch", permission=MANAGE)
def create_branch(call: Call) -> Any:
    from chalicelib.services.sales_purchases import fiscal

    return fiscal.create_branch(call.command, call.body.model_dump(by_alias=True))


@endpoint(blueprint, "PUT", "/branch/{id}", summary="Update a branch (sparse)", tag=FISCAL, body=M + "BranchUpdate",
          response=M + "Branch", permission=MANAGE, versioned=True)
def update_branch(call: Call) -> Any:
    from chalicelib.services.sales_purchases import fiscal

    return fiscal.update_branch(call.command, call.ids["id"], call.changes(), call.expected_version())


@endpoint(blueprint, "GET", "/cai", summary="List CAI ranges", tag=FISCAL, query=PAGE, response=M + "CaiRangeList")
def list_ranges(call: Call) -> Any:
    from chalicelib.services.sales_purchases import fiscal

    return page_body("caiRanges", fiscal.list_ranges(call.command.table, call.principal.company_id,
                                                     call.query.page, call.query.limit))


@endpoint(blueprint, "GET", "/cai/{id}", summary="One CAI range", tag=FISCAL, response=M + "CaiRange")
def get_range(call: Call) -> Any:
    from chalicelib.services.sales_purchases import fiscal

    return fiscal.get_range(call.command.table, call.principal.company_id, call.ids["id"])


@endpoint(blueprint, "POST", "/cai", summary="Register a CAI range", tag=FISCAL, body=M + "CaiRangeCreate",
          response=M + "CaiRange", permission=MANAGE)
def create_range(call: Call) -> Any:
    from chalicelib.services.sales_purchases import fiscal

    return fiscal.create_range(call.command, call.body.model_dump(by_alias=True))


@endpoint(blueprint, "PUT", "/cai/{id}", summary="Update a CAI range (sparse)", tag=FISCAL, body=M + "CaiRangeUpdate",
          response=M + "CaiRange", permission=MANAGE, versioned=True)
def update_range(call: Call) -> Any:
    from chalicelib.services.sales_purchases import fiscal

    return fiscal.update_range(call.command, call.ids["id"], call.changes(), call.expected_version())


@endpoint(blueprint, "GET", "/warehouses", summary="List warehouses", tag=INVENTORY, query=PAGE,
          response=M + "WarehouseList")
def list_warehouses(call: Call) -> Any:
    from chalicelib.services.inventory import inventory

    return page_body("warehouses", inventory.list_warehouses(call.command.table, call.principal.company_id,
                                                             call.query.page, call.query.limit))


@endpoint(blueprint, "GET", "/warehouses/{id}", summary="One warehouse", tag=INVENTORY, response=M + "Warehouse")
def get_warehouse(call: Call) -> Any:
    from chalicelib.services.inventory import inventory

    return inventory.get_warehouse(call.command.table, call.principal.company_id, call.ids["id"])


@endpoint(blueprint, "POST", "/warehouses", summary="Create a warehouse", tag=INVENTORY, body=M + "WarehouseCreate",
          response=M + "Warehouse", permission=MANAGE)
def create_warehouse(call: Call) -> Any:
    from chalicelib.services.inventory import inventory

    return inventory.create_warehouse(call.command, call.body.model_dump(by_alias=True))


@endpoint(blueprint, "PUT", "/warehouses/{id}", summary="Update a warehouse (sparse)", tag=INVENTORY,
          body=M + "WarehouseUpdate", response=M + "Warehouse", permission=MANAGE, versioned=True)
def update_warehouse(call: Call) -> Any:
    from chalicelib.services.inventory import inventory

    return inventory.update_warehouse(call.command, call.ids["id"], call.changes(), call.expected_version())


@endpoint(blueprint, "GET", "/inventory/stock", summary="Stock per product and warehouse, today or at the end of a date", tag=INVENTORY,
          query=M + "StockQuery", response=M + "StockList")
def list_stock(call: Call) -> Any:
    from chalicelib.services.inventory import inventory

    q = call.query
    return page_body("stock", inventory.list_stock(call.command.table, call.principal.company_id,
                                                   product_id=q.product_id, warehouse_id=q.warehouse_id,
                                                   page=q.page, limit=q.limit, date=q.date))


@endpoint(blueprint, "GET", "/inventory/movements", summary="Stock movements, oldest first", tag=INVENTORY,
          query=M + "MovementQuery", response=M + "MovementList")
def list_movements(call: Call) -> Any:
    from chalicelib.services.inventory import inventory

    q = call.query
    return page_body("movements", inventory.list_movements(call.command.table, call.principal.company_id,
                                                           product_id=q.product_id, start_date=q.start_date,
                                                           end_date=q.end_date, page=q.page, limit=q.limit))


S = "chalicelib.models.stock:"


@endpoint(blueprint, "POST", "/inventory/adjustments", summary="Adjust stock: an opening stock, a physical count, "
          "goods damaged or lost (posts inventory against opening equity or an adjustment gain or loss)",
          tag=INVENTORY, body=S + "AdjustmentCreate", response=S + "Adjustment", permission=ACCOUNTING)
def create_adjustment(call: Call) -> Any:
    from chalicelib.services.inventory import inventory_adjustments

    return inventory_adjustments.create_adjustment(call.command, call.body.model_dump(by_alias=True))


@endpoint(blueprint, "GET", "/inventory/adjustments", summary="Inventory adjustments, newest first", tag=INVENTORY,
          query=LIST, response=S + "AdjustmentList")
def list_adjustments(call: Call) -> Any:
    from chalicelib.services.inventory import inventory_adjustments

    q = call.query
    return page_body("adjustments", inventory_adjustments.list_adjustments(
        call.command.table, call.principal.company_id, page=q.page, limit=q.limit, cursor=q.cursor))


@endpoint(blueprint, "GET", "/inventory/adjustments/{id}", summary="One inventory adjustment", tag=INVENTORY,
          response=S + "Adjustment")
def get_adjustment(call: Call) -> Any:
    from chalicelib.services.inventory import inventory_adjustments

    return inventory_adjustments.get_adjustment(call.command.table, call.principal.company_id, call.ids["id"])


@endpoint(blueprint, "POST", "/inventory/transfers", summary="Move goods from one warehouse to another (no entry: "
          "same company, same average cost)", tag=INVENTORY, body=S + "TransferCreate", response=S + "Transfer")
def create_transfer(call: Call) -> Any:
    from chalicelib.services.inventory import inventory_transfers

    return inventory_transfers.create_transfer(call.command, call.body.model_dump(by_alias=True))


@endpoint(blueprint, "GET", "/inventory/transfers", summary="Transfers between warehouses, newest first",
          tag=INVENTORY, query=LIST, response=S + "TransferList")
def list_transfers(call: Call) -> Any:
    from chalicelib.services.inventory import inventory_transfers

    q = call.query
    return page_body("transfers", inventory_transfers.list_transfers(
        call.command.table, call.principal.company_id, page=q.page, limit=q.limit, cursor=q.cursor))


@endpoint(blueprint, "GET", "/inventory/transfers/{id}", summary="One transfer", tag=INVENTORY,
          response=S + "Transfer")
def get_transfer(call: Call) -> Any:
    from chalicelib.services.inventory import inventory_transfers

    return inventory_transfers.get_transfer(call.command.table, call.principal.company_id, call.ids["id"])


@endpoint(blueprint, "GET", "/inventory/valuation", summary="Inventory valuation at a date: quantity, average cost "
          "and value per product and warehouse, against the inventory accounts", tag="Reports",
          query=S + "ValuationQuery", response=S + "Valuation", exports=REPORT_TYPES)
def valuation(call: Call) -> Any:
    from chalicelib.services.inventory import inventory_valuation

    report = inventory_valuation.valuation(call.command.table, call.principal.company_id, call.query.date)
    return report_answer(call, report, inventory_valuation.valuation_table)
