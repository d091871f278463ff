"""El Salvador's business days as the tax administration counts them (días hábiles): not a
Saturday or Sunday, not a public holiday (asueto) and not a day of the public employees'
vacations, which close the administration's offices. The days are data (business_days.json, its
sources in the file): listed per year for 2024-2030, so a holiday a decree adds is one line, and
computed from the same rules (Easter for Holy Week) for any other year. No I/O beyond reading it."""
from __future__ import annotations

import datetime as dt
import json
from functools import lru_cache
from pathlib import Path
from typing import Any

CALENDAR = Path(__file__).with_name("business_days.json")
SATURDAY = 5


@lru_cache(maxsize=1)
def _calendar() -> dict[str, Any]:
    calendar: dict[str, Any] = json.loads(CALENDAR.read_text(encoding="utf-8"))
    return calendar


def easter(year: int) -> dt.date:
    """Easter Sunday of the Gregorian calendar (the anonymous algorithm, Meeus/Jones/Butcher)."""
    a, b, c = year % 19, year // 100, year % 100
    d, e = b // 4, b % 4
    g = (b - (b + 8) // 25 + 1) // 3
    h = (19 * a + b - d - g + 15) % 30
    i, k = c // 4, c % 4
    weekday = (32 + 2 * e + 2 * i - h - k) % 7
    m = (a + 11 * h + 22 * weekday) // 451
    month, day = divmod(h + weekday - 7 * m + 114, 31)
    return dt.date(year, month, day + 1)


def computed_days_off(year: int) -> dict[str, str]:
    """The year's weekdays and holidays off by the calendar's rules: each date with its name."""
    rules, days = _calendar()["rules"], dict[str, str]()
    for kind in ("asuetos", "publicEmployeesVacations"):
        for month_day, name in rules[kind].get("fixed", {}).items():
            days.setdefault(f"{year}-{month_day}", name)
        for offset, name in rules[kind].get("easterOffsets", {}).items():
            days.setdefault((easter(year) + dt.timedelta(days=int(offset))).isoformat(), name)
    return dict(sorted(days.items()))


@lru_cache(maxsize=None)
def days_off(year: int) -> frozenset[dt.date]:
    """The year's holidays and vacation days: as listed for the year, else as its rules give them."""
    listed = _calendar()["years"].get(str(year)) or computed_days_off(year)
    return frozenset(dt.date.fromisoformat(day) for day in listed)


def is_business_day(day: dt.date) -> bool:
    return day.weekday() < SATURDAY and day not in days_off(day.year)


def nth_business_day(year: int, month: int, n: int) -> dt.date:
    """The `n`th business day (1 = the first) of the month."""
    if n < 1:
        raise ValueError("business days are counted from 1")
    day, counted = dt.date(year, month, 1), 0
    while True:
        if day.month != month:
            raise ValueError(f"{year}-{month:02} has fewer than {n} business days")
        if is_business_day(day):
            counted += 1
            if counted == n:
                return day
        day += dt.timedelta(days=1)
