"""The standard chart of accounts for a Salvadoran company and its determination rules, as
Salvadoran catalogues number them (NIIF para PYMES): 1 Activo, 2 Pasivo, 3 Patrimonio,
4 Costos y gastos (cuentas de resultado deudoras), 5 Ingresos (cuentas de resultado acreedoras);
IVA débito fiscal, crédito fiscal, retenido (1 %) and percibido (1 %) on their own accounts.
Sources in docs/decisions.md ("El Salvador's standard chart")."""
from __future__ import annotations

from chalicelib.domain.accounting import ASSET, COST, EQUITY, EXPENSE, INCOME, LIABILITY

# (code, name, type, parent code); parents come before their sub-accounts. A sub-account shares
# its parent's type, so class 4 (costs and expenses) has no account of its own: its groups
# 41 (costs, COST) and 42-44 (expenses, EXPENSE) are the roots.
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
    ("110302", "Préstamos al personal", ASSET, "1103"),
    ("1104", "IVA créditos fiscales", ASSET, "11"),
    ("110401", "IVA crédito fiscal", ASSET, "1104"),
    ("110402", "IVA crédito fiscal por importaciones", ASSET, "1104"),
    ("110403", "IVA retenido por clientes (1 %)", ASSET, "1104"),
    ("110404", "IVA percibido por proveedores (1 %)", ASSET, "1104"),
    ("110405", "Remanente de crédito fiscal", ASSET, "1104"),
    ("1105", "Impuesto sobre la renta a favor", ASSET, "11"),
    ("110501", "Pago a cuenta de renta", ASSET, "1105"),
    ("110502", "Retenciones de renta a favor", ASSET, "1105"),
    ("1106", "Inventarios", ASSET, "11"),
    ("110601", "Inventario de mercadería", ASSET, "1106"),
    ("110602", "Pedidos en tránsito", ASSET, "1106"),
    ("1107", "Gastos pagados por anticipado", ASSET, "11"),
    ("110701", "Seguros pagados por anticipado", ASSET, "1107"),
    ("110702", "Alquileres pagados por anticipado", ASSET, "1107"),
    ("12", "Activo no corriente", ASSET, "1"),
    ("1201", "Propiedad, planta y equipo", ASSET, "12"),
    ("120101", "Terrenos", ASSET, "1201"),
    ("120102", "Edificaciones", ASSET, "1201"),
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
    ("2101", "Préstamos y sobregiros bancarios", LIABILITY, "21"),
    ("2102", "Cuentas y documentos por pagar", LIABILITY, "21"),
    ("210201", "Proveedores locales", LIABILITY, "2102"),
    ("210202", "Proveedores del exterior", LIABILITY, "2102"),
    ("210203", "Otras cuentas por pagar", LIABILITY, "2102"),
    ("2103", "Retenciones y descuentos por pagar", LIABILITY, "21"),
    ("210301", "Cotizaciones ISSS por pagar", LIABILITY, "2103"),
    ("210302", "Cotizaciones AFP por pagar", LIABILITY, "2103"),
    ("210303", "Retenciones de renta por pagar", LIABILITY, "2103"),
    ("2104", "Beneficios a empleados por pagar", LIABILITY, "21"),
    ("210401", "Sueldos y salarios por pagar", LIABILITY, "2104"),
    ("210402", "Vacaciones por pagar", LIABILITY, "2104"),
    ("210403", "Aguinaldos por pagar", LIABILITY, "2104"),
    ("2105", "Impuestos por pagar", LIABILITY, "21"),
    ("210501", "Impuesto sobre la renta por pagar", LIABILITY, "2105"),
    ("210502", "Pago a cuenta por pagar", LIABILITY, "2105"),
    ("210503", "IVA por pagar", LIABILITY, "2105"),
    ("2106", "IVA débitos fiscales", LIABILITY, "21"),
    ("210601", "IVA débito fiscal", LIABILITY, "2106"),
    ("210602", "IVA retenido a proveedores (1 %)", LIABILITY, "2106"),
    ("210603", "IVA percibido a clientes (1 %)", LIABILITY, "2106"),
    ("2107", "Anticipos de clientes", LIABILITY, "21"),
    ("210701", "Anticipos recibidos de clientes", LIABILITY, "2107"),
    ("22", "Pasivo no corriente", LIABILITY, "2"),
    ("2201", "Préstamos bancarios a largo plazo", LIABILITY, "22"),
    ("2202", "Provisión para indemnizaciones", LIABILITY, "22"),
    ("3", "Patrimonio", EQUITY, None),
    ("31", "Capital social", EQUITY, "3"),
    ("3101", "Capital social mínimo", EQUITY, "31"),
    ("3102", "Capital social variable", EQUITY, "31"),
    ("32", "Reservas", EQUITY, "3"),
    ("3201", "Reserva legal", EQUITY, "32"),
    ("33", "Resultados", EQUITY, "3"),
    ("3301", "Utilidades no distribuidas", EQUITY, "33"),
    ("3302", "Pérdidas acumuladas", EQUITY, "33"),
    ("3303", "Resultado del ejercicio", EQUITY, "33"),
    ("34", "Saldos de apertura", EQUITY, "3"),
    ("3401", "Patrimonio de apertura", EQUITY, "34"),
    ("41", "Costos de operación", COST, None),
    ("4101", "Costo de ventas", COST, "41"),
    ("410101", "Costo de la mercadería vendida", COST, "4101"),
    ("410102", "Compras", COST, "4101"),
    ("410103", "Fletes y gastos de importación", COST, "4101"),
    ("410104", "Rebajas y devoluciones sobre compras", COST, "4101"),
    ("410105", "Costo de servicios prestados", COST, "4101"),
    ("410106", "Faltantes y mermas de inventario", COST, "4101"),
    ("42", "Gastos de operación", EXPENSE, None),
    ("4201", "Gastos de administración", EXPENSE, "42"),
    ("420101", "Sueldos y salarios", EXPENSE, "4201"),
    ("420102", "Cuota patronal ISSS y AFP", EXPENSE, "4201"),
    ("420103", "Vacaciones y aguinaldos", EXPENSE, "4201"),
    ("420104", "Alquileres", EXPENSE, "4201"),
    ("420105", "Energía eléctrica, agua y telecomunicaciones", EXPENSE, "4201"),
    ("420106", "Papelería y útiles de oficina", EXPENSE, "4201"),
    ("420107", "Honorarios profesionales", EXPENSE, "4201"),
    ("420108", "Depreciaciones y amortizaciones", EXPENSE, "4201"),
    ("420109", "Mantenimiento y reparaciones", EXPENSE, "4201"),
    ("420110", "Seguros", EXPENSE, "4201"),
    ("420111", "Impuestos municipales y tasas", EXPENSE, "4201"),
    ("420199", "Otros gastos de administración", EXPENSE, "4201"),
    ("4202", "Gastos de venta", EXPENSE, "42"),
    ("420201", "Publicidad y propaganda", EXPENSE, "4202"),
    ("420202", "Comisiones sobre ventas", EXPENSE, "4202"),
    ("420203", "Combustibles y lubricantes", EXPENSE, "4202"),
    ("420204", "Cuentas incobrables", EXPENSE, "4202"),
    ("43", "Gastos no operacionales", EXPENSE, None),
    ("4301", "Gastos financieros", EXPENSE, "43"),
    ("430101", "Intereses bancarios", EXPENSE, "4301"),
    ("430102", "Comisiones bancarias", EXPENSE, "4301"),
    ("430103", "Diferencial cambiario en contra", EXPENSE, "4301"),
    ("4302", "Otros gastos no operacionales", EXPENSE, "43"),
    ("430201", "Pérdida en venta o baja de activos", EXPENSE, "4302"),
    ("430299", "Otros gastos", EXPENSE, "4302"),
    ("44", "Impuesto sobre la renta", EXPENSE, None),
    ("4401", "Impuesto sobre la renta del ejercicio", EXPENSE, "44"),
    ("5", "Ingresos", INCOME, None),
    ("51", "Ingresos de operación", INCOME, "5"),
    ("5101", "Ventas", INCOME, "51"),
    ("510101", "Ventas gravadas", INCOME, "5101"),
    ("510102", "Ventas exentas", INCOME, "5101"),
    ("510103", "Ventas no sujetas", INCOME, "5101"),
    ("510104", "Ventas de exportación", INCOME, "5101"),
    ("5102", "Rebajas y devoluciones sobre ventas", INCOME, "51"),
    ("5103", "Ingresos por servicios", INCOME, "51"),
    ("52", "Otros ingresos", INCOME, "5"),
    ("5201", "Ingresos financieros", INCOME, "52"),
    ("5202", "Diferencial cambiario a favor", INCOME, "52"),
    ("5203", "Otros ingresos", INCOME, "52"),
    ("5204", "Sobrantes de inventario", INCOME, "52"),
    # reval: month-end revaluation of foreign-currency items (NIIF para PYMES 30.9, issue 44)
    ("430104", "Diferencial cambiario no realizado en contra", EXPENSE, "4301"),
    ("5205", "Diferencial cambiario no realizado a favor", INCOME, "52"),
)

# Where the income statement (NIIF para PYMES, Sección 5) places an income, cost or expense
# account (domain/statements.py's sections); a sub-account follows its parent, and an account not
# named here is placed by its type (income: revenue, cost: cost of sales, expense: operating expenses).
STATEMENT_SECTIONS: dict[str, str] = {
    "41": "cost_of_sales",
    "42": "operating_expenses",
    "43": "other_expenses",
    "4301": "financial_costs",       # interest, bank charges and the exchange loss (fx_loss)
    "44": "income_tax",
    "51": "revenue",
    "52": "other_income",
    "5201": "financial_income",
    "5202": "financial_income",      # the exchange gain (fx_gain) is a financial item
    "5205": "financial_income",      # reval: the unrealised exchange gain (fx_unrealized_gain)
}

# (operation type, document type or None for the general rule, account code): one for each of the
# Honduran chart's rules (the same operations and document types), the IVA of an import, paid at
# customs, on its own crédito fiscal account, and exports on their own revenue account.
RULES: tuple[tuple[str, str | None, str], ...] = (
    ("cash", None, "110101"),
    ("bank", None, "110103"),
    ("receivable", None, "110201"),
    ("payable", None, "210201"),
    ("payable", "104", "210202"),            # imports are owed to foreign suppliers
    ("revenue", None, "510101"),
    ("revenue", "06", "5102"),               # sales credit notes
    ("export_revenue", None, "510104"),      # facturas de exportación, declared apart (F-07, IVA)
    ("expense", None, "410102"),             # purchases of what is not kept in stock
    ("expense", "11", "420199"),             # expense documents
    ("expense", "105", "410104"),            # purchase credit notes
    ("tax_sales", None, "210601"),
    ("tax_purchases", None, "110401"),
    ("tax_purchases", "104", "110402"),
    ("inventory", None, "110601"),
    ("cost_of_sales", None, "410101"),
    ("cost_of_sales", "105", "410104"),      # goods returned to a supplier above or below their average cost
    ("inventory_adjustment_gain", None, "5204"),
    ("inventory_adjustment_loss", None, "410106"),
    ("opening_balance_equity", None, "3401"),
    ("retained_earnings", None, "3301"),     # the year's result, when the year is closed
    ("fx_gain", None, "5202"),               # exchange differences on foreign-currency payments
    ("fx_loss", None, "430103"),
    ("customer_advance", None, "210701"),
    ("supplier_advance", None, "110301"),
    ("withholding", None, "110403"),         # a large taxpayer customer withholds 1 % IVA on our invoices
    ("withholding", "103", "210602"),        # we withhold IVA on supplier invoices
    ("withholding", "104", "210602"),
    ("withholding", "106", "210602"),
    ("withholding", "11", "210602"),
    # reval: month-end revaluation, reversed the next day (issue 44)
    ("fx_unrealized_gain", None, "5205"),
    ("fx_unrealized_loss", None, "430104"),
)

# Where the statement of cash flows (NIIF para PYMES, Sección 7, indirect method) places a balance
# sheet account (see the Honduran chart's CASH_FLOW_CATEGORIES): a sub-account follows its parent.
CASH_FLOW_CATEGORIES: dict[str, str] = {
    "11": "operating",
    "1101": "cash",
    "12": "investing",
    "120106": "non_cash",
    "120202": "non_cash",
    "21": "operating",
    "2101": "financing",             # bank loans and overdrafts
    "22": "financing",
    "2202": "non_cash",              # the provision for severance is accrued, not paid
    "3": "financing",
}
