"""The `products` import: the catalogue from a table, each row checked as POST /products checks its
body (the same model, the company's tax rates), the code its natural key (unique in the file and in
the company, whatever its case), written many per transaction by
services/sales_purchases/products.py's own writes."""
from __future__ import annotations

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


def _entry_size(entry: row_checks.Entry) -> int:
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
        creates: list[row_checks.Entry] = []
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
            if (repeated := row_checks.repeated(first_of, reservation, row, "code")) is not None:
                errors.append(repeated)
                continue
            holder = holders.get(reservation)
            try:
                if row_checks.held_by_another(holder, context):
                    if not context.update_existing:
                        errors.append(RowError(row.line, "code", "already used by another product"))
                        continue
                    if given.get("taxRate") is not None:
                        taxes.check_rate_for_country(country, given["taxRate"], "taxRate")
                    updating.append((row.line, given, int(holder["productId"])))
                    continue
                fields = products.new_product_fields(row_checks.model_fields(model), country)
            except ApiError as refused:
                errors += row_checks.refusal(row, refused, "taxRate")
                continue
            creates.append(row_checks.Entry(row.line, {**fields, "importJob": context.job_id}))
        if errors:
            return Checked(errors)
        current = row_checks.stored_by_id(context, keys.PRODUCT, [product_id for _, _, product_id in updating])
        return Checked([], row_checks.Plan(
            creates=row_checks.units(creates, lambda entry: entry.line, _entry_size, lambda _: 1, "new"),
            updates=[row_checks.single(row_checks.Entry(line, fields, current[product_id]), line, "update")
                     for line, fields, product_id in updating]))

    def apply(self, context: ImportContext, plan: row_checks.Plan) -> dict[str, int]:
        table, company_id = context.table, context.company_id

        def add_creates(transaction: Transaction, entries: list[row_checks.Entry]) -> None:
            items = records.new_record_items(table, company_id, products.PRODUCT, [entry.fields for entry in entries])
            products.add_product_batch(transaction, company_id, items)

        def add_update(transaction: Transaction, entry: row_checks.Entry) -> None:
            current = table.get(keys.entity(company_id, keys.PRODUCT, int(entry.updated["id"]))) or entry.updated
            products.add_product_update(transaction, company_id, current, {**entry.fields, "importJob": context.job_id})

        return row_checks.land_plan(context, plan, add_creates, add_update)


KIND = ProductsKind()
