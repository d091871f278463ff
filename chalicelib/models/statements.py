from __future__ import annotations

from decimal import Decimal
from typing import Annotated, List, Optional

from pydantic import Field, StringConstraints

from chalicelib.models.base import Date, RequestModel, ResponseModel


class BalanceSheetQuery(RequestModel):
    date: Optional[Date] = Field(None, description="Default: today (UTC).")
    compare_date: Optional[Date] = Field(None, description="A second column: the balances at this date.")


class IncomeStatementQuery(RequestModel):
    start_date: Optional[Date] = Field(None, description="Default: 1 January of endDate's year.")
    end_date: Optional[Date] = Field(None, description="Default: today (UTC); not before startDate.")
    compare_start_date: Optional[Date] = Field(None, description="A second column: send both compare dates.")
    compare_end_date: Optional[Date] = None


class StatementAccount(ResponseModel):
    """An account with its sub-accounts; its balance includes theirs (on the section's normal side)."""
    chart_of_account_id: int
    code: str
    name: str
    balance: Decimal
    compare_balance: Optional[Decimal] = None
    accounts: List[StatementAccount]


class StatementSection(ResponseModel):
    total: Decimal
    compare_total: Optional[Decimal] = None
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
    start_date: str
    end_date: str
    compare_start_date: Optional[str] = None
    compare_end_date: Optional[str] = None
    revenue: StatementSection
    cost_of_sales: StatementSection
    gross_margin: Decimal
    compare_gross_margin: Optional[Decimal] = None
    expenses: StatementSection
    operating_result: Decimal
    compare_operating_result: Optional[Decimal] = None
    net_result: Decimal = Field(description="the chart has no financial or tax sections: the operating result")
    compare_net_result: Optional[Decimal] = None


class BookQuery(RequestModel):
    start_date: Date
    end_date: Date = Field(description="not before startDate")


class BookRow(ResponseModel):
    """One fiscal document; a credit note's amounts are negative, a cancelled document's zero."""
    document_id: int
    date: str
    type: str
    type_name: str
    number: Optional[str] = Field(None, description="the fiscal number: a purchase's is the supplier's when recorded")
    internal_number: Optional[str] = Field(None, description="this service's number of the document")
    cai: Optional[str] = Field(None, description="a purchase's is the supplier's CAI when recorded")
    business_partner_id: int
    partner_tax_id: Optional[str] = Field(None, description="the partner's RTN")
    partner_name: str
    status: str = Field(description="`confirmed`; `cancelled` (cancelled within its month: kept with no amounts); "
                                    "`reversal` (a document of an earlier month cancelled or unconfirmed in this "
                                    "one: its amounts count against this month, the earlier month's book unchanged)")
    exempt: Decimal
    exonerated: Decimal = Field(description="lines whose taxTreatment is exonerated")
    purchase_order_number: Optional[str] = Field(None, description="sales to an exonerated buyer: the orden de "
                                                                   "compra exenta (document's `exoneration`)")
    registry_number: Optional[str] = Field(None, description="the constancia de registro de exonerados")
    sag_number: Optional[str] = Field(None, description="the registro de la SAG")
    taxed15: Decimal
    taxed18: Decimal
    isv15: Decimal
    isv18: Decimal
    total: Decimal


class BookTotals(ResponseModel):
    exempt: Decimal
    exonerated: Decimal
    taxed15: Decimal
    taxed18: Decimal
    isv15: Decimal
    isv18: Decimal
    total: Decimal


class BookPeriod(ResponseModel):
    """A tax book's period (its rows and totals are the book's own)."""
    start_date: str
    end_date: str


class TaxBook(BookPeriod):
    rows: List[BookRow]
    totals: BookTotals


class IvaDocumentRow(ResponseModel):
    """El Salvador: one document of an IVA book; a credit note's amounts are negative, a cancelled
    document's zero."""
    document_id: int
    date: str
    type: str
    type_name: str
    number: Optional[str] = Field(None, description="the DTE's numeroControl, else the document's number; a "
                                                    "purchase's is the supplier's when recorded")
    codigo_generacion: Optional[str] = None
    business_partner_id: int
    partner_nrc: Optional[str] = Field(None, description="the partner's NRC")
    partner_name: str
    status: str = Field(description="`confirmed`, `cancelled` or `reversal`, as in Honduras' books")


class IvaTaxpayerTotals(ResponseModel):
    exempt: Decimal = Field(description="exempt and exported sales")
    non_subject: Decimal
    taxed: Decimal = Field(description="without IVA")
    iva: Decimal = Field(description="débito fiscal")
    total: Decimal


class IvaTaxpayerRow(IvaDocumentRow, IvaTaxpayerTotals):
    pass


class IvaTaxpayerBook(BookPeriod):
    rows: List[IvaTaxpayerRow]
    totals: IvaTaxpayerTotals


class IvaConsumerTotals(ResponseModel):
    exempt: Decimal
    non_subject: Decimal
    taxed: Decimal = Field(description="with their IVA, as a factura's prices are")
    exports: Decimal
    iva: Decimal = Field(description="the IVA included in taxed (débito fiscal)")
    total: Decimal


class IvaConsumerDay(IvaConsumerTotals):
    """One day of facturas (and of notes correcting them, counted in the amounts only)."""
    date: str
    from_number: Optional[str] = Field(None, description="the lowest numeroControl of the day's facturas")
    to_number: Optional[str] = Field(None, description="the highest numeroControl of the day's facturas")
    documents: int


class IvaConsumerBook(BookPeriod):
    rows: List[IvaConsumerDay]
    totals: IvaConsumerTotals


class IvaPurchaseTotals(ResponseModel):
    exempt_internal: Decimal
    exempt_imports: Decimal
    taxed_internal: Decimal = Field(description="without IVA")
    taxed_imports: Decimal
    iva: Decimal = Field(description="crédito fiscal")
    excluded_subject: Decimal = Field(description="from suppliers without an NRC, who charge no IVA")
    total: Decimal


class IvaPurchaseRow(IvaDocumentRow, IvaPurchaseTotals):
    internal_number: Optional[str] = Field(None, description="this service's number of the document")


class IvaPurchaseBook(BookPeriod):
    rows: List[IvaPurchaseRow]
    totals: IvaPurchaseTotals


class AgedQuery(RequestModel):
    date: Optional[Date] = Field(None, description="Default: today (UTC).")


class AgedDocument(ResponseModel):
    document_id: int
    type: str
    number: Optional[str] = None
    date: str
    due_date: str
    days_overdue: int
    open: Decimal = Field(description="what it leaves owed at the date (a credit note: negative), in the company's "
                                      "currency")
    currency: Optional[str] = Field(None, description="the document's currency")
    open_in_currency: Optional[Decimal] = Field(None, description="`open` in the document's currency")


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
    documents: List[AgedDocument]


class AgedBalances(ResponseModel):
    date: str
    partners: List[AgedPartner]
    totals: AgedBuckets


class IsvSummaryQuery(RequestModel):
    month: Annotated[str, StringConstraints(pattern=r"^(19|2\d)\d{2}-(0[1-9]|1[0-2])$")] = Field(
        description="YYYY-MM")


class IsvSummary(ResponseModel):
    month: str
    sales: BookTotals = Field(description="the sales book's totals")
    purchases: BookTotals = Field(description="the purchase book's totals")
    output_tax: Decimal = Field(description="ISV charged on sales (débito fiscal)")
    input_tax: Decimal = Field(description="ISV paid on purchases (crédito fiscal)")
    credit_brought_forward: Decimal = Field(description="the ISV accounts' credit at the end of the previous month")
    withholdings_received: Decimal = Field(description="ISV our customers withheld (the month's certificates, "
                                                       "withholding tax isv, side sales): they pay part of the tax due")
    tax_payable: Decimal = Field(description="output less input tax, credit brought forward and withholdings received")
    withholdings_unapplied: Decimal = Field(description="withholdings received beyond the tax due: a claim kept on "
                                                        "the withholding account, not ISV credit")
    credit_carried_forward: Decimal = Field(description="input tax and credit brought forward beyond the output tax")
    withholdings_made: Decimal = Field(description="ISV we withheld from suppliers (certificates side purchases): "
                                                   "owed to the authority on their own")
