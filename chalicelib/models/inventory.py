from decimal import Decimal
from typing import Annotated, List, Literal, Optional

from pydantic import AfterValidator, Field, StringConstraints

from chalicelib.models.accounting import DocumentType
from chalicelib.models.base import (
    FROM_JSON_NUMBER,
    Date,
    EntityId,
    ListEnvelope,
    LongText,
    Name,
    PageQuery,
    QueryId,
    RequestModel,
    ResponseModel,
    WholeNumber,
)

ThreeDigits = Annotated[str, StringConstraints(pattern=r"^\d{3}$")]
FiscalNumber = Annotated[WholeNumber, Field(ge=1, le=99_999_999), FROM_JSON_NUMBER]


def _upper(value: str) -> str:
    return value.upper()


# Honduras SAR: six groups of six hexadecimal characters and a final pair, e.g.
# 35A4E1-6C8E5B-2F49A3-0C6F26-2C3E5A-0A
CaiCode = Annotated[str, StringConstraints(pattern=r"^[0-9A-Fa-f]{6}(-[0-9A-Fa-f]{6}){4}-[0-9A-Fa-f]{2}$"),
                    AfterValidator(_upper)]


# --- branches ------------------------------------------------------------------------------------

class BranchCreate(RequestModel):
    name: Name
    code: ThreeDigits = Field(description="establishment code, 3 digits (the EEE of fiscal numbers)")
    address: Optional[LongText] = None
    is_active: bool = True


class BranchUpdate(RequestModel):
    name: Name = None  # type: ignore[assignment]
    address: Optional[LongText] = None
    is_active: bool = None  # type: ignore[assignment]
    version: Optional[int] = Field(None, ge=1)


class Branch(ResponseModel):
    id: int
    name: str
    code: str
    address: Optional[str] = None
    is_active: bool = True
    version: int
    created_at: str
    updated_at: str


class BranchList(ListEnvelope):
    branches: List[Branch]


# --- CAI ranges ----------------------------------------------------------------------------------

class CaiRangeCreate(RequestModel):
    cai: CaiCode
    branch_id: EntityId
    emission_point: ThreeDigits
    document_type: DocumentType
    range_start: FiscalNumber
    range_end: FiscalNumber
    deadline: Date = Field(description="last date a number of this range may be issued")
    is_active: bool = True


class CaiRangeUpdate(RequestModel):
    """The range may grow or shrink down to the numbers already issued; deadline and active
    flag may change. The series (branch, emission point, type) and the start are fixed."""
    cai: CaiCode = None  # type: ignore[assignment]
    range_end: FiscalNumber = None  # type: ignore[assignment]
    deadline: Date = None  # type: ignore[assignment]
    is_active: bool = None  # type: ignore[assignment]
    version: Optional[int] = Field(None, ge=1)


class CaiRange(ResponseModel):
    id: int
    cai: str
    branch_id: int
    emission_point: str
    document_type: str
    range_start: int
    range_end: int
    next_number: int
    remaining: int
    deadline: str
    is_active: bool
    version: int
    created_at: str
    updated_at: str


class CaiRangeList(ListEnvelope):
    cai_ranges: List[CaiRange]


# --- warehouses and stock ------------------------------------------------------------------------

class WarehouseCreate(RequestModel):
    name: Name
    branch_id: Optional[EntityId] = None
    is_active: bool = True


class WarehouseUpdate(RequestModel):
    name: Name = None  # type: ignore[assignment]
    branch_id: Optional[EntityId] = None
    is_active: bool = None  # type: ignore[assignment]
    version: Optional[int] = Field(None, ge=1)


class Warehouse(ResponseModel):
    id: int
    name: str
    branch_id: Optional[int] = None
    is_active: bool
    version: int
    created_at: str
    updated_at: str


class WarehouseList(ListEnvelope):
    warehouses: List[Warehouse]


class StockQuery(PageQuery):
    product_id: Optional[QueryId] = None
    warehouse_id: Optional[QueryId] = None
    date: Optional[Date] = Field(None, description="the stock at the end of this day (movements dated after it "
                                                   "left out); default: now, every movement recorded")


class StockLevel(ResponseModel):
    product_id: int
    warehouse_id: int
    quantity: Decimal


class StockList(ListEnvelope):
    stock: List[StockLevel]


class MovementQuery(PageQuery):
    product_id: Optional[QueryId] = None
    start_date: Optional[Date] = None
    end_date: Optional[Date] = None


class StockMovement(ResponseModel):
    """One line of a product's kardex: goods in (quantity > 0) or out, and what they were worth."""
    product_id: int
    warehouse_id: int
    quantity: Decimal
    date: str
    kind: Literal["confirmation", "reversal", "adjustment", "transfer"]
    unit_cost: Optional[Decimal] = Field(None, description="what each unit moved at (average cost out, purchase "
                                                           "value in); null before costing existed")
    value: Optional[Decimal] = Field(None, description="the change of the stock's value (signed)")
    revaluation: Optional[Decimal] = Field(None, description="stock value written off to cost of sales by this "
                                                             "movement (negative stock and reversals)")
    document_id: Optional[int] = None
    document_type: Optional[str] = None
    document_number: Optional[str] = None
    document_numero_control: Optional[str] = Field(
        None, description="El Salvador: the document's DTE número de control, by which a person names it; null "
                          "elsewhere (and on movements recorded before issue 38)")
    adjustment_id: Optional[int] = None
    transfer_id: Optional[int] = None


class MovementList(ListEnvelope):
    movements: List[StockMovement]
