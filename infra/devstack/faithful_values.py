"""What DynamoDB does to the values it stores, played on moto (which keeps them as written): the
faithful layer's companion (infra/devstack/faithful_dynamodb.py installs it).

- Numbers are trimmed: DynamoDB keeps a number's value, not its writing ("leading and trailing
  zeroes are trimmed"), so `115.00` comes back `115` and `5000.50` as `5000.5`. Every number moto
  holds, written or computed (an ADD, a SET a = a + :v), is trimmed when it is made.
- Maps keep no order: an item's attributes and a map's keys come back in DynamoDB's order, not in
  the order they were written. Here that order is a shuffle of the keys, the same for every read
  of a map (as DynamoDB's), drawn from `seed` (`FAITHFUL_MAP_SEED`, 45 by default): what depends
  on the written order (a JSON rebuilt from a stored map and compared as bytes) breaks here as it
  would on AWS.
"""
from __future__ import annotations

import os
import zlib
from decimal import Decimal, InvalidOperation
from functools import lru_cache
from typing import Any

_seed = os.environ.get("FAITHFUL_MAP_SEED", "45")
_installed = False


def trimmed(number: str) -> str:
    """A number as DynamoDB gives it back: no leading or trailing zeros, no exponent, no "-0"."""
    try:
        value = Decimal(number)
    except InvalidOperation:
        return number  # moto refuses it itself, with DynamoDB's message
    if not value.is_finite():
        return number
    if value.is_zero():
        return "0"
    return format(value.normalize(), "f")


@lru_cache(maxsize=65536)
def _rank(seed: str, name: str) -> int:
    return zlib.crc32(f"{seed}:{name}".encode("utf-8"))


def shuffled(values: dict[str, Any]) -> dict[str, Any]:
    """The same entries in DynamoDB's order (here: the seed's shuffle of the keys)."""
    if len(values) < 2:
        return values
    return {name: values[name] for name in sorted(values, key=lambda name: _rank(_seed, str(name)))}


def set_seed(seed: str) -> str:
    """Draws the maps' order from another seed; returns the previous one."""
    global _seed
    previous, _seed = _seed, seed
    return previous


def install() -> None:
    """Wraps moto's values: every number trimmed and every map (an item too) shuffled when made."""
    global _installed
    if _installed:
        return
    from moto.dynamodb.models.dynamo_type import DynamoType, Item

    make_value = DynamoType.__init__

    def trimmed_and_shuffled(self: Any, type_as_dict: Any) -> None:
        make_value(self, type_as_dict)
        if self.type == "N" and isinstance(self.value, str):
            self.value = trimmed(self.value)
        elif self.type == "NS" and isinstance(self.value, list):
            self.value = [trimmed(number) if isinstance(number, str) else number for number in self.value]
        elif self.type == "M" and isinstance(self.value, dict):
            self.value = shuffled(self.value)

    make_item = Item.__init__

    def item_shuffled(self: Any, hash_key: Any, range_key: Any, attrs: dict[str, Any]) -> None:
        make_item(self, hash_key, range_key, shuffled(attrs))

    DynamoType.__init__ = trimmed_and_shuffled  # type: ignore[method-assign]
    Item.__init__ = item_shuffled  # type: ignore[method-assign]
    _installed = True
