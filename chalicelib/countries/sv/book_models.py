"""El Salvador's IVA books as the API answers them (GET /reports/iva-sales-consumers,
iva-sales-taxpayers, iva-purchases): their rows, daily lines, return events and totals."""
from decimal import Decimal
from typing import List, Optional

from pydantic import Field

from chalicelib.models.base import ResponseModel
from chalicelib.models.statements import BookPeriod


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


# issue 40: returns
class IvaReturnEvent(ResponseModel):
    """A return event (DTE 18) of the period: its amounts are in its day's totals already (negative)."""
    document_id: int
    date: str
    codigo_generacion: Optional[str] = Field(None, description="the return event's")
    returned_codigo_generacion: Optional[str] = Field(None, description="the FE or FEX it returns")
    status: str
    dte_status: Optional[str] = None
    taxed_base: Decimal = Field(description="the taxed sales returned, without their IVA")
    iva: Decimal = Field(description="the IVA returned (débito fiscal reduced)")
    exempt: Decimal
    non_subject: Decimal
    exports: Decimal
    total: Decimal


class IvaConsumerBook(BookPeriod):
    rows: List[IvaConsumerDay]
    totals: IvaConsumerTotals
    returns: List[IvaReturnEvent] = Field(default_factory=list, description="the return events (DTE 18) of the period")


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
