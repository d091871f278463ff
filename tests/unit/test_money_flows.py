"""Where currencies meet (domain/currency.py over domain/money.py), without I/O: a dollar invoice as
it is stored (Decimal fields beside its currency) is read as dollars, booked in lempiras through
`Money.at`, and settled later at another rate; the exchange difference is lempiras less lempiras.
Dollars never add to lempiras by mistake. Figures worked by hand in the comments."""
from __future__ import annotations

from decimal import Decimal

import pytest

from chalicelib.domain import currency
from chalicelib.domain.accounting import CREDIT, DEBIT, Movement
from chalicelib.domain.money import CurrencyMismatch, Money

D = Decimal
HNL, USD = "HNL", "USD"


def lempiras(amount: str) -> Money:
    return Money(D(amount), HNL)


def dollars(amount: str) -> Money:
    return Money(D(amount), USD)


# USD 100 + 15 % ISV = 115.00 at 24.50: 115 x 24.50 = 2,817.50 on the receivable, stored as DynamoDB
# gives it back (trimmed: 115, 2817.5)
INVOICE = {"currency": USD, "exchangeRate": D("24.5"), "subtotal": D("100"), "taxTotal": D("15"),
           "total": D("115"), "baseTotal": D("2817.5"), "pending": D("115"), "basePending": D("2817.5"),
           "lines": [{"subtotal": D("60"), "tax": D("9"), "taxRate": D("0.15")},
                     {"subtotal": D("40"), "tax": D("6"), "taxRate": D("0.15")}]}


def test_a_stored_dollar_invoice_reads_as_dollars_and_its_books_as_lempiras():
    assert currency.money_of(INVOICE, "total", HNL) == dollars("115.00")
    assert currency.base_total(INVOICE, HNL) == lempiras("2817.50")
    assert currency.base_pending(INVOICE, HNL) == lempiras("2817.50")
    # one stored before currencies (no currency, no rate) is the company's own money, booked one to one
    old = {"total": D("115"), "pending": D("115")}
    assert currency.money_of(old, "total", HNL) == lempiras("115")
    assert currency.base_total(old, HNL) == lempiras("115.00")


def test_adding_a_dollar_total_to_lempiras_raises():
    with pytest.raises(CurrencyMismatch):
        currency.money_of(INVOICE, "total", HNL) + lempiras("100.00")
    # the books' figure is lempiras: it adds
    assert currency.base_total(INVOICE, HNL) + lempiras("100.00") == lempiras("2917.50")


def test_a_dollar_invoice_paid_at_a_later_rate_books_the_exchange_difference_in_lempiras():
    paid = dollars("115.00")
    # all that is pending is settled: the receivable loses what it carries, 2,817.50
    settled = currency.relief(INVOICE, paid, HNL)
    assert settled == lempiras("2817.50")
    # the money comes in at the payment's rate 25.00: 115 x 25.00 = 2,875.00
    money = currency.converted(paid, D("25.00"), HNL, "exchangeRate")
    assert money == lempiras("2875.00")
    # 2,875.00 in, 2,817.50 off the receivable: 57.50 more money than the debt carried, a gain (credit)
    assert currency.exchange_difference(DEBIT, money, settled) == [Movement("fx_gain", CREDIT, D("57.50"))]
    # at 24.00 instead: 115 x 24 = 2,760.00, 57.50 less: a loss (debit)
    lower = currency.converted(paid, D("24.00"), HNL, "exchangeRate")
    assert currency.exchange_difference(DEBIT, lower, settled) == [Movement("fx_loss", DEBIT, D("57.50"))]


def test_a_part_paid_moves_at_the_documents_rate_and_the_last_part_takes_what_is_left():
    # USD 33.33 at 24.50 = 816.585 -> 816.59 off the receivable
    first = currency.relief(INVOICE, dollars("33.33"), HNL)
    assert first == lempiras("816.59")
    # what is left: 115 - 33.33 = 81.67 dollars, 2,817.50 - 816.59 = 2,000.91 lempiras; paying it all takes
    # exactly 2,000.91 (81.67 x 24.50 = 2,000.915 would round to 2,000.92 and leave -0.01 behind)
    rest = {**INVOICE, "pending": D("81.67"), "basePending": D("2000.91")}
    assert currency.relief(rest, dollars("81.67"), HNL) == lempiras("2000.91")
    assert first + lempiras("2000.91") == currency.base_total(INVOICE, HNL)


def test_an_exchange_difference_of_two_currencies_is_refused():
    # the money side in dollars against a receivable in lempiras: a bug, never a figure
    with pytest.raises(CurrencyMismatch):
        currency.exchange_difference(DEBIT, dollars("115.00"), lempiras("2817.50"))


def test_the_tax_books_read_the_invoice_as_booked_in_lempiras():
    booked = currency.as_booked(INVOICE, HNL)
    # ISV 15 x 24.50 = 367.50 shared 9:6 = 220.50 + 147.00; the bases 2,817.50 - 367.50 = 2,450.00
    # shared 60:40 = 1,470.00 + 980.00
    assert [(line["subtotal"], line["tax"]) for line in booked["lines"]] == [
        (D("1470.00"), D("220.50")), (D("980.00"), D("147.00"))]
    assert booked["total"] == D("2817.50") and "exchangeRate" not in booked
    # read again it stays as it is: no rate is left to apply twice
    assert currency.as_booked(booked, HNL)["lines"] == booked["lines"]


def test_a_conversion_in_one_currency_is_at_one():
    assert currency.in_base(lempiras("115.00"), D("1"), HNL) == lempiras("115.00")
    with pytest.raises(CurrencyMismatch):
        currency.in_base(lempiras("115.00"), D("24.50"), HNL)
