"""DEVSTACK_NOW (infra/devstack/shifted_clock.py): the local stack's clock started on another day,
moving on from there; everything chalicelib.clock answers agrees."""
from __future__ import annotations

import datetime as dt
import time

import pytest

from chalicelib import clock
from infra.devstack import shifted_clock


def test_a_day_means_noon_utc_and_a_moment_is_taken_as_given():
    assert shifted_clock.parse("2027-09-15") == dt.datetime(2027, 9, 15, 12, tzinfo=dt.timezone.utc)
    assert shifted_clock.parse("2027-09-15T15:00:00Z") == dt.datetime(2027, 9, 15, 15, tzinfo=dt.timezone.utc)
    # 23:30 in UTC-6 is 05:30 UTC the next day
    assert shifted_clock.parse("2027-09-15T23:30:00-06:00") == dt.datetime(2027, 9, 16, 5, 30, tzinfo=dt.timezone.utc)
    with pytest.raises(SystemExit, match="DEVSTACK_NOW='15/09/2027'"):
        shifted_clock.parse("15/09/2027")


def test_the_clock_starts_at_the_moment_and_moves_on(monkeypatch):
    # (setattr first: monkeypatch puts the real functions back afterwards)
    monkeypatch.setattr(clock, "now", clock.now)
    monkeypatch.setattr(clock, "epoch_seconds", clock.epoch_seconds)
    assert shifted_clock.install("") is None and shifted_clock.install(None) is None
    start = shifted_clock.install("2027-09-15T05:30:00Z")
    assert start == dt.datetime(2027, 9, 15, 5, 30, tzinfo=dt.timezone.utc)
    first = clock.now()
    assert dt.timedelta(0) <= first - start < dt.timedelta(seconds=5)
    time.sleep(0.01)
    assert clock.now() > first  # time still moves
    assert abs(clock.epoch_seconds() - start.timestamp()) < 5
    # the day in UTC and where the company is (UTC-6: still the 14th at 05:30 UTC)
    assert (clock.today(), clock.today_in("HN"), clock.today_in("SV")) == ("2027-09-15", "2027-09-14", "2027-09-14")
