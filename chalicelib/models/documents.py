from decimal import Decimal
from typing import Annotated, Any, Dict, List, Literal, Optional

from pydantic import ConfigDict, Field, StringConstraints

from chalicelib.domain.documents import creation_rules_schema
from chalicelib.domain.money import MAX_AMOUNT
from chalicelib.domain.taxes import TAX_TREATMENTS, TAXED, ZERO_TREATMENTS
from chalicelib.models.accounting import DocumentType
from chalicelib.models.base import (
    Date,
    EntityId,
    ListEnvelope,
    ListQuery,
    LongText,
    Money,
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
Currency = Literal["HNL", "USD"]
TaxTreatment = Annotated[Literal[TAX_TREATMENTS], Field(  # type: ignore[valid-type]
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


class ExportTerms(RequestModel):
    """El Salvador: what a factura de exportación (DTE 11) says of the export besides its lines and buyer."""
    country_code: Annotated[str, StringConstraints(pattern=r"^\d{4}$")] = Field(
        description="the destination country's code in the authority's catalogue (CAT-020, the codes fe-fex-v1 "
                    "lists)")
    country_name: Annotated[str, StringConstraints(min_length=3, max_length=50)] = Field(
        description="the destination country's name")
    fiscal_precinct: Optional[Annotated[str, StringConstraints(pattern=r"^\d{2}$")]] = Field(
        None, description="goods: the fiscal precinct (recinto fiscal, CAT-027) they leave through")
    regime: Optional[Annotated[str, StringConstraints(min_length=1, max_length=13)]] = Field(
        None, description="goods: the customs regime (CAT-028)")
    incoterms: Optional[Annotated[str, StringConstraints(pattern=r"^\d{2}$")]] = Field(
        None, description="the INCOTERMS code (CAT-031)")
    incoterms_description: Optional[Annotated[str, StringConstraints(min_length=3, max_length=150)]] = None


ExonerationRegister = Annotated[str, StringConstraints(strip_whitespace=True, min_length=1, max_length=40,
                                                          pattern=r"^[A-Za-z0-9][A-Za-z0-9 ./-]*$")]


class Exoneration(RequestModel):
    """Honduras: the registers of an exonerated buyer, printed on the invoice and in the sales book
    (Acuerdo 481-2017 Art. 10 num. 8). Each is optional, as the exoneration at hand calls for; at
    least one is given. With it, every line carries no ISV (its lines are `exonerated`)."""
    model_config = ConfigDict(json_schema_extra={"minProperties": 1})

    purchase_order_number: Optional[ExonerationRegister] = Field(
        None, description="No. correlativo de la orden de compra exenta (OCE)")
    registry_number: Optional[ExonerationRegister] = Field(
        None, description="No. correlativo de la constancia de registro de exonerados")
    sag_number: Optional[ExonerationRegister] = Field(
        None, description="No. identificativo del registro de la SAG (Secretaría de Agricultura y Ganadería)")


EXONERATION_DESCRIPTION = ("Honduran sales documents to an exonerated buyer: its registers; every line is then "
                           "exonerated (no ISV): a line without taxTreatment becomes `exonerated`, a taxed one is "
                           "refused; `exempt` lines stay exempt. null removes it from a draft. A credit or debit "
                           "note (06, 07) without its own (or null) takes its invoice's")


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


Lines = Annotated[List[LineInput], Field(min_length=1, max_length=MAX_LINES)]


class DocumentCreate(RequestModel):
    model_config = ConfigDict(json_schema_extra={"allOf": creation_rules_schema()})

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
    lines: Lines = None  # type: ignore[assignment]
    version: Optional[int] = Field(None, ge=1)


class DocumentReverse(RequestModel):
    date: Optional[Date] = Field(None, description="date of the reversal entry and stock movements; default today")
    reason: Optional[ShortText] = None


IdDocumentType = Literal["36", "13", "02", "03", "37"]


class PersonId(RequestModel):
    """A person named in an invalidation (CAT-022: 36 NIT, 13 DUI, 02 carné de residente, 03 passport, 37 other)."""
    name: Annotated[str, StringConstraints(min_length=5, max_length=100)]
    document_type: IdDocumentType
    document_number: Annotated[str, StringConstraints(min_length=3, max_length=20)]


class DocumentInvalidate(RequestModel):
    """El Salvador: the invalidation (anulación) of an accepted DTE, as the authority's event asks."""
    model_config = ConfigDict(json_schema_extra={"allOf": [
        {"if": {"properties": {"invalidationType": {"const": 1}}},
         "then": {"required": ["replacementDocumentId"], "properties": {"replacementDocumentId": {"type": "integer"}}}},
        {"if": {"properties": {"invalidationType": {"const": 3}}},
         "then": {"required": ["reason"], "properties": {"reason": {"type": "string"}}}}]})

    invalidation_type: Literal[1, 2, 3] = Field(
        description="1: an error in the information, replaced by another DTE (replacementDocumentId); "
                    "2: the operation was rescinded; 3: another reason (reason)")
    reason: Optional[Annotated[str, StringConstraints(min_length=5, max_length=250)]] = None
    replacement_document_id: Optional[EntityId] = None
    responsible: PersonId = Field(description="who invalidates it, for the issuer")
    requester: PersonId = Field(description="who asks for it")
    date: Optional[Date] = Field(None, description="date of the reversal entry and stock movements; default today")


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


class WithholdingInfo(ResponseModel):
    tax: str
    side: str


class ExonerationInfo(ResponseModel):
    purchase_order_number: Optional[str] = None
    registry_number: Optional[str] = None
    sag_number: Optional[str] = None


class CaiInfo(ResponseModel):
    cai: str
    range_id: int
    emission_point: str
    range_start: str
    range_end: str
    deadline: str


class DteInfo(ResponseModel):
    """El Salvador: the document as an electronic tax document (DTE) and its transmission."""
    status: Literal["pending", "accepted", "rejected", "invalidated"]
    codigo_generacion: str
    numero_control: Optional[str] = None
    tipo_dte: Optional[str] = None
    sello_recepcion: Optional[str] = None
    receptor: Optional[Dict[str, Any]] = Field(None, description="the receiver as issued, in the authority's format")
    observations: List[str] = Field(default_factory=list, description="the tax authority's, when it rejected it")
    attempts: int = 0
    last_attempt_at: Optional[str] = None
    last_error: Optional[str] = Field(None, description="why the last transmission got no answer (still pending)")
    transmitted_at: Optional[str] = None
    accepted_at: Optional[str] = None
    invalidation: Optional[Dict[str, Any]] = Field(None, description="the accepted invalidation event: its codes, "
                                                                     "seal, type and reason")
    contingency: Optional[Dict[str, Any]] = Field(
        None, description="issued while the authority could not receive it in time: the contingency type (CAT-005), "
                          "the event that reports it (eventCodigo) and, once the authority received the event, its "
                          "seal (eventSeal); it is then sent under the deferred model, in a lot (lotId)")


class DteAuthorityAnswer(ResponseModel):
    """The tax authority's answer to the transmission, as it wrote it."""
    model_config = ConfigDict(alias_generator=None, extra="allow", defer_build=True)
    estado: Optional[str] = Field(None, description="`PROCESADO` (accepted) or `RECHAZADO`")
    codigoGeneracion: Optional[str] = None  # noqa: N815 (the authority's names)
    selloRecibido: Optional[str] = None  # noqa: N815
    fhProcesamiento: Optional[str] = Field(None, description="when it was processed: dd/mm/yyyy hh:mm:ss, "  # noqa: N815
                                                             "El Salvador's time")
    observaciones: List[str] = []


class DteAsTransmitted(ResponseModel):
    """El Salvador: the DTE's JSON exactly as signed and transmitted (every member of the authority's
    format, byte for byte), followed by its signature, the authority's seal and answer: the file the
    receiver is handed."""
    model_config = ConfigDict(alias_generator=None, extra="allow", defer_build=True)
    identificacion: Dict[str, Any] = Field(description="tipoDte, numeroControl, codigoGeneracion, fecEmi... as issued")
    firmaElectronica: str = Field(description="the compact JWS (RS512) sent")  # noqa: N815
    selloRecibido: Optional[str] = Field(None, description="the authority's seal; null when it refused the DTE")  # noqa: N815
    respuestaHacienda: DteAuthorityAnswer  # noqa: N815


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
    capture: Optional[str] = None
    lines: List[DocumentLine]
    subtotal: Decimal
    tax_total: Decimal
    total: Decimal
    tax_bases: Dict[str, Decimal] = Field(default_factory=dict,
                                          description="taxable base by ISV rate (0 = exempt)")
    paid_total: Decimal
    pending: Decimal
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


class DocumentList(ListEnvelope):
    documents: List[DocumentListItem]


# a list also finds the opening balances (900 a customer's, 901 a supplier's), which only
# POST /business-partners/{id}/opening-balance makes
ListedDocumentType = Literal["01", "06", "07", "100", "101", "112", "113", "103", "104", "105", "106", "102", "11",
                             "05", "900", "901"]


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
