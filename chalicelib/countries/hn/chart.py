"""The standard chart of accounts for a Honduran company (NIIF para PYMES layout: activo,
pasivo, patrimonio, ingresos, costos, gastos) and the determination rules that make documents
and payments post to it (`PACK.chart_module`; services/accounting/default_chart.py imports it)."""
from __future__ import annotations

from chalicelib.domain.accounting import ASSET, COST, EQUITY, EXPENSE, INCOME, LIABILITY

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
    ("64", "Otros gastos", EXPENSE, "6"),
    ("6401", "Pérdida en venta o baja de activos", EXPENSE, "64"),
    ("6499", "Otros gastos no operacionales", EXPENSE, "64"),
    ("65", "Impuesto sobre la renta", EXPENSE, "6"),
    ("6501", "Impuesto sobre la renta del ejercicio", EXPENSE, "65"),
    ("6502", "Aportación solidaria", EXPENSE, "65"),
    # reval: month-end revaluation of foreign-currency items (NIIF para PYMES 30.9, issue 44)
    ("4205", "Diferencial cambiario no realizado a favor", INCOME, "42"),
    ("6304", "Diferencial cambiario no realizado en contra", EXPENSE, "63"),
)

# Where the income statement (NIIF para PYMES, Sección 5) places an income, cost or expense
# account (domain/statements.py's sections); a sub-account follows its parent, and an account not
# named here is placed by its type (income: revenue, cost: cost of sales, expense: operating expenses).
STATEMENT_SECTIONS: dict[str, str] = {
    "41": "revenue",
    "42": "other_income",
    "4201": "financial_income",
    "4202": "financial_income",      # the exchange gain (fx_gain) is a financial item
    "5": "cost_of_sales",
    "61": "operating_expenses",
    "62": "operating_expenses",
    "63": "financial_costs",         # interest, bank charges and the exchange loss (fx_loss)
    "64": "other_expenses",
    "65": "income_tax",
    "4205": "financial_income",      # reval: the unrealised exchange gain (fx_unrealized_gain)
}

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
    # reval: month-end revaluation, reversed the next day (issue 44)
    ("fx_unrealized_gain", None, "4205"),
    ("fx_unrealized_loss", None, "6304"),
)

# Where the statement of cash flows (NIIF para PYMES, Sección 7, indirect method) places a balance
# sheet account (domain/cash_flow.py's places); a sub-account follows its parent. Current assets and
# liabilities are working capital (operating), non-current assets investing, loans and equity
# financing; accumulated depreciation and amortisation and provisions moved no cash (non_cash: an
# adjustment to the net result).
CASH_FLOW_CATEGORIES: dict[str, str] = {
    "11": "operating",
    "1101": "cash",
    "12": "investing",
    "120106": "non_cash",
    "120202": "non_cash",
    "21": "operating",
    "2105": "financing",             # short-term bank loans
    "22": "financing",
    "2202": "non_cash",              # the provision for employee benefits is accrued, not paid
    "3": "financing",
}
