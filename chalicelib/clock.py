"""Wall-clock time in the formats the API uses: one place, so tests can move time."""
from __future__ import annotations

import datetime as _dt
import time


def now() -> _dt.datetime:
    return _dt.datetime.now(_dt.timezone.utc)


def epoch_seconds() -> int:
    return int(time.time())


def iso(moment: _dt.datetime) -> str:
    return moment.astimezone(_dt.timezone.utc).isoformat(timespec="milliseconds").replace("+00:00", "Z")


def now_iso() -> str:
    return iso(now())


def today() -> str:
    """Today's date (UTC) as YYYY-MM-DD."""
    return now().date().isoformat()


# Honduras and El Salvador keep UTC-6 all year (no daylight saving time).
UTC_OFFSET_HOURS = {"HN": -6, "SV": -6}


def today_in(country: str) -> str:
    """Today's date where the company is: a document made at 7 p.m. in Tegucigalpa on the 30th
    is dated the 30th, though it is already the 1st in UTC."""
    return (now() + _dt.timedelta(hours=UTC_OFFSET_HOURS.get(country, 0))).date().isoformat()


def local_time_in(country: str) -> str:
    """The time of day where the company is, HH:MM:SS."""
    return (now() + _dt.timedelta(hours=UTC_OFFSET_HOURS.get(country, 0))).strftime("%H:%M:%S")
