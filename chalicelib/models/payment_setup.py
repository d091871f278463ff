from typing import List, Literal, Optional

from pydantic import Field

from chalicelib.models.base import EntityId, ListEnvelope, Name, RequestModel, ResponseModel

ConditionType = Literal["cash", "credit"]


class ConditionCreate(RequestModel):
    name: Name
    type: ConditionType
    credit_days: Optional[int] = Field(None, ge=0, le=3650, strict=True,
                                       description="days until a document's due date; credit conditions only")
    is_active: bool = True


class ConditionUpdate(RequestModel):
    name: Name = None  # type: ignore[assignment]
    type: ConditionType = None  # type: ignore[assignment]
    credit_days: Optional[int] = Field(None, ge=0, le=3650, strict=True)
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
