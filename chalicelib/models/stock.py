"""Inventory adjustments (opening stock, counts, damage), transfers between warehouses and the
inventory valuation."""
from decimal import Decimal
from typing import Annotated, List, Literal, Optional

from pydantic import ConfigDict, Field, model_validator
from pydantic.config import JsonDict

from chalicelib.models.base import (
    Date,
    EntityId,
    ListEnvelope,
    LongText,
    RequestModel,
    ResponseModel,
    ShortText,
)
from chalicelib.models.documents import Quantity

MAX_ADJUSTMENT_LINES = 300
# a transfer line writes two movements and the product's position: 30 lines fill a transaction
MAX_TRANSFER_LINES = 30
AdjustmentReason = Literal["opening", "count", "damage", "other"]
# A change of stock, signed: positive adds, negative takes away.
SignedQuantity = Annotated[Decimal, Field(ge=Decimal("-1000000000"), le=Decimal("1000000000"), decimal_places=4,
                                          allow_inf_nan=False, json_schema_extra={"not": {"const": 0}})]
CountedQuantity = Annotated[Decimal, Field(ge=0, le=Decimal("1000000000"), decimal_places=4, allow_inf_nan=False)]
UnitCost = Annotated[Decimal, Field(ge=0, le=Decimal("999999999"), decimal_places=6, allow_inf_nan=False)]


class AdjustmentLineInput(RequestModel):
    """A change of stock (`quantity`, signed) or a physical count (`countedQuantity`: the change is
    what it differs from the warehouse's stock on the adjustment's date, movements dated later left
    out)."""
    # one of the two, the other absent or null
    model_config = ConfigDict(json_schema_extra={"oneOf": [
        {"required": ["quantity"], "properties": {"quantity": {"type": "number"}, "countedQuantity": {"type": "null"}}},
        {"required": ["countedQuantity"], "properties": {"countedQuantity": {"type": "number"},
                                                         "quantity": {"type": "null"}}}]})

    product_id: EntityId
    quantity: Optional[SignedQuantity] = Field(None, description="the change: positive adds, negative takes away; "
                                                                 "not zero")
    counted_quantity: Optional[CountedQuantity] = Field(None, description="what the count found")
    unit_cost: Optional[UnitCost] = Field(
        None, description="what each unit added is worth: required for an opening stock; otherwise the product's "
                          "average cost on the adjustment's date. Units taken away always leave at that average")

    @model_validator(mode="after")
    def _one_quantity(self) -> "AdjustmentLineInput":
        if (self.quantity is None) == (self.counted_quantity is None):
            raise ValueError("send either the change in quantity or the counted quantity, not both")
        return self


def _lines_of_reason(reason: str, line_rule: JsonDict) -> JsonDict:
    return {"if": {"required": ["reason"], "properties": {"reason": {"const": reason}}},
            "then": {"properties": {"lines": {"items": line_rule}}}}


class AdjustmentCreate(RequestModel):
    # an opening stock adds at a cost given; damage takes away (a count's change depends on the stock)
    model_config = ConfigDict(json_schema_extra={"allOf": [
        _lines_of_reason("opening", {"properties": {"quantity": {"exclusiveMinimum": 0}},
                                     "if": {"required": ["quantity"]}, "then": {"required": ["unitCost"]}}),
        _lines_of_reason("damage", {"properties": {"quantity": {"exclusiveMaximum": 0}}})]})

    warehouse_id: EntityId
    date: Optional[Date] = Field(None, description="default: today")
    reason: AdjustmentReason = Field(
        description="opening: a new company's stock (adds only, at the unit cost given, against opening balance "
                    "equity); count: a physical count; damage: goods lost or damaged (takes away only); other")
    notes: Optional[LongText] = None
    reference: Optional[ShortText] = None
    lines: Annotated[List[AdjustmentLineInput], Field(min_length=1, max_length=MAX_ADJUSTMENT_LINES)]


class AdjustmentLine(ResponseModel):
    product_id: int
    quantity: Decimal = Field(description="the change made (signed)")
    counted_quantity: Optional[Decimal] = None
    previous_quantity: Decimal = Field(description="the warehouse's stock of the product on the adjustment's date, "
                                                   "before it (movements dated later left out)")
    unit_cost: Decimal
    value: Decimal = Field(description="the change of the stock's value (signed)")


class Adjustment(ResponseModel):
    id: int
    warehouse_id: int
    date: str
    reason: AdjustmentReason
    notes: Optional[str] = None
    reference: Optional[str] = None
    lines: List[AdjustmentLine]
    total_value: Decimal = Field(description="the change of the stock's value, all lines (signed)")
    journal_entry_id: Optional[int] = Field(None, description="null when no line changed the stock's value")
    created_at: str


class AdjustmentList(ListEnvelope):
    adjustments: List[Adjustment]


class TransferLineInput(RequestModel):
    product_id: EntityId
    quantity: Quantity


class TransferCreate(RequestModel):
    from_warehouse_id: EntityId
    to_warehouse_id: EntityId = Field(description="another warehouse than fromWarehouseId")
    date: Optional[Date] = Field(None, description="default: today")
    notes: Optional[LongText] = None
    reference: Optional[ShortText] = None
    lines: Annotated[List[TransferLineInput], Field(min_length=1, max_length=MAX_TRANSFER_LINES)]


class TransferLine(ResponseModel):
    product_id: int
    quantity: Decimal
    unit_cost: Decimal = Field(description="the average cost the goods moved at (information: no entry is posted)")


class Transfer(ResponseModel):
    id: int
    from_warehouse_id: int
    to_warehouse_id: int
    date: str
    notes: Optional[str] = None
    reference: Optional[str] = None
    lines: List[TransferLine]
    created_at: str


class TransferList(ListEnvelope):
    transfers: List[Transfer]


class ValuationQuery(RequestModel):
    date: Optional[Date] = Field(None, description="the end of this day; default: today")


class ValuationItem(ResponseModel):
    product_id: int
    code: str
    name: str
    warehouse_id: Optional[int] = Field(description="null: value left on a product with no stock at that date "
                                                    "(documents recorded out of date order)")
    warehouse_name: Optional[str] = None
    quantity: Decimal
    average_cost: Decimal
    value: Decimal


class InventoryAccount(ResponseModel):
    chart_of_account_id: int
    code: str
    name: str
    balance: Decimal


class Valuation(ResponseModel):
    date: str
    items: List[ValuationItem]
    total_quantity: Decimal
    total_value: Decimal
    inventory_accounts: List[InventoryAccount] = Field(
        description="the accounts the determination rules post inventory to, with their balance at the date")
    accounts_balance: Decimal
    difference: Decimal = Field(description="total value - accounts balance: not zero only when the inventory "
                                            "accounts were posted to by hand")

