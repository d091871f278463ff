"""Set-ups built once per test process, then restored: the tests' common set-ups (a company, a
chart, a shop ready for documents) are requests whose outcome depends only on the table they
start from, their arguments, the clock and the settings. The first time one runs on a given table
content it is built through the API as written, and the table's content afterwards is kept; a
later test that asks for the same set-up on the same table content (its own fresh table, its own
moto) gets that content written into its table instead of the requests, and the same answer (ids,
keys). What the test then does runs on a table identical, item for item, to the one the requests
left. Only set-ups that start from an empty table, or from what such a set-up left, are kept (a
table a test wrote to itself is no other test's start).

Never restored (built as written): outside a mocked table, while the faithful layer injects
faults, latency or index lag, or when SETUP_SNAPSHOTS=0. The clock is part of the key: a moved
clock (monkeypatched `clock.now`) to its instant, the real one to its hour (every date and
deadline the set-up derives from today is then the test's own); so are the settings (what a test
set in the environment). The table's stream does not get the restored items' records (no set-up
test reads the stream)."""
from __future__ import annotations

import hashlib
import os
import pickle
from collections import defaultdict
from collections.abc import Callable, Hashable
from typing import Any, TypeVar

from chalicelib import clock
from chalicelib.settings import get_settings

T = TypeVar("T")
_REAL_NOW = clock.now
# (what and its arguments, the table's content before, the clock, the settings) -> (the content after, the answer)
_kept: dict[tuple[Hashable, str, str, Any], tuple[bytes, Any]] = {}
# the contents set-ups are kept from: an empty table, and what a kept set-up leaves
_starts: set[str] = set()
counts = {"built": 0, "restored": 0}


def enabled() -> bool:
    return os.environ.get("SETUP_SNAPSHOTS", "1") != "0"


def _moto_table(table_name: str) -> Any | None:
    from moto.core import DEFAULT_ACCOUNT_ID
    from moto.dynamodb.models import dynamodb_backends

    region = os.environ.get("AWS_DEFAULT_REGION", "us-east-1")
    try:
        return dynamodb_backends[DEFAULT_ACCOUNT_ID][region].tables.get(table_name)
    except KeyError:
        return None


def _faithful_layer_is_plain() -> bool:
    from infra.devstack import faithful_dynamodb
    from infra.devstack.faithful_dynamodb import Behaviour

    state = faithful_dynamodb._state
    return not state.faults and state.behaviour == Behaviour() and not state.in_flight


def _clock_key() -> str:
    if clock.now is not _REAL_NOW:
        return clock.now().isoformat()
    return clock.now().strftime("%Y-%m-%dT%H")


def _memory_table(moto_table: Any) -> Any | None:
    """The in-memory engine's table of this name, when it serves the test (tests/conftest.py)."""
    from infra.devstack import memory_dynamodb
    from tests import conftest

    if not conftest._in_memory["on"]:
        return None
    return memory_dynamodb.ENGINE.table(moto_table.name, lambda TableName: {"Table": moto_table.describe(
        base_key="Table")["Table"]})


def _content(moto_table: Any) -> bytes:
    """The table's items, pickled; the engine's name first (an empty table of either engine is no
    start for the other's set-ups: each keeps its items in its own form)."""
    memory = _memory_table(moto_table)
    engine, items = (b"memory:", memory.items) if memory is not None else (b"moto:", moto_table.items)
    return engine + pickle.dumps(dict(items), protocol=pickle.HIGHEST_PROTOCOL)


def _restore(moto_table: Any, content: bytes) -> None:
    memory = _memory_table(moto_table)
    items = pickle.loads(content[content.index(b":") + 1:])
    if memory is not None:
        memory.replace_items(items)
        return
    moto_table.items = defaultdict(dict, items)
    if hasattr(moto_table, "_index_groups"):  # moto_speedups' sorted partitions of the old content
        del moto_table._index_groups


def remembered(table_name: str, what: Hashable, build: Callable[[], T]) -> T:
    """`build()`'s answer, and the table as `build()` leaves it: built the first time this
    process sees `what` on this table content at this clock, restored afterwards. The answer is
    kept pickled (each caller gets its own copy); it must not hold the API client."""
    moto_table = _moto_table(table_name) if enabled() else None
    if moto_table is None or not _faithful_layer_is_plain():
        return build()
    before = hashlib.sha256(_content(moto_table)).hexdigest()
    if not (_memory_table(moto_table) or moto_table).items:
        _starts.add(before)
    key = (what, before, _clock_key(), get_settings())  # (settings read from the environment: a test's own too)
    if key in _kept:
        content, answer = _kept[key]
        _restore(moto_table, content)
        counts["restored"] += 1
        return pickle.loads(answer)
    answer = build()
    counts["built"] += 1
    if before not in _starts:  # a table a test wrote to itself: no other test starts from it
        return answer
    after = _content(moto_table)
    _kept[key] = (after, pickle.dumps(answer))
    # the table as a later restore writes it (pickled copies keep no sharing between items that
    # the live ones had), so that a set-up built on top of this one is keyed as it will be found
    _restore(moto_table, after)
    _starts.add(hashlib.sha256(_content(moto_table)).hexdigest())
    return answer
