"""The `partners` import: customers and suppliers from a table, each row checked as
POST /business-partners checks its body (the same model, the tax id in its country's form), the
tax id its natural key (unique in the file and in the company), written many per transaction by
services/sales_purchases/partners.py's own writes."""
from __future__ import annotations

from typing import Any

from chalicelib.domain import search as search_rules
from chalicelib.domain.import_rows import Column, Row, RowError
from chalicelib.errors import ApiError
from chalicelib.models.partners import PartnerCreate
from chalicelib.services.identity import accounts
from chalicelib.services.imports import row_checks
from chalicelib.services.imports.kinds import Checked, ImportContext
from chalicelib.services.payments import payment_setup
from chalicelib.services.sales_purchases import partners
from chalicelib.store import keys
from chalicelib.store.repositories import records as record_store
from chalicelib.store.transaction import Transaction

COLUMNS = (
    Column("name", "Nombre", required=True, example="Distribuidora Maya S. de R.L."),
    Column("type", "Tipo", required=True, example="customer", aliases=("Cliente o proveedor",)),
    Column("taxId", "Identificación fiscal", example="08011999123456",
           aliases=("RTN/NIT", "RTN", "NIT", "Tax id", "Identificacion tributaria")),
    Column("nrc", "NRC", aliases=("Número de registro", "Registro de contribuyente")),
    Column("economicActivityCode", "Código de actividad económica", aliases=("Código de actividad", "Giro")),
    Column("economicActivity", "Actividad económica"),
    Column("department", "Departamento"),
    Column("municipality", "Municipio"),
    Column("district", "Distrito"),
    Column("country", "País"),
    Column("personType", "Tipo de persona"),
    Column("email", "Correo", example="compras@maya.hn", aliases=("Correo electrónico", "E-mail")),
    Column("phone", "Teléfono", example="2234-5678"),
    Column("address", "Dirección", example="Col. Palmira, Tegucigalpa"),
    Column("paymentConditionId", "Condición de pago", aliases=("Id de condición de pago",)),
    Column("credit_limit", "Límite de crédito", example="50000.00", aliases=("creditLimit",)),
    Column("credit_block_days", "Días de mora para bloquear", aliases=("creditBlockDays", "Días de mora")),
    Column("isActive", "Activo", aliases=("Activa",)),
)
CHOICES = {"type": {"cliente": "customer", "proveedor": "supplier", "ambos": "both",
                    "cliente y proveedor": "both"},
           "personType": {"natural": "natural", "persona natural": "natural", "juridica": "legal",
                          "persona juridica": "legal"}}
FLAGS = ("isActive",)
AMOUNTS = ("credit_limit",)


def _entry_size(entry: row_checks.Entry) -> int:
    """A new partner's items: itself, its tax id's reservation and its search terms (from the row
    alone, so a run again groups alike)."""
    terms = search_rules.terms(entry.fields.get(name) for name in partners.PARTNER.search_fields)
    return 1 + (1 if entry.fields.get("taxId") else 0) + len(terms)


def _batch_size(entries: list[row_checks.Entry]) -> int:
    """What a batch writes once: the company's partner count and each payment condition's references."""
    return 1 + len({entry.fields["paymentConditionId"] for entry in entries
                    if entry.fields.get("paymentConditionId") is not None})


class PartnersKind:
    name = "partners"
    columns = COLUMNS
    needs_date = False

    def check(self, context: ImportContext, rows: list[Row]) -> Checked:
        table, company_id = context.table, context.company_id
        home = accounts.company_country(table, company_id)
        holders = partners.tax_id_holders(table, company_id)
        conditions: dict[int, bool] = {}
        first_of: dict[str, int] = {}
        errors: list[RowError] = []
        creates: list[row_checks.Entry] = []
        updating: list[tuple[int, dict[str, Any], int]] = []
        for row in rows:
            body = row_checks.cell_values(row, choices=CHOICES, flags=FLAGS, amounts=AMOUNTS)
            model, problems = row_checks.validated(PartnerCreate, row, body)
            if model is None:
                errors += problems
                continue
            fields = row_checks.model_fields(model)
            condition_id = fields.get("paymentConditionId")
            if condition_id is not None and not conditions.setdefault(condition_id, _condition_exists(context, condition_id)):
                errors.append(RowError(row.line, "paymentConditionId", "no such payment condition"))
                continue
            holder = None
            if fields.get("taxId"):
                try:
                    fields["taxId"] = partners.stored_tax_id(fields["taxId"], fields.get("country") or home)
                except ApiError as refused:
                    errors += row_checks.refusal(row, refused, "taxId")
                    continue
                reservation = record_store.reservation_name(partners.tax_id_key(company_id, fields["taxId"]))  # holders are by it
                if (repeated := row_checks.repeated(first_of, reservation, row, "taxId")) is not None:
                    errors.append(repeated)
                    continue
                holder = holders.get(reservation)
            if row_checks.held_by_another(holder, context):
                if not context.update_existing:
                    errors.append(RowError(row.line, "taxId", "already used by another business partner"))
                    continue
                # a column left out says nothing: an update changes only the row's columns
                updating.append((row.line, {name: value for name, value in fields.items() if name in body},
                                 int(holder["partnerId"])))
                continue
            creates.append(row_checks.Entry(row.line, {**fields, "importJob": context.job_id}))
        if errors:
            return Checked(errors)
        current = row_checks.stored_by_id(context, keys.PARTNER, [partner_id for _, _, partner_id in updating])
        return Checked([], row_checks.Plan(
            creates=row_checks.units(creates, lambda entry: entry.line, _entry_size, _batch_size, "new"),
            updates=[row_checks.single(row_checks.Entry(line, fields, current[partner_id]), line, "update")
                     for line, fields, partner_id in updating]))

    def apply(self, context: ImportContext, plan: row_checks.Plan) -> dict[str, int]:
        table, company_id = context.table, context.company_id

        def add_creates(transaction: Transaction, entries: list[row_checks.Entry]) -> None:
            items = partners.new_partner_items(table, company_id, [entry.fields for entry in entries])
            partners.add_partner_batch(transaction, company_id, items)

        def add_update(transaction: Transaction, entry: row_checks.Entry) -> None:
            current = partners.get_partner(table, company_id, int(entry.updated["id"]))  # as it is now
            partners.add_partner_update(transaction, company_id, current, {**entry.fields, "importJob": context.job_id})

        return row_checks.land_plan(context, plan, add_creates, add_update)


def _condition_exists(context: ImportContext, condition_id: int) -> bool:
    try:
        payment_setup.get_condition(context.table, context.company_id, condition_id)
    except ApiError:
        return False
    return True


KIND = PartnersKind()
