"""The standard chart of accounts for a Honduran company (NIIF para PYMES layout: activo,
pasivo, patrimonio, ingresos, costos, gastos) and the determination rules that make documents
and payments post to it; a Salvadoran company gets El Salvador's (default_chart_sv.py).
Importing is idempotent: codes already in the chart and rules already set are left as they are."""
from __future__ import annotations

from typing import Any

from chalicelib.domain.accounting import ASSET, COST, EQUITY, EXPENSE, INCOME, LIABILITY
from chalicelib.services.accounting import account_determination, chart, default_chart_sv
from chalicelib.services.accounting.posting import rule_items
from chalicelib.services.commands import Command
from chalicelib.services.identity import accounts
from chalicelib.store import keys
from chalicelib.store.table import Table
from chalicelib.store.transaction import Transaction

# (code, name, type, parent code); parents come before their sub-accounts.
ACCOUNTS: tuple[tuple[str, str, str, str | None], ...] = (
    ("1", "Activo", ASSET, None),
    ("11", "Activo corriente", ASSET, "1"),
    ("1101", "Efectivo y equivalentes de efectivo", ASSET, "11"),
    ("110101", "Caja general", ASSET, "1101"),
    ("110102", "Caja chica", ASSET, "1101"),
    ("110103", "Bancos", ASSET, "1101"),
    ("1102", "Cuentas por cobrar comerciales", ASSET, "11"),
    ("110201", "Clientes", ASSET, "1102"),
    ("110202", "Estimación para cuentas incobrables", ASSET, "1102"),
    ("1103", "Otras cuentas por cobrar", ASSET, "11"),
    ("110301", "Anticipos a proveedores", ASSET, "1103"),
    ("110302", "Cuentas por cobrar a empleados", ASSET, "1103"),
    ("1104", "Impuestos por recuperar", ASSET, "11"),
    ("110401", "ISV crédito fiscal", ASSET, "1104"),
    ("110402", "Retenciones de ISV a favor", ASSET, "1104"),
    ("110403", "Retenciones de ISR a favor", ASSET, "1104"),
    ("110404", "Pagos a cuenta de ISR", ASSET, "1104"),
    ("1105", "Inventarios", ASSET, "11"),
    ("110501", "Inventario de mercadería", ASSET, "1105"),
    ("110502", "Mercadería en tránsito", ASSET, "1105"),
    ("1106", "Gastos pagados por anticipado", ASSET, "11"),
    ("110601", "Seguros pagados por anticipado", ASSET, "1106"),
    ("110602", "Alquileres pagados por anticipado", ASSET, "1106"),
    ("12", "Activo no corriente", ASSET, "1"),
    ("1201", "Propiedad, planta y equipo", ASSET, "12"),
    ("120101", "Terrenos", ASSET, "1201"),
    ("120102", "Edificios", ASSET, "1201"),
    ("120103", "Mobiliario y equipo de oficina", ASSET, "1201"),
    ("120104", "Equipo de cómputo", ASSET, "1201"),
    ("120105", "Vehículos", ASSET, "1201"),
    ("120106", "Depreciación acumulada", ASSET, "1201"),
    ("1202", "Activos intangibles", ASSET, "12"),
    ("120201", "Programas y licencias", ASSET, "1202"),
    ("120202", "Amortización acumulada", ASSET, "1202"),
    ("1203", "Depósitos en garantía", ASSET, "12"),
    ("2", "Pasivo", LIABILITY, None),
    ("21", "Pasivo corriente", LIABILITY, "2"),
    ("2101", "Cuentas por pagar comerciales", LIABILITY, "21"),
    ("210101", "Proveedores locales", LIABILITY, "2101"),
    ("210102", "Proveedores del exterior", LIABILITY, "2101"),
    ("2102", "Impuestos por pagar", LIABILITY, "21"),
    ("210201", "ISV por pagar", LIABILITY, "2102"),
    ("210202", "Retenciones de ISV por pagar", LIABILITY, "2102"),
    ("210203", "Retenciones de ISR por pagar", LIABILITY, "2102"),
    ("210204", "Impuesto sobre la renta por pagar", LIABILITY, "2102"),
    ("2103", "Obligaciones laborales", LIABILITY, "21"),
    ("210301", "Sueldos y salarios por pagar", LIABILITY, "2103"),
    ("210302", "IHSS por pagar", LIABILITY, "2103"),
    ("210303", "RAP por pagar", LIABILITY, "2103"),
    ("210304", "INFOP por pagar", LIABILITY, "2103"),
    ("210305", "Décimo tercer mes por pagar", LIABILITY, "2103"),
    ("210306", "Décimo cuarto mes por pagar", LIABILITY, "2103"),
    ("2104", "Anticipos de clientes", LIABILITY, "21"),
    ("210401", "Anticipos recibidos de clientes", LIABILITY, "2104"),
    ("2105", "Préstamos bancarios a corto plazo", LIABILITY, "21"),
    ("2106", "Otras cuentas por pagar", LIABILITY, "21"),
    ("22", "Pasivo no corriente", LIABILITY, "2"),
    ("2201", "Préstamos bancarios a largo plazo", LIABILITY, "22"),
    ("2202", "Provisión para prestaciones laborales", LIABILITY, "22"),
    ("3", "Patrimonio", EQUITY, None),
    ("31", "Capital", EQUITY, "3"),
    ("3101", "Capital social", EQUITY, "31"),
    ("3102", "Aportes para futuras capitalizaciones", EQUITY, "31"),
    ("32", "Reservas", EQUITY, "3"),
    ("3201", "Reserva legal", EQUITY, "32"),
    ("33", "Resultados", EQUITY, "3"),
    ("3301", "Utilidades retenidas", EQUITY, "33"),
    ("3302", "Pérdidas acumuladas", EQUITY, "33"),
    ("3303", "Resultado del ejercicio", EQUITY, "33"),
    ("34", "Saldos de apertura", EQUITY, "3"),
    ("3401", "Patrimonio de apertura", EQUITY, "34"),
    ("4", "Ingresos", INCOME, None),
    ("41", "Ingresos de operación", INCOME, "4"),
    ("4101", "Ventas", INCOME, "41"),
    ("410101", "Ventas gravadas", INCOME, "4101"),
    ("410102", "Ventas exentas", INCOME, "4101"),
    ("410103", "Ventas exoneradas", INCOME, "4101"),
    ("4102", "Devoluciones y rebajas sobre ventas", INCOME, "41"),
    ("4103", "Ingresos por servicios", INCOME, "41"),
    ("42", "Otros ingresos", INCOME, "4"),
    ("4201", "Ingresos financieros", INCOME, "42"),
    ("4202", "Diferencial cambiario a favor", INCOME, "42"),
    ("4203", "Otros ingresos", INCOME, "42"),
    ("4204", "Sobrantes de inventario", INCOME, "42"),
    ("5", "Costos", COST, None),
    ("51", "Costo de ventas", COST, "5"),
    ("5101", "Costo de mercadería vendida", COST, "51"),
    ("5102", "Compras", COST, "51"),
    ("5103", "Fletes y gastos de importación", COST, "51"),
    ("5104", "Devoluciones y rebajas sobre compras", COST, "51"),
    ("5105", "Costo de servicios prestados", COST, "51"),
    ("5106", "Mermas y faltantes de inventario", COST, "51"),
    ("6", "Gastos", EXPENSE, None),
    ("61", "Gastos de administración", EXPENSE, "6"),
    ("6101", "Sueldos y salarios", EXPENSE, "61"),
    ("6102", "Aportaciones patronales (IHSS, RAP, INFOP)", EXPENSE, "61"),
    ("6103", "Décimo tercer y décimo cuarto mes", EXPENSE, "61"),
    ("6104", "Alquileres", EXPENSE, "61"),
    ("6105", "Energía eléctrica, agua y telecomunicaciones", EXPENSE, "61"),
    ("6106", "Papelería y útiles de oficina", EXPENSE, "61"),
    ("6107", "Honorarios profesionales", EXPENSE, "61"),
    ("6108", "Depreciaciones y amortizaciones", EXPENSE, "61"),
    ("6109", "Mantenimiento y reparaciones", EXPENSE, "61"),
    ("6110", "Seguros", EXPENSE, "61"),
    ("6111", "Impuestos municipales y tasas", EXPENSE, "61"),
    ("6199", "Otros gastos de administración", EXPENSE, "61"),
    ("62", "Gastos de venta", EXPENSE, "6"),
    ("6201", "Publicidad y propaganda", EXPENSE, "62"),
    ("6202", "Comisiones sobre ventas", EXPENSE, "62"),
    ("6203", "Combustibles y lubricantes", EXPENSE, "62"),
    ("6204", "Cuentas incobrables", EXPENSE, "62"),
    ("63", "Gastos financieros", EXPENSE, "6"),
    ("6301", "Intereses bancarios", EXPENSE, "63"),
    ("6302", "Comisiones bancarias", EXPENSE, "63"),
    ("6303", "Diferencial cambiario en contra", EXPENSE, "63"),
)

# (operation type, document type or None for the general rule, account code)
RULES: tuple[tuple[str, str | None, str], ...] = (
    ("cash", None, "110101"),
    ("bank", None, "110103"),
    ("receivable", None, "110201"),
    ("payable", None, "210101"),
    ("payable", "104", "210102"),            # imports are owed to foreign suppliers
    ("revenue", None, "410101"),
    ("revenue", "06", "4102"),               # sales credit notes
    ("expense", None, "5102"),               # purchases of what is not kept in stock
    ("expense", "11", "6199"),               # expense documents
    ("expense", "105", "5104"),              # purchase credit notes
    ("tax_sales", None, "210201"),
    ("tax_purchases", None, "110401"),
    ("inventory", None, "110501"),
    ("cost_of_sales", None, "5101"),
    ("cost_of_sales", "105", "5104"),        # goods returned to a supplier above or below their average cost
    ("inventory_adjustment_gain", None, "4204"),
    ("inventory_adjustment_loss", None, "5106"),
    ("opening_balance_equity", None, "3401"),
    ("retained_earnings", None, "3301"),     # the year's result, when the year is closed
    ("fx_gain", None, "4202"),               # exchange differences on foreign-currency payments
    ("fx_loss", None, "6303"),
    ("customer_advance", None, "210401"),
    ("supplier_advance", None, "110301"),
    ("withholding", None, "110402"),         # customers withhold ISV on our invoices
    ("withholding", "103", "210202"),        # we withhold ISV on supplier invoices
    ("withholding", "104", "210202"),
    ("withholding", "106", "210202"),
    ("withholding", "11", "210202"),
)

# Two items per account (the account and its code reservation) and at most one parent update.
_ACCOUNTS_PER_TRANSACTION = 30


def standard_chart(country: str) -> tuple[tuple[tuple[str, str, str, str | None], ...],
                                          tuple[tuple[str, str | None, str], ...]]:
    """The accounts and rules of the country's standard chart."""
    return (default_chart_sv.ACCOUNTS, default_chart_sv.RULES) if country == "SV" else (ACCOUNTS, RULES)


def import_default_chart(table: Table, company_id: int) -> tuple[dict[str, Any], Transaction]:
    """Creates the accounts and rules of the company's country's chart that it lacks. The chart
    is larger than one transaction: accounts are committed in batches of whole accounts (each
    batch all or nothing), and the rules go in the returned, not yet committed transaction,
    which the caller commits last. An interrupted import is completed by running it again."""
    chart_accounts, chart_rules = standard_chart(accounts.company_country(table, company_id))
    reserved = table.query_all(partition=("PK", chart.code_key(company_id, "")["PK"]), consistent=True)
    ids_by_code = {item["SK"]: item["accountId"] for item in reserved}
    missing = [account for account in chart_accounts if account[0] not in ids_by_code]
    new_ids = _take_ids(table, keys.id_sequence(company_id, keys.CHART_ACCOUNT), len(missing))
    planned = []
    for (code, name, account_type, parent_code), account_id in zip(missing, new_ids, strict=True):
        ids_by_code[code] = account_id
        planned.append({"id": account_id, "code": code, "name": name, "type": account_type,
                        "parentId": ids_by_code.get(parent_code) if parent_code else None})
    parents = _existing_parent_types(table, company_id, planned)
    for start in range(0, len(planned), _ACCOUNTS_PER_TRANSACTION):
        batch = planned[start:start + _ACCOUNTS_PER_TRANSACTION]
        _create_batch(Transaction(table), company_id, batch, parents).commit()
        parents.update({account["id"]: account["type"] for account in batch})

    existing_rules = {(rule["operationType"], rule.get("documentType")) for rule in rule_items(table, company_id)}
    wanted = [(operation, document_type, code) for operation, document_type, code in chart_rules
              if (operation, document_type) not in existing_rules and code in ids_by_code]
    rule_ids = _take_ids(table, keys.id_sequence(company_id, keys.DETERMINATION_RULE), len(wanted))
    new_rules = [account_determination.rule_item(company_id, rule_id, operation, document_type, ids_by_code[code])
                 for (operation, document_type, code), rule_id in zip(wanted, rule_ids, strict=True)]
    transaction = Transaction(table)
    account_determination.add_rules(transaction, company_id, new_rules)
    return ({"accountsCreated": len(planned), "rulesCreated": len(new_rules),
             "accountsInChart": len(ids_by_code)}, transaction)


def _take_ids(table: Table, sequence: keys.Key, count: int) -> range:
    """`count` new ids of a sequence in one round trip, not one per id."""
    if not count:
        return range(0)
    last = table.add(sequence, "value", count)
    return range(last - count + 1, last + 1)


def _existing_parent_types(table: Table, company_id: int, planned: list[dict[str, Any]]) -> dict[int, str]:
    """Types of the accounts already in the chart that new accounts hang under; a new account
    goes to the top level when its parent code exists with another type."""
    new_ids = {account["id"] for account in planned}
    wanted = {account["parentId"] for account in planned
              if account["parentId"] is not None and account["parentId"] not in new_ids}
    found = table.batch_get([chart.account_key(company_id, parent_id) for parent_id in wanted]) if wanted else {}
    types = {item["id"]: item["type"] for item in found.values()}
    for account in planned:
        parent_id = account["parentId"]
        if parent_id is not None and parent_id not in new_ids and types.get(parent_id) != account["type"]:
            account["parentId"] = None
    return types


def _create_batch(transaction: Transaction, company_id: int, batch: list[dict[str, Any]],
                  parent_types: dict[int, str]) -> Transaction:
    in_batch = {account["id"] for account in batch}
    children_in_batch: dict[int, int] = {}
    children_outside: dict[int, int] = {}
    for account in batch:
        parent_id = account["parentId"]
        if parent_id is None:
            continue
        counts = children_in_batch if parent_id in in_batch else children_outside
        counts[parent_id] = counts.get(parent_id, 0) + 1
    for account in batch:
        fields = {name: account[name] for name in ("code", "name", "type", "parentId")}
        transaction.put_new(chart.new_account_item(company_id, account["id"], fields,
                                                   child_count=children_in_batch.get(account["id"], 0)))
        # a concurrent import took the code first: running again skips it (and answers 200)
        transaction.put_new({**chart.code_key(company_id, account["code"]), "accountId": account["id"]})
    for parent_id, count in children_outside.items():
        chart.add_child(transaction, company_id, parent_id, parent_types[parent_id], count)
    return transaction


def import_for_command(command: Command) -> dict[str, Any]:
    result, transaction = import_default_chart(command.table, command.company_id)
    if not result["accountsCreated"] and not result["rulesCreated"]:
        command.already_there = True
    return command.commit(transaction, result)
