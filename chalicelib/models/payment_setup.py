from typing import Annotated, List, Literal, Optional

from pydantic import ConfigDict, Field
from pydantic.config import JsonDict

from chalicelib.models.base import (
    FROM_JSON_NUMBER,
    EntityId,
    ListEnvelope,
    Name,
    RequestModel,
    ResponseModel,
    WholeNumber,
)

ConditionType = Literal["cash", "credit"]
CreditDays = Annotated[WholeNumber, Field(ge=0, le=3650), FROM_JSON_NUMBER]


# creditDays: at least 1 on a credit condition, 0 or absent on a cash one (services.payments.payment_setup)
_CREDIT_DAYS_RULE: JsonDict = {"allOf": [
    {"if": {"required": ["type"], "properties": {"type": {"const": "credit"}}},
     "then": {"required": ["creditDays"], "properties": {"creditDays": {"type": "integer", "minimum": 1}}}},
    {"if": {"required": ["type"], "properties": {"type": {"const": "cash"}}},
     "then": {"properties": {"creditDays": {"enum": [0, None]}}}}]}


class ConditionCreate(RequestModel):
    model_config = ConfigDict(json_schema_extra=_CREDIT_DAYS_RULE)

    name: Name
    type: ConditionType
    credit_days: Optional[CreditDays] = Field(None,
                                       description="days until a document's due date; credit conditions only")
    is_active: bool = True


class ConditionUpdate(RequestModel):  # creditDays is checked against the stored type when type is not sent
    name: Name = None  # type: ignore[assignment]
    type: ConditionType = None  # type: ignore[assignment]
    credit_days: Optional[CreditDays] = None
    is_active: bool = None  # type: ignore[assignment]
    version: Optional[int] = Field(None, ge=1)


class Condition(ResponseModel):
    id: int
    name: str
    type: str
    credit_days: int
    is_active: bool
    version: int
    created_at: str
    updated_at: str


class ConditionList(ListEnvelope):
    payment_conditions: List[Condition]


class MethodCreate(RequestModel):
    name: Name
    bank_account_id: Optional[EntityId] = None
    is_cash_method: bool = False
    requires_confirmation: bool = False
    is_active: bool = True


class MethodUpdate(RequestModel):
    name: Name = None  # type: ignore[assignment]
    bank_account_id: Optional[EntityId] = None
    is_cash_method: bool = None  # type: ignore[assignment]
    requires_confirmation: bool = None  # type: ignore[assignment]
    is_active: bool = None  # type: ignore[assignment]
    version: Optional[int] = Field(None, ge=1)


class Method(ResponseModel):
    id: int
    name: str
    bank_account_id: Optional[int] = None
    is_cash_method: bool
    requires_confirmation: bool
    is_active: bool
    version: int
    created_at: str
    updated_at: str


class MethodList(ListEnvelope):
    payment_methods: List[Method]
