"""When scheduled invoices run: pure date rules, no AWS."""
from __future__ import annotations

import datetime as dt

import pytest
from hypothesis import given
from hypothesis import strategies as st

from chalicelib.domain.schedules import (
    Recurrence,
    add_months,
    due_runs,
    first_run_on_or_after,
    run_after,
    run_date,
)

D = dt.date.fromisoformat


def runs(recurrence: Recurrence, count: int) -> list[str]:
    return [run_date(recurrence, n).isoformat() for n in range(count)]


def test_daily_and_weekly_runs_step_from_the_start():
    assert runs(Recurrence("daily", 1, D("2026-02-27")), 4) == ["2026-02-27", "2026-02-28", "2026-03-01", "2026-03-02"]
    assert runs(Recurrence("daily", 3, D("2026-12-30")), 3) == ["2026-12-30", "2027-01-02", "2027-01-05"]
    assert runs(Recurrence("weekly", 2, D("2026-01-05")), 3) == ["2026-01-05", "2026-01-19", "2026-02-02"]


def test_monthly_on_the_31st_takes_the_last_day_of_shorter_months_and_comes_back():
    assert runs(Recurrence("monthly", 1, D("2026-01-31")), 6) == [
        "2026-01-31", "2026-02-28", "2026-03-31", "2026-04-30", "2026-05-31", "2026-06-30"]
    assert runs(Recurrence("monthly", 1, D("2028-01-31")), 3) == ["2028-01-31", "2028-02-29", "2028-03-31"]
    assert runs(Recurrence("monthly", 1, D("2026-01-30")), 3) == ["2026-01-30", "2026-02-28", "2026-03-30"]
    assert runs(Recurrence("monthly", 3, D("2026-11-30")), 3) == ["2026-11-30", "2027-02-28", "2027-05-30"]
    assert runs(Recurrence("monthly", 12, D("2028-02-29")), 3) == ["2028-02-29", "2029-02-28", "2030-02-28"]


def test_add_months_crosses_years_both_ways():
    assert add_months(D("2026-12-15"), 1) == D("2027-01-15")
    assert add_months(D("2026-03-31"), -1) == D("2026-02-28")
    assert add_months(D("2026-01-31"), 25) == D("2028-02-29")


def test_the_next_run_follows_the_grid_and_respects_the_end():
    monthly = Recurrence("monthly", 1, D("2026-01-31"), D("2026-04-30"))
    assert run_after(monthly, D("2026-01-31")) == D("2026-02-28")
    assert run_after(monthly, D("2026-02-28")) == D("2026-03-31")  # back to the anchor day, no drift
    assert run_after(monthly, D("2026-03-31")) == D("2026-04-30")
    assert run_after(monthly, D("2026-04-30")) is None  # the end date is the last possible run
    assert run_after(monthly, D("2026-03-05")) == D("2026-03-31")  # off-grid days find the next run
    assert first_run_on_or_after(monthly, D("2025-06-01")) == D("2026-01-31")  # before the start: the start
    assert first_run_on_or_after(monthly, D("2026-03-31")) == D("2026-03-31")
    weekly = Recurrence("weekly", 1, D("2026-01-05"))
    assert first_run_on_or_after(weekly, D("2026-01-06")) == D("2026-01-12")
    assert first_run_on_or_after(weekly, D("2026-01-12")) == D("2026-01-12")


def test_due_runs_catch_up_oldest_first_within_the_limit():
    monthly = Recurrence("monthly", 1, D("2026-01-31"))
    assert due_runs(monthly, D("2026-01-31"), D("2026-04-30"), 31) == [
        D("2026-01-31"), D("2026-02-28"), D("2026-03-31"), D("2026-04-30")]
    assert due_runs(monthly, D("2026-01-31"), D("2026-04-29"), 31)[-1] == D("2026-03-31")
    daily = Recurrence("daily", 1, D("2026-01-01"), D("2026-01-10"))
    assert len(due_runs(daily, D("2026-01-01"), D("2026-03-01"), 31)) == 10  # the end stops it
    assert due_runs(Recurrence("daily", 1, D("2026-01-01")), D("2026-01-01"), D("2026-03-01"), 31)[-1] == D("2026-01-31")
    assert due_runs(daily, D("2026-01-05"), D("2026-01-04"), 31) == []
    assert due_runs(daily, None, D("2026-01-04"), 31) == []


def test_a_recurrence_needs_a_known_frequency_and_a_positive_interval():
    with pytest.raises(ValueError):
        Recurrence("yearly", 1, D("2026-01-01"))
    with pytest.raises(ValueError):
        Recurrence("daily", 0, D("2026-01-01"))
    assert Recurrence.of("weekly", 2, "2026-01-01", None) == Recurrence("weekly", 2, D("2026-01-01"))


@given(frequency=st.sampled_from(["daily", "weekly", "monthly"]), interval=st.integers(1, 40),
       start=st.dates(dt.date(1990, 1, 1), dt.date(2990, 1, 1)), offset=st.integers(0, 4000))
def test_first_run_on_or_after_is_the_first_grid_date_not_before_the_day(frequency, interval, start, offset):
    recurrence = Recurrence(frequency, interval, start)
    day = start + dt.timedelta(days=offset)
    n = 0
    while run_date(recurrence, n) < day:  # walk the grid
        n += 1
    assert first_run_on_or_after(recurrence, day) == run_date(recurrence, n)
