"""Failed logins, counted per pair (e-mail, source address) with a growing wait, and per source
address alone under a high ceiling.

A pair's first `login_free_failures` attempts are checked at once; from the last of them on, each
attempt closes the pair's gate for 2^n seconds (n = 1, 2, ... past the free ones; at most
`login_max_delay_seconds`) and an attempt that finds it closed is refused 429 unchecked with
`Retry-After`. So a guesser of one e-mail from one address gets slower and slower, while a
stranger elsewhere cannot lock the owner out (another pair) and one person's failures in an
office do not stop their colleagues behind the same address (other pairs). A right password
resets its pair. The pair's failures are kept in fixed windows of `login_memory_seconds`.

The address's ceiling (`login_max_failures_per_address` failures in `login_window_seconds`) stops
one address spraying many e-mails; one pair cannot reach it (its waits allow a few failures a
window), so one user never locks their office out.

Every attempt is counted *before* its password is checked, with atomic ADDs (and the gate by a
conditional update): a burst of parallel guesses gets at most the free checks plus one, the rest
refused unchecked. An attempt refused gives its counts back (it checked nothing).

An IPv6 address counts as its /64: one client is handed a whole /64 and could otherwise take a
fresh pair and a fresh ceiling with every address of it. An IPv4 address counts as itself."""
from __future__ import annotations

import ipaddress
import math
from dataclasses import dataclass

from chalicelib import clock
from chalicelib.errors import RateLimited
from chalicelib.messages.phrases import Phrase
from chalicelib.observability import logger
from chalicelib.settings import get_settings
from chalicelib.store import keys
from chalicelib.store.keys import Key
from chalicelib.store.repositories import login_limits
from chalicelib.store.table import Table

ADDRESS = "ADDR"


@dataclass
class AddressCount:
    counter: Key
    expires_at: int


@dataclass
class Attempt:
    """An attempt counted as a failure until its password proves right (`succeeded`)."""
    table: Table
    pair: Key
    address: AddressCount | None

    def succeeded(self) -> None:
        self.table.remove(self.pair)  # the pair starts afresh
        if self.address is not None:
            _give_back(self.table, self.address)


def attempt(table: Table, email: str, source_address: str | None) -> Attempt:
    """Counts a password check about to happen; refuses it (429) before any password is checked
    when the address is past its ceiling or the pair's gate is closed. What it returns is told
    when the password was right."""
    settings, now = get_settings(), clock.epoch_seconds()
    source_address = counted_address(source_address)
    if source_address is None:
        # API Gateway always tells it; without it every caller of this e-mail shares one pair
        logger.warning("login attempt without a source address")
    address = _count_address(table, source_address, now) if source_address else None
    memory = settings.login_memory_seconds
    pair_expiry = now - now % memory + memory + 60
    pair = keys.login_pair_failures(email, source_address, now - now % memory)
    failures = table.add(pair, "failures", expires_at=pair_expiry)
    free = settings.login_free_failures
    if failures >= free:
        wait = min(settings.login_max_delay_seconds, 2 ** (failures - free + 1))
        # one attempt at a time through an open gate, and it closes the gate behind itself
        if not login_limits.pass_gate(table, pair, now, now + wait):
            table.add(pair, "failures", amount=-1, expires_at=pair_expiry)
            if address is not None:
                _give_back(table, address)
            retry = max(1, int((table.get(pair) or {}).get("openAt", now + 1)) - now)
            raise RateLimited("Too many failed logins for this e-mail from this address; retry later.",
                              headers={"Retry-After": str(retry)},
                              details=[{"field": "email", "message": Phrase("retry in {} s", retry)}])
    return Attempt(table, pair, address)


def counted_address(source_address: str | None) -> str | None:
    """What a source address counts as: an IPv6 address its /64 (`2001:db8:0:1::/64`), an IPv4
    address (or one mapped into IPv6) itself; text that is no address at all, as it came."""
    if not source_address:
        return None
    try:
        parsed = ipaddress.ip_address(source_address.strip())
    except ValueError:
        return source_address
    if isinstance(parsed, ipaddress.IPv6Address):
        if parsed.ipv4_mapped is not None:
            return str(parsed.ipv4_mapped)
        return str(ipaddress.ip_network(f"{parsed}/64", strict=False))
    return str(parsed)


def _count_address(table: Table, source_address: str, now: int) -> AddressCount:
    """The address's ceiling, counted first: an attempt it refuses has touched no pair."""
    settings = get_settings()
    length, limit = settings.login_window_seconds, settings.login_max_failures_per_address
    start = now - now % length
    counted = AddressCount(keys.login_failures(ADDRESS, source_address, start), start + length + 60)
    if table.add(counted.counter, "failures", expires_at=counted.expires_at) > limit:
        _give_back(table, counted)
        raise RateLimited("Too many failed logins for this address; retry later.",
                          headers={"Retry-After": str(max(1, math.ceil(start + length - now)))},
                          details=[{"field": "sourceAddress", "message":
                                  Phrase("{} failed logins per {} s", limit, length)}])
    return counted


def _give_back(table: Table, counted: AddressCount) -> None:
    table.add(counted.counter, "failures", amount=-1, expires_at=counted.expires_at)
