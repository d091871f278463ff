"""Failed logins counted per e-mail and per source address in fixed windows (counter items that
expire with their window). Each attempt is counted with one atomic ADD per counter *before* its
password is checked: a burst of parallel guesses gets at most the limit of password checks, and
the rest are refused unchecked, so guessing stops even for the right password. A password found
right gives its count back (a successful login counts nothing), and so does an attempt refused
by a limit (it checked nothing)."""
from __future__ import annotations

import math
from dataclasses import dataclass

from chalicelib import clock
from chalicelib.errors import RateLimited
from chalicelib.settings import get_settings
from chalicelib.store import keys
from chalicelib.store.keys import Key
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


@dataclass
class Attempt:
    """An attempt counted as a failure until its password proves right (`succeeded`)."""
    table: Table
    counters: list[Key]
    expires_at: int

    def succeeded(self) -> None:
        _give_back(self.table, self.counters, self.expires_at)


def attempt(table: Table, email: str, source_address: str | None) -> Attempt:
    """Counts a password check about to happen against each of its limits; past one, refuses it
    (429) before any password is checked. What it returns is told when the password was right."""
    now, start, length = _window()
    expires_at = start + length + 60
    counted: list[Key] = []
    for scope, value, limit in _scopes(email, source_address):
        counter = keys.login_failures(scope, value, start)
        failures = table.add(counter, "failures", expires_at=expires_at)
        counted.append(counter)
        if failures > limit:
            _give_back(table, counted, expires_at)
            raise RateLimited("Too many failed logins for this e-mail; retry later." if scope == EMAIL
                              else "Too many failed logins for this address; retry later.",
                              headers={"Retry-After": str(max(1, math.ceil(start + length - now)))},
                              details=[{"field": "email" if scope == EMAIL else "sourceAddress",
                                        "message": f"{limit} failed logins per {length} s"}])
    return Attempt(table, counted, expires_at)


def _give_back(table: Table, counters: list[Key], expires_at: int) -> None:
    for counter in counters:
        table.add(counter, "failures", amount=-1, expires_at=expires_at)
