"""Budgets (issue 44): each budget is two items. Its header (name, year, version) sits in one small
partition of the company, read whole to list the budgets or find a year's; its lines (up to
MAX_BUDGET_LINES, as compact texts) fill an item of their own, read only when one budget is
asked for or reported on. A list of budgets never reads their lines."""
from __future__ import annotations

from chalicelib.store.keys.base import Key, sortable_id, unique_value

BUDGET = "BUDGET"
BUDGET_NAME = "BUDGET_NAME"


def budgets_partition(company_id: int) -> str:
    return f"C#{company_id}#BUDGETS"


def budget(company_id: int, budget_id: int) -> Key:
    return {"PK": budgets_partition(company_id), "SK": sortable_id(budget_id)}


def budget_lines(company_id: int, budget_id: int) -> Key:
    return {"PK": f"C#{company_id}#{BUDGET}#{budget_id}", "SK": "LINES"}


def budget_name(company_id: int, year: int, name: str) -> Key:
    """Reserves a budget's name within its year (names differ in more than case)."""
    return unique_value(company_id, BUDGET_NAME, f"{year}#{name.casefold()}")
