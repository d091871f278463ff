"""Wall-clock time in the formats the API uses: one place, so tests can move time."""
from __future__ import annotations

import datetime as _dt
import time

from chalicelib import countries


def now() -> _dt.datetime:
    return _dt.datetime.now(_dt.timezone.utc)


def epoch_seconds() -> int:
    return int(time.time())


def iso(moment: _dt.datetime) -> str:
    return moment.astimezone(_dt.timezone.utc).isoformat(timespec="milliseconds").replace("+00:00", "Z")


def now_iso() -> str:
    return iso(now())


def parse_iso(text: str) -> _dt.datetime:
    """A moment the API wrote (`iso`), back to an aware datetime."""
    return _dt.datetime.fromisoformat(text.replace("Z", "+00:00"))


def today() -> str:
    """Today's date (UTC) as YYYY-MM-DD."""
    return now().date().isoformat()


def _local_now(country: str) -> _dt.datetime:
    """Now as the country's clocks show it (its pack's offset: no daylight saving time in the packs'
    countries); an unknown code ("UTC") is UTC."""
    offset = countries.pack(country).utc_offset_hours if country in countries.CODES else 0
    return now() + _dt.timedelta(hours=offset)


def today_in(country: str) -> str:
    """Today's date where the company is: a document made at 7 p.m. in Tegucigalpa on the 30th
    is dated the 30th, though it is already the 1st in UTC."""
    return _local_now(country).date().isoformat()


def company_today(company) -> str:
    """Today's date where the company is (its country pack's clock)."""
    return today_in(countries.pack_of(company).code)


def local_time_in(country: str) -> str:
    """The time of day where the company is, HH:MM:SS."""
    return _local_now(country).strftime("%H:%M:%S")
