"""The `products` import: the catalogue from a table, each row checked as POST /products checks its
body (the same model, the company's tax rates), the code its natural key (unique in the file and in
the company, whatever its case), written many per transaction by
services/sales_purchases/products.py's own writes."""
from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal, InvalidOperation
from typing import Any

from chalicelib.domain import search as search_rules
from chalicelib.domain import taxes
from chalicelib.domain.import_rows import Column, Row, RowError
from chalicelib.errors import ApiError
from chalicelib.models.products import ProductCreate
from chalicelib.services import records
from chalicelib.services.identity import accounts
from chalicelib.services.imports import row_checks
from chalicelib.services.imports.kinds import Checked, ImportContext
from chalicelib.services.sales_purchases import products
from chalicelib.store import keys
from chalicelib.store.transaction import Transaction

COLUMNS = (
    Column("code", "Código", required=True, example="P-001", aliases=("Código de producto", "SKU")),
    Column("name", "Nombre", required=True, example="Café molido 1 lb", aliases=("Descripción corta",)),
    Column("type", "Tipo", example="product", aliases=("Producto o servicio",)),
    Column("description", "Descripción"),
    Column("unitPrice", "Precio unitario", example="120.00", aliases=("Precio", "Precio de venta")),
    Column("cost", "Costo", example="80.00", aliases=("Costo unitario",)),
    Column("taxRate", "Tasa de impuesto", aliases=("Impuesto", "ISV", "IVA", "Tasa")),
    Column("trackInventory", "Controla inventario", example="sí", aliases=("Inventariable", "Lleva inventario")),
    Column("isActive", "Activo", aliases=("Activa",)),
)
CHOICES = {"type": {"producto": "product", "bien": "product", "servicio": "service"}}
FLAGS = ("trackInventory", "isActive")
AMOUNTS = ("unitPrice", "cost")


@dataclass(frozen=True)
class Entry:
    line: int
    fields: dict[str, Any]
    existing: dict[str, Any] | None


@dataclass
class Plan:
    creates: list[row_checks.Unit]
    updates: list[row_checks.Unit]


def _entry_size(entry: Entry) -> int:
    """A new product's items: itself, its code's reservation and its search terms."""
    return 2 + len(search_rules.terms(entry.fields.get(name) for name in products.PRODUCT.search_fields))


def _rate(text: str) -> str:
    """A rate written as a percentage ("15%", "15") as the API's fraction (0.15)."""
    number = text.strip().removesuffix("%").strip()
    try:
        value = Decimal(number)
    except InvalidOperation:
        return text
    return str(value / 100) if text.strip().endswith("%") or value >= 1 else text


class ProductsKind:
    name = "products"
    columns = COLUMNS
    needs_date = False

    def check(self, context: ImportContext, rows: list[Row]) -> Checked:
        table, company_id = context.table, context.company_id
        country = accounts.company_country(table, company_id)
        holders = products.code_holders(table, company_id)
        first_of: dict[str, int] = {}
        errors: list[RowError] = []
        creates: list[Entry] = []
        updating: list[tuple[int, dict[str, Any], int]] = []
        for row in rows:
            body = row_checks.cell_values(row, choices=CHOICES, flags=FLAGS, amounts=AMOUNTS)
            if "taxRate" in body:
                body["taxRate"] = _rate(body["taxRate"])
            model, problems = row_checks.validated(ProductCreate, row, body)
            if model is None:
                errors += problems
                continue
            given = {name: value for name, value in model.model_dump(by_alias=True).items()
                     if value is not None and name in body}
            reservation = products.code_reservation(company_id, model.code)
            if reservation in first_of:
                errors.append(RowError(row.line, "code", row_checks.duplicate_of(first_of[reservation])))
                continue
            first_of[reservation] = row.line
            holder = holders.get(reservation)
            try:
                if holder is not None and holder.get("importJob") != context.job_id:
                    if not context.update_existing:
                        errors.append(RowError(row.line, "code", "already used by another product"))
                        continue
                    if given.get("taxRate") is not None:
                        taxes.check_rate_for_country(country, given["taxRate"], "taxRate")
                    updating.append((row.line, given, int(holder["productId"])))
                    continue
                fields = {name: value for name, value in model.model_dump(by_alias=True).items() if value is not None}
                fields = products.new_product_fields(fields, country)
            except ApiError as refused:
                errors += row_checks.refusal(row, refused, "taxRate")
                continue
            creates.append(Entry(row.line, {**fields, "importJob": context.job_id}, None))
        if errors:
            return Checked(errors)
        found = table.batch_get([keys.entity(company_id, keys.PRODUCT, product_id) for _, _, product_id in updating])
        current = {int(item["id"]): item for item in found.values()}
        return Checked([], Plan(
            creates=row_checks.units(creates, lambda entry: entry.line, _entry_size, lambda _: 1, "new"),
            updates=[row_checks.single(Entry(line, fields, current[product_id]), line, "update")
                     for line, fields, product_id in updating]))

    def apply(self, context: ImportContext, plan: Plan) -> dict[str, int]:
        table, company_id = context.table, context.company_id

        def create(unit: row_checks.Unit) -> None:
            transaction = Transaction(table)
            items = [records.new_record_item(table, company_id, products.PRODUCT, entry.fields)
                     for entry in unit.entries]
            products.add_product_batch(transaction, company_id, items)
            context.mark_done(transaction, unit.name)
            transaction.commit()

        def update(unit: row_checks.Unit) -> None:
            entry, = unit.entries
            transaction = Transaction(table)
            current = table.get(keys.entity(company_id, keys.PRODUCT, int(entry.existing["id"]))) or entry.existing
            products.add_product_update(transaction, company_id, current, {**entry.fields, "importJob": context.job_id})
            context.mark_done(transaction, unit.name)
            transaction.commit()

        created = row_checks.land(context, plan.creates, create)
        updated = row_checks.land(context, plan.updates, update, created) - created
        return {"created": created, "updated": updated}


KIND = ProductsKind()
