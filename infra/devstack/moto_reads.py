"""Query and Scan without a deep copy of every item they answer.

moto's Table.query deep-copies its whole page of results, and Table.scan each item it keeps, so
that the answer holds no reference into the table: a page of 50 documents with their lines was
half of the Query's time. The copy protects nothing here: the handler turns the page into plain
dicts (DynamoResult: new dicts and lists, its leaves immutable strings) before it returns, under
the emulator's lock (infra/devstack/faithful_dynamodb.py holds it around every Query and Scan);
nothing between the read and that conversion changes an item (an index's or the caller's
projection makes a new item; a filter only reads). So, while a Query or a Scan runs, that copy is
the item itself (or a new list of the same items); every other deep copy of the table module
(backups, restores) is moto's.

tests/test_moto_speedups.py (random paged queries against plain moto) and
tests/test_moto_expressions.py prove the answers unchanged."""
from __future__ import annotations

import copy
import threading
import types
from typing import Any

_installed = False


def install() -> None:
    global _installed
    if _installed:
        return
    from moto.dynamodb.models import table as table_module
    from moto.dynamodb.models.dynamo_type import Item

    reading = threading.local()

    def deepcopy(value: Any, memo: dict[int, Any] | None = None) -> Any:
        if getattr(reading, "depth", 0):
            if type(value) is Item:
                return value
            if type(value) is list and all(type(item) is Item for item in value):
                return list(value)
        return copy.deepcopy(value, memo)

    table_module.copy = types.SimpleNamespace(deepcopy=deepcopy, copy=copy.copy)  # type: ignore[attr-defined]

    def uncopied(read: Any) -> Any:
        def run(self: Any, *args: Any, **kwargs: Any) -> Any:
            reading.depth = getattr(reading, "depth", 0) + 1
            try:
                return read(self, *args, **kwargs)
            finally:
                reading.depth -= 1
        run.__name__ = read.__name__
        return run

    table_module.Table.query = uncopied(table_module.Table.query)  # type: ignore[method-assign]
    table_module.Table.scan = uncopied(table_module.Table.scan)  # type: ignore[method-assign]
    _installed = True
