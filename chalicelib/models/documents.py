from decimal import Decimal
from typing import Annotated, Any, Dict, List, Literal, Optional

from pydantic import ConfigDict, Field, StringConstraints

from chalicelib.countries.models import (
    EXONERATION_DESCRIPTION,
    DteInfo,
    DteType,
    Exoneration,
    ExonerationInfo,
    ExportTerms,
)
from chalicelib.domain.documents import creation_rules_schema
from chalicelib.domain.money import MAX_AMOUNT
from chalicelib.domain.taxes import TAX_TREATMENTS, TAXED, ZERO_TREATMENTS
from chalicelib.models.accounting import DOCUMENT_TYPE_NAMES, DocumentType, LineDimensions, LineDimensionView
from chalicelib.models.base import (
    Currency,
    Date,
    EntityId,
    ListEnvelope,
    ListQuery,
    LongText,
    Money,
    OneOf,
    QueryId,
    RequestModel,
    ResponseModel,
    ShortText,
)
from chalicelib.models.exchange_rates import ExchangeRateValue
from chalicelib.models.inventory import CaiCode
from chalicelib.models.products import TaxRate

MAX_LINES = 500
Quantity = Annotated[Decimal, Field(gt=0, le=Decimal("1000000000"), decimal_places=4, allow_inf_nan=False)]
UnitPrice = Annotated[Decimal, Field(ge=0, le=MAX_AMOUNT, decimal_places=4, allow_inf_nan=False)]
DocumentStatus = Literal["draft", "confirmed", "cancelled"]
PaymentStatus = Literal["unpaid", "partially_paid", "paid", "overdue"]
PAYMENT_STATUS_DESCRIPTION = (
    "what is left to pay as of the company's today, computed when read: `paid` (pending 0), `overdue` (pending "
    "and due before today; not a credit note, which is applied), `partially_paid` (0 < pending < total), "
    "`unpaid`; null for a draft or cancelled document and for types that carry no balance (quotes, orders, "
    "deliveries, withholding certificates)")
TaxTreatment = Annotated[str, OneOf(TAX_TREATMENTS), Field(
    description="why a line carries no tax: `exempt`, `exonerated` (the buyer's exoneration, Honduras), "
                "`nonSubject` (El Salvador's no sujetas) or `export` (rate 0); `taxed` otherwise. "
                "Default: by the rate")]
SupplierDocumentNumber = Annotated[str, StringConstraints(min_length=1, max_length=60, pattern=r"\S"), Field(
    description="purchases: the number the supplier printed on its document (Honduras: EEE-PPP-TT-NNNNNNNN; "
                "El Salvador: its numeroControl or codigoGeneracion), for the purchase book")]


class Withholding(RequestModel):
    """A withholding certificate (05): which tax was withheld and on which side."""
    tax: Literal["isv", "iva", "isr"] = Field(description="isv: Honduras' sales tax; iva: El Salvador's; isr: income tax")
    side: Literal["sales", "purchases"] = Field(
        description="sales: a customer withheld it from what it paid us (the certificate is ours to keep); "
                    "purchases: we withheld it from a supplier (we owe it to the tax authority)")


class LineInput(RequestModel):
    """A product's line, or a free line with its own description."""
    model_config = ConfigDict(json_schema_extra={"allOf": [
        {"anyOf": [{"required": ["productId"], "properties": {"productId": {"type": "integer"}}},
                   {"required": ["description"], "properties": {"description": {"type": "string", "pattern": "\\S"}}}]},
        # a zero-rate treatment takes no tax; a taxed line without a product names its rate
        {"if": {"required": ["taxTreatment"], "properties": {"taxTreatment": {"enum": list(ZERO_TREATMENTS)}}},
         "then": {"properties": {"taxRate": {"enum": [0, None]}}}},
        {"if": {"required": ["taxTreatment"], "properties": {"taxTreatment": {"const": TAXED}}},
         "then": {"properties": {"taxRate": {"not": {"const": 0}}},
                  "anyOf": [{"required": ["productId"], "properties": {"productId": {"type": "integer"}}},
                            {"required": ["taxRate"], "properties": {"taxRate": {"type": "number"}}}]}}]})

    product_id: Optional[EntityId] = None
    # 500 lines of 300 characters keep the document (and its stored answer) within an item
    description: Optional[Annotated[str, StringConstraints(max_length=300)]] = None
    quantity: Quantity
    unit_price: UnitPrice
    discount: Money = Decimal("0.00")
    tax_rate: Optional[TaxRate] = None
    tax_treatment: Optional[TaxTreatment] = None
    dimensions: Optional[LineDimensions] = Field(None, description=(
        "Cost centres: the line's revenue (sales) or expense (purchases) posts with them."))


Lines = Annotated[List[LineInput], Field(min_length=1, max_length=MAX_LINES)]


class DocumentCreate(RequestModel):
    model_config = ConfigDict(json_schema_extra={"allOf": [*creation_rules_schema()]})

    type: DocumentType
    business_partner_id: EntityId
    date: Optional[Date] = None
    due_date: Optional[Date] = None
    payment_condition_id: Optional[EntityId] = None
    branch_id: Optional[EntityId] = None
    warehouse_id: Optional[EntityId] = None
    currency: Optional[Currency] = None
    exchange_rate: Optional[ExchangeRateValue] = Field(
        None, description="company currency per unit of the document's currency; default: the company's rate "
                          "for the document date (POST /exchange-rates); 1 in the company's own currency")
    notes: Optional[LongText] = None
    reference: Optional[ShortText] = None
    source_document_id: Optional[EntityId] = None
    supplier_document_number: Optional[SupplierDocumentNumber] = None
    supplier_cai: Optional[CaiCode] = Field(None, description="purchases in Honduras: the CAI on the supplier's invoice")
    withholding: Optional[Withholding] = Field(None, description="withholding certificates (05) only")
    export: Optional[ExportTerms] = Field(None, description="El Salvador sales invoices to a customer abroad "
                                                            "whose lines are `export` only")
    exoneration: Optional[Exoneration] = Field(None, description=EXONERATION_DESCRIPTION)
    dte_type: Optional[DteType] = None
    status: Optional[Literal["draft", "confirmed"]] = Field(
        None, description="`draft` keeps the document a draft; by default it is confirmed on creation "
                          "(quotes and orders stay drafts)")
    capture: Optional[Literal["automatic", "manual"]] = Field(
        None, description="`automatic`: captured from a supplier's invoice (103, 105, 106); kept a draft with no "
                          "entry until confirmed")
    lines: Lines


class DocumentUpdate(RequestModel):
    """PUT on a draft changes only the fields it sends; `lines` replaces all the lines."""
    business_partner_id: EntityId = None  # type: ignore[assignment]
    date: Date = None  # type: ignore[assignment]
    due_date: Optional[Date] = None
    payment_condition_id: Optional[EntityId] = None
    branch_id: Optional[EntityId] = None
    warehouse_id: Optional[EntityId] = None
    currency: Currency = None  # type: ignore[assignment]
    exchange_rate: Optional[ExchangeRateValue] = Field(
        None, description="left out when the date or currency changes: the company's rate for the new date")
    notes: Optional[LongText] = None
    reference: Optional[ShortText] = None
    source_document_id: Optional[EntityId] = None
    supplier_document_number: Optional[SupplierDocumentNumber] = None
    supplier_cai: Optional[CaiCode] = Field(None, description="purchases in Honduras: the CAI on the supplier's invoice")
    withholding: Optional[Withholding] = Field(None, description="withholding certificates (05) only")
    export: Optional[ExportTerms] = Field(None, description="El Salvador sales invoices to a customer abroad "
                                                            "whose lines are `export` only")
    exoneration: Optional[Exoneration] = Field(None, description=EXONERATION_DESCRIPTION)
    dte_type: Optional[DteType] = None
    lines: Lines = None  # type: ignore[assignment]
    version: Optional[int] = Field(None, ge=1)


class DocumentReverse(RequestModel):
    date: Optional[Date] = Field(None, description="date of the reversal entry and stock movements; default today")
    reason: Optional[ShortText] = None


class DocumentLine(ResponseModel):
    product_id: Optional[int] = None
    description: Optional[str] = None
    quantity: Decimal
    unit_price: Decimal
    discount: Decimal
    tax_rate: Decimal
    tax_treatment: Optional[str] = None
    subtotal: Decimal
    tax: Decimal
    total: Decimal
    dimensions: List[LineDimensionView] = []


class WithholdingInfo(ResponseModel):
    tax: str
    side: str


class CaiInfo(ResponseModel):
    cai: str
    range_id: int
    emission_point: str
    range_start: str
    range_end: str
    deadline: str


class Document(ResponseModel):
    id: int
    type: str
    number: Optional[str] = None
    status: str
    business_partner_id: int
    date: str
    due_date: Optional[str] = None
    payment_condition_id: Optional[int] = None
    branch_id: Optional[int] = None
    warehouse_id: Optional[int] = None
    currency: Optional[str] = None
    exchange_rate: Decimal = Field(default=Decimal(1), description="company currency per unit of `currency`")
    base_total: Optional[Decimal] = Field(None, description="the total in the company's currency (total x "
                                                              "exchangeRate, to the cent): what the books carry")
    base_pending: Optional[Decimal] = Field(None, description="what is pending, in the company's currency at the "
                                                                "document's rate")
    notes: Optional[str] = None
    reference: Optional[str] = None
    source_document_id: Optional[int] = None
    supplier_document_number: Optional[str] = None
    supplier_cai: Optional[str] = None
    withholding: Optional["WithholdingInfo"] = None
    export: Optional[Dict[str, Any]] = Field(None, description="a factura de exportación's terms, as sent")
    exoneration: Optional[ExonerationInfo] = Field(None, description="Honduras: the exonerated buyer's registers")
    dte_type: Optional[str] = Field(None, description="El Salvador: the DTE type chosen for the sales invoice (`01`, "
                                                      "`03`); null when left to the customer's NRC")
    capture: Optional[str] = None
    lines: List[DocumentLine]
    subtotal: Decimal
    tax_total: Decimal
    total: Decimal
    tax_bases: Dict[str, Decimal] = Field(default_factory=dict,
                                          description="taxable base by ISV rate (0 = exempt)")
    paid_total: Decimal
    pending: Decimal
    payment_status: Optional[PaymentStatus] = Field(None, description=PAYMENT_STATUS_DESCRIPTION)
    days_overdue: Optional[int] = Field(None, description="overdue: whole days since the due date, as of the "
                                                          "company's today; null otherwise")
    advances_total: Decimal = Field(default=Decimal(0), description="advances received (quotes and orders)")
    advances_applied: Decimal = Field(default=Decimal(0), description="of those, taken by invoices")
    journal_entry_id: Optional[int] = None
    reversal_entry_ids: List[int] = Field(default_factory=list)
    cai: Optional[CaiInfo] = None
    codigo_generacion: Optional[str] = None
    dte: Optional[DteInfo] = Field(None, description="El Salvador sales invoices; null elsewhere")
    warnings: List[str] = Field(default_factory=list)
    allowed_actions: List[Literal["update", "confirm", "delete", "cancel", "unconfirm", "invalidate", "pay", "refund",
                                  "advance", "applyAdvances", "print", "send"]] = Field(
        default_factory=list,
        description="what the document can do next by its own state (the rules the commands check): `pay`, `refund` "
                    "(a credit note's rest) and `advance` (a quote, order or delivery) are POST "
                    "/payments/documents/{id}/payments, `applyAdvances` POST "
                    "/payments/documents/{id}/apply-advances-from-source; the caller's role may still refuse, "
                    "`delete` a draft with cancelled payments on record and `applyAdvances` when the quote or order "
                    "holds no advance left")
    confirmed_at: Optional[str] = None
    cancelled_at: Optional[str] = None
    cancel_reason: Optional[str] = None
    version: int
    created_at: str
    updated_at: str


class DocumentListItem(ResponseModel):
    id: int
    number: Optional[str] = None
    type: str
    business_partner_id: int
    date: str
    total: Decimal
    pending: Decimal
    currency: Optional[str] = None
    exchange_rate: Decimal = Field(default=Decimal(1), description="company currency per unit of `currency`")
    base_total: Optional[Decimal] = Field(None, description="the total in the company's currency")
    base_pending: Optional[Decimal] = Field(None, description="what is pending, in the company's currency")
    status: str
    created_at: str
    due_date: Optional[str] = None
    payment_status: Optional[PaymentStatus] = Field(None, description=PAYMENT_STATUS_DESCRIPTION)
    days_overdue: Optional[int] = Field(None, description="overdue: whole days since the due date, as of the "
                                                          "company's today; null otherwise")
    dte: Optional[DteInfo] = Field(None, description="El Salvador: the document's DTE; its `numeroControl` is the "
                                                     "name a person reads")


class DocumentList(ListEnvelope):
    documents: List[DocumentListItem]


# a list also finds the opening balances (900 a customer's, 901 a supplier's), which only
# POST /business-partners/{id}/opening-balance makes
ListedDocumentType = Annotated[
    Literal["01", "06", "07", "100", "101", "112", "113", "103", "104", "105", "106", "102", "11", "05", "900", "901"],
    Field(json_schema_extra={"x-enum-varnames": [*DOCUMENT_TYPE_NAMES.values(), "CUSTOMER_OPENING_BALANCE",
                                                 "SUPPLIER_OPENING_BALANCE"]})]


class DocumentListQuery(ListQuery):
    q: Optional[Annotated[str, StringConstraints(strip_whitespace=True, min_length=1, max_length=100), Field(
        description="finds documents by number (the company's or, on a purchase, the supplier's: by the "
                    "last digits, \"123\" finds 001-001-01-00000123) or by the partner's name, tax id or "
                    "e-mail (every word begins one of theirs); page-numbered (no cursor), newest first")]] = None
    type: Optional[ListedDocumentType] = None
    status: Optional[DocumentStatus] = None
    start_date: Optional[Date] = None
    end_date: Optional[Date] = None
    business_partner_id: Optional[QueryId] = None
    payment_status: Optional[PaymentStatus] = Field(None, description=(
        "only documents of this payment status as of the company's today (see the document's `paymentStatus`); "
        "page-numbered (no cursor); `overdue` lists the longest overdue first (oldest due date), the others "
        "newest first"))
