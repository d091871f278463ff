"""The largest amount any money field, line or document total may carry: 12 integer digits
and cents, well inside DynamoDB's 38-digit numbers and exact as a JSON number."""
from __future__ import annotations

from decimal import Decimal

MAX_AMOUNT = Decimal("999999999999.99")
