"""DynamoDB as it behaves under concurrency, on top of moto, for the tests, the local stack and
the benchmarks.

moto is not thread-safe, and the first answer was one lock around every call: then no two
transactions are ever in flight together, an index is updated in the same instant as its table
and nothing is ever throttled, so the suite could not see what production does. This layer
keeps moto's data structures behind a lock held only while moto itself runs (microseconds), and
plays what DynamoDB documents around it:

- A TransactWriteItems holds its items while it is in flight (`transaction_hold_s`, and at least
  `racing_hold_s` whenever another DynamoDB call is running, so that a race in a test is a race
  while a lone test pays nothing). Another transaction touching one of them meanwhile is
  cancelled with TransactionCanceledException, reason `TransactionConflict` on that item and
  `None` on the others; a PutItem, UpdateItem, DeleteItem or BatchWriteItem on one of them fails
  with TransactionConflictException; a TransactGetItems with TransactionCanceledException.
  Plain reads are not blocked: they see the last committed state (DynamoDB's read-committed).
- Index reads lag (infra/devstack/faithful_index_lag.py): with `index_lag_s` > 0 each written item becomes visible to Query and Scan
  on a global secondary index after its own random delay up to that lag (in order, per item), so
  an index read can show part of a transaction. Base-table reads are exact.
- Faults can be injected per operation: throttling (ThrottlingException, or for a transaction
  TransactionCanceledException with `ThrottlingError` reasons) and conflicts.
- Items over 400 KB: moto refuses them with a ValidationException; inside a transaction the
  refusal becomes a cancellation with a `ValidationError` reason, as DynamoDB answers it.
- Values as DynamoDB keeps them: numbers trimmed, maps in no order (infra/devstack/faithful_values.py).
- `call_latency_s` adds network and service time to every call, outside the lock: half before
  and half after, except a TransactWriteItems, which holds its items in flight for the middle
  half of it. The contention benchmark's simulated 10 ms.

Requests of the other emulated services (SQS, SES, streams, EventBridge) are rare and brief:
they run whole under the same lock (`serialize_other_services`).
"""
from __future__ import annotations

import copy
import json
import random
import threading
import time
from contextlib import contextmanager
from dataclasses import dataclass, field, fields
from typing import Any, Callable, Iterator

from infra.devstack import faithful_values
from infra.devstack.faithful_index_lag import IndexLag
from infra.devstack.faithful_index_lag import identity as item_identity

emulator_lock = threading.RLock()

CONFLICT_MESSAGE = "Transaction is ongoing for the item"
THROTTLE_MESSAGE = ("Throughput exceeds the current capacity of your table or index. DynamoDB is automatically "
                    "scaling your table or index so please try again shortly.")
ITEM_TOO_LARGE = 400 * 1024


@dataclass
class Behaviour:
    call_latency_s: float = 0.0
    transaction_hold_s: float = 0.0
    racing_hold_s: float = 0.002
    index_lag_s: float = 0.0


@dataclass
class Fault:
    operation: str          # e.g. "TransactWriteItems", "UpdateItem", "*"
    error: str              # "throttle", "conflict" or "too_large"
    remaining: int


@dataclass
class _State:
    behaviour: Behaviour = field(default_factory=Behaviour)
    faults: list[Fault] = field(default_factory=list)
    in_flight: dict[tuple[str, str], int] = field(default_factory=dict)
    active_calls: int = 0
    lag: IndexLag = field(default_factory=IndexLag)
    conflicts: int = 0
    next_token: int = 0
    # set to end every hold at once (tests that keep a transaction in flight while they look)
    release: threading.Event = field(default_factory=threading.Event)


_state = _State()
_installed = False


def configure(**changes: Any) -> Behaviour:
    """Changes the behaviour (any field of Behaviour); returns the previous one."""
    previous = copy.copy(_state.behaviour)
    names = {f.name for f in fields(Behaviour)}
    for name, value in changes.items():
        if name not in names:
            raise TypeError(f"unknown behaviour {name!r}")
        setattr(_state.behaviour, name, value)
    return previous


def reset() -> None:
    with emulator_lock:
        _state.release.set()  # ends the holds of transactions still in flight from before
        _state.in_flight.clear()
        _state.behaviour = Behaviour()
        _state.faults.clear()
        _state.lag = IndexLag()
        _state.conflicts = 0
        _state.release = threading.Event()


def release_holds() -> None:
    """Ends the hold of every transaction in flight now (and of any started before reset())."""
    _state.release.set()


def control_time(*, seed: int, clock: Callable[[], float]) -> None:
    """For tests of the lag: the index delays drawn from `seed`, time read from `clock`."""
    _state.lag.rng, _state.lag.clock = random.Random(seed), clock


def inject(operation: str, error: str, times: int = 1) -> None:
    """The next `times` calls of `operation` ("*" for any) fail with `error`: "throttle",
    "conflict" or, for TransactWriteItems, "too_large" (an item grown past 400 KB)."""
    if error not in ("throttle", "conflict", "too_large"):
        raise ValueError(error)
    with emulator_lock:
        _state.faults.append(Fault(operation, error, times))


def conflicts_seen() -> int:
    """How many calls were refused for a transaction in flight since the last reset."""
    return _state.conflicts


@contextmanager
def behaving(**changes: Any) -> Iterator[Behaviour]:
    previous = configure(**changes)
    try:
        yield _state.behaviour
    finally:
        _state.behaviour = previous
        with emulator_lock:
            _state.lag.pending.clear()


# --- errors as DynamoDB answers them --------------------------------------------------------------

def _cancelled(reasons: list[tuple[str | None, str | None]]) -> Exception:
    from moto.dynamodb.exceptions import TransactionCanceledException

    return TransactionCanceledException([(code, message, None) for code, message in reasons])


def _single_error(error_type: str, message: str) -> Exception:
    from moto.dynamodb.exceptions import DynamodbException

    return DynamodbException(f"com.amazonaws.dynamodb.v20120810#{error_type}", message)


def _take_fault(operation: str) -> Fault | None:
    with emulator_lock:
        for fault in _state.faults:
            if fault.remaining > 0 and fault.operation in (operation, "*"):
                fault.remaining -= 1
                if fault.remaining == 0:
                    _state.faults.remove(fault)
                return fault
    return None


def _fault_error(fault: Fault, operation: str, items: list[dict[str, Any]]) -> Exception:
    if fault.error == "too_large":
        if operation == "TransactWriteItems":
            return _cancelled(_too_large_reasons(items))
        return _single_error("ValidationException", "Item size has exceeded the maximum allowed size")
    if operation in ("TransactWriteItems", "TransactGetItems"):
        count = len(items)
        code, message = (("ThrottlingError", THROTTLE_MESSAGE) if fault.error == "throttle"
                         else ("TransactionConflict", CONFLICT_MESSAGE))
        return _cancelled([(code, message)] * max(count, 1))
    if fault.error == "throttle":
        return _single_error("ThrottlingException", THROTTLE_MESSAGE)
    return _single_error("TransactionConflictException", CONFLICT_MESSAGE)


# --- items ----------------------------------------------------------------------------------------

def _key_of(backend: Any, table_name: str, attributes: dict[str, Any]) -> dict[str, Any]:
    table = backend.get_table(table_name)
    key = {table.hash_key_attr: attributes[table.hash_key_attr]}
    if table.range_key_attr is not None:
        key[table.range_key_attr] = attributes[table.range_key_attr]
    return key


def _transaction_targets(backend: Any, items: list[dict[str, Any]]) -> list[tuple[str, dict[str, Any]]]:
    targets = []
    for request in items:
        operation, body = next(iter(request.items()))
        key = _key_of(backend, body["TableName"], body["Item"]) if operation == "Put" else body["Key"]
        targets.append((body["TableName"], key))
    return targets


# --- the handler's operations ---------------------------------------------------------------------

def _travel(operation: str) -> None:
    """Half of a call's latency before it reaches the service, half after; a transaction spends
    the middle half of its call in flight at the service (`_transact_write`)."""
    latency = _state.behaviour.call_latency_s
    if latency > 0:
        time.sleep(latency / (4 if operation == "TransactWriteItems" else 2))


@contextmanager
def _counted() -> Iterator[None]:
    with emulator_lock:
        _state.active_calls += 1
    try:
        yield
    finally:
        with emulator_lock:
            _state.active_calls -= 1


def _conflict_check(identities: list[tuple[str, str]]) -> None:
    if any(identity in _state.in_flight for identity in identities):
        _state.conflicts += 1
        raise _single_error("TransactionConflictException", CONFLICT_MESSAGE)


def _transact_write(handler: Any, original: Callable[[Any], Any]) -> Any:
    backend = handler.dynamodb_backend
    items = handler.body.get("TransactItems") or []
    with emulator_lock:
        targets = _transaction_targets(backend, items)
        identities = [item_identity(name, key) for name, key in targets]
        if any(identity in _state.in_flight for identity in identities):
            _state.conflicts += 1
            raise _cancelled([("TransactionConflict", CONFLICT_MESSAGE) if identity in _state.in_flight
                              else (None, None) for identity in identities])
        hold = max(_state.behaviour.transaction_hold_s, _state.behaviour.call_latency_s / 2)
        if _state.active_calls > 1:
            hold = max(hold, _state.behaviour.racing_hold_s)
        release = _state.release
        _state.next_token += 1
        token = _state.next_token
        for identity in identities:
            _state.in_flight[identity] = token
    try:
        if hold > 0:
            release.wait(hold)
        else:
            time.sleep(0)  # lets a racing thread in, as a real call would
        with emulator_lock:
            _state.lag.remember_before(backend, targets, _state.behaviour.index_lag_s)
            try:
                return original(handler)
            except Exception as error:
                if "size" in str(getattr(error, "message", "")).lower() and "exceeded" in str(
                        getattr(error, "message", "")).lower():
                    raise _cancelled(_too_large_reasons(items)) from error
                raise
    finally:
        with emulator_lock:
            for identity in identities:
                if _state.in_flight.get(identity) == token:
                    del _state.in_flight[identity]


def _too_large_reasons(items: list[dict[str, Any]]) -> list[tuple[str | None, str | None]]:
    """The ValidationError on the operation that grew past 400 KB: a Put whose item is that large,
    else (an update adding to an item: moto does not say which) the first update."""
    sizes = [len(json.dumps(body.get("Item", {}))) if operation == "Put" else 0
             for request in items for operation, body in request.items()]
    position = next((i for i, size in enumerate(sizes) if size > ITEM_TOO_LARGE), None)
    if position is None:
        position = next((i for i, request in enumerate(items) if "Update" in request), 0)
    return [("ValidationError", "Item size has exceeded the maximum allowed size") if i == position
            else (None, None) for i in range(len(items))]


def _single_write(handler: Any, original: Callable[[Any], Any]) -> Any:
    backend, body = handler.dynamodb_backend, handler.body
    with emulator_lock:
        name = body["TableName"]
        key = _key_of(backend, name, body["Item"]) if "Item" in body else body["Key"]
        _conflict_check([item_identity(name, key)])
        _state.lag.remember_before(backend, [(name, key)], _state.behaviour.index_lag_s)
        return original(handler)


def _batch_write(handler: Any, original: Callable[[Any], Any]) -> Any:
    backend = handler.dynamodb_backend
    with emulator_lock:
        targets = []
        for name, requests in (handler.body.get("RequestItems") or {}).items():
            for request in requests:
                if "PutRequest" in request:
                    targets.append((name, _key_of(backend, name, request["PutRequest"]["Item"])))
                else:
                    targets.append((name, request["DeleteRequest"]["Key"]))
        _conflict_check([item_identity(name, key) for name, key in targets])
        _state.lag.remember_before(backend, targets, _state.behaviour.index_lag_s)
        return original(handler)


def _transact_get(handler: Any, original: Callable[[Any], Any]) -> Any:
    with emulator_lock:
        identities = [item_identity(get["Get"]["TableName"], get["Get"]["Key"])
                      for get in handler.body.get("TransactItems") or []]
        if any(identity in _state.in_flight for identity in identities):
            _state.conflicts += 1
            raise _cancelled([("TransactionConflict", CONFLICT_MESSAGE) if identity in _state.in_flight
                              else (None, None) for identity in identities])
        return original(handler)


def _read(handler: Any, original: Callable[[Any], Any]) -> Any:
    with emulator_lock:
        if handler.body.get("IndexName") and _state.lag.pending:
            with _state.lag.lagging(handler.dynamodb_backend, handler.body["TableName"]):
                return original(handler)
        return original(handler)


def _locked(handler: Any, original: Callable[[Any], Any]) -> Any:
    with emulator_lock:
        return original(handler)


_OPERATIONS: dict[str, tuple[str, Callable[[Any, Callable[[Any], Any]], Any]]] = {
    "transact_write_items": ("TransactWriteItems", _transact_write),
    "put_item": ("PutItem", _single_write),
    "update_item": ("UpdateItem", _single_write),
    "delete_item": ("DeleteItem", _single_write),
    "batch_write_item": ("BatchWriteItem", _batch_write),
    "transact_get_items": ("TransactGetItems", _transact_get),
    "query": ("Query", _read),
    "scan": ("Scan", _read),
    "get_item": ("GetItem", _locked),
    "batch_get_item": ("BatchGetItem", _locked),
}


def install() -> None:
    """Wraps moto's DynamoDB handler. Every other DynamoDB operation (tables, TTL, streams) runs
    whole under the lock."""
    global _installed
    if _installed:
        return
    from moto.dynamodb.responses import DynamoHandler

    faithful_values.install()

    for method_name, (operation, behave) in _OPERATIONS.items():
        setattr(DynamoHandler, method_name, _faithful(getattr(DynamoHandler, method_name), operation, behave))
    call_action = DynamoHandler.call_action

    def call_action_locked_unless_item_operation(self: Any) -> Any:
        from moto.core.utils import camelcase_to_underscores

        if camelcase_to_underscores(self._get_action()) in _OPERATIONS:
            return call_action(self)
        with emulator_lock:
            return call_action(self)

    DynamoHandler.call_action = call_action_locked_unless_item_operation  # type: ignore[method-assign]
    _installed = True


def _faithful(original: Callable[[Any], Any], operation: str,
              behave: Callable[[Any, Callable[[Any], Any]], Any]) -> Callable[[Any], Any]:
    def handle(self: Any) -> Any:
        _travel(operation)
        try:
            with _counted():
                fault = _take_fault(operation)
                if fault is not None:
                    raise _fault_error(fault, operation, self.body.get("TransactItems") or [])
                return behave(self, original)
        finally:
            _travel(operation)

    handle.__name__ = original.__name__
    return handle


def serialize_other_services(process: Callable[..., Any]) -> Callable[..., Any]:
    """Wraps a request processor (moto's botocore stubber in the tests): DynamoDB requests go
    through unserialized (this layer guards them), every other service's whole under the lock."""
    def process_request(self: Any, request: Any) -> Any:
        target = request.headers.get("X-Amz-Target", b"")
        if isinstance(target, bytes):
            target = target.decode()
        if target.startswith("DynamoDB_"):
            return process(self, request)
        with emulator_lock:
            return process(self, request)

    return process_request
