"""DynamoDB's item calls answered from memory, for the tests where the emulator adds nothing.

Most service tests only need a table that answers as DynamoDB answers: items, keys, conditions,
update expressions, queries on the table and its indexes, transactions that apply whole or not at
all. moto answers them too, but half of such a test's time was moto's (its request parsing, its
expression trees, its item objects). Here `MemoryDynamoDB` is DirectDynamoDB (botocore's
validation, events, serialization, error parsing and retries, kept) with moto's handler replaced
by `MemoryEngine`, which answers the same JSON from dicts:

- items are kept as DynamoDB's JSON (`{"S": ...}`), numbers trimmed and maps in DynamoDB's own
  order (infra/devstack/faithful_values.py), each write checked as DynamoDB checks it (keys and
  index keys of the schema's types and not empty, 400 KB, placeholders defined and used, reserved
  words, a key attribute never updated), under one lock: every call is atomic;
- a table's schema is the emulator's (described from moto once, when first named in a test), so
  moto still decides which tables exist; moto holds none of their items.

What it does not play: streams, transactions in flight conflicting, injected faults and index
lag, point-in-time copies, capacity. Tests that need them (markers `emulator`, `reads_table_stream`,
`moto_only`) run on moto (tests/conftest.py chooses per test); tests/test_memory_dynamodb.py
compares both engines on the suite's corpus of writes and on random queries."""
from __future__ import annotations

import json
import threading
import time
import uuid
import zlib
from dataclasses import dataclass, field
from typing import Any

from infra.devstack.direct_dynamodb import DirectDynamoDB
from infra.devstack.faithful_values import shuffled
from infra.devstack.memory_expressions import Scope, bytes_of, holds, projected, sort_value, stored
from infra.devstack.memory_parsing import ExpressionError, Parsed, parse_condition, parse_projection, parse_update
from infra.devstack.moto_item_size import LIMIT as ITEM_LIMIT

PAGE_BYTES = 1024 * 1024  # a Query or Scan stops reading at 1 MB
TOKEN_SECONDS = 600  # how long a transaction's ClientRequestToken is remembered
_ERROR_PREFIX = "com.amazonaws.dynamodb.v20120810#"
KeyValue = tuple[str, Any]  # (type, value) of a key attribute
ItemKey = tuple[KeyValue, ...]


class DynamoDBError(Exception):
    def __init__(self, error_type: str, message: str, **fields: Any) -> None:
        super().__init__(message)
        self.error_type, self.message, self.fields = error_type, message, fields


def _invalid(message: str) -> DynamoDBError:
    return DynamoDBError("ValidationException", message)


@dataclass
class Index:
    hash_key: str
    range_key: str | None
    projection: str = "ALL"
    included: tuple[str, ...] = ()


@dataclass
class MemoryTable:
    name: str
    hash_key: str
    range_key: str | None
    types: dict[str, str]
    indexes: dict[str, Index]
    items: dict[ItemKey, dict[str, Any]] = field(default_factory=dict)
    # (index or None, partition value) -> keys of its items; and the same sorted, until a write to it
    _members: dict[tuple[str | None, KeyValue], set[ItemKey]] = field(default_factory=dict)
    _sorted: dict[tuple[str | None, KeyValue], list[ItemKey]] = field(default_factory=dict)

    @classmethod
    def described(cls, description: dict[str, Any]) -> "MemoryTable":
        def keys_of(schema: list[dict[str, str]]) -> tuple[str, str | None]:
            by_type = {element["KeyType"]: element["AttributeName"] for element in schema}
            return by_type["HASH"], by_type.get("RANGE")

        hash_key, range_key = keys_of(description["KeySchema"])
        indexes = {}
        for index in description.get("GlobalSecondaryIndexes", []) + description.get("LocalSecondaryIndexes", []):
            index_hash, index_range = keys_of(index["KeySchema"])
            projection = index.get("Projection", {})
            indexes[index["IndexName"]] = Index(index_hash, index_range, projection.get("ProjectionType", "ALL"),
                                                tuple(projection.get("NonKeyAttributes", ())))
        types = {definition["AttributeName"]: definition["AttributeType"]
                 for definition in description.get("AttributeDefinitions", [])}
        return cls(description["TableName"], hash_key, range_key, types, indexes)

    # --- keys ---

    def key_names(self, index: str | None = None) -> tuple[str, ...]:
        if index is None:
            return (self.hash_key,) + ((self.range_key,) if self.range_key else ())
        found = self.indexes[index]
        return (found.hash_key,) + ((found.range_key,) if found.range_key else ())

    def key_of(self, key: dict[str, Any]) -> ItemKey:
        """The item key a request's Key names, checked against the schema."""
        names = self.key_names()
        if set(key) != set(names):
            raise _invalid("The provided key element does not match the schema")
        for name in names:
            value_type, value = next(iter(key[name].items()))
            if value_type != self.types.get(name, value_type):
                raise _invalid("The provided key element does not match the schema")
            if value_type in ("S", "B") and value == "":
                raise _invalid("One or more parameter values are not valid. The AttributeValue for a key attribute "
                               f"cannot contain an empty string value. Key: {name}")
        return tuple(next(iter(key[name].items())) for name in names)

    def key_of_item(self, item: dict[str, Any]) -> ItemKey:
        for name in self.key_names():
            if name not in item:
                raise _invalid(f"One or more parameter values were invalid: Missing the key {name} in the item")
            value_type = next(iter(item[name]))
            expected = self.types.get(name, value_type)
            if value_type != expected:
                raise _invalid(f"One or more parameter values were invalid: Type mismatch for key {name} "
                               f"expected: {expected} actual: {value_type}")
        return self.key_of({name: item[name] for name in self.key_names()})

    def check_index_keys(self, item: dict[str, Any]) -> None:
        for index_name, index in self.indexes.items():
            for name in (index.hash_key, index.range_key):
                if name is None or name not in item:
                    continue
                value_type, value = next(iter(item[name].items()))
                expected = self.types.get(name, value_type)
                if value_type != expected:
                    raise _invalid(f"One or more parameter values were invalid: Type mismatch for Index Key {name} "
                                   f"Expected: {expected} Actual: {value_type} IndexName: {index_name}")
                if value == "" and value_type in ("S", "B"):
                    raise _invalid("One or more parameter values are not valid. A value specified for a secondary "
                                   "index key is not supported. The AttributeValue for a key attribute cannot "
                                   f"contain an empty string value. IndexName: {index_name}, IndexKey: {name}")

    # --- writes ---

    def write(self, key: ItemKey, item: dict[str, Any] | None) -> None:
        """Puts (or with None, deletes) the item of `key`, keeping the partitions it is in."""
        old = self.items.get(key)
        for group in self._groups(key, old):
            self._members[group].discard(key)
            self._sorted.pop(group, None)
        if item is None:
            self.items.pop(key, None)
            return
        item = shuffled(item)
        self.items[key] = item
        for group in self._groups(key, item):
            self._members.setdefault(group, set()).add(key)
            self._sorted.pop(group, None)

    def _groups(self, key: ItemKey, item: dict[str, Any] | None) -> list[tuple[str | None, KeyValue]]:
        if item is None:
            return []
        groups: list[tuple[str | None, KeyValue]] = [(None, key[0])]
        for index_name, index in self.indexes.items():
            if index.hash_key in item and (index.range_key is None or index.range_key in item):
                groups.append((index_name, next(iter(item[index.hash_key].items()))))
        return groups

    def replace_items(self, items: dict[ItemKey, dict[str, Any]]) -> None:
        self.items, self._members, self._sorted = {}, {}, {}
        for key, item in items.items():
            self.write(key, item)

    # --- reads ---

    def partition(self, index: str | None, value: KeyValue) -> list[ItemKey]:
        """The keys of a partition in its sort order (an index's ties in the table's key order)."""
        group = (index, value)
        keys = self._sorted.get(group)
        if keys is None:
            members = self._members.get(group, set())
            range_key = self.range_key if index is None else self.indexes[index].range_key
            if range_key is None:
                keys = sorted(members, key=_ordering)
            else:
                keys = sorted(members, key=lambda key: (_ordering((next(iter(self.items[key][range_key].items())),)),
                                                        _ordering(key)))
            self._sorted[group] = keys
        return keys

    def index_view(self, index: str | None, item: dict[str, Any]) -> dict[str, Any]:
        """An item as an index holds it (its projection)."""
        if index is None:
            return item
        found = self.indexes[index]
        if found.projection == "ALL":
            return item
        kept = set(self.key_names()) | set(self.key_names(index))
        if found.projection == "INCLUDE":
            kept |= set(found.included)
        return {name: value for name, value in item.items() if name in kept}


def _ordering(key: ItemKey) -> tuple[Any, ...]:
    return tuple(sort_value(value_type, value) for value_type, value in key)


def item_size(item: dict[str, Any]) -> int:
    """An item's size as the emulator weighs it (infra/devstack/moto_item_size.py), against its limit."""
    return sum(len(name.encode("utf-8")) + _value_size(value) for name, value in item.items())


def _value_size(value: dict[str, Any]) -> int:
    value_type, inner = next(iter(value.items()))
    if value_type == "S":
        return len(inner.encode("utf-8"))
    if value_type == "N":
        return len(inner)
    if value_type == "B":
        return len(bytes_of(inner))
    if value_type == "M":
        return sum(len(name.encode("utf-8")) + _value_size(member) for name, member in inner.items())
    if value_type == "L":
        return sum(_value_size(member) for member in inner)
    if value_type in ("SS", "NS", "BS"):
        return sum(len(member) for member in inner)
    return 1


class MemoryEngine:
    """Tables by name, and the transactions' tokens; one lock for every call."""

    def __init__(self) -> None:
        self.lock = threading.RLock()
        self.tables: dict[str, MemoryTable] = {}
        self.tokens: dict[str, tuple[str, float]] = {}

    def reset(self) -> None:
        with self.lock:
            self.tables.clear()
            self.tokens.clear()

    def table(self, name: str, describe: Any) -> MemoryTable:
        found = self.tables.get(name)
        if found is None:
            try:
                description = describe(TableName=name)["Table"]
            except Exception as error:
                code = getattr(error, "response", {}).get("Error", {}).get("Code")
                if code == "ResourceNotFoundException":
                    raise DynamoDBError(code, "Requested resource not found") from error
                raise
            found = self.tables[name] = MemoryTable.described(description)
        return found

    def answer(self, operation: str, params: dict[str, Any], describe: Any) -> dict[str, Any]:
        from infra.devstack import memory_operations

        with self.lock:
            try:
                return memory_operations.OPERATIONS[operation](self, params, describe)
            except ExpressionError as error:
                raise _invalid(str(error)) from error


ENGINE = MemoryEngine()


def reset() -> None:
    ENGINE.reset()


def forget_table(name: str) -> None:
    with ENGINE.lock:
        ENGINE.tables.pop(name, None)


def used_placeholders(params: dict[str, Any], parsed: list[Parsed]) -> None:
    """DynamoDB refuses a placeholder defined and not used, and definitions without an expression."""
    for field_name, used_of in (("ExpressionAttributeNames", "names"), ("ExpressionAttributeValues", "values")):
        given = params.get(field_name)
        if given is None:
            continue
        if not given:
            raise _invalid(f"{field_name} must not be empty")
        if not parsed:
            raise _invalid(f"{field_name} can only be specified when using expressions")
        used = set().union(*(getattr(expression, used_of) for expression in parsed))
        unused = sorted(set(given) - used)
        if unused:
            raise _invalid(f"Value provided in {field_name} unused in expressions: keys: {{{', '.join(unused)}}}")


def parsed_expressions(params: dict[str, Any]) -> dict[str, Parsed]:
    parsed: dict[str, Parsed] = {}
    for name in ("ConditionExpression", "FilterExpression", "KeyConditionExpression"):
        if name in params:
            parsed[name] = parse_condition(params[name], name)
    if "UpdateExpression" in params:
        parsed["UpdateExpression"] = parse_update(params["UpdateExpression"])
    if "ProjectionExpression" in params:
        parsed["ProjectionExpression"] = parse_projection(params["ProjectionExpression"])
    used_placeholders(params, list(parsed.values()))
    return parsed


def scope_of(params: dict[str, Any]) -> Scope:
    return Scope(params.get("ExpressionAttributeNames"), params.get("ExpressionAttributeValues"))


def condition_holds(params: dict[str, Any], parsed: dict[str, Parsed], item: dict[str, Any] | None) -> bool:
    condition = parsed.get("ConditionExpression")
    return condition is None or holds(condition.tree, item, scope_of(params))


def projection_of(params: dict[str, Any], parsed: dict[str, Parsed], item: dict[str, Any]) -> dict[str, Any]:
    projection = parsed.get("ProjectionExpression")
    if projection is None:
        return item
    scope = scope_of(params)
    return projected(item, [scope.resolved(path) for path in projection.tree])


def new_item(params: dict[str, Any]) -> dict[str, Any]:
    return {name: stored(value) for name, value in params["Item"].items()}


def checked_size(item: dict[str, Any], message: str = "Item size has exceeded the maximum allowed size") -> None:
    if item_size(item) > ITEM_LIMIT:
        raise _invalid(message)


def remembered_token(engine: MemoryEngine, token: str | None, request: Any) -> bool:
    """Whether this transaction's token was seen with the same request (DynamoDB then answers
    success and writes nothing again); a token seen with another request is refused."""
    if not token:
        return False
    now = time.monotonic()
    fingerprint = json.dumps(request, sort_keys=True)
    seen = engine.tokens.get(token)
    if seen is not None and now - seen[1] < TOKEN_SECONDS:
        if seen[0] != fingerprint:
            raise DynamoDBError("IdempotentParameterMismatchException",
                                "Transaction with the same ClientRequestToken but different parameters was received")
        return True
    engine.tokens[token] = (fingerprint, now)
    return False


def segment_of(key: ItemKey, total: int) -> int:
    return zlib.crc32(json.dumps(key[0]).encode("utf-8")) % total


def read_key(item: dict[str, Any], names: tuple[str, ...]) -> dict[str, Any]:
    return {name: item[name] for name in names}


class MemoryDynamoDB(DirectDynamoDB):
    """DirectDynamoDB whose item calls are answered by `ENGINE` instead of moto's handler."""

    def _handled(self, operation_model: Any, request_dict: dict[str, Any],
                 binary: bool) -> tuple[int, dict[str, str], Any]:
        params = json.loads(request_dict["body"])
        headers = {"x-amzn-requestid": uuid.uuid4().hex, "content-type": "application/x-amz-json-1.0",
                   "server": "amazon.com"}
        try:
            answer = ENGINE.answer(operation_model.name, params, self._delegate.describe_table)
        except DynamoDBError as error:
            body = {"__type": _ERROR_PREFIX + error.error_type, "message": error.message, **error.fields}
            return 400, headers, json.dumps(body)
        return 200, headers, json.dumps(answer)

    def delete_table(self, **params: Any) -> Any:
        answer = self._delegate.delete_table(**params)
        forget_table(params["TableName"])
        return answer

