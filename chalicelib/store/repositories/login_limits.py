"""Failed logins' counters and a pair's gate (services/identity/login_limit.py)."""
from __future__ import annotations

from chalicelib.store.keys import Key
from chalicelib.store.table import Table


def pass_gate(table: Table, pair: Key, now: int, open_again_at: int) -> bool:
    """Through the pair's gate if it is open at `now`, closing it until `open_again_at` behind
    (one attempt at a time); False, nothing written, when it is closed."""
    return bool(table.update_if(pair, "SET openAt = :open", condition="attribute_not_exists(openAt) OR openAt <= :now",
                           values={":open": open_again_at, ":now": now}))
