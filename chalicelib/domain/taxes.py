"""Honduras ISV: a line is exempt (0), general (15 %) or special (18 %, alcohol and tobacco)."""
from __future__ import annotations

from decimal import Decimal

ISV_RATES = (Decimal("0"), Decimal("0.15"), Decimal("0.18"))


def check_tax_rate(rate: Decimal) -> Decimal:
    if rate not in ISV_RATES:
        raise ValueError("taxRate must be one of 0, 0.15, 0.18")
    return rate
