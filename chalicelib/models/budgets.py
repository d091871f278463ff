"""Budgets (issue 44): a monthly amount per account (and cost centre) for a year, and the report of
budget against actual."""
from __future__ import annotations

from decimal import Decimal
from typing import Annotated, List, Optional

from pydantic import Field

from chalicelib.domain.budgets import MAX_BUDGET_LINES
from chalicelib.models.accounting import LineDimensions, LineDimensionView
from chalicelib.models.base import (
    FROM_JSON_NUMBER,
    EntityId,
    ListEnvelope,
    Money,
    Name,
    PageQuery,
    QueryId,
    RequestModel,
    ResponseModel,
    WholeNumber,
)

BudgetYear = Annotated[WholeNumber, Field(ge=1900, le=2999), FROM_JSON_NUMBER]
BudgetMonth = Annotated[WholeNumber, Field(ge=1, le=12), FROM_JSON_NUMBER]
QueryYear = Annotated[int, Field(ge=1900, le=2999)]
QueryMonth = Annotated[int, Field(ge=1, le=12)]


class BudgetLineInput(RequestModel):
    chart_of_account_id: EntityId = Field(description="an active account of the company without sub-accounts (any "
                                                      "type: income, cost and expense most often)")
    month: BudgetMonth
    amount: Money = Field(description="on the account's natural side (revenue earned, expense spent)")
    dimensions: Optional[LineDimensions] = None


BudgetLines = Annotated[List[BudgetLineInput], Field(max_length=MAX_BUDGET_LINES, description=(
    f"At most {MAX_BUDGET_LINES} lines (a budget is one DynamoDB item of at most 400 KB); each (account, month, "
    "dimensions) once."))]


class BudgetCreate(RequestModel):
    name: Name = Field(description="unique within the year (several budgets a year: scenarios)")
    year: BudgetYear
    lines: BudgetLines = []


class BudgetUpdate(RequestModel):
    """Sparse; `lines` replaces the whole list."""
    name: Name = None  # type: ignore[assignment]
    year: BudgetYear = None  # type: ignore[assignment]
    lines: BudgetLines = None  # type: ignore[assignment]
    version: Optional[int] = Field(None, ge=1)


class BudgetLine(ResponseModel):
    chart_of_account_id: int
    month: int
    amount: Decimal
    dimensions: List[LineDimensionView] = []


class BudgetSummary(ResponseModel):
    id: int
    name: str
    year: int
    line_count: int
    version: int
    created_at: str
    updated_at: str


class Budget(BudgetSummary):
    lines: List[BudgetLine]


class BudgetListQuery(PageQuery):
    year: Optional[QueryYear] = None


class BudgetList(ListEnvelope):
    budgets: List[BudgetSummary] = Field(description="without their lines (GET /budgets/{id} has them), by year "
                                                     "then id")


class BudgetVsActualQuery(RequestModel):
    year: QueryYear
    month: QueryMonth
    budget_id: Optional[QueryId] = Field(None, description="required when the year has several budgets")
    dimension_value_id: Optional[QueryId] = Field(None, description=(
        "only the postings carrying this cost-centre value, and only the budget lines that name it"))


class BudgetFigures(ResponseModel):
    budget: Decimal
    actual: Decimal
    variance: Decimal = Field(description="actual - budget")
    percentage: Optional[Decimal] = Field(description="variance / budget * 100, to 2 decimals; null when the "
                                                      "budget is 0")
    year_to_date_budget: Decimal
    year_to_date_actual: Decimal
    year_to_date_variance: Decimal
    year_to_date_percentage: Optional[Decimal] = None


class BudgetVsActualRow(BudgetFigures):
    """An account budgeted in the year, or an income, cost or expense account that moved in it."""
    chart_of_account_id: int
    code: str
    name: str
    type: str


class BudgetVsActual(ResponseModel):
    budget_id: int
    budget_name: str
    year: int
    month: int
    dimension_value_id: Optional[int] = None
    rows: List[BudgetVsActualRow] = Field(description="in code order; amounts on each account's natural side")
    totals: BudgetFigures = Field(description="the result: income less cost and expenses (balance-sheet "
                                              "accounts are left out of it)")
