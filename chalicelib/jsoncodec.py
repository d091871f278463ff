"""JSON with Decimal end to end: numbers are parsed as Decimal and Decimals are written as JSON
numbers without passing through float (DESIGN 3, rule 4)."""
from __future__ import annotations

import datetime
import json
from decimal import Decimal, DecimalException
from typing import Any

_encode_string = json.encoder.encode_basestring  # type: ignore[attr-defined]  (UTF-8 out, not \u escapes)


def loads(text: str | bytes) -> Any:
    return json.loads(text, parse_float=_number, parse_constant=_reject_constant)


def _number(text: str) -> Decimal:
    try:
        return Decimal(text)
    except DecimalException:  # an exponent beyond Decimal's range (1e999999999999999999999)
        raise ValueError(f"{text[:20]} is beyond the numbers this service reads") from None


def whole_number(value: Any) -> Any:
    """A parsed number without a fraction as an int: JSON has one number type, and 12.0 is the
    integer 12 (as JSON Schema says). Anything else comes back unchanged, for the caller to refuse."""
    if isinstance(value, Decimal) and value.is_finite() and value.adjusted() < 19 and value == value.to_integral_value():
        return int(value)
    return value


def _reject_constant(name: str) -> Any:
    raise ValueError(f"{name} is not a JSON number")


def dumps(value: Any) -> str:
    parts: list[str] = []
    _write(value, parts.append)
    return "".join(parts)


def _write(value: Any, out: Any) -> None:
    if value is None:
        out("null")
    elif value is True:
        out("true")
    elif value is False:
        out("false")
    elif isinstance(value, str):
        out(_encode_string(value))
    elif isinstance(value, Decimal):
        if not value.is_finite():
            raise ValueError("non-finite Decimal cannot be written as JSON")
        out(format(value, "f"))
    elif isinstance(value, int):
        out(str(value))
    elif isinstance(value, dict):
        out("{")
        first = True
        for key, item in value.items():
            if not first:
                out(",")
            first = False
            out(_encode_string(str(key)))
            out(":")
            _write(item, out)
        out("}")
    elif isinstance(value, (list, tuple)):
        out("[")
        for index, item in enumerate(value):
            if index:
                out(",")
            _write(item, out)
        out("]")
    elif isinstance(value, datetime.datetime):
        out(_encode_string(value.isoformat()))
    elif isinstance(value, datetime.date):
        out(_encode_string(value.isoformat()))
    elif isinstance(value, float):
        # Only schema documents carry floats; money is Decimal from the request to the table.
        if value != value or value in (float("inf"), float("-inf")):
            raise ValueError("non-finite float cannot be written as JSON")
        out(repr(value))
    else:
        raise TypeError(f"cannot encode {type(value).__name__} as JSON")
