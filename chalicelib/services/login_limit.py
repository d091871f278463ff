"""Failed logins counted per e-mail and per source address in fixed windows (counter items that
expire with their window). Past a limit, a login is refused before its password is checked, so
guessing stops even for the right password; a successful login counts nothing."""
from __future__ import annotations

import math

from chalicelib import clock
from chalicelib.errors import RateLimited
from chalicelib.settings import get_settings
from chalicelib.store import keys
from chalicelib.store.table import Table

EMAIL, ADDRESS = "EMAIL", "ADDR"


def _scopes(email: str, source_address: str | None) -> list[tuple[str, str, int]]:
    """(scope, value, limit) of each counter a login attempt falls under."""
    settings = get_settings()
    scopes = [(EMAIL, email, settings.login_max_failures_per_email)]
    if source_address:
        scopes.append((ADDRESS, source_address, settings.login_max_failures_per_address))
    return scopes


def _window() -> tuple[int, int, int]:
    """(now, the window's start, its length) in epoch seconds."""
    length = get_settings().login_window_seconds
    now = clock.epoch_seconds()
    return now, now - now % length, length


def check(table: Table, email: str, source_address: str | None) -> None:
    now, start, length = _window()
    scopes = _scopes(email, source_address)
    counters = {scope: keys.login_failures(scope, value, start) for scope, value, _ in scopes}
    found = table.batch_get(counters.values())
    for scope, _, limit in scopes:
        failures = int((found.get(keys.pair(counters[scope])) or {}).get("failures", 0))
        if failures >= limit:
            whose = "this e-mail" if scope == EMAIL else "this address"
            raise RateLimited(f"Too many failed logins for {whose}; retry later.",
                              headers={"Retry-After": str(max(1, math.ceil(start + length - now)))},
                              details=[{"field": "email" if scope == EMAIL else "sourceAddress",
                                        "message": f"{limit} failed logins per {length} s"}])


def record_failure(table: Table, email: str, source_address: str | None) -> None:
    _, start, length = _window()
    for scope, value, _ in _scopes(email, source_address):
        table.add(keys.login_failures(scope, value, start), "failures", expires_at=start + length + 60)
