"""Month-end under NIIF para PYMES in the catalogue (issue 44): the Spanish of what revaluation,
the cash-flow statement, budgets, cost centres (dimensions), attachments and revenue by treatment
answer. messages/es.py takes them into PHRASES. One section per part, in the order of the issue."""
from __future__ import annotations

MONTH_END_PHRASES: dict[str, str] = {
    # dimensions (cost centres)
    "no such active dimension": "no existe una dimensión activa con ese identificador",
    "not an active value of this dimension": "no es un valor activo de esta dimensión",
    "one value per dimension on a line": "un solo valor por dimensión en cada línea",
    # cashflow (the statement of cash flows)
    "only an asset account can be cash": "solo una cuenta de activo puede ser efectivo",
}
