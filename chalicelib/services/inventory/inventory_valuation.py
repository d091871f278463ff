"""The inventory valuation at a date: per product and warehouse, the quantity, the average cost and
the value, with a total that equals the inventory accounts on that date.

Each product's position holds what it is now (services/inventory/stock_moves.py); what it was at the end of a
date is that less the movements dated after it. One Query reads every position, and one Query per
product that moved after the date reads those movements (none for today). Every movement's value
is posted to the inventory account on its own date, so the total equals the accounts' balance at
any date, whatever the order documents were recorded in."""
from __future__ import annotations

from decimal import Decimal
from typing import Any

from chalicelib import clock
from chalicelib.domain import accounting, costing, money
from chalicelib.domain.accounting import ZERO
from chalicelib.domain.report_table import Column, ReportTable, amount
from chalicelib.services import records
from chalicelib.services.accounting import reports
from chalicelib.services.accounting.posting import rule_items
from chalicelib.services.inventory.stock_moves import movements_after, position_of, quantities_on
from chalicelib.store import keys
from chalicelib.store.repositories import stock
from chalicelib.store.table import Table


def valuation(table: Table, company_id: int, date: str | None) -> dict[str, Any]:
    if date is None:  # today where the company is, as adjustments and documents are dated
        date = clock.company_today(table.get(keys.company(company_id)))
    positions = stock.positions(table, company_id)
    later = movements_after(table, company_id, date, positions)
    held: dict[int, tuple[Decimal, Decimal, dict[int, Decimal]]] = {}
    for position in positions:
        product_id = position["productId"]
        moved = later.get(product_id, [])
        then = costing.position_on(position_of(position), ((m["quantity"], m.get("value", 0)) for m in moved))
        quantity, value, by_warehouse = then.quantity, then.value, quantities_on(position, moved)
        if quantity or value:
            held[product_id] = (quantity, value, by_warehouse)
    products = {item["id"]: item for item in table.batch_get(
        keys.entity(company_id, keys.PRODUCT, product_id) for product_id in sorted(held)).values()}
    warehouses = {item["id"]: item for item in records.small_records(table, company_id, keys.WAREHOUSE)}
    items = []
    for product_id, (quantity, value, by_warehouse) in held.items():
        product = products.get(product_id, {})
        for warehouse_id, share_quantity, share_value in _shares(quantity, value, by_warehouse):
            items.append({"productId": product_id, "code": product.get("code", ""), "name": product.get("name", ""),
                          "warehouseId": warehouse_id,
                          "warehouseName": warehouses.get(warehouse_id, {}).get("name") if warehouse_id else None,
                          "quantity": share_quantity,
                          "averageCost": costing.shown_cost(share_value, share_quantity) if share_quantity
                          else costing.shown_cost(ZERO),
                          "value": share_value})
    items.sort(key=lambda item: (item["code"], item["productId"], item["warehouseId"] or 0))
    accounts = _inventory_accounts(table, company_id, date)
    total_value = sum((item["value"] for item in items), ZERO)
    balance = sum((account["balance"] for account in accounts), ZERO)
    return {"date": date, "items": items, "totalQuantity": sum((item["quantity"] for item in items), ZERO),
            "totalValue": total_value, "inventoryAccounts": accounts, "accountsBalance": balance,
            "difference": total_value - balance}


def _shares(quantity: Decimal, value: Decimal, by_warehouse: dict[int, Decimal]
            ) -> list[tuple[int | None, Decimal, Decimal]]:
    """A product's value shared among its warehouses by quantity (one average per product); value
    left with no quantity at all (documents recorded out of date order) on a row of its own."""
    stocked = sorted((warehouse_id, held) for warehouse_id, held in by_warehouse.items() if held)
    if not quantity or not stocked:
        return [(None, quantity, value)] if value else []
    values = money.split(value, [held for _, held in stocked])
    return [(warehouse_id, held, share) for (warehouse_id, held), share in zip(stocked, values, strict=True)]


def _inventory_accounts(table: Table, company_id: int, date: str) -> list[dict[str, Any]]:
    """The accounts the determination rules post inventory to, with their balance at the date."""
    account_ids = sorted({rule["chartOfAccountId"] for rule in rule_items(table, company_id)
                          if rule["operationType"] == "inventory"})
    accounts = []
    for account_id in account_ids:
        account, months = reports.account_and_months(table, company_id, account_id, date)
        accounts.append({"chartOfAccountId": account_id, "code": account["code"], "name": account["name"],
                         "balance": accounting.natural_balance(account["type"], *accounting.totals_through(months, date))})
    return accounts


def valuation_table(report: dict[str, Any]) -> ReportTable:
    table = ReportTable("Valuación de inventario", f"Al {report['date']} (costo promedio ponderado)", (
        Column("Código"), Column("Producto", weight=3), Column("Bodega", weight=2), Column("Cantidad", "amount"),
        Column("Costo promedio", "amount"), Column("Valor", "amount")), filename=f"valuacion-inventario-{report['date']}")
    for item in report["items"]:
        table.add(item["code"], item["name"], item["warehouseName"] or "", amount(item["quantity"]),
                  amount(item["averageCost"]), amount(item["value"]))
    table.add("", "Total", "", amount(report["totalQuantity"]), None, amount(report["totalValue"]), emphasis=True)
    for account in report["inventoryAccounts"]:
        table.add(account["code"], account["name"], "", None, None, amount(account["balance"]))
    table.add("", "Diferencia con la contabilidad", "", None, None, amount(report["difference"]), emphasis=True)
    return table
