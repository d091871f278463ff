"""The only module that talks to DynamoDB (with transaction.py and listing.py beside it)."""
from __future__ import annotations

import random
import time
import uuid
from contextlib import contextmanager
from dataclasses import dataclass, field
from decimal import Decimal
from functools import lru_cache, wraps
from typing import Any, Callable, Iterable, Iterator, Mapping, ParamSpec, TypeVar

import boto3
from boto3.dynamodb.types import TypeDeserializer, TypeSerializer
from botocore.config import Config
from botocore.exceptions import ClientError

from chalicelib.domain.records import as_declared
from chalicelib.errors import DocumentTooLarge, ServiceUnavailable, ValidationFailed
from chalicelib.settings import get_settings
from chalicelib.store import keys
from chalicelib.store.keys import Key

# DynamoDB's throttling: as an error code of a single call (after the SDK's own retries) and as
# a transaction's cancellation reason
THROTTLING_CODES = frozenset({"ProvisionedThroughputExceededException", "ThrottlingException",
                              "RequestLimitExceeded"})
THROTTLING_REASONS = frozenset({"ThrottlingError", "ProvisionedThroughputExceeded"})
CONFLICT_ATTEMPTS = 5
LEASE_SECONDS = 10
LEASE_FIRST_PAUSE_S = 0.01
LEASE_LAST_PAUSE_S = 0.05
_LEASE_BUSY = ("ConditionalCheckFailedException", "TransactionConflictException")

_serializer = TypeSerializer()
_deserializer = TypeDeserializer()


# DynamoDB's largest item (names and values together)
MAX_ITEM_BYTES = 400 * 1024


def item_bytes(item: dict[str, Any]) -> int:
    """An item's size as DynamoDB counts it, rounded up (a number counted at its largest, 21
    bytes): checked before a write that must not fail half-way on an item too large."""
    return sum(len(name.encode("utf-8")) + _value_bytes(value) for name, value in item.items() if value is not None)


def _value_bytes(value: Any) -> int:
    if isinstance(value, str):
        return len(value.encode("utf-8"))
    if isinstance(value, (bytes, bytearray)):
        return len(value)
    if isinstance(value, bool) or value is None:
        return 1
    if isinstance(value, (int, float, Decimal)):
        return 21
    if isinstance(value, dict):
        return 3 + sum(1 + len(str(name).encode("utf-8")) + _value_bytes(inner) for name, inner in value.items())
    return 3 + sum(1 + _value_bytes(inner) for inner in value)


def to_attributes(item: Mapping[str, Any]) -> dict[str, Any]:
    return {name: _serializer.serialize(value) for name, value in item.items() if value is not None}


def from_attributes(attributes: dict[str, Any]) -> dict[str, Any]:
    """An item as the services read it: DynamoDB answers every number as Decimal, trimmed (115.00
    comes back 115); an attribute that holds an integer by definition (an id, a version:
    domain/records.py) comes back as int, an amount at its places (115.00)."""
    return {name: _typed(name, _deserializer.deserialize(value)) for name, value in attributes.items()}


def _typed(name: str, value: Any) -> Any:
    # By name at every depth, so a line's `productId` is an int too; a map kept from another system
    # (an authority's or a gateway's answer) gets the same reading, which JSON writes identically.
    if isinstance(value, Decimal):
        return as_declared(name, value)
    if isinstance(value, dict):
        return {key: _typed(key, item) for key, item in value.items()}
    if isinstance(value, list):
        return [_typed(name, item) for item in value]
    return value


def to_values(values: dict[str, Any]) -> dict[str, Any]:
    return {name: _serializer.serialize(value) for name, value in values.items()}


def back_off(attempt: int, first_s: float, cap_s: float) -> None:
    """Sleeps a random time up to first_s * 2**attempt, at most cap_s (full jitter): racing
    writers spread out instead of colliding again together."""
    time.sleep(random.uniform(0, min(cap_s, first_s * (2 ** attempt))))


def throttled() -> ServiceUnavailable:
    return ServiceUnavailable("The database is throttling this company's requests; retry in a moment.",
                              code="SERVICE_UNAVAILABLE", headers={"Retry-After": "1"})


def too_large() -> DocumentTooLarge:
    return DocumentTooLarge("A record would exceed DynamoDB's 400 KB item size; shorten it or split it.")


def translate_call_error(error: ClientError) -> Exception:
    """A failed call's error as the API answers it: throttling is 503 with Retry-After, an item
    past 400 KB is 400 DOCUMENT_TOO_LARGE; anything else stays what it is (a bug: 500)."""
    details = error.response.get("Error", {})
    if details.get("Code") in THROTTLING_CODES:
        return throttled()
    if details.get("Code") == "ValidationException" and "size" in str(details.get("Message", "")).lower():
        return too_large()
    unknown: Exception = error
    return unknown


def _refused_start(error: ClientError) -> ValidationFailed | None:
    """A start key DynamoDB refuses ("The provided starting key is invalid", "... outside query
    boundaries", "Exclusive Start Key must have same size ...") came from a client's cursor: a
    bad cursor (400), whatever form the forgery took that the listing's own checks let through."""
    details = error.response.get("Error", {})
    if details.get("Code") == "ValidationException" and "start" in str(details.get("Message", "")).lower():
        return invalid_cursor()
    return None


def invalid_cursor() -> ValidationFailed:
    return ValidationFailed.for_field("cursor", "invalid or expired cursor")


_Parameters = ParamSpec("_Parameters")
_Answer = TypeVar("_Answer")


def _answered(call: Callable[_Parameters, _Answer]) -> Callable[_Parameters, _Answer]:
    """A single call to DynamoDB: its errors translated; a write that met a transaction in flight
    on its item (TransactionConflictException, which the SDK does not retry) is sent again."""
    @wraps(call)
    def answered(*args: _Parameters.args, **kwargs: _Parameters.kwargs) -> _Answer:
        for attempt in range(CONFLICT_ATTEMPTS):
            try:
                return call(*args, **kwargs)
            except ClientError as error:
                code = error.response.get("Error", {}).get("Code")
                if code == "TransactionConflictException" and attempt < CONFLICT_ATTEMPTS - 1:
                    back_off(attempt, 0.005, 0.08)
                    continue
                translated = translate_call_error(error)
                if translated is error:
                    raise
                raise translated from error
        raise AssertionError("unreachable")
    return answered


def _projection(fields: Iterable[str]) -> dict[str, Any]:
    """ProjectionExpression and its names for `fields` and the item's keys, every name a
    placeholder (reserved words such as `status` and `date` are fields here)."""
    names: dict[str, str] = {}
    paths = []
    for wanted in ("PK", "SK", *fields):
        placeholders = []
        for part in wanted.split("."):
            token = f"#f{len(names)}" if part not in names.values() else next(
                token for token, name in names.items() if name == part)
            names[token] = part
            placeholders.append(token)
        paths.append(".".join(placeholders))
    return {"ProjectionExpression": ", ".join(dict.fromkeys(paths)), "ExpressionAttributeNames": names}


class Table:
    def __init__(self, client: Any, name: str) -> None:
        self.client = client
        self.name = name

    @_answered
    def get(self, key: Key, *, consistent: bool = True) -> dict[str, Any] | None:
        response = self.client.get_item(TableName=self.name, Key=to_attributes(key),
                                        ConsistentRead=consistent)
        item = response.get("Item")
        return from_attributes(item) if item else None

    @_answered
    def batch_get(self, keys: Iterable[Key], *,
                  fields: Iterable[str] | None = None) -> dict[tuple[str, str], dict[str, Any]]:
        """Reads items by key, 100 a round trip (BatchGetItem's limit; plus retries of
        unprocessed keys). `fields` (attribute names, a dotted path for a map's member) answers
        only those of each item, with its keys: what a caller needs of large items (a document's
        lines and DTE stay behind)."""
        wanted = [to_attributes(key) for key in keys]
        found: dict[tuple[str, str], dict[str, Any]] = {}
        projection = _projection(fields) if fields is not None else {}
        for start in range(0, len(wanted), 100):
            self._batch_get(wanted[start:start + 100], found, projection)
        return found

    def _batch_get(self, pending: list[dict[str, Any]], found: dict[tuple[str, str], dict[str, Any]],
                   projection: dict[str, Any]) -> None:
        while pending:
            request = {self.name: {"Keys": pending, "ConsistentRead": True, **projection}}
            response = self.client.batch_get_item(RequestItems=request)
            for raw in response.get("Responses", {}).get(self.name, []):
                item = from_attributes(raw)
                found[(item["PK"], item["SK"])] = item
            pending = response.get("UnprocessedKeys", {}).get(self.name, {}).get("Keys", [])

    @_answered
    def query(self, *, partition: tuple[str, str], index: str | None = None,
              sort_prefix: tuple[str, str] | None = None,
              sort_range: tuple[str, str | None, str | None] | None = None,
              filters: dict[str, Any] | None = None, limit: int | None = None,
              start_key: dict[str, Any] | None = None, forward: bool = True,
              consistent: bool = False) -> tuple[list[dict[str, Any]], dict[str, Any] | None]:
        """One Query call. `sort_range` is (attribute, low, high), either bound may be None;
        `filters` are attribute equalities applied after the key condition. Returns (items,
        last evaluated key in plain values)."""
        names = {"#p": partition[0]}
        values: dict[str, Any] = {":p": partition[1]}
        condition = "#p = :p"
        if sort_prefix:
            names["#s"] = sort_prefix[0]
            values[":s"] = sort_prefix[1]
            condition += " AND begins_with(#s, :s)"
        elif sort_range:
            attribute, low, high = sort_range
            names["#s"] = attribute
            if low is not None and high is not None:
                values[":lo"], values[":hi"] = low, high
                condition += " AND #s BETWEEN :lo AND :hi"
            elif low is not None:
                values[":lo"] = low
                condition += " AND #s >= :lo"
            elif high is not None:
                values[":hi"] = high
                condition += " AND #s <= :hi"
            else:
                del names["#s"]
        params: dict[str, Any] = {
            "TableName": self.name, "KeyConditionExpression": condition,
            "ExpressionAttributeNames": names, "ScanIndexForward": forward,
        }
        if filters:
            clauses = []
            for position, (attribute, value) in enumerate(filters.items()):
                names[f"#f{position}"] = attribute
                values[f":f{position}"] = value
                clauses.append(f"#f{position} = :f{position}")
            params["FilterExpression"] = " AND ".join(clauses)
        params["ExpressionAttributeValues"] = to_values(values)
        if index:
            params["IndexName"] = index
        elif consistent:
            params["ConsistentRead"] = True
        if limit:
            params["Limit"] = limit
        if start_key:
            params["ExclusiveStartKey"] = to_attributes(start_key)
        try:
            response = self.client.query(**params)
        except ClientError as error:
            refused = _refused_start(error) if start_key else None
            if refused is None:
                raise
            raise refused from error
        items = [from_attributes(raw) for raw in response.get("Items", [])]
        last = response.get("LastEvaluatedKey")
        return items, (from_attributes(last) if last else None)

    def query_all(self, **criteria: Any) -> list[dict[str, Any]]:
        """Every item a Query matches, following its pages (for small bounded partitions)."""
        items, start = self.query(**criteria)
        while start is not None:
            more, start = self.query(**criteria, start_key=start)
            items.extend(more)
        return items

    @_answered
    def add(self, key: Key, attribute: str, amount: int = 1,
            expires_at: int | None = None) -> int:
        """Atomic counter in one round trip; returns the new value."""
        update = "ADD #a :n"
        names = {"#a": attribute}
        values: dict[str, Any] = {":n": amount}
        if expires_at is not None:
            update += " SET #e = if_not_exists(#e, :e)"
            names["#e"] = "expiresAt"
            values[":e"] = expires_at
        response = self.client.update_item(
            TableName=self.name, Key=to_attributes(key), UpdateExpression=update,
            ExpressionAttributeNames=names, ExpressionAttributeValues=to_values(values),
            ReturnValues="UPDATED_NEW")
        return int(from_attributes(response["Attributes"])[attribute])

    @_answered
    def update_if(self, key: Key, update: str, *, condition: str, names: dict[str, str] | None = None,
                  values: dict[str, Any] | None = None) -> bool:
        """One conditional update in one round trip, outside any transaction: False (nothing
        written) when its condition does not hold."""
        params: dict[str, Any] = {"TableName": self.name, "Key": to_attributes(key), "UpdateExpression": update,
                                  "ConditionExpression": condition}
        if names:
            params["ExpressionAttributeNames"] = names
        if values:
            params["ExpressionAttributeValues"] = to_values(values)
        try:
            self.client.update_item(**params)
        except ClientError as error:
            if error.response.get("Error", {}).get("Code") == "ConditionalCheckFailedException":
                return False
            raise
        return True

    @_answered
    def remove(self, key: Key) -> None:
        """Deletes one item outside any transaction (a counter reset)."""
        self.client.delete_item(TableName=self.name, Key=to_attributes(key))

    def next_id(self, key: Key) -> int:
        return self.add(key, "value")

    def next_ids(self, key: Key, count: int) -> range:
        """`count` fresh ids of a sequence in one ADD (an import's lines): ids a write that never
        commits leaves unused are skipped, as a create that fails leaves its id."""
        if count <= 0:
            return range(0)
        last = self.add(key, "value", count)
        return range(last - count + 1, last + 1)

    @contextmanager
    def lease(self, of: Key, wait_s: float) -> Iterator["Lease | None"]:
        """Holds a lease on an item (a counter every writer of a series needs) while the block
        runs, waiting up to `wait_s` for it: yields the lease, or None when it was not taken in
        time. A holder that died leaves it to expire after LEASE_SECONDS. The lease only spares
        work; exactness stays with the conditions of the writes made under it."""
        lease = Lease(keys.lease(of), uuid.uuid4().hex)
        deadline, pause = time.monotonic() + wait_s, LEASE_FIRST_PAUSE_S
        while True:
            now_ms = int(time.time() * 1000)
            try:
                taken = self.client.update_item(
                    TableName=self.name, Key=to_attributes(lease.key),
                    UpdateExpression="SET holder = :me, expiresAtMs = :until",
                    # our own lease: an SDK retry of a take whose answer was lost
                    ConditionExpression="attribute_not_exists(holder) OR expiresAtMs < :now OR holder = :me",
                    ExpressionAttributeValues=to_values({":me": lease.holder, ":now": now_ms,
                                                         ":until": now_ms + LEASE_SECONDS * 1000}),
                    ReturnValues="ALL_NEW")
                lease.left = from_attributes(taken["Attributes"])
                break
            except ClientError as error:
                if error.response.get("Error", {}).get("Code") not in _LEASE_BUSY:
                    translated = translate_call_error(error)
                    if translated is error:
                        raise
                    raise translated from error
                if time.monotonic() > deadline:
                    yield None
                    return
                time.sleep(random.uniform(pause / 2, pause))
                pause = min(pause * 1.5, LEASE_LAST_PAUSE_S)
        try:
            yield lease
        finally:
            if not lease.released:
                try:
                    self.client.update_item(
                        TableName=self.name, Key=to_attributes(lease.key), UpdateExpression="REMOVE holder, expiresAtMs",
                        ConditionExpression="holder = :me", ExpressionAttributeValues=to_values({":me": lease.holder}))
                except ClientError:
                    pass  # expired and taken by another, or unreachable: it expires by itself


@dataclass
class Lease:
    """A lease held (Table.lease). `left` is what the previous holder left on it (a counter's
    next value, so that the next holder need not read the counter). A holder that gives it back
    in its own transaction (Transaction.commit) sets `released` once that committed."""
    key: Key
    holder: str
    left: dict[str, Any] = field(default_factory=dict)
    released: bool = False


# Where the emulator runs in this process (the tests, the local stack), what stands in for a service's
# client, made from the real one (infra/devstack/direct_dynamodb.py); nothing deployed sets it.
_in_process: dict[str, Callable[[Any], Any]] = {}


def serve_in_process(service: str, client_for: Callable[[Any], Any] | None) -> None:
    """From now on `make_client(service)` answers `client_for(the botocore client)`; None: the client."""
    if client_for is None:
        _in_process.pop(service, None)
    else:
        _in_process[service] = client_for


def make_client(service: str) -> Any:
    settings = get_settings()
    client = boto3.client(service, region_name=settings.region, endpoint_url=settings.aws_endpoint_url,
                          config=Config(retries={"max_attempts": 4, "mode": "standard"},
                                        connect_timeout=3, read_timeout=10))
    client_for = _in_process.get(service)
    return client if client_for is None else client_for(client)


@lru_cache(maxsize=1)
def get_table() -> Table:
    return Table(make_client("dynamodb"), get_settings().table_name)


def reset_table() -> None:
    get_table.cache_clear()
