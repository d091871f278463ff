"""Writes of one command merged onto one item: DynamoDB refuses two operations on an item in a
transaction, so counts (add_counts) and sums (accumulate) several parts of a command add to one
item go out as one update, at the first part's position; move_last_to orders the refusals, touches
says whether an item is already written. Transaction (store/transaction.py) holds the state."""
from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Mapping, Self

from chalicelib.errors import ApiError
from chalicelib.store.keys import SHARDS, Key
from chalicelib.store.table import to_attributes

if TYPE_CHECKING:
    from chalicelib.store.renumbering import Renumbering


@dataclass
class Operation:
    """One request of the transaction, with the API error its failed condition means."""
    request: dict[str, Any]
    on_fail: ApiError | None
    # a hot item that may go to a shard of its own (keys.shard) when another transaction has it
    # in flight: its sort key as built
    shardable_sort_key: str | None = None

    def home(self) -> tuple[str, str]:
        """The item itself, whichever shard the request now names."""
        return next(iter(self.request.values()))["Key"]["PK"]["S"], str(self.shardable_sort_key)

    def spread(self) -> None:
        """To a shard of the item, chosen at random, for the resubmission."""
        assert self.shardable_sort_key is not None
        key = next(iter(self.request.values()))["Key"]
        key["SK"] = {"S": f"{self.shardable_sort_key}#{random.randrange(1, SHARDS)}"}


class MergedWrites:
    # Transaction's state and its one write these merges go through (store/transaction.py)
    operations: list[Operation]
    renumbering: Renumbering | None
    _counted: dict[tuple[str, str], tuple[int, Counter[str]]]
    _accumulated: dict[tuple[str, str], tuple[Any, ...]]

    if TYPE_CHECKING:
        def update(self, key: Key, update: str, *, condition: str | None = None,
                   names: dict[str, str] | None = None, values: dict[str, Any] | None = None,
                   on_fail: ApiError | None = None, shardable: bool = False) -> Self: ...

    def add_counts(self, key: Key, counts: Mapping[str, int]) -> Self:
        """Adds to counters on an item, one ADD however many parts of the command count on it (a
        transaction may not touch an item twice); an item whose counts add up to nothing is not
        written."""
        pair = (key["PK"], key["SK"])
        position, total = self._counted.get(pair, (len(self.operations), Counter()))
        total.update(counts)
        changed = {name: delta for name, delta in total.items() if delta or pair in self._counted}
        if not changed:
            return self
        names = {f"#c{i}": name for i, name in enumerate(changed)}
        values = {f":c{i}": delta for i, delta in enumerate(changed.values())}
        self.update(key, "ADD " + ", ".join(f"#c{i} :c{i}" for i in range(len(changed))), names=names, values=values,
                    shardable=True)
        if pair in self._counted:  # in place: the number's operation keeps its position
            self.operations[position] = self.operations.pop()
        self._counted[pair] = (position, total)
        return self

    def accumulate(self, key: Key, adds: Mapping[str, Any], *, sets: Mapping[str, Any] | None = None,
                   condition: str | None = None, names: dict[str, str] | None = None,
                   values: dict[str, Any] | None = None, on_fail: ApiError | None = None,
                   shardable: bool = False) -> Self:
        """ADDs numbers on an item (and SETs `sets` beside them), merged with what the command
        already added to the same item: DynamoDB refuses two operations on one item in a
        transaction, so N payments into one bank account (or of one partner) update it once, by
        their sum. The first call's position, condition and error stand for all of them."""
        pair = (key["PK"], key["SK"])
        known = self._accumulated.get(pair)
        if known is None:
            known = (len(self.operations), {}, {}, (condition, {**(names or {})}, {**(values or {})}, on_fail))
        position, total, setting, (condition, names, values, on_fail) = known
        for name, delta in adds.items():
            total[name] = total.get(name, 0) + delta
        setting.update(sets or {})
        every_name, every_value = {**names}, {**values}
        for index, (name, delta) in enumerate(total.items()):
            every_name[f"#add{index}"], every_value[f":add{index}"] = name, delta
        expression = "ADD " + ", ".join(f"#add{index} :add{index}" for index in range(len(total)))
        for index, (name, value) in enumerate(setting.items()):
            every_name[f"#set{index}"], every_value[f":set{index}"] = name, value
        if setting:
            expression += " SET " + ", ".join(f"#set{index} = :set{index}" for index in range(len(setting)))
        self.update(key, expression, condition=condition, names=every_name, values=every_value, on_fail=on_fail,
                    shardable=shardable)
        if pair in self._accumulated:  # in place: what came before keeps its position
            self.operations[position] = self.operations.pop()
        self._accumulated[pair] = known
        return self

    def move_last_to(self, position: int) -> None:
        """The operation just added moves to `position` (the others after it one down): of
        several failed conditions the first one names the error, so a command puts first the
        condition whose refusal tells the story best."""
        self.operations.insert(position, self.operations.pop())

        def shifted(index: int) -> int:
            return index + 1 if index >= position else index
        self._counted = {pair: (shifted(index), counts) for pair, (index, counts) in self._counted.items()}
        self._accumulated = {pair: (shifted(known[0]), *known[1:]) for pair, known in self._accumulated.items()}
        if self.renumbering is not None and self.renumbering.operation is not None:
            self.renumbering.operation = shifted(self.renumbering.operation)

    def amend_put(self, key: Key, fields: Mapping[str, Any]) -> None:
        """Attributes a later part of the command adds to an item an earlier part puts (a gateway
        payment's fee, booked once the payment is built): merged into that Put, one operation."""
        wanted = to_attributes(key)
        for operation in self.operations:
            put = operation.request.get("Put")
            if put is not None and all(put["Item"].get(name) == value for name, value in wanted.items()):
                put["Item"].update(to_attributes({name: value for name, value in fields.items() if value is not None}))
                return
        raise KeyError(f"no Put of {key} in the transaction")

    def touches(self, key: Key) -> bool:
        """Whether an operation of the command already names this item (a check made once for
        several parts of one command)."""
        wanted = to_attributes(key)
        return any(next(iter(operation.request.values())).get("Key") == wanted
                   or all(next(iter(operation.request.values())).get("Item", {}).get(name) == value
                          for name, value in wanted.items())
                   for operation in self.operations)
