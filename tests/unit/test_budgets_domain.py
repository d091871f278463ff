"""Budgets' pure rules (issue 44): how a line is stored, duplicates, percentages."""
from __future__ import annotations

from decimal import Decimal

from chalicelib.domain import budgets

D = Decimal


def test_a_line_reads_back_as_written_with_its_cents():
    line = {"chartOfAccountId": 41, "month": 12, "amount": D("1500"),
            "dimensions": [{"dimensionId": 1, "valueId": 205}, {"dimensionId": 3, "valueId": 7}]}
    stored = budgets.stored_line(line)
    assert stored == "41|12|1500.00|1/205,3/7"
    assert budgets.read_line(stored) == {**line, "amount": D("1500.00")}
    assert budgets.read_line(budgets.stored_line({"chartOfAccountId": 6, "month": 1, "amount": D("0.5")})) == {
        "chartOfAccountId": 6, "month": 1, "amount": D("0.50"), "dimensions": []}


def test_a_line_is_one_per_account_month_and_cost_centres_in_any_order():
    north, project = {"dimensionId": 1, "valueId": 10}, {"dimensionId": 2, "valueId": 20}
    lines = [{"chartOfAccountId": 4, "month": 1, "dimensions": [north, project]},
             {"chartOfAccountId": 4, "month": 1, "dimensions": [north]},
             {"chartOfAccountId": 4, "month": 2, "dimensions": [north, project]},
             {"chartOfAccountId": 4, "month": 1, "dimensions": [project, north]}]
    assert budgets.first_duplicate(lines[:3]) is None
    assert budgets.first_duplicate(lines) == 3


def test_percentages_round_half_up_and_none_of_a_zero_budget():
    assert budgets.percentage(D("-400.00"), D("1500.00")) == D("-26.67")  # -26.666...
    assert budgets.percentage(D("1.00"), D("800.00")) == D("0.13")  # 0.125 half up
    assert budgets.percentage(D("-1.00"), D("800.00")) == D("-0.13")  # away from zero, as accountants round
    assert budgets.percentage(D("200.00"), D("0.00")) is None
