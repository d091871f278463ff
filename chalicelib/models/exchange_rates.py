from decimal import Decimal
from typing import Annotated, List, Optional

from pydantic import Field

from chalicelib.models.base import Currency, Date, RequestModel, ResponseModel

ExchangeRateValue = Annotated[Decimal, Field(gt=0, le=Decimal("1000000"), decimal_places=6, allow_inf_nan=False,
                                             description="the company's currency per unit of the foreign one "
                                                         "(e.g. 24.6512 lempiras per US dollar), up to 6 decimals")]


class ExchangeRateCreate(RequestModel):
    """A second rate for the same currency and date replaces the first (200 instead of 201)."""
    currency: Currency = Field(description="the foreign currency (not the company's own)")
    date: Date = Field(description="the day the rate applies from (until a newer one)")
    rate: ExchangeRateValue


class ExchangeRate(ResponseModel):
    currency: str
    date: str
    rate: Decimal
    company_currency: str
    created_at: str
    updated_at: str


class ExchangeRateQuery(RequestModel):
    currency: Optional[Currency] = None
    start_date: Optional[Date] = None
    end_date: Optional[Date] = None


class ExchangeRateList(ResponseModel):
    exchange_rates: List[ExchangeRate]
    total: int
