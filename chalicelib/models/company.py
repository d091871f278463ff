from decimal import Decimal
from typing import Annotated, Literal, Optional

from pydantic import Field

from chalicelib import countries
from chalicelib.countries.models import DteIssuer, DteIssuerInfo
from chalicelib.domain.currency import DEFAULT_TOLERANCE_PERCENT
from chalicelib.models.base import Currency, Email, LongText, Name, OneOf, RequestModel, ResponseModel, ShortText

Country = Annotated[str, OneOf(countries.CODES)]
CreditLimitPolicy = Literal["off", "warn", "block"]
# issue 39: rates
TolerancePercent = Annotated[Decimal, Field(
    ge=0, le=100, decimal_places=2, allow_inf_nan=False,
    description="how far (percent of the company's recorded rate for the date) an exchange rate sent with a document, "
                "payment or bank transaction may stray; only the accounting permission sends one outside it or where "
                f"none is recorded (default {DEFAULT_TOLERANCE_PERCENT})")]


class CompanyFields(RequestModel):
    tax_id: Optional[ShortText] = None
    country: Country = countries.DEFAULT
    currency: Optional[Currency] = None
    address: Optional[LongText] = None
    email: Optional[Email] = None
    phone: Optional[ShortText] = None
    credit_limit_policy: CreditLimitPolicy = "off"
    allow_negative_stock: bool = False
    exchange_rate_tolerance_percent: TolerancePercent = DEFAULT_TOLERANCE_PERCENT
    dte_issuer: Optional[DteIssuer] = Field(None, description="El Salvador: needed to issue DTEs")


class CompanyCreate(CompanyFields):
    name: Name


class CompanyUpdate(RequestModel):
    """PUT changes only the fields it sends (sparse update). Fields typed without Optional may
    be left out but not set to null."""
    name: Name = None  # type: ignore[assignment]
    tax_id: Optional[ShortText] = None
    country: Country = None  # type: ignore[assignment]
    currency: Currency = None  # type: ignore[assignment]
    address: Optional[LongText] = None
    email: Optional[Email] = None
    phone: Optional[ShortText] = None
    credit_limit_policy: CreditLimitPolicy = None  # type: ignore[assignment]
    allow_negative_stock: bool = None  # type: ignore[assignment]
    exchange_rate_tolerance_percent: TolerancePercent = None  # type: ignore[assignment]
    dte_issuer: Optional[DteIssuer] = Field(None, description="El Salvador: needed to issue DTEs (replaced whole)")
    version: Optional[int] = Field(None, ge=1)


class Company(ResponseModel):
    id: int
    name: str
    tax_id: Optional[str] = None
    country: str
    currency: str
    address: Optional[str] = None
    email: Optional[str] = None
    phone: Optional[str] = None
    credit_limit_policy: str
    allow_negative_stock: bool
    exchange_rate_tolerance_percent: Decimal = DEFAULT_TOLERANCE_PERCENT
    dte_issuer: Optional[DteIssuerInfo] = None
    version: int
    created_at: str
    updated_at: str
