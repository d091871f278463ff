"""Month-end under NIIF para PYMES in the catalogue (issue 44): the Spanish of what revaluation,
the cash-flow statement, budgets, cost centres (dimensions), attachments and revenue by treatment
answer. messages/es.py takes them into PHRASES. One section per part, in the order of the issue."""
from __future__ import annotations

MONTH_END_PHRASES: dict[str, str] = {
    # dimensions (cost centres)
    "no such active dimension": "no existe una dimensión activa con ese identificador",
    "not an active value of this dimension": "no es un valor activo de esta dimensión",
    "one value per dimension on a line": "un solo valor por dimensión en cada línea",
    # budgets
    "Budget not found.": "No se encontró el presupuesto.",
    "The year has no budget.": "El año no tiene presupuesto.",
    "Another budget of {} is already named {}.": "Otro presupuesto de {0} ya se llama {1}.",
    "already used by another budget of the year": "ya lo usa otro presupuesto del año",
    "the account has sub-accounts: budget its sub-accounts":
        "la cuenta tiene subcuentas: presupueste sus subcuentas",
    "another line has the same account, month and dimensions":
        "otra línea tiene la misma cuenta, mes y dimensiones",
    "too large for one budget (400 KB): split it into budgets":
        "demasiado grande para un presupuesto (400 KB): divídalo en varios presupuestos",
    "no such dimension value": "no existe ese valor de dimensión",
    "the budget is of another year": "el presupuesto es de otro año",
    "the year has several budgets: name one": "el año tiene varios presupuestos: indique uno",
}
