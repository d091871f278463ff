"""Shared pydantic building blocks: camelCase JSON, unknown fields rejected, Decimal money."""

import datetime
from decimal import Decimal
from typing import Annotated, Optional

from pydantic import AfterValidator, BaseModel, ConfigDict, Field, StringConstraints
from pydantic.alias_generators import to_camel

from chalicelib.domain.money import MAX_AMOUNT


# defer_build: a model's validator is built on first use, so a cold Lambda pays only for the
# models of the route it serves (see infra/bench.py for the import-time budget).
class RequestModel(BaseModel):
    model_config = ConfigDict(alias_generator=to_camel, populate_by_name=False, extra="forbid",
                              str_strip_whitespace=True, defer_build=True)


class ResponseModel(BaseModel):
    model_config = ConfigDict(alias_generator=to_camel, populate_by_name=True, defer_build=True)


CENT = Decimal("0.01")


def _to_cents(amount: Decimal) -> Decimal:
    cents = amount.quantize(CENT)
    return cents if cents else Decimal("0.00")  # never -0.00


Money = Annotated[Decimal, Field(ge=0, le=MAX_AMOUNT, decimal_places=2, allow_inf_nan=False),
                  AfterValidator(_to_cents)]
Name = Annotated[str, StringConstraints(min_length=1, max_length=200)]
ShortText = Annotated[str, StringConstraints(max_length=200)]
LongText = Annotated[str, StringConstraints(max_length=2000)]
Email = Annotated[str, StringConstraints(max_length=254, pattern=r"^[^@\s]+@[^@\s]+\.[^@\s]+$")]
EntityId = Annotated[int, Field(ge=1, le=10**12, strict=True)]
# An id in a query string arrives as text.
QueryId = Annotated[int, Field(ge=1, le=10**12)]


def _check_date(value: str) -> str:
    try:
        parsed = datetime.date.fromisoformat(value)
    except ValueError:
        raise ValueError("must be a date YYYY-MM-DD") from None
    if not 1900 <= parsed.year <= 2999:
        raise ValueError("must be a date between 1900 and 2999")
    return parsed.isoformat()


Date = Annotated[str, StringConstraints(pattern=r"^\d{4}-\d{2}-\d{2}$"), AfterValidator(_check_date),
                 Field(json_schema_extra={"format": "date"})]


class PageQuery(RequestModel):
    page: int = Field(1, ge=1, le=10_000)
    limit: int = Field(20, ge=1, le=100)


class ListQuery(PageQuery):
    cursor: Optional[Annotated[str, StringConstraints(max_length=1000)]] = None


class ListEnvelope(ResponseModel):
    total: int
    page: int
    limit: int
    next_cursor: Optional[str] = None


class EmptyBody(RequestModel):
    """The body of a POST that takes no fields: only `{}` or nothing."""
