"""Honduran tax ids as SAR and the RNP issue them: the RTN (Registro Tributario Nacional, 14 digits,
printed 0801-1999-123456) and the DNI (Documento Nacional de Identificación, 13 digits, printed
0801-1999-12345), which a person without an RTN gives. Neither carries a published check digit, so
the rule is their length; dashes and spaces a person types are dropped and the id kept as digits."""
from __future__ import annotations

from chalicelib.errors import ValidationFailed

RTN_DIGITS, DNI_DIGITS = 14, 13


def normalized_tax_id(typed: str, field: str = "taxId") -> str:
    digits = "".join(char for char in typed if char not in "- ")
    if not digits.isdigit() or len(digits) not in (RTN_DIGITS, DNI_DIGITS):
        raise ValidationFailed.for_field(field, "must be an RTN of 14 digits or a DNI of 13 digits (dashes and spaces allowed)")
    return digits
