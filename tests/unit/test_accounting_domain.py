"""Double-entry rules without AWS: line checks, balancing, rounding, automatic entries from
movements, rule resolution, balances by month and day, period days."""
from __future__ import annotations

from decimal import Decimal

import pytest
from hypothesis import given
from hypothesis import strategies as st

from chalicelib.domain import accounting
from chalicelib.domain.accounting import (
    Line,
    MonthBalance,
    Movement,
    Rule,
    RuleMissing,
    UnbalancedEntry,
    check_lines,
    lines_from_movements,
    resolve_rule,
)
from chalicelib.errors import ValidationFailed

D = Decimal


def test_a_balanced_entry_passes():
    check_lines([Line(1, D("100.00"), D("0")), Line(2, D("0"), D("85.00")), Line(3, D("0"), D("15.00"))])


def test_an_unbalanced_entry_is_unbalanced_entry():
    with pytest.raises(UnbalancedEntry) as raised:
        check_lines([Line(1, D("100.00"), D("0")), Line(2, D("0"), D("99.99"))])
    assert raised.value.code == "UNBALANCED_ENTRY" and "0.01" in raised.value.message


@pytest.mark.parametrize("lines, field", [
    ([Line(1, D("10"), D("10")), Line(2, D("0"), D("10"))], "lines[0]"),          # both sides
    ([Line(1, D("0"), D("0")), Line(2, D("10"), D("0")), Line(3, D("0"), D("10"))], "lines[0]"),  # neither
    ([Line(1, D("-10"), D("0")), Line(2, D("0"), D("-10"))], "lines[0].debit"),   # negative
    ([Line(1, D("10.001"), D("0")), Line(2, D("0"), D("10.001"))], "lines[0].debit"),  # sub-cent
])
def test_each_line_carries_one_positive_side_in_cents(lines, field):
    with pytest.raises(ValidationFailed) as raised:
        check_lines(lines)
    assert raised.value.details[0]["field"] == field


def test_an_entry_needs_a_debit_and_a_credit_line():
    with pytest.raises(ValidationFailed) as raised:
        check_lines([Line(1, D("10"), D("0")), Line(2, D("10"), D("0"))])
    assert raised.value.details == [{"field": "lines", "message": "at least one debit line and one credit line"}]


def test_rounding_is_half_up_to_cents():
    assert accounting.round_money(D("2.345")) == D("2.35")
    assert accounting.round_money(D("2.344999")) == D("2.34")
    assert accounting.round_money(D("-2.345")) == D("-2.35")
    assert accounting.round_money(D("0.005")) == D("0.01")


def test_reversal_swaps_every_line():
    lines = [Line(1, D("5.00"), D("0.00"), "a"), Line(2, D("0.00"), D("5.00"), "b")]
    assert accounting.reversal_lines(lines) == [Line(1, D("0.00"), D("5.00"), "a"), Line(2, D("5.00"), D("0.00"), "b")]


RULES = [Rule(1, "receivable", None, 10), Rule(2, "revenue", None, 20), Rule(3, "revenue", "06", 21),
         Rule(4, "tax_sales", None, 30)]


def test_the_most_specific_rule_wins():
    assert resolve_rule(RULES, "revenue", "06").account_id == 21
    assert resolve_rule(RULES, "revenue", "01").account_id == 20
    assert resolve_rule(RULES, "revenue", None).account_id == 20


def test_no_rule_is_account_rule_missing():
    with pytest.raises(RuleMissing) as raised:
        resolve_rule(RULES, "inventory", "01")
    assert raised.value.code == "ACCOUNT_RULE_MISSING" and "inventory" in raised.value.message


def account_of(movement):
    return resolve_rule(RULES, movement.operation, "01").account_id


def test_an_invoice_becomes_receivable_revenue_and_tax():
    lines = lines_from_movements([
        Movement("receivable", "debit", D("115.00")),
        Movement("revenue", "credit", D("60.00")), Movement("revenue", "credit", D("40.00")),
        Movement("tax_sales", "credit", D("15.00")), Movement("tax_sales", "credit", D("0"))], account_of)
    assert lines == [Line(10, D("115.00"), D("0.00")), Line(20, D("0.00"), D("100.00")), Line(30, D("0.00"), D("15.00"))]


def test_movements_are_rounded_half_up_before_they_balance():
    lines = lines_from_movements([Movement("receivable", "debit", D("10.005")),
                                  Movement("revenue", "credit", D("10.005"))], account_of)
    assert accounting.entry_totals(lines) == (D("10.01"), D("10.01"))


def test_an_explicit_account_bypasses_the_rules():
    lines = lines_from_movements([Movement("bank", "debit", D("5"), account_id=99),
                                  Movement("receivable", "credit", D("5"))], account_of)
    assert [line.account_id for line in lines] == [99, 10]


def test_unbalanced_movements_are_the_callers_bug():
    with pytest.raises(ValueError):
        lines_from_movements([Movement("receivable", "debit", D("10")),
                              Movement("revenue", "credit", D("9"))], account_of)
    with pytest.raises(ValueError):
        lines_from_movements([Movement("receivable", "debit", D("-1"))], account_of)


@given(st.lists(st.decimals(min_value=0, max_value=10 ** 6, places=3, allow_nan=False), min_size=1, max_size=8))
def test_movements_that_balance_after_rounding_always_build(amounts):
    rounded = [accounting.round_money(a) for a in amounts]
    movements = [Movement("revenue", "credit", a) for a in amounts] + [
        Movement("receivable", "debit", sum(rounded, D("0")))]
    if sum(rounded) == 0:
        return
    lines = lines_from_movements(movements, account_of)
    debit, credit = accounting.entry_totals(lines)
    assert debit == credit == sum(rounded)


def test_balances_through_a_date_use_months_and_days():
    months = [
        MonthBalance("2026-09", D("100"), D("0"), {"30": (D("100"), D("0"))}),
        MonthBalance("2026-10", D("50"), D("20"), {"01": (D("50"), D("0")), "15": (D("0"), D("20"))}),
        MonthBalance("2026-11", D("7"), D("0"), {"02": (D("7"), D("0"))}),
    ]
    assert accounting.totals_through(months, "2026-09-29") == (D("0"), D("0"))
    assert accounting.totals_through(months, "2026-10-14") == (D("150"), D("0"))
    assert accounting.totals_through(months, "2026-10-15") == (D("150"), D("20"))
    assert accounting.totals_through(months, "2026-12-31") == (D("157"), D("20"))


def test_natural_balance_follows_the_normal_side():
    assert accounting.natural_balance("asset", D("10"), D("3")) == D("7")
    assert accounting.natural_balance("income", D("10"), D("3")) == D("-7")
    assert accounting.normal_side("expense") == "debit" and accounting.normal_side("equity") == "credit"
    assert accounting.running_balances("liability", D("5"), [(D("0"), D("10")), (D("3"), D("0"))]) == [D("15"), D("12")]


def test_period_days_by_year_and_overlap():
    days = accounting.days_by_year("2026-12-30", "2027-01-02")
    assert days == {"2026": {"12-30", "12-31"}, "2027": {"01-01", "01-02"}}
    assert len(accounting.days_by_year("2028-01-01", "2028-12-31")["2028"]) == 366
    assert accounting.overlaps("2026-01-01", "2026-01-31", "2026-01-31", "2026-02-28")
    assert not accounting.overlaps("2026-01-01", "2026-01-31", "2026-02-01", "2026-02-28")
    assert accounting.previous_day("2026-03-01") == "2026-02-28"
