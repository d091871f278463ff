"""Weighted average cost, no AWS (chalicelib/domain/costing.py): figures worked by hand, and the
rules that hold whatever the order of movements."""
from __future__ import annotations

from decimal import Decimal as D

from hypothesis import given
from hypothesis import strategies as st

from chalicelib.domain import costing
from chalicelib.domain.costing import Position, issue, receive, take_out
from chalicelib.domain.money import split


def test_receipts_average_and_issues_take_the_average():
    position = receive(Position(), D(10), D("1000.00")).position  # 10 at 100
    position = receive(position, D(10), D("2000.00")).position  # 10 at 200: 20 worth 3,000
    assert position == Position(D(20), D("3000.00"), D("150.000000"))
    sold = issue(position, D(5))  # 5 x 3,000 / 20 = 750
    assert (sold.value, sold.revaluation, sold.position.quantity, sold.position.value) == (D("750.00"), 0, 15, D("2250.00"))


def test_the_last_units_take_what_value_is_left():
    position = receive(Position(), D(3), D("100.00")).position  # 33.333... each
    first = issue(position, D(1))  # 100 / 3 = 33.33
    second = issue(first.position, D(1))  # 66.67 x 1 / 2 = 33.335 -> 33.34 (half up)
    third = issue(second.position, D(1))  # what is left: 100 - 33.33 - 33.34 = 33.33
    assert [first.value, second.value, third.value] == [D("33.33"), D("33.34"), D("33.33")]
    assert third.position.quantity == 0 and third.position.value == 0


def test_a_shortage_is_carried_at_the_last_cost_and_settled_by_the_next_receipt():
    position = receive(Position(), D(2), D("100.00")).position  # 2 at 50
    short = issue(position, D(5))  # 100 for the 2 held, 3 more at 50 = 150: 250
    assert (short.value, short.position.quantity, short.position.value) == (D("250.00"), -3, D("-150.00"))
    arrived = receive(short.position, D(4), D("320.00"))  # 4 at 80: the 3 short cost 240, not 150
    assert arrived.revaluation == D("90.00")
    assert (arrived.position.quantity, arrived.position.value) == (1, D("80.00"))  # -150 + 320 - 90
    partly = receive(issue(Position(unit_cost=D(10)), D(4)).position, D(1), D("30.00"))  # 4 short at 10; 1 at 30
    assert partly.revaluation == D("20.00")  # the 1 covered cost 30, carried at 10
    assert (partly.position.quantity, partly.position.value) == (-3, D("-30.00"))  # -40 + 30 - 20


def test_a_receipt_undone_takes_its_value_and_writes_off_what_no_goods_carry():
    position = receive(receive(Position(), D(10), D("1000.00")).position, D(10), D("100.00")).position  # 20 worth 1,100
    position = issue(position, D(10)).position  # 550 out: 10 worth 550
    undone = take_out(position, D(10), D("1000.00"))  # 550 - 1,000 = -450 on no goods
    assert undone.revaluation == D("-450.00") and undone.position.value == 0 and undone.position.quantity == 0
    both = receive(receive(Position(), D(10), D("1000.00")).position, D(10), D("2000.00")).position
    kept = take_out(both, D(10), D("1000.00"))  # nothing sold: the other 10 keep their 2,000
    assert (kept.revaluation, kept.position.value, kept.position.average_cost) == (0, D("2000.00"), D("200.000000"))


def test_split_shares_to_the_cent():
    assert split(D("100.00"), [D(1), D(1), D(1)]) == [D("33.34"), D("33.33"), D("33.33")]
    assert split(D("300.00"), [D("1000.00"), D("1000.00")]) == [D("150.00"), D("150.00")]
    assert split(D("10.00"), [D(0), D(0)]) == [D("5.00"), D("5.00")]
    assert split(D("-0.05"), [D(1), D(1)]) == [D("-0.03"), D("-0.02")]
    assert sum(split(D("999.99"), [D(3), D(7), D(11)])) == D("999.99")


MOVES = st.lists(st.tuples(st.sampled_from(["in", "out", "undo"]), st.integers(1, 30),
                           st.decimals(min_value=0, max_value=500, places=2)), max_size=30)


@given(MOVES)
def test_the_value_always_agrees_with_the_quantity_and_adds_up(moves):
    """Whatever the order: nothing on hand carries no value, goods on hand never a negative value,
    and the value is the sum of what moved it (values in, costs out, revaluations written off)."""
    position, booked = Position(unit_cost=D("12.50")), D("0.00")
    for kind, quantity, price in moves:
        quantity = D(quantity)
        if kind == "in":
            change = receive(position, quantity, costing.round_money(quantity * price))
            booked += change.value - change.revaluation
        elif kind == "out":
            change = issue(position, quantity)
            booked -= change.value + change.revaluation
        else:
            change = take_out(position, quantity, costing.round_money(quantity * price))
            booked -= change.value + change.revaluation
        position = change.position
        assert position.value == booked
        assert position.value == position.value.quantize(D("0.01"))
        if position.quantity == 0:
            assert position.value == 0
        elif position.quantity > 0:
            assert position.value >= 0
        else:
            assert position.value <= 0


def test_a_position_on_a_past_date_and_goods_leaving_then_at_that_days_average():
    now = Position(D(120), D("1440.00"), D("12.000000"))
    # bought 50 for 800 and sold 30 for 360 after the date: 120 - 50 + 30 = 100 worth 1,440 - 800 + 360 = 1,000
    then = costing.position_on(now, [(D(50), D("800.00")), (D(-30), D("-360.00"))])
    assert then == Position(D(100), D("1000.00"), D("12.000000")) and then.average_cost == D("10.000000")
    # 10 leave then at that day's 10, not today's 12: 100 out of today's 1,440
    lost = costing.issue_on(now, then, D(10))
    assert (lost.value, lost.revaluation, lost.position.quantity, lost.position.value) == (D("100.00"), 0, 110,
                                                                                             D("1340.00"))
    # with nothing dated later it is the issue of today
    assert costing.issue_on(now, now, D(10)) == issue(now, D(10))


def test_the_first_day_a_change_would_leave_below_zero():
    later = [("2026-11-12", D(-8)), ("2026-11-20", D(5)), ("2026-11-25", D(-6))]
    # 10 at the end of the 5th, then 10 - 8 = 2 (12th), 2 + 5 = 7 (20th), 7 - 6 = 1 (25th)
    first = costing.first_day_below_zero
    assert first("2026-11-05", D(10), later, D(-1)) is None          # 9, 1, 6, 0: never below
    assert first("2026-11-05", D(10), later, D(-3)) == ("2026-11-12", D(-1))  # 7, then 2 - 3 = -1
    assert first("2026-11-05", D(10), later, D(-2)) == ("2026-11-25", D(-1))  # 8, 0, 5, then 1 - 2 = -1
    # the date itself first: 10 - 11 = -1 on the 5th
    assert first("2026-11-05", D(10), later, D(-11)) == ("2026-11-05", D(-1))
    # the finding: nothing on 10 March 2020, 40 bought in 2026; 40 taken in 2020 leaves -40 then
    assert first("2020-03-10", D(0), [("2026-11-02", D(40))], D(-40)) == ("2020-03-10", D(-40))
    # nothing later: today's check (4 on hand, 4 taken leaves 0)
    assert first("2026-11-28", D(4), [], D(-4)) is None
    assert first("2026-11-28", D(4), [], D(-5)) == ("2026-11-28", D(-1))
    # goods coming in never make a day worse, even where a day already stands below zero
    assert first("2026-11-05", D(-2), later, D(3)) is None
    assert first("2026-11-05", D(-2), later, D(0)) is None


def test_a_day_that_cannot_price_goods_leaves_it_to_todays_average():
    now = Position(D(10), D("120.00"), D("12.000000"))
    # documents recorded out of date order left the day with nothing on hand, or a value below nothing
    for then in (Position(D(0), D("0.00"), D("12.000000")), Position(D(4), D("-8.00"), D("12.000000"))):
        assert costing.priced_on(now, then) == now
        assert costing.issue_on(now, then, D(2)) == issue(now, D(2))  # 2 x 12 = 24
    assert costing.priced_on(now, Position(D(5), D("50.00"), D("12.000000"))).average_cost == D("10.000000")
