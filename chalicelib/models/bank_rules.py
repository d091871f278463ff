"""Bank rules (issue 42): conditions on a statement line and the bank transaction to create for it."""
from __future__ import annotations

from decimal import Decimal
from typing import Annotated, List, Literal, Optional, Union

from pydantic import Field, StringConstraints, model_validator

from chalicelib.domain.money import MAX_AMOUNT
from chalicelib.models.base import EntityId, ListEnvelope, Name, RequestModel, ResponseModel, ShortText
from chalicelib.models.products import TaxRate

MAX_CONDITIONS = 10
RuleField = Literal["description", "reference", "amount", "direction"]
RuleOperator = Literal["contains", "equals", "between"]
RuleMatch = Literal["all", "any"]
ConditionText = Annotated[str, StringConstraints(min_length=1, max_length=200)]
ConditionAmount = Annotated[Decimal, Field(ge=0, le=MAX_AMOUNT, allow_inf_nan=False)]
ConditionValue = Union[ConditionAmount, Annotated[List[ConditionAmount], Field(min_length=2, max_length=2)],
                       ConditionText]
Priority = Annotated[int, Field(ge=0, le=1_000_000, description="lower first; default: after the company's last rule")]


class RuleCondition(RequestModel):
    field: RuleField
    operator: RuleOperator
    value: ConditionValue = Field(description="description/reference: a text (contains or equals, accent- and "
                                              "case-blind); amount: a number (equals) or [min, max] (between), "
                                              "compared with the line's absolute amount; direction: in or out")

    @model_validator(mode="after")
    def _value_fits(self) -> "RuleCondition":
        value = self.value
        if self.field in ("description", "reference"):
            if self.operator == "between":
                raise ValueError("a text condition is contains or equals")
            if not isinstance(value, str) or not value.strip():
                raise ValueError("a text condition compares with a text")
        elif self.field == "amount":
            if self.operator == "contains":
                raise ValueError("an amount condition is equals or between")
            if self.operator == "between":
                if not isinstance(value, list):
                    raise ValueError("between takes two numbers [min, max]")
                if value[0] > value[1]:
                    raise ValueError("between takes [min, max] with min not above max")
            elif not isinstance(value, Decimal):
                self.value = _amount(value)
        elif self.operator != "equals" or value not in ("in", "out"):
            raise ValueError("a direction condition is equals in or out")
        return self


def _amount(value: object) -> Decimal:
    """An amount sent as a text ("25.30"), as money fields take it."""
    try:
        amount = Decimal(str(value))
    except ArithmeticError:
        amount = Decimal("NaN")
    if not amount.is_finite() or not 0 <= amount <= MAX_AMOUNT:
        raise ValueError("an amount condition compares with a number")
    return amount


Conditions = Annotated[List[RuleCondition], Field(min_length=1, max_length=MAX_CONDITIONS)]


class RuleAction(RequestModel):
    chart_of_account_id: EntityId = Field(description="the other side of the bank transaction: an active account, "
                                                      "not a control account")
    business_partner_id: Optional[EntityId] = None
    tax_rate: Optional[TaxRate] = Field(None, description="the line's amount includes this tax (one of the company's "
                                                          "rates)")
    description: Optional[ShortText] = Field(None, description="default: the line's description")


class BankRuleCreate(RequestModel):
    name: Name
    priority: Optional[Priority] = None
    bank_account_id: Optional[EntityId] = Field(None, description="only that bank account's lines; none: every account")
    conditions: Conditions
    match: RuleMatch = "all"
    action: RuleAction
    auto_create: bool = Field(False, description="on import, create and match without asking")
    is_active: bool = True


class BankRuleUpdate(RequestModel):
    """Sparse; `conditions` and `action` replace the whole list or action; `bankAccountId: null`
    applies the rule to every account."""
    name: Name = None  # type: ignore[assignment]
    priority: Priority = None  # type: ignore[assignment]
    bank_account_id: Optional[EntityId] = None
    conditions: Conditions = None  # type: ignore[assignment]
    match: RuleMatch = None  # type: ignore[assignment]
    action: RuleAction = None  # type: ignore[assignment]
    auto_create: bool = None  # type: ignore[assignment]
    is_active: bool = None  # type: ignore[assignment]
    version: Optional[int] = Field(None, ge=1)


class BankRuleConditionView(ResponseModel):
    field: str
    operator: str
    value: Union[Decimal, List[Decimal], str]


class BankRuleActionView(ResponseModel):
    chart_of_account_id: int
    business_partner_id: Optional[int] = None
    tax_rate: Optional[Decimal] = None
    description: Optional[str] = None


class BankRule(ResponseModel):
    id: int
    name: str
    priority: int
    bank_account_id: Optional[int] = None
    conditions: List[BankRuleConditionView]
    match: str
    action: BankRuleActionView
    auto_create: bool
    is_active: bool
    version: int
    created_at: str
    updated_at: str


class BankRuleList(ListEnvelope):
    bank_rules: List[BankRule]
