"""DEVSTACK_NOW: the local stack at another "today", so a test can see what happens to data as it
ages (an invoice dated this month overdue next year, a CAI past its deadline). The stack's clock
starts at the moment given and keeps moving: chalicelib.clock's `now` and `epoch_seconds` are
shifted by a fixed offset, so everything that reads the time through it (documents dated today,
overdue days, sessions, the stand-in DTE authority's fecEmi check and its seals) agrees. The
service's code knows nothing of it: it only ever asks chalicelib.clock."""
from __future__ import annotations

import datetime as _dt
import time

VARIABLE = "DEVSTACK_NOW"


def parse(value: str) -> _dt.datetime:
    """`2027-06-15` (noon UTC: the same date in UTC and in the packs' countries, UTC-6) or an ISO
    moment such as `2027-06-15T15:00:00Z`."""
    try:
        if len(value) == 10:
            return _dt.datetime.fromisoformat(value).replace(hour=12, tzinfo=_dt.timezone.utc)
        moment = _dt.datetime.fromisoformat(value.replace("Z", "+00:00"))
    except ValueError:
        raise SystemExit(f"{VARIABLE}={value!r}: expected YYYY-MM-DD or YYYY-MM-DDTHH:MM:SSZ") from None
    return moment if moment.tzinfo else moment.replace(tzinfo=_dt.timezone.utc)


def install(value: str | None) -> _dt.datetime | None:
    """Shifts chalicelib.clock so that now is `value`; returns that moment (None: no shift)."""
    if not value:
        return None
    from chalicelib import clock

    start = parse(value)
    offset = start - _dt.datetime.now(_dt.timezone.utc)
    seconds = offset.total_seconds()
    clock.now = lambda: _dt.datetime.now(_dt.timezone.utc) + offset
    clock.epoch_seconds = lambda: int(time.time() + seconds)
    return start
