"""Salvadoran tax ids: the NIT (14 digits, printed 0614-050707-104-8) and the DUI (9 digits,
printed 00016297-5), which the Ministerio de Hacienda takes as a person's NIT since 2021 (Decreto
Legislativo 130 of 2021). Both end in a check digit; an id is kept as its digits.

Sources of the check digits (worked examples in tests/unit/test_tax_ids.py):
- NIT: the algorithm python-stdnum implements (stdnum/sv/nit.py, after svcommunity.org's
  "cómo calcular dígito verificador del DUI y NIT"): numbers whose correlativo (digits 11-13) is
  100 or less weigh the first 13 digits 14, 13, ..., 2 and take (sum mod 11) mod 10; later ones weigh
  them 2, 7, 6, 5, 4, 3, 2, 7, 6, 5, 4, 3, 2 and take (-sum mod 11) mod 10.
- DUI: weights 9, 8, ..., 2 on the first 8 digits, check = (10 - sum mod 10) mod 10 (the worked
  example 00016297-5 in groups.google.com/g/publicesvfoxpro "rutina del digito verificador NIT y NRC").
The NRC's format (1 to 7 digits and a check digit) is the model's pattern: no check-digit algorithm
for it is published, so none is applied."""
from __future__ import annotations

from chalicelib.errors import ValidationFailed
from chalicelib.messages.phrases import Phrase

NIT_DIGITS, DUI_DIGITS = 14, 9


def nit_check_digit(first_13: str) -> int:
    digits = [int(char) for char in first_13]
    if first_13[10:13] <= "100":
        return sum(digit * weight for digit, weight in zip(digits, range(14, 1, -1), strict=True)) % 11 % 10
    weights = (2, 7, 6, 5, 4, 3, 2, 7, 6, 5, 4, 3, 2)
    return -sum(digit * weight for digit, weight in zip(digits, weights, strict=True)) % 11 % 10


def dui_check_digit(first_8: str) -> int:
    return (10 - sum(int(char) * weight for char, weight in zip(first_8, range(9, 1, -1), strict=True)) % 10) % 10


def normalized_tax_id(typed: str, field: str = "taxId") -> str:
    digits = "".join(char for char in typed if char not in "- ")
    if not digits.isdigit() or len(digits) not in (NIT_DIGITS, DUI_DIGITS):
        raise ValidationFailed.for_field(field, "must be a NIT of 14 digits or a DUI of 9 digits, with its check digit (dashes and spaces allowed)")
    name, check = ("NIT", nit_check_digit(digits[:13])) if len(digits) == NIT_DIGITS \
        else ("DUI", dui_check_digit(digits[:8]))
    if int(digits[-1]) != check:
        raise ValidationFailed.for_field(field, Phrase("the check digit does not match the other digits of the {}",
                                                       name))
    return digits
