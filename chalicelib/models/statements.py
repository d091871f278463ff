from __future__ import annotations

from decimal import Decimal
from typing import List, Literal, Optional

from pydantic import Field

from chalicelib.models.base import Date, QueryId, RequestModel, ResponseModel
from chalicelib.models.dimensions import DIMENSION_VALUE_FILTER, GROUP_BY_DIMENSION, DimensionColumn, when_asked


class BalanceSheetQuery(RequestModel):
    date: Optional[Date] = Field(None, description="Default: today (UTC).")
    compare_date: Optional[Date] = Field(None, description="A second column: the balances at this date.")


class PeriodQuery(RequestModel):
    """A period (default: the year to date) and an optional comparison period."""
    start_date: Optional[Date] = Field(None, description="Default: 1 January of endDate's year.")
    end_date: Optional[Date] = Field(None, description="Default: today (UTC); not before startDate.")
    compare_start_date: Optional[Date] = Field(None, description="A second column: send both compare dates.")
    compare_end_date: Optional[Date] = None


class IncomeStatementQuery(PeriodQuery):
    dimension_value_id: Optional[QueryId] = Field(None, description=DIMENSION_VALUE_FILTER)
    group_by_dimension_id: Optional[QueryId] = Field(None, description=GROUP_BY_DIMENSION + " Not with a "
                                                     "comparison.")


class StatementAccount(ResponseModel):
    """An account with its sub-accounts; its balance includes theirs (on the section's normal side)."""
    chart_of_account_id: int
    code: str
    name: str
    balance: Decimal
    compare_balance: Optional[Decimal] = None
    balance_by_dimension: Optional[List[Decimal]] = when_asked()
    accounts: List[StatementAccount]


class StatementSection(ResponseModel):
    total: Decimal
    compare_total: Optional[Decimal] = None
    total_by_dimension: Optional[List[Decimal]] = when_asked()
    accounts: List[StatementAccount] = Field(description="the top of the chart's tree; accounts that never moved "
                                                          "are left out")


class EquitySection(StatementSection):
    current_year_result: Decimal = Field(description="income less cost and expenses since 1 January")
    compare_current_year_result: Optional[Decimal] = None
    prior_years_result: Decimal = Field(description="earlier years' result not closed into an equity account")
    compare_prior_years_result: Optional[Decimal] = None


class BalanceSheet(ResponseModel):
    date: str
    compare_date: Optional[str] = None
    assets: StatementSection
    liabilities: StatementSection
    equity: EquitySection = Field(description="total includes the current and prior years' result")
    total_liabilities_and_equity: Decimal
    compare_total_liabilities_and_equity: Optional[Decimal] = None
    balanced: bool = Field(description="assets = liabilities + equity in every column")


class IncomeStatement(ResponseModel):
    """NIIF para PYMES' income statement (Sección 5), expenses by function: each income, cost and
    expense account in the section its `statementSection` (or its default place) names, its
    figures on the section's side (income sections credit less debit, the others debit less credit).
    Asked by a dimension (`groupByDimensionId`), every balance, total and figure also comes by its
    values (`balanceByDimension`, `totalByDimension`, `grossMarginByDimension`...: one amount per
    `dimensionColumns` entry, adding up to the figure)."""
    start_date: str
    end_date: str
    compare_start_date: Optional[str] = None
    compare_end_date: Optional[str] = None
    dimension_value_id: Optional[int] = when_asked("only the postings carrying this value (asked)")
    dimension_value_name: Optional[str] = when_asked()
    group_by_dimension_id: Optional[int] = when_asked("a column per value of this dimension (asked)")
    group_by_dimension_name: Optional[str] = when_asked()
    dimension_columns: Optional[List[DimensionColumn]] = when_asked()
    revenue: StatementSection = Field(description="ingresos de actividades ordinarias")
    cost_of_sales: StatementSection
    gross_margin: Decimal = Field(description="revenue - costOfSales")
    compare_gross_margin: Optional[Decimal] = None
    gross_margin_by_dimension: Optional[List[Decimal]] = when_asked()
    expenses: StatementSection = Field(description="operating expenses (administration and selling)")
    operating_result: Decimal = Field(description="grossMargin - expenses")
    compare_operating_result: Optional[Decimal] = None
    operating_result_by_dimension: Optional[List[Decimal]] = when_asked()
    other_income: StatementSection
    other_expenses: StatementSection
    financial_income: StatementSection = Field(description="interest earned and exchange gains")
    financial_costs: StatementSection = Field(description="interest, bank charges and exchange losses")
    financial_result: Decimal = Field(description="financialIncome - financialCosts")
    compare_financial_result: Optional[Decimal] = None
    financial_result_by_dimension: Optional[List[Decimal]] = when_asked()
    result_before_tax: Decimal = Field(description="operatingResult + otherIncome - otherExpenses + financialResult")
    compare_result_before_tax: Optional[Decimal] = None
    result_before_tax_by_dimension: Optional[List[Decimal]] = when_asked()
    income_tax: StatementSection
    net_result: Decimal = Field(description="resultBeforeTax - incomeTax")
    compare_net_result: Optional[Decimal] = None
    net_result_by_dimension: Optional[List[Decimal]] = when_asked()


# the period of every country's tax books (the books themselves are the packs' models)
class BookQuery(RequestModel):
    start_date: Date
    end_date: Date = Field(description="not before startDate")


class BookPeriod(ResponseModel):
    """A tax book's period (its rows and totals are the book's own)."""
    start_date: str
    end_date: str


class AgedQuery(RequestModel):
    date: Optional[Date] = Field(None, description="Default: today (UTC).")


class AgedDocument(ResponseModel):
    document_id: int
    type: str
    number: Optional[str] = None
    date: str
    due_date: str
    days_overdue: int
    bucket: Literal["current", "days1To30", "days31To60", "days61To90", "over90"] = Field(
        description="the age column its `open` amount adds to")
    open: Decimal = Field(description="what it leaves owed at the date (a credit note: negative), in the company's "
                                      "currency")
    currency: Optional[str] = Field(None, description="the document's currency")
    open_in_currency: Optional[Decimal] = Field(None, description="`open` in the document's currency")
    foreign_pending: Optional[Decimal] = Field(None, description="what it leaves owed in its own `currency` "
                                                                 "(`openInCurrency`; issue 44)")


class AgedBuckets(ResponseModel):
    current: Decimal = Field(description="not yet due")
    days1_to30: Decimal = Field(alias="days1To30")
    days31_to60: Decimal = Field(alias="days31To60")
    days61_to90: Decimal = Field(alias="days61To90")
    over90: Decimal
    total: Decimal


class AgedPartner(AgedBuckets):
    business_partner_id: int
    name: str
    tax_id: Optional[str] = None
    currency: Optional[str] = Field(None, description="the currency of its open documents when they share one")
    foreign_pending: Optional[Decimal] = Field(None, description="what they leave owed in that `currency` (null when "
                                                                 "they are in more than one)")
    documents: List[AgedDocument]


class AgedBalances(ResponseModel):
    date: str
    partners: List[AgedPartner]
    totals: AgedBuckets
