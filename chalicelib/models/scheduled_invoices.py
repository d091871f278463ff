from decimal import Decimal
from typing import Annotated, List, Literal, Optional

from pydantic import Field

from chalicelib.models.accounting import LineDimensionView
from chalicelib.models.base import (
    FROM_JSON_NUMBER,
    Date,
    EntityId,
    ListEnvelope,
    RequestModel,
    ResponseModel,
    WholeNumber,
)
from chalicelib.models.documents import Lines

Frequency = Literal["daily", "weekly", "monthly"]
Interval = Annotated[WholeNumber, Field(ge=1, le=366), FROM_JSON_NUMBER]


class ScheduledInvoiceCreate(RequestModel):
    business_partner_id: EntityId
    lines: Lines
    payment_condition_id: Optional[EntityId] = None
    frequency: Frequency
    interval: Interval = Field(1, description="days, weeks or months between two runs")
    start_date: Date = Field(description="the first run; monthly schedules keep its day of the month")
    end_date: Optional[Date] = Field(None, description="no run after this date")
    is_active: bool = True


class ScheduledInvoiceUpdate(RequestModel):
    """Sparse: only the fields sent change; `lines` replaces all the lines."""
    business_partner_id: EntityId = None  # type: ignore[assignment]
    lines: Lines = None  # type: ignore[assignment]
    payment_condition_id: Optional[EntityId] = None
    frequency: Frequency = None  # type: ignore[assignment]
    interval: Interval = None  # type: ignore[assignment]
    start_date: Date = None  # type: ignore[assignment]
    end_date: Optional[Date] = None
    is_active: bool = None  # type: ignore[assignment]
    version: Optional[int] = Field(None, ge=1)


class ScheduledLine(ResponseModel):
    product_id: Optional[int] = None
    description: Optional[str] = None
    quantity: Decimal
    unit_price: Decimal
    discount: Decimal = Decimal("0.00")
    tax_rate: Optional[Decimal] = Field(None, description="null: the product's rate when the invoice is made")
    dimensions: List[LineDimensionView] = Field([], description="Cost centres the invoices' lines carry.")


class ScheduleRunError(ResponseModel):
    code: str
    message: str
    at: str


class ScheduledInvoice(ResponseModel):
    id: int
    business_partner_id: int
    lines: List[ScheduledLine]
    payment_condition_id: Optional[int] = None
    frequency: str
    interval: int
    start_date: str
    end_date: Optional[str] = None
    is_active: bool
    next_run_date: Optional[str] = Field(None, description="null when inactive or finished")
    last_document_id: Optional[int] = None
    last_document_number: Optional[str] = Field(None, description="the last invoice's fiscal number, beside its id")
    last_document_numero_control: Optional[str] = Field(
        None, description="El Salvador: the last invoice's DTE número de control, by which a person names it; null "
                          "elsewhere")
    last_run_date: Optional[str] = None
    last_error: Optional[ScheduleRunError] = Field(None, description="the last failed run, cleared by a "
                                                                     "successful one; the run is retried hourly")
    version: int
    created_at: str
    updated_at: str


class ScheduledInvoiceList(ListEnvelope):
    scheduled_invoices: List[ScheduledInvoice]
