"""domain/money.py: an amount keeps its currency; two currencies meet only through a rate; shares add
up to the cent. Figures worked by hand in the comments."""
from __future__ import annotations

from decimal import Decimal

import pytest
from hypothesis import given
from hypothesis import strategies as st

from chalicelib.domain.money import CurrencyMismatch, Money, split, total

D = Decimal


def test_amounts_of_one_currency_add_and_compare():
    # 100.10 + 0.05 - 20.00 = 80.15
    assert Money(D("100.10"), "HNL") + Money(D("0.05"), "HNL") - Money(D("20.00"), "HNL") == Money(D("80.15"), "HNL")
    assert Money(D("1.00"), "USD") < Money(D("1.01"), "USD")
    assert total([Money(D("1.10"), "USD"), Money(D("2.20"), "USD")], "USD") == Money(D("3.30"), "USD")
    assert total([], "HNL") == Money.zero("HNL")


def test_lempiras_never_add_to_dollars():
    with pytest.raises(CurrencyMismatch):
        Money(D("1.00"), "HNL") + Money(D("1.00"), "USD")
    with pytest.raises(CurrencyMismatch):
        Money(D("1.00"), "HNL") - Money(D("1.00"), "USD")
    with pytest.raises(CurrencyMismatch):
        assert Money(D("1.00"), "HNL") < Money(D("1.00"), "USD")
    with pytest.raises(CurrencyMismatch):
        total([Money(D("1.00"), "USD")], "HNL")
    assert Money(D("1.00"), "HNL") != Money(D("1.00"), "USD")   # equal figures, other money


def test_money_is_exact_and_names_a_currency():
    with pytest.raises(TypeError):
        Money(1.1, "USD")  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        Money(D("1.00"), "USD") * 1.5  # type: ignore[operator]
    for code in ("usd", "US", "LPS1", ""):
        with pytest.raises(ValueError):
            Money(D("1.00"), code)


def test_a_rate_converts_to_the_cent_half_up():
    # USD 33.33 at 24.5123 = 816.994959 (33.33 x 24 = 799.92, 33.33 x 0.5123 = 17.074959) -> HNL 816.99; USD 0.02 at 24.75 = 0.495 -> 0.50 (half up)
    assert Money(D("33.33"), "USD").at(D("24.5123"), "HNL") == Money(D("816.99"), "HNL")
    assert Money(D("0.02"), "USD").at(D("24.75"), "HNL") == Money(D("0.50"), "HNL")
    with pytest.raises(CurrencyMismatch):
        Money(D("1.00"), "HNL").at(D("24.50"), "HNL")   # a currency is worth itself, at 1
    assert Money(D("1.005"), "HNL").at(D("1"), "HNL") == Money(D("1.01"), "HNL")


def test_a_split_shares_to_the_cent_by_largest_remainders():
    # 100.00 over 1:1:1 = 33.333... each: 33.33 x 3 = 99.99, the cent left goes to the first largest remainder
    assert Money(D("100.00"), "HNL").split([D(1), D(1), D(1)]) == [
        Money(D("33.34"), "HNL"), Money(D("33.33"), "HNL"), Money(D("33.33"), "HNL")]
    # 3,685.41 over 100.00 : 50.01 -> 2,456.78 (3,685.41 x 100/150.01 = 2,456.7762...) and 1,228.63
    assert split(D("3685.41"), [D("100.00"), D("50.01")]) == [D("2456.78"), D("1228.63")]
    assert split(D("10.00"), [D(0), D(0)]) == [D("5.00"), D("5.00")]   # no weight: equal shares
    assert split(D("1.00"), []) == []


amounts = st.decimals(min_value=D("-999999.99"), max_value=D("999999.99"), places=2)
weights = st.lists(st.decimals(min_value=D("0"), max_value=D("100000"), places=4), min_size=1, max_size=12)


@given(amounts, weights)
def test_shares_always_add_up_to_the_whole_in_cents(amount, parts):
    shares = Money(amount, "USD").split(parts)
    assert total(shares, "USD") == Money(amount, "USD")
    assert all(share.amount == share.amount.quantize(D("0.01")) for share in shares)
    # no share strays more than a cent from its exact proportion
    weight = sum(parts) or len(parts)
    for share, part in zip(shares, parts if sum(parts) else [D(1)] * len(parts), strict=True):
        assert abs(share.amount - amount * part / weight) < D("0.01")
