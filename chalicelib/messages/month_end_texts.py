"""Month-end under NIIF para PYMES (issue 44): the labels of the fields revaluation, the cash-flow
statement, budgets, cost centres, attachments and revenue by treatment name (field_labels.py takes
them in; their phrases are in the gettext catalogue, locale/es/LC_MESSAGES/api.po)."""
from __future__ import annotations

# the fields issue 44's requests name, as a person names them (messages/field_labels.py takes them in)
MONTH_END_LABELS_EN: dict[str, str] = {
    'dimensions': 'Cost centres',
    'dimensionId': 'Dimension',
    'valueId': 'Dimension value',
    'cashFlowCategory': 'Cash-flow statement category',
    'values': 'Values',
    'values[]': 'Value',
    'groupByDimensionId': 'Group by dimension',
    'recordType': 'Kind of record',
    'recordId': 'Record',
    'contentType': 'File type',
    'size': 'File size (bytes)',
    'budgetId': 'Budget',
    'year': 'Year',
    'dimensionValueId': 'Cost centre',
    'currencies': 'Currencies',
    'currencies[]': 'Currency',
}

MONTH_END_LABELS_ES: dict[str, str] = {
    'dimensions': 'Centros de costo',
    'dimensionId': 'Dimensión',
    'valueId': 'Valor de la dimensión',
    'cashFlowCategory': 'Categoría en el estado de flujos de efectivo',
    'values': 'Valores',
    'values[]': 'Valor',
    'groupByDimensionId': 'Agrupar por dimensión',
    'recordType': 'Tipo de registro',
    'recordId': 'Registro',
    'contentType': 'Tipo de archivo',
    'size': 'Tamaño del archivo (bytes)',
    'budgetId': 'Presupuesto',
    'year': 'Año',
    'dimensionValueId': 'Centro de costo',
    'currencies': 'Monedas',
    'currencies[]': 'Moneda',
}
