"""The `opening-stock` import: quantity and unit cost per product and warehouse at the changeover
date, as inventory adjustments of reason `opening` (services/inventory/inventory_adjustments.py:
inventory against the opening balance equity account). One adjustment per warehouse and per
`LINES_PER_ADJUSTMENT` lines, each a unit (its marker commits with it). Natural key: (product,
warehouse), against the file and the stock already there."""
from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal
from typing import Any

from chalicelib.domain.import_rows import Column, Row, RowError
from chalicelib.messages.books import book_text
from chalicelib.messages.phrases import Phrase
from chalicelib.services import records
from chalicelib.services.imports import opening_cells
from chalicelib.services.imports.kinds import Checked, ImportContext
from chalicelib.services.inventory import inventory_adjustments
from chalicelib.services.sales_purchases import products
from chalicelib.store import keys

COLUMNS = (
    Column("productCode", "Código del producto", True, "P-001", aliases=("codigo", "code")),
    Column("warehouseId", "Bodega", True, "1", aliases=("almacen",)),
    Column("quantity", "Cantidad", True, "10"),
    Column("unitCost", "Costo unitario", True, "125.50", aliases=("costo",)),
)
# a line writes its stock movement and its product's position (2 items); the adjustment, its entry
# (postings, balances, guards, day count, period checks) and event about 12 more, the marker and the
# job's progress 2: 35 lines stay well inside MAX_TRANSACTION_ITEMS
LINES_PER_ADJUSTMENT = 35


@dataclass(frozen=True)
class StockUnit(opening_cells.OpeningUnit):
    warehouse_id: int


def _products_by_code(context: ImportContext, codes: set[str]) -> dict[str, tuple[dict[str, Any], dict[str, Any] | None]]:
    """Code as written -> (the product, its stock position or None)."""
    company_id, table = context.company_id, context.table
    reserved = table.batch_get([products.product_code_key(company_id, code) for code in codes])
    ids = {code: int(found["productId"]) for code in codes
           if (found := reserved.get(keys.pair(products.product_code_key(company_id, code))))}
    wanted = [key for product_id in set(ids.values())
              for key in (keys.entity(company_id, keys.PRODUCT, product_id), keys.stock_position(company_id, product_id))]
    stored = table.batch_get(wanted)
    return {code: (product, stored.get(keys.pair(keys.stock_position(company_id, product_id))))
            for code, product_id in ids.items()
            if (product := stored.get(keys.pair(keys.entity(company_id, keys.PRODUCT, product_id))))}


class OpeningStock:
    name = "opening-stock"
    columns = COLUMNS
    needs_date = True

    def check(self, context: ImportContext, rows: list[Row]) -> Checked:
        errors: list[RowError] = []
        changeover = opening_cells.changeover(context, errors)
        opening_cells.refuse_closed_changeover(context, changeover, errors)
        found = _products_by_code(context, {row.values["productCode"] for row in rows if row.values.get("productCode")})
        warehouses = {int(item["id"]): item for item in records.small_records(context.table, context.company_id,
                                                                              keys.WAREHOUSE)}
        first_line: dict[tuple[int, int], int] = {}
        by_warehouse: dict[int, list[tuple[Row, dict[str, Any], Decimal]]] = {}
        for row in rows:
            problems: list[RowError] = []
            code = row.values.get("productCode")
            product, position = found.get(code or "", (None, None))
            if code is None:
                problems.append(RowError(row.line, "productCode", "required"))
            elif product is None:
                problems.append(RowError(row.line, "productCode", Phrase("no product has the code {}", code)))
            elif not product.get("isActive", True):
                problems.append(RowError(row.line, "productCode", Phrase("the product {} is inactive", code)))
            elif product.get("type", "product") != "product" or not product.get("trackInventory", True):
                problems.append(RowError(row.line, "productCode",
                        Phrase("the product {} does not keep stock: it is a service or does not track inventory",
                               code)))
            warehouse_id = None
            text = row.values.get("warehouseId")
            if text is None:
                problems.append(RowError(row.line, "warehouseId", "required"))
            elif not text.isdigit() or int(text) not in warehouses:
                problems.append(RowError(row.line, "warehouseId", Phrase("no such warehouse: {}", text)))
            elif not warehouses[int(text)].get("isActive", True):
                problems.append(RowError(row.line, "warehouseId", Phrase("the warehouse {} is inactive", text)))
            else:
                warehouse_id = int(text)
            quantity = opening_cells.number(row, "quantity", problems, required=True)
            if quantity is not None and quantity <= 0:
                problems.append(RowError(row.line, "quantity", "must be greater than zero"))
            cost = opening_cells.number(row, "unitCost", problems, required=True)
            if cost is not None and cost < 0:
                problems.append(RowError(row.line, "unitCost", "must not be negative"))
            if problems or product is None or warehouse_id is None or quantity is None or cost is None:
                errors.extend(problems)
                continue
            natural = (int(product["id"]), warehouse_id)
            if natural in first_line:
                errors.append(RowError(row.line, "productCode",
                        Phrase("repeats the product and warehouse of line {}", first_line[natural])))
                continue
            first_line[natural] = row.line
            by_warehouse.setdefault(warehouse_id, []).append((row, {"productId": int(product["id"]), "quantity": quantity,
                                                                   "unitCost": cost}, Decimal((position or {}).get(
                                                                       "warehouses", {}).get(str(warehouse_id), 0))))
        units: list[StockUnit] = []
        for warehouse_id, lines in by_warehouse.items():
            for number, piece in opening_cells.chunks(lines, LINES_PER_ADJUSTMENT):
                unit = StockUnit(f"opening-stock/{warehouse_id}/{number}", [line for _, line, _ in piece],
                                 tuple(row.line for row, _, _ in piece), warehouse_id)
                if not context.is_done(unit.unit):  # landed by this job: its stock is its own
                    errors.extend(RowError(row.line, "quantity",
                            Phrase("the warehouse already holds {} of the product", format(held, 'f')))
                                  for row, _, held in piece if held)
                units.append(unit)
        return Checked(errors, None if errors else (changeover, units))

    def apply(self, context: ImportContext, plan: tuple[str, list[StockUnit]]) -> dict[str, int]:
        changeover, units = plan
        command = opening_cells.command_for(context)

        def write(unit: StockUnit) -> None:
            transaction, adjustment = inventory_adjustments.adjustment_writes(command, {
                "reason": inventory_adjustments.OPENING, "warehouseId": unit.warehouse_id, "date": changeover,
                "reference": book_text("opening_balances", date=changeover), "lines": unit.lines}, room=2)
            context.mark_done(transaction, unit.unit)
            command.commit(transaction, adjustment)

        return opening_cells.land_openings(context, units, write)  # this job's adjustments and their lines


KIND = OpeningStock()
