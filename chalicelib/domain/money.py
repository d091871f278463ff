"""The one money limit: the largest amount any money field, line or document total may carry,
and any amount converted to the company's currency (domain/currency.converted): 12 integer
digits and cents (14 significant digits), well inside DynamoDB's 38-digit numbers and read back
unchanged by a JSON client that parses numbers as doubles (15 significant digits)."""
from __future__ import annotations

from decimal import Decimal

MAX_AMOUNT = Decimal("999999999999.99")
