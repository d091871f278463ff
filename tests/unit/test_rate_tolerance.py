"""The rule of a rate sent with an operation (chalicelib/domain/currency.py), without I/O: within
the company's tolerance of its recorded rate, or sent by one who keeps the books; and no
conversion past the one money limit."""
from __future__ import annotations

from decimal import Decimal

import pytest

from chalicelib.domain import currency
from chalicelib.domain.money import Money
from chalicelib.errors import ValidationFailed

D = Decimal


def check(sent: str, recorded: str | None, tolerance: str = "5", keeps_books: bool = False) -> None:
    currency.check_sent_rate(D(sent), None if recorded is None else D(recorded), D(tolerance),
                             keeps_books=keeps_books, currency="USD", date="2026-11-05", field="exchangeRate")


def test_the_accepted_range_is_the_recorded_rate_plus_or_minus_the_tolerance():
    # 5 % of 24.50 is 1.225: 23.275 .. 25.725; 0 %: the rate alone; 100 %: 0 .. 49.00
    assert currency.accepted_range(D("24.50"), D("5")) == (D("23.275"), D("25.725"))
    assert currency.accepted_range(D("24.50"), D("0")) == (D("24.50"), D("24.50"))
    assert currency.accepted_range(D("24.50"), D("100")) == (D("0"), D("49.00"))


@pytest.mark.parametrize("sent", ["23.275", "24.50", "25.72", "25.725"])
def test_a_rate_within_the_tolerance_passes(sent):
    check(sent, "24.50")


@pytest.mark.parametrize("sent", ["23.274999", "25.725001", "25.73", "1000000", "0.000001"])
def test_a_rate_outside_it_is_refused_naming_the_field(sent):
    with pytest.raises(ValidationFailed) as refused:
        check(sent, "24.50")
    assert refused.value.code == "EXCHANGE_RATE_OUT_OF_RANGE"
    assert refused.value.details == [{"field": "exchangeRate", "message": (
        "must be between 23.275 and 25.725: within 5 percent of the company's rate 24.5 of USD on 2026-11-05; only a user "
        "with the accounting permission may send another")}]


def test_with_no_recorded_rate_only_the_books_keeper_sends_one():
    with pytest.raises(ValidationFailed) as refused:
        check("24.50", None)
    assert refused.value.code == "EXCHANGE_RATE_OUT_OF_RANGE"
    check("24.50", None, keeps_books=True)
    check("1000000", "24.50", keeps_books=True)


def test_the_tolerance_is_the_companys_or_five_percent():
    assert currency.tolerance_percent({}) == D("5")
    assert currency.tolerance_percent({"exchangeRateTolerancePercent": D("1.5")}) == D("1.5")
    assert currency.tolerance_percent({"exchangeRateTolerancePercent": 0}) == D("0")


def usd(amount: str) -> Money:
    return Money(D(amount), "USD")


def hnl(amount: str) -> Money:
    return Money(D(amount), "HNL")


def test_a_conversion_stays_within_the_money_limit():
    # 999,999.99 x 1,000,000 = 999,999,990,000.00; 1,000,000.00 x 1,000,000 = 1,000,000,000,000.00 > 999,999,999,999.99
    assert currency.converted(usd("999999.99"), D("1000000"), "HNL", "exchangeRate") == hnl("999999990000.00")
    # 999,999,999,999.99 x 1.000001 = 1,000,000,999,999.989999... -> past the limit
    for amount, rate in (("1000000.00", "1000000"), ("999999999999.99", "1.000001")):
        with pytest.raises(ValidationFailed) as refused:
            currency.converted(usd(amount), D(rate), "HNL", "exchangeRate")
        assert refused.value.details[0]["field"] == "exchangeRate"


def test_money_that_comes_to_nothing_is_refused():
    # 0.01 x 0.05 = 0.0005 -> 0.00: a deposit of it answered 500 (an entry of nothing); 0.01 x 0.5 = 0.005 -> 0.01
    with pytest.raises(ValidationFailed) as refused:
        currency.converted(usd("0.01"), D("0.05"), "HNL", "exchangeRate")
    assert refused.value.details == [{"field": "exchangeRate",
                                      "message": "at this rate 0.01 comes to 0.00 in the company's currency"}]
    assert currency.converted(usd("0.01"), D("0.5"), "HNL", "exchangeRate") == hnl("0.01")
    assert currency.converted(usd("0"), D("0.05"), "HNL", "exchangeRate") == hnl("0.00")   # a document of nothing stays one
