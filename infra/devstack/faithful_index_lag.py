"""The index lag of the faithful DynamoDB layer (infra/devstack/faithful_dynamodb.py): each item written
while a lag is set shows to index reads only after its own random delay (in order, per item), so
an index read can see part of a transaction. Runs under the layer's lock."""
from __future__ import annotations

import copy
import json
import random
import time
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any, Callable, Iterator


def identity(table_name: str, key: dict[str, Any]) -> tuple[str, str]:
    """An item's identity across calls: its table and its key (DynamoDB JSON)."""
    return table_name, json.dumps(key, sort_keys=True, default=str)


@dataclass
class IndexLag:
    # (table, item identity) -> [(visible at, the item before that write or None)], oldest first
    pending: dict[tuple[str, str], list[tuple[float, Any]]] = field(default_factory=dict)
    rng: random.Random = field(default_factory=random.Random)
    clock: Callable[[], float] = time.monotonic

    def remember_before(self, backend: Any, targets: list[tuple[str, dict[str, Any]]], lag: float) -> None:
        """With a lag, keeps each item as it was before this write, to show until the index
        catches up (per item, in order: a later write never shows before an earlier one)."""
        if lag <= 0:
            return
        now = self.clock()
        for table_name, key in targets:
            item = identity(table_name, key)
            history = [entry for entry in self.pending.get(item, []) if entry[0] > now]
            visible_at = max([now + self.rng.uniform(0, lag)] + [entry[0] for entry in history])
            try:
                before = copy.deepcopy(backend.get_item(table_name, key))
            except Exception:  # noqa: BLE001 - a missing table or key: the write itself will answer
                before = None
            history.append((visible_at, before))
            self.pending[item] = history

    @contextmanager
    def lagging(self, backend: Any, table_name: str) -> Iterator[None]:
        """The table's items as an index that has not caught up sees them, while the block runs."""
        now = self.clock()
        table = backend.get_table(table_name)
        swapped: list[tuple[Any, Any, Any]] = []  # (hash, range, the current item or None)
        for (name, item), history in list(self.pending.items()):
            history = [entry for entry in history if entry[0] > now]
            if not history:
                del self.pending[(name, item)]
                continue
            self.pending[(name, item)] = history
            if name != table_name:
                continue
            key = json.loads(item)
            hash_value = _typed(key[table.hash_key_attr])
            range_value = _typed(key[table.range_key_attr]) if table.range_key_attr else None
            current = table.items.get(hash_value, {}).get(range_value) if range_value is not None else None
            swapped.append((hash_value, range_value, current))
            _place(table, hash_value, range_value, history[0][1])
        table._index_groups = None  # the speed-ups' sorted index view (infra/devstack/moto_speedups.py)
        try:
            yield
        finally:
            for hash_value, range_value, current in swapped:
                _place(table, hash_value, range_value, current)
            table._index_groups = None


def _typed(value: dict[str, Any]) -> Any:
    from moto.dynamodb.models.dynamo_type import DynamoType

    return DynamoType(value)


def _place(table: Any, hash_value: Any, range_value: Any, item: Any) -> None:
    partition = table.items[hash_value]
    if item is None:
        partition.pop(range_value, None)
        if not partition:
            del table.items[hash_value]
    else:
        partition[range_value] = item
