"""Each country's tax ids, checked by its pack: the check digits worked out by hand."""
from __future__ import annotations

import pytest

from chalicelib import countries
from chalicelib.errors import ValidationFailed

HN, SV = countries.pack("HN").hooks, countries.pack("SV").hooks


def test_a_honduran_rtn_or_dni_is_kept_as_its_digits():
    assert HN.normalized_tax_id("0801-1999-123456") == "08011999123456"  # RTN: 4 + 4 + 6 = 14 digits
    assert HN.normalized_tax_id(" 0801 1999 12345 ") == "0801199912345"  # DNI: 4 + 4 + 5 = 13 digits
    for wrong in ("123", "ABC-XYZ", "0801-1999-1234567", "0801-1999-1234", "0801-1999-12345X"):
        with pytest.raises(ValidationFailed, match="RTN of 14 digits or a DNI of 13"):
            HN.normalized_tax_id(wrong)


def test_a_salvadoran_nit_carries_its_check_digit():
    # correlativo 104 > 100: weights 2 7 6 5 4 3 2 7 6 5 4 3 2 on 0 6 1 4 0 5 0 7 0 7 1 0 4
    # 0 + 42 + 6 + 20 + 0 + 15 + 0 + 49 + 0 + 35 + 4 + 0 + 8 = 179; 179 mod 11 = 3; 11 - 3 = 8
    assert SV.normalized_tax_id("0614-050707-104-8") == "06140507071048"
    # correlativo 001 <= 100: weights 14 13 ... 2 on 0 6 1 4 0 1 0 1 9 0 0 0 1
    # 0 + 78 + 12 + 44 + 0 + 9 + 0 + 7 + 54 + 0 + 0 + 0 + 2 = 206; 206 mod 11 = 8; 8 mod 10 = 8
    assert SV.normalized_tax_id("0614 010190 001 8") == "06140101900018"
    # correlativo 202: 0 + 42 + 6 + 20 + 0 + 6 + 0 + 14 + 54 + 0 + 8 + 0 + 4 = 154 = 14 * 11; check 0
    assert SV.normalized_tax_id("06140202902020") == "06140202902020"
    for wrong in ("0614-050707-104-0", "0614-010190-001-7", "06140202902024"):
        with pytest.raises(ValidationFailed, match="check digit does not match the other digits of the NIT"):
            SV.normalized_tax_id(wrong)
    for wrong in ("999", "0614-050707-104", "NIT 0614-050707-104-8"):
        with pytest.raises(ValidationFailed, match="NIT of 14 digits or a DUI of 9 digits"):
            SV.normalized_tax_id(wrong)


def test_a_dui_is_a_person_s_nit_with_its_own_check_digit():
    # weights 9 8 7 6 5 4 3 2 on 0 0 0 1 6 2 9 7: 0 + 0 + 0 + 6 + 30 + 8 + 27 + 14 = 85; 10 - 85 mod 10 = 5
    assert SV.normalized_tax_id("00016297-5") == "000162975"
    # on 0 4 5 6 7 8 9 0: 0 + 32 + 35 + 36 + 35 + 32 + 27 + 0 = 197; 10 - 7 = 3
    assert SV.normalized_tax_id("04567890-3") == "045678903"
    # on 0 1 2 3 4 5 6 7: 0 + 8 + 14 + 18 + 20 + 20 + 18 + 14 = 112; 10 - 2 = 8
    assert SV.normalized_tax_id("01234567-8") == "012345678"
    with pytest.raises(ValidationFailed, match="check digit does not match the other digits of the DUI"):
        SV.normalized_tax_id("04567890-1")


def test_a_country_without_rules_keeps_the_id_as_typed():
    from chalicelib.countries.interface import DocumentHooks

    assert DocumentHooks().normalized_tax_id(" 98-7654321 ") == "98-7654321"
