"""Shared pydantic building blocks: camelCase JSON, unknown fields rejected, Decimal money."""

import datetime
from collections.abc import Iterable
from decimal import Decimal
from typing import Annotated, Any, Mapping, Optional

from pydantic import (
    AfterValidator,
    BaseModel,
    BeforeValidator,
    ConfigDict,
    Field,
    GetCoreSchemaHandler,
    Strict,
    StringConstraints,
)
from pydantic.alias_generators import to_camel
from pydantic_core import core_schema

from chalicelib import countries, jsoncodec
from chalicelib.domain.mail import MAIL_ADDRESS_PATTERN
from chalicelib.domain.money import MAX_AMOUNT
from chalicelib.messages.phrases import Phrase


class OneOf:
    """A text field's metadata: one of values known only when the modules load (the packs'
    currencies, the import kinds). Validated and documented as a Literal of them would be (the
    same core schema: the same errors, the same enum in the document), while the type checker
    sees the `str` it is."""

    def __init__(self, values: Iterable[str]) -> None:
        self.values = tuple(values)

    def __get_pydantic_core_schema__(self, source: Any, handler: GetCoreSchemaHandler) -> core_schema.CoreSchema:
        return core_schema.literal_schema(list(self.values))


# the packs' own currencies: a company keeps its books in one and may trade in the others
CURRENCIES = tuple(sorted({pack.currency for pack in countries.packs()}))
Currency = Annotated[str, OneOf(CURRENCIES)]


# defer_build: a model's validator is built on first use, so a cold Lambda pays only for the
# models of the route it serves (see infra/bench/imports.py for the import-time budget).
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
# An amount that moves money: zero would be a payment or transfer of nothing.
PositiveMoney = Annotated[Decimal, Field(gt=0, le=MAX_AMOUNT, decimal_places=2, allow_inf_nan=False),
                          AfterValidator(_to_cents)]
# Surrounding whitespace is stripped (pydantic strips Unicode White_Space): a name needs one
# other character. In the document's ECMA dialect \s lacks U+0085 and has U+FEFF.
NOT_BLANK_PATTERN = r"[^\s\x85]"
Name = Annotated[str, StringConstraints(min_length=1, max_length=200), Field(json_schema_extra={"pattern": NOT_BLANK_PATTERN})]
ShortText = Annotated[str, StringConstraints(max_length=200)]
LongText = Annotated[str, StringConstraints(max_length=2000)]
# \x85 spelled out: whitespace to the validating (Rust) regex, not to the document's ECMA one.
Email = Annotated[str, StringConstraints(max_length=254, pattern=r"^[^@\s\x85]+@[^@\s\x85]+\.[^@\s\x85]+$")]
# Stricter than Email: an address the service mails to goes into a mail header and to SES.
MailAddress = Annotated[str, StringConstraints(max_length=254, pattern=MAIL_ADDRESS_PATTERN)]


# An integer field: a JSON number without a fraction, never a string or a boolean, written
# Annotated[WholeNumber, Field(<bounds>), FROM_JSON_NUMBER]: the bounds come before the conversion
# so that the JSON schema shows them as minimum/maximum.
WholeNumber = Annotated[int, Strict()]
FROM_JSON_NUMBER = BeforeValidator(jsoncodec.whole_number)
EntityId = Annotated[WholeNumber, Field(ge=1, le=10**12), FROM_JSON_NUMBER]
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


# The document states the year range as a pattern; _check_date says it in words.
DATE_PATTERN = r"^(19|2\d)\d{2}-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])$"
Date = Annotated[str, StringConstraints(pattern=r"^\d{4}-\d{2}-\d{2}$"), AfterValidator(_check_date),
                 Field(json_schema_extra={"format": "date", "pattern": DATE_PATTERN})]


class PageQuery(RequestModel):
    page: int = Field(1, ge=1, le=10_000, description="page * limit may not exceed 10000: use cursor to go deeper")
    limit: int = Field(20, ge=1, le=100)


class ListQuery(PageQuery):
    cursor: Optional[Annotated[str, StringConstraints(max_length=1000)]] = None


SearchText = Annotated[str, StringConstraints(strip_whitespace=True, min_length=1, max_length=100), Field(
    description="finds the records every word of which begins a word of theirs (any case, accents "
                "ignored), in id order; nothing when it has no letter or digit")]


class ListEnvelope(ResponseModel):
    total: int
    page: int
    limit: int
    next_cursor: Optional[str] = None


class EmptyBody(RequestModel):
    """The body of a POST that takes no fields: only `{}` or nothing."""


def issue_field(location: tuple[Any, ...]) -> str:
    """The field a pydantic issue names, as the API spells it ("lines[0].quantity")."""
    path = ""
    for part in location:
        if isinstance(part, int):
            path += f"[{part}]"
        elif part in ("function-after", "function-plain", "decimal", "str", "int", "bool",
                      "float", "list", "dict") or str(part).startswith(("function-", "literal[")):
            continue
        else:
            path += f".{part}" if path else str(part)
    return path


def issue_message(issue: Mapping[str, Any]) -> str:
    """A pydantic issue's problem in the API's words (a detail's message)."""
    if issue["type"] == "extra_forbidden":
        return "unknown field"
    if issue["type"] == "missing":
        return "required"
    error = (issue.get("ctx") or {}).get("error")
    if issue["type"] == "value_error" and isinstance(error, ValueError) and error.args and isinstance(error.args[0], Phrase):
        return error.args[0]  # a validator's own phrase, by its id (messages/phrases.py)
    message = str(issue["msg"])
    return message.removeprefix("Value error, ")
