"""Branches, CAI ranges, warehouses, stock and stock movements."""
from __future__ import annotations

from chalice import Blueprint

from chalicelib.api.routing import MANAGE, Call, endpoint, envelope
from chalicelib.models.base import PageQuery
from chalicelib.models.inventory import (
    Branch,
    BranchCreate,
    BranchList,
    BranchUpdate,
    CaiRange,
    CaiRangeCreate,
    CaiRangeList,
    CaiRangeUpdate,
    MovementList,
    MovementQuery,
    StockLevel,
    StockList,
    StockMovement,
    StockQuery,
    Warehouse,
    WarehouseCreate,
    WarehouseList,
    WarehouseUpdate,
)

blueprint = Blueprint(__name__)
FISCAL, INVENTORY = "Fiscal numbering", "Inventory"


@endpoint(blueprint, "GET", "/branch", summary="List branches (establishments)", tag=FISCAL, query=PageQuery,
          response=BranchList)
def list_branches(call: Call) -> BranchList:
    from chalicelib.services import fiscal

    page = fiscal.list_branches(call.command.table, call.principal.company_id, call.query.page, call.query.limit)
    return envelope(BranchList, "branches", Branch, page)


@endpoint(blueprint, "GET", "/branch/{id}", summary="One branch", tag=FISCAL, response=Branch)
def get_branch(call: Call) -> Branch:
    from chalicelib.services import fiscal

    return Branch.model_validate(fiscal.get_branch(call.command.table, call.principal.company_id, call.ids["id"]))


@endpoint(blueprint, "POST", "/branch", summary="Create a branch", tag=FISCAL, body=BranchCreate, response=Branch,
          permission=MANAGE)
def create_branch(call: Call) -> Branch:
    from chalicelib.services import fiscal

    return Branch.model_validate(fiscal.create_branch(call.command, call.body.model_dump(by_alias=True)))


@endpoint(blueprint, "PUT", "/branch/{id}", summary="Update a branch (sparse)", tag=FISCAL, body=BranchUpdate,
          response=Branch, permission=MANAGE)
def update_branch(call: Call) -> Branch:
    from chalicelib.services import fiscal

    return Branch.model_validate(fiscal.update_branch(call.command, call.ids["id"], call.changes(),
                                                      call.expected_version()))


@endpoint(blueprint, "GET", "/cai", summary="List CAI ranges", tag=FISCAL, query=PageQuery, response=CaiRangeList)
def list_ranges(call: Call) -> CaiRangeList:
    from chalicelib.services import fiscal

    page = fiscal.list_ranges(call.command.table, call.principal.company_id, call.query.page, call.query.limit)
    return envelope(CaiRangeList, "cai_ranges", CaiRange, page)


@endpoint(blueprint, "GET", "/cai/{id}", summary="One CAI range", tag=FISCAL, response=CaiRange)
def get_range(call: Call) -> CaiRange:
    from chalicelib.services import fiscal

    return CaiRange.model_validate(fiscal.get_range(call.command.table, call.principal.company_id, call.ids["id"]))


@endpoint(blueprint, "POST", "/cai", summary="Register a CAI range", tag=FISCAL, body=CaiRangeCreate,
          response=CaiRange, permission=MANAGE)
def create_range(call: Call) -> CaiRange:
    from chalicelib.services import fiscal

    return CaiRange.model_validate(fiscal.create_range(call.command, call.body.model_dump(by_alias=True)))


@endpoint(blueprint, "PUT", "/cai/{id}", summary="Update a CAI range (sparse)", tag=FISCAL, body=CaiRangeUpdate,
          response=CaiRange, permission=MANAGE)
def update_range(call: Call) -> CaiRange:
    from chalicelib.services import fiscal

    return CaiRange.model_validate(fiscal.update_range(call.command, call.ids["id"], call.changes(),
                                                       call.expected_version()))


@endpoint(blueprint, "GET", "/warehouses", summary="List warehouses", tag=INVENTORY, query=PageQuery,
          response=WarehouseList)
def list_warehouses(call: Call) -> WarehouseList:
    from chalicelib.services import inventory

    page = inventory.list_warehouses(call.command.table, call.principal.company_id, call.query.page, call.query.limit)
    return envelope(WarehouseList, "warehouses", Warehouse, page)


@endpoint(blueprint, "GET", "/warehouses/{id}", summary="One warehouse", tag=INVENTORY, response=Warehouse)
def get_warehouse(call: Call) -> Warehouse:
    from chalicelib.services import inventory

    return Warehouse.model_validate(inventory.get_warehouse(call.command.table, call.principal.company_id,
                                                            call.ids["id"]))


@endpoint(blueprint, "POST", "/warehouses", summary="Create a warehouse", tag=INVENTORY, body=WarehouseCreate,
          response=Warehouse, permission=MANAGE)
def create_warehouse(call: Call) -> Warehouse:
    from chalicelib.services import inventory

    return Warehouse.model_validate(inventory.create_warehouse(call.command, call.body.model_dump(by_alias=True)))


@endpoint(blueprint, "PUT", "/warehouses/{id}", summary="Update a warehouse (sparse)", tag=INVENTORY,
          body=WarehouseUpdate, response=Warehouse, permission=MANAGE)
def update_warehouse(call: Call) -> Warehouse:
    from chalicelib.services import inventory

    return Warehouse.model_validate(inventory.update_warehouse(call.command, call.ids["id"], call.changes(),
                                                               call.expected_version()))


@endpoint(blueprint, "GET", "/inventory/stock", summary="Stock per product and warehouse", tag=INVENTORY,
          query=StockQuery, response=StockList)
def list_stock(call: Call) -> StockList:
    from chalicelib.services import inventory

    q = call.query
    page = inventory.list_stock(call.command.table, call.principal.company_id, product_id=q.product_id,
                                warehouse_id=q.warehouse_id, page=q.page, limit=q.limit)
    return envelope(StockList, "stock", StockLevel, page)


@endpoint(blueprint, "GET", "/inventory/movements", summary="Stock movements, oldest first", tag=INVENTORY,
          query=MovementQuery, response=MovementList)
def list_movements(call: Call) -> MovementList:
    from chalicelib.services import inventory

    q = call.query
    page = inventory.list_movements(call.command.table, call.principal.company_id, product_id=q.product_id,
                                    start_date=q.start_date, end_date=q.end_date, page=q.page, limit=q.limit)
    return envelope(MovementList, "movements", StockMovement, page)
