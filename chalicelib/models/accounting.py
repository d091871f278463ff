from decimal import Decimal
from typing import Annotated, List, Literal, Optional

from pydantic import AfterValidator, ConfigDict, Field, StringConstraints

from chalicelib.domain.document_types import check_document_type
from chalicelib.models.base import (
    Date,
    EntityId,
    ListEnvelope,
    ListQuery,
    LongText,
    Money,
    Name,
    PageQuery,
    QueryId,
    RequestModel,
    ResponseModel,
    ShortText,
)
from chalicelib.models.dimensions import DIMENSION_VALUE_FILTER, GROUP_BY_DIMENSION, ByDimension, DimensionColumn

AccountType = Literal["asset", "liability", "equity", "income", "cost", "expense"]
AccountCode = Annotated[str, StringConstraints(min_length=1, max_length=30, pattern=r"^[0-9A-Za-z][0-9A-Za-z.\-]*$")]
OperationType = Literal["receivable", "payable", "revenue", "expense", "tax_sales", "tax_purchases", "inventory",
                        "cost_of_sales", "cash", "bank", "customer_advance", "supplier_advance", "withholding",
                        "inventory_adjustment_gain", "inventory_adjustment_loss", "opening_balance_equity",
                        "retained_earnings", "fx_gain", "fx_loss", "export_revenue",
                        "fx_unrealized_gain", "fx_unrealized_loss", "revenue_exempt", "revenue_exonerated"]
# The spec's document type codes, each with the name a generated client gives it (`x-enum-varnames`:
# a code starting with a digit would otherwise become VALUE_0, VALUE_1, ...)
DOCUMENT_TYPE_NAMES = {"01": "SALES_INVOICE", "06": "CREDIT_NOTE", "07": "DEBIT_NOTE", "100": "QUOTE",
                       "101": "SALES_ORDER", "112": "DELIVERY", "113": "RESERVATION_INVOICE",
                       "103": "PURCHASE_INVOICE", "104": "IMPORT", "105": "PURCHASE_CREDIT_NOTE",
                       "106": "PURCHASE_DEBIT_NOTE", "102": "PURCHASE_ORDER", "11": "EXPENSE",
                       "05": "WITHHOLDING_CERTIFICATE"}
DocumentType = Annotated[str, AfterValidator(check_document_type),
                         Field(json_schema_extra={"enum": list(DOCUMENT_TYPE_NAMES),
                                                  "x-enum-varnames": list(DOCUMENT_TYPE_NAMES.values())})]
StatementSectionName = Literal["revenue", "cost_of_sales", "operating_expenses", "other_income", "other_expenses",
                               "financial_income", "financial_costs", "income_tax"]
STATEMENT_SECTION_HELP = ("Where the income statement places an income, cost or expense account (NIIF para PYMES); "
                          "unset: the place the country's standard chart gives its code, else its parent's place, else "
                          "by type (income: revenue, cost: cost_of_sales, expense: operating_expenses).")
CashFlowCategory = Literal["cash", "operating", "investing", "financing"]
CASH_FLOW_CATEGORY_HELP = ("Where the statement of cash flows places the account (NIIF para PYMES, Sección 7): cash "
                           "(an asset: the cash and bank accounts the statement explains), operating, investing or "
                           "financing; unset: the bank accounts' ledgers and the cash/bank rules' accounts are cash, "
                           "else the place the country's standard chart gives its code, else its parent's, else by "
                           "type (asset and liability: operating, equity: financing; income, cost and expense are in "
                           "the net result, moved to investing or financing only when set).")
EntryStatus = Literal["posted", "draft", "reversed"]
EntryType = Literal["automatic", "manual", "reversal"]


# --- chart of accounts ---------------------------------------------------------------------------

class AccountCreate(RequestModel):
    code: AccountCode
    name: Name
    type: AccountType
    parent_id: Optional[EntityId] = None
    description: Optional[LongText] = None
    is_active: bool = True
    statement_section: Optional[StatementSectionName] = Field(None, description=STATEMENT_SECTION_HELP)
    cash_flow_category: Optional[CashFlowCategory] = Field(None, description=CASH_FLOW_CATEGORY_HELP)


class AccountUpdate(RequestModel):
    """PUT changes only the fields it sends; `parentId: null` moves the account to the top."""
    code: AccountCode = None  # type: ignore[assignment]
    name: Name = None  # type: ignore[assignment]
    type: AccountType = None  # type: ignore[assignment]
    parent_id: Optional[EntityId] = None
    description: Optional[LongText] = None
    is_active: bool = None  # type: ignore[assignment]
    statement_section: Optional[StatementSectionName] = Field(None, description="null: placed again by default")
    cash_flow_category: Optional[CashFlowCategory] = Field(None, description="null: placed again by default")
    version: Optional[int] = Field(None, ge=1)


class Account(ResponseModel):
    id: int
    code: str
    name: str
    type: str
    parent_id: Optional[int] = None
    description: Optional[str] = None
    is_active: bool
    statement_section: Optional[StatementSectionName] = Field(None, description=STATEMENT_SECTION_HELP)
    cash_flow_category: Optional[CashFlowCategory] = Field(None, description=CASH_FLOW_CATEGORY_HELP)
    normal_balance: Literal["debit", "credit"]
    has_postings: bool
    version: int
    created_at: str
    updated_at: str


class AccountList(ListEnvelope):
    accounts: List[Account]


class AccountListQuery(PageQuery):
    type: Optional[AccountType] = None
    is_active: Optional[bool] = None


class RuleSkipped(ResponseModel):
    """A standard rule the import did not create: its account is already in the chart and may not
    become (or is not fit for) what the rule needs (issue 39)."""
    operation_type: OperationType
    document_type: Optional[str] = None
    chart_of_account_id: int
    account_code: str
    code: str
    reason: str


class ChartImport(ResponseModel):
    accounts_created: int
    rules_created: int
    accounts_in_chart: int
    rules_skipped: List[RuleSkipped] = []


class Deleted(ResponseModel):
    id: int
    deleted: bool


# --- cost centres on lines (issue 44) -----------------------------------------------------------

class LineDimension(RequestModel):
    """A line's value of one of the company's dimensions (GET /dimensions)."""
    dimension_id: EntityId
    value_id: EntityId


class LineDimensionView(ResponseModel):
    dimension_id: int
    value_id: int


LineDimensions = Annotated[List[LineDimension], Field(max_length=5, description=(
    "Cost centres: at most one value per dimension of the company (at most 5 dimensions)."))]


# --- journal entries -----------------------------------------------------------------------------

class EntryLineInput(RequestModel):
    """A debit line or a credit line, never both (domain.accounting.check_lines)."""
    model_config = ConfigDict(json_schema_extra={"oneOf": [
        {"required": ["debit"], "properties": {"debit": {"exclusiveMinimum": 0}, "credit": {"const": 0}}},
        {"required": ["credit"], "properties": {"credit": {"exclusiveMinimum": 0}, "debit": {"const": 0}}}]})

    chart_of_account_id: EntityId
    debit: Money = Decimal("0.00")
    credit: Money = Decimal("0.00")
    line_description: Optional[ShortText] = None
    dimensions: Optional[LineDimensions] = None


class EntryCreate(RequestModel):
    date: Date
    description: Optional[LongText] = None
    reference: Optional[ShortText] = None
    status: Literal["draft", "posted"] = "draft"
    lines: List[EntryLineInput] = Field(min_length=2, max_length=100, json_schema_extra={"allOf": [
        {"contains": {"required": ["debit"], "properties": {"debit": {"exclusiveMinimum": 0}}}},
        {"contains": {"required": ["credit"], "properties": {"credit": {"exclusiveMinimum": 0}}}}]},
        description="at least one debit line and one credit line; debits equal credits")


class EntryReverse(RequestModel):
    date: Optional[Date] = Field(None, description="The reversal's date; default: the entry's own date.")
    description: Optional[LongText] = None


class EntryLine(ResponseModel):
    chart_of_account_id: int
    debit: Decimal
    credit: Decimal
    line_description: Optional[str] = None
    dimensions: List[LineDimensionView] = Field([], description="The line's cost centres (carried to its posting).")


class EntrySource(ResponseModel):
    type: str
    id: int
    document_type: Optional[str] = None


class JournalEntry(ResponseModel):
    id: int
    date: str
    description: Optional[str] = None
    reference: Optional[str] = None
    status: EntryStatus
    entry_type: EntryType
    lines: List[EntryLine]
    total_debit: Decimal
    total_credit: Decimal
    source: Optional[EntrySource] = None
    reversal_of: Optional[int] = None
    reversed_by: Optional[int] = None
    posted_at: Optional[str] = None
    version: int
    created_at: str
    updated_at: str


class JournalEntryList(ListEnvelope):
    journal_entries: List[JournalEntry]


class EntryListQuery(ListQuery):
    limit: int = Field(50, ge=1, le=100)
    start_date: Optional[Date] = None
    end_date: Optional[Date] = None
    status: Optional[EntryStatus] = None
    entry_type: Optional[EntryType] = None


# --- ledger and trial balance --------------------------------------------------------------------

class DatedPageQuery(RequestModel):
    """A ledger's period and page: the account ledger, a partner's statement."""
    start_date: Optional[Date] = Field(None, description="Default: 1 January of endDate's year.")
    end_date: Optional[Date] = Field(None, description="Default: today.")
    limit: int = Field(500, ge=1, le=1000)
    cursor: Optional[Annotated[str, StringConstraints(max_length=1000)]] = None


class LedgerQuery(DatedPageQuery):
    chart_of_account_id: QueryId


class LedgerPosting(ResponseModel):
    date: str
    journal_entry_id: int
    line: int
    entry_type: str
    description: Optional[str] = None
    line_description: Optional[str] = None
    reference: Optional[str] = None
    debit: Decimal
    credit: Decimal
    balance: Decimal


class Ledger(ResponseModel):
    account: Account
    start_date: str
    end_date: str
    opening_balance: Decimal
    total_debit: Decimal
    total_credit: Decimal
    closing_balance: Decimal
    postings: List[LedgerPosting]
    limit: int
    next_cursor: Optional[str] = None


class TrialBalanceQuery(RequestModel):
    date: Optional[Date] = Field(None, description="Default: today (UTC).")
    dimension_value_id: Optional[QueryId] = Field(None, description=DIMENSION_VALUE_FILTER)
    group_by_dimension_id: Optional[QueryId] = Field(None, description=GROUP_BY_DIMENSION)


class TrialBalanceRow(ByDimension):
    chart_of_account_id: int
    code: str
    name: str
    type: str
    debit: Decimal
    credit: Decimal
    balance: Decimal
    debit_balance: Decimal
    credit_balance: Decimal
    debit_by_dimension: Optional[List[Decimal]] = None
    credit_by_dimension: Optional[List[Decimal]] = None
    balance_by_dimension: Optional[List[Decimal]] = None


class TrialBalance(ByDimension):
    """Asked by a dimension (`groupByDimensionId`), each row's and the totals' debits and credits
    also come by its values (`…ByDimension`: one amount per `dimensionColumns` entry, adding up)."""
    date: str
    dimension_value_id: Optional[int] = Field(None, description="only the postings carrying this value (asked)")
    dimension_value_name: Optional[str] = None
    group_by_dimension_id: Optional[int] = Field(None, description="a column per value of this dimension (asked)")
    group_by_dimension_name: Optional[str] = None
    dimension_columns: Optional[List[DimensionColumn]] = None
    accounts: List[TrialBalanceRow]
    total_debit: Decimal
    total_credit: Decimal
    total_debit_balance: Decimal
    total_credit_balance: Decimal
    total_debit_by_dimension: Optional[List[Decimal]] = None
    total_credit_by_dimension: Optional[List[Decimal]] = None


# --- accounting periods --------------------------------------------------------------------------

class PeriodCreate(RequestModel):
    name: Name
    start_date: Date
    end_date: Date


class FiscalYear(ResponseModel):
    year: int
    status: Literal["open", "closing", "closed", "reopening"] = Field(
        description="closing and reopening: a close or reopening that stopped half-way (a chart with more than "
                    "30 accounts to close takes several entries); asking again finishes it")
    closing_date: str
    closing_entry_ids: List[int] = Field(description="the closing entries ever posted, reversed ones included")
    reopening_entry_ids: List[int] = Field(description="the closing entries reversed by reopenings")
    closed_at: Optional[str] = None
    reopened_at: Optional[str] = None
    version: int


class FiscalYearList(ResponseModel):
    fiscal_years: List[FiscalYear]
    total: int


class Period(ResponseModel):
    id: int
    name: str
    start_date: str
    end_date: str
    status: Literal["open", "closed"]
    closed_at: Optional[str] = None
    reopened_at: Optional[str] = None
    version: int
    created_at: str
    updated_at: str


class PeriodList(ListEnvelope):
    accounting_periods: List[Period]


class PeriodListQuery(ListQuery):
    pass


# --- determination rules -------------------------------------------------------------------------

class RuleUpsert(RequestModel):
    document_type: Optional[DocumentType] = Field(None, description="Omit for the general rule.")
    operation_type: OperationType
    chart_of_account_id: EntityId


class Rule(ResponseModel):
    id: int
    document_type: Optional[str] = None
    operation_type: str
    chart_of_account_id: int
    version: int
    created_at: str
    updated_at: str


class RuleList(ListEnvelope):
    rules: List[Rule]


class RuleListQuery(PageQuery):
    limit: int = Field(100, ge=1, le=100)
    operation_type: Optional[OperationType] = None
    document_type: Optional[DocumentType] = None


class ResolveRequest(RequestModel):
    document_type: Optional[DocumentType] = None
    operation_type: OperationType


class Resolution(ResponseModel):
    chart_of_account_id: int
    rule_id: int
    operation_type: str
    document_type: Optional[str] = None


# --- tax settlements (issue 39: settle) ----------------------------------------------------------

class TaxSettlementCreate(RequestModel):
    date: Date = Field(description="The settlement's entry and payment date: on or after periodEnd, in an open period.")
    period_end: Date = Field(description="The last day settled: the tax accounts' balances on that day are settled; "
                                         "on or after the previous settlement's date.")
    bank_account_id: Optional[EntityId] = Field(None, description="The bank account that pays, in the company's "
                                                                  "currency; required when anything is to be paid.")
    include_withholdings: bool = Field(False, description="Also pay the withholdings made (each withholding "
                                                          "account's credit balance at periodEnd).")


class TaxSettlement(ResponseModel):
    id: int
    date: str
    period_end: str
    output_tax: Decimal = Field(description="The sales tax account's balance at periodEnd: debited to it.")
    input_tax: Decimal = Field(description="The purchase tax account's balance at periodEnd (the credit).")
    offset: Decimal = Field(description="The input credit used against the output tax: credited to the purchase "
                                        "tax account.")
    tax_paid: Decimal = Field(description="outputTax - offset")
    withholdings_paid: Decimal
    amount_paid: Decimal = Field(description="taxPaid + withholdingsPaid: withdrawn from the bank account.")
    credit_carried_forward: Decimal = Field(description="inputTax - offset: left on the purchase tax account.")
    include_withholdings: bool
    bank_account_id: Optional[int] = None
    bank_transaction_id: Optional[int] = None
    journal_entry_id: int
    created_at: str


class TaxSettlementList(ListEnvelope):
    tax_settlements: List[TaxSettlement]
