from typing import Literal, Optional

from pydantic import Field

from chalicelib import countries
from chalicelib.countries.models import DteIssuer, DteIssuerInfo
from chalicelib.models.base import Currency, Email, LongText, Name, RequestModel, ResponseModel, ShortText

Country = Literal[countries.CODES]  # type: ignore[valid-type]
CreditLimitPolicy = Literal["off", "warn", "block"]


class CompanyFields(RequestModel):
    tax_id: Optional[ShortText] = None
    country: Country = countries.DEFAULT  # type: ignore[assignment]
    currency: Optional[Currency] = None
    address: Optional[LongText] = None
    email: Optional[Email] = None
    phone: Optional[ShortText] = None
    credit_limit_policy: CreditLimitPolicy = "off"
    allow_negative_stock: bool = False
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
    dte_issuer: Optional[DteIssuerInfo] = None
    version: int
    created_at: str
    updated_at: str
