"""Amounts in Spanish words as Honduran invoices print them (chalicelib/domain/amount_words.py)."""
from __future__ import annotations

from decimal import Decimal

import pytest
from hypothesis import given
from hypothesis import strategies as st

from chalicelib.domain.amount_words import amount_in_words, number_in_words


@pytest.mark.parametrize("number, words", [
    (0, "CERO"), (1, "UNO"), (9, "NUEVE"), (10, "DIEZ"), (15, "QUINCE"), (16, "DIECISÉIS"), (20, "VEINTE"),
    (21, "VEINTIUNO"), (22, "VEINTIDÓS"), (23, "VEINTITRÉS"), (26, "VEINTISÉIS"), (30, "TREINTA"),
    (31, "TREINTA Y UNO"), (45, "CUARENTA Y CINCO"), (99, "NOVENTA Y NUEVE"), (100, "CIEN"), (101, "CIENTO UNO"),
    (110, "CIENTO DIEZ"), (121, "CIENTO VEINTIUNO"), (200, "DOSCIENTOS"), (500, "QUINIENTOS"),
    (579, "QUINIENTOS SETENTA Y NUEVE"), (700, "SETECIENTOS"), (900, "NOVECIENTOS"),
    (1000, "UN MIL"), (1001, "UN MIL UNO"), (1100, "UN MIL CIEN"), (2000, "DOS MIL"), (21000, "VEINTIÚN MIL"),
    (31000, "TREINTA Y UN MIL"), (100000, "CIEN MIL"), (101000, "CIENTO UN MIL"),
    (999999, "NOVECIENTOS NOVENTA Y NUEVE MIL NOVECIENTOS NOVENTA Y NUEVE"),
    (1000000, "UN MILLÓN"), (1000001, "UN MILLÓN UNO"), (1001000, "UN MILLÓN UN MIL"), (2000000, "DOS MILLONES"),
    (21000000, "VEINTIÚN MILLONES"), (1000000000, "UN MIL MILLONES"),
    (2500000000, "DOS MIL QUINIENTOS MILLONES"),
])
def test_numbers(number, words):
    assert number_in_words(number) == words


@pytest.mark.parametrize("number, words", [
    (1, "UN"), (21, "VEINTIÚN"), (31, "TREINTA Y UN"), (101, "CIENTO UN"), (1001, "UN MIL UN"),
    (2, "DOS"), (1000000, "UN MILLÓN"),
])
def test_numbers_before_a_noun_shorten_uno(number, words):
    assert number_in_words(number, before_noun=True) == words


@pytest.mark.parametrize("amount, currency, words", [
    ("1234.56", "HNL", "UN MIL DOSCIENTOS TREINTA Y CUATRO LEMPIRAS CON 56/100"),
    ("0", "HNL", "CERO LEMPIRAS CON 00/100"),
    ("0.05", "HNL", "CERO LEMPIRAS CON 05/100"),
    ("1", "HNL", "UN LEMPIRA CON 00/100"),
    ("1.50", "USD", "UN DÓLAR CON 50/100"),
    ("21", "HNL", "VEINTIÚN LEMPIRAS CON 00/100"),
    ("100", "HNL", "CIEN LEMPIRAS CON 00/100"),
    ("101.01", "HNL", "CIENTO UN LEMPIRAS CON 01/100"),
    ("1000", "usd", "UN MIL DÓLARES CON 00/100"),
    ("1000000", "HNL", "UN MILLÓN DE LEMPIRAS CON 00/100"),
    ("3000000.99", "HNL", "TRES MILLONES DE LEMPIRAS CON 99/100"),
    ("1500000", "HNL", "UN MILLÓN QUINIENTOS MIL LEMPIRAS CON 00/100"),
    ("999999999999.99", "HNL", "NOVECIENTOS NOVENTA Y NUEVE MIL NOVECIENTOS NOVENTA Y NUEVE MILLONES NOVECIENTOS "
                               "NOVENTA Y NUEVE MIL NOVECIENTOS NOVENTA Y NUEVE LEMPIRAS CON 99/100"),
    ("2.005", "HNL", "DOS LEMPIRAS CON 01/100"),  # half-up to cents, as money is rounded everywhere
    ("7", "EUR", "SIETE EUR CON 00/100"),
])
def test_amounts(amount, currency, words):
    assert amount_in_words(Decimal(amount), currency) == words


@pytest.mark.parametrize("bad", [Decimal("-1"), Decimal("1E12"), Decimal("NaN"), Decimal("Infinity")])
def test_amounts_out_of_range_are_refused(bad):
    with pytest.raises(ValueError):
        amount_in_words(bad, "HNL")


@given(st.decimals(min_value=0, max_value=Decimal("999999999999.99"), places=2))
def test_every_amount_reads_as_well_formed_words(amount):
    words = amount_in_words(amount, "HNL")
    assert words == words.upper() and "  " not in words and " Y Y " not in words
    assert words.endswith(f" CON {int(amount * 100) % 100:02d}/100")
    assert " UNO " not in f" {words} "  # always shortened before the currency or MIL/MILLONES
    assert words.split(" CON ")[0].endswith(("LEMPIRA", "LEMPIRAS"))
