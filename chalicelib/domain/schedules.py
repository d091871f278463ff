"""When a scheduled invoice runs, no I/O. Run n is the start date plus n times the interval (in
days, weeks or months), always counted from the start: no drift. A monthly schedule keeps the
start's day of the month; a month without that day runs on its last day (Jan 31 -> Feb 28 or
29 -> Mar 31)."""
from __future__ import annotations

import calendar
import datetime as _dt
from dataclasses import dataclass

DAILY, WEEKLY, MONTHLY = "daily", "weekly", "monthly"
FREQUENCIES = (DAILY, WEEKLY, MONTHLY)
_DAYS_PER_STEP = {DAILY: 1, WEEKLY: 7}


@dataclass(frozen=True)
class Recurrence:
    frequency: str
    interval: int
    start: _dt.date
    end: _dt.date | None = None

    def __post_init__(self) -> None:
        if self.frequency not in FREQUENCIES:
            raise ValueError(f"frequency must be one of {', '.join(FREQUENCIES)}")
        if self.interval < 1:
            raise ValueError("interval must be at least 1")

    @classmethod
    def of(cls, frequency: str, interval: int, start: str, end: str | None = None) -> "Recurrence":
        """From the stored ISO dates."""
        return cls(frequency, int(interval), _dt.date.fromisoformat(start),
                   _dt.date.fromisoformat(end) if end else None)


def add_months(day: _dt.date, months: int) -> _dt.date:
    """The same day of the month `months` later, or that month's last day when it is shorter."""
    index = day.year * 12 + day.month - 1 + months
    year, month = divmod(index, 12)
    month += 1
    return _dt.date(year, month, min(day.day, calendar.monthrange(year, month)[1]))


def run_date(recurrence: Recurrence, n: int) -> _dt.date:
    """The n-th run (the first is n = 0, the start itself)."""
    steps = n * recurrence.interval
    if recurrence.frequency == MONTHLY:
        return add_months(recurrence.start, steps)
    return recurrence.start + _dt.timedelta(days=steps * _DAYS_PER_STEP[recurrence.frequency])


def first_run_on_or_after(recurrence: Recurrence, day: _dt.date) -> _dt.date | None:
    """The first run on `day` or later; None when the schedule has ended by then."""
    if day <= recurrence.start:
        n = 0
    elif recurrence.frequency == MONTHLY:
        months = (day.year - recurrence.start.year) * 12 + day.month - recurrence.start.month
        n = max(0, months // recurrence.interval - 1)  # at most a step short: the loop closes the gap
        while run_date(recurrence, n) < day:
            n += 1
    else:
        step = recurrence.interval * _DAYS_PER_STEP[recurrence.frequency]
        n = -(-(day - recurrence.start).days // step)  # ceiling division
    found = run_date(recurrence, n)
    if recurrence.end is not None and found > recurrence.end:
        return None
    return found


def run_after(recurrence: Recurrence, day: _dt.date) -> _dt.date | None:
    """The run that follows `day` (a run date or any other day); None when there is none."""
    return first_run_on_or_after(recurrence, day + _dt.timedelta(days=1))


def due_runs(recurrence: Recurrence, next_run: _dt.date | None, today: _dt.date, limit: int) -> list[_dt.date]:
    """The runs from `next_run` up to `today`, at most `limit` of them (the oldest first)."""
    runs: list[_dt.date] = []
    while next_run is not None and next_run <= today and len(runs) < limit:
        runs.append(next_run)
        next_run = run_after(recurrence, next_run)
    return runs
