"""Month-end under NIIF para PYMES in the catalogue (issue 44): the Spanish of what revaluation,
the cash-flow statement, budgets, cost centres (dimensions), attachments and revenue by treatment
answer, and the labels of the fields their requests name. messages/es.py takes the phrases into
PHRASES, field_labels.py the labels. One section per part."""
from __future__ import annotations

MONTH_END_PHRASES: dict[str, str] = {
    # dimensions (cost centres)
    "no such active dimension": "no existe una dimensión activa con ese identificador",
    "not an active value of this dimension": "no es un valor activo de esta dimensión",
    "one value per dimension on a line": "un solo valor por dimensión en cada línea",
    # cashflow (the statement of cash flows)
    "only an asset account can be cash": "solo una cuenta de activo puede ser efectivo",
    # attachments
    "Attachment not found.": "No se encontró el adjunto.",
    "must name a file": "debe nombrar un archivo",
    "A record takes at most 10 attachments: delete one first.":
        "Un registro admite como máximo 10 adjuntos: elimine uno primero.",
    "Only a draft's attachments can be deleted (a document or journal entry in draft, a statement line not matched).":
        "Solo se pueden eliminar los adjuntos de un borrador (un documento o una partida en borrador, una línea del "
        "estado de cuenta sin conciliar).",
    # dims: managing dimensions and the reports by cost centre
    "already used by another dimension": "ya la usa otra dimensión",
    "already used by another value of the dimension": "ya lo usa otro valor de la dimensión",
    "at most {} dimensions per company": "como máximo {0} dimensiones por empresa",
    "A company has at most {} dimensions: make one inactive and reuse it.":
        "Una empresa tiene como máximo {0} dimensiones: desactive una y reutilícela.",
    "Another dimension is already named {}.": "Ya hay otra dimensión llamada {0}.",
    "Another value of the dimension is already named {}.": "Ya hay otro valor de la dimensión llamado {0}.",
    "Another value of the dimension already has the code {}.": "Otro valor de la dimensión ya tiene el código {0}.",
    "the same as another value sent": "igual al de otro valor enviado",
    "no such dimension value": "no existe ese valor de dimensión",
    "no such dimension": "no existe esa dimensión",
    "Dimension not found.": "No se encontró la dimensión.",
    "Dimension value not found.": "No se encontró el valor de dimensión.",
    # budgets
    "Budget not found.": "No se encontró el presupuesto.",
    "The year has no budget.": "El año no tiene presupuesto.",
    "Another budget of {} is already named {}.": "Otro presupuesto de {0} ya se llama {1}.",
    "already used by another budget of the year": "ya lo usa otro presupuesto del año",
    "the account has sub-accounts: budget its sub-accounts":
        "la cuenta tiene subcuentas: presupueste sus subcuentas",
    "the same account, month and dimensions are on another line":
        "la misma cuenta, mes y dimensiones están en otra línea",
    "too large for one budget (400 KB): split it into budgets":
        "demasiado grande para un presupuesto (400 KB): divídalo en varios presupuestos",
    "the budget is of another year": "el presupuesto es de otro año",
    "the year has several budgets: name one": "el año tiene varios presupuestos: indique uno",
    "a dimension's columns and a comparison period cannot be asked together":
        "no se pueden pedir juntas las columnas de una dimensión y un periodo de comparación",
    # reval (month-end revaluation)
    "A revaluation of this date exists already.": "Ya existe una revaluación de esta fecha.",
    "A revaluation of this date was just recorded.": "Se acaba de registrar una revaluación de esta fecha.",
    "Revaluation {} already revalues {}.": "La revaluación {0} ya revalúa el {1}.",
    "revaluation {} already revalues {}": "la revaluación {0} ya revalúa el {1}",
    "{} is the company's own currency: nothing in it is revalued":
        "{0} es la moneda de la empresa: nada en ella se revalúa",
    "no exchange rate of {} is recorded on or before {}: record one with POST /exchange-rates":
        "no hay tipo de cambio de {0} registrado en o antes del {1}: registre uno con POST /exchange-rates",
    # fix-reval (a revaluation posted in chunks)
    "One partner's or bank's revaluation on {} alone would change more than {} records in one transaction.":
        "La revaluación de un solo cliente, proveedor o banco el {0} cambiaría más de {1} registros en una "
        "transacción.",
    "A chunk of the revaluation of {} would change {} records, more than {}.":
        "Una parte de la revaluación del {0} cambiaría {1} registros, más de {2}.",
    "Revaluation not found.": "No se encontró la revaluación.",
    # fix-reval2 (void, a date yet to come)
    "must not be after today ({}): a month end is revalued once it has come":
        "no debe ser posterior a hoy ({0}): un cierre de mes se revalúa cuando ha llegado",
}

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
