"""One command = one TransactWriteItems. Invariants are ConditionExpressions; each operation
says which API error its failed condition means, so CancellationReasons map to precise 4xx."""
from __future__ import annotations

import time
from collections import Counter
from dataclasses import dataclass, field
from typing import Any, Callable, Mapping, NamedTuple, TypeVar

from botocore.exceptions import ClientError

from chalicelib.errors import ApiError, DocumentTooLarge, ServiceUnavailable
from chalicelib.store.keys import Key
from chalicelib.store.merged_writes import MergedWrites, Operation
from chalicelib.store.renumbering import Renumbering, rewrite, substitute
from chalicelib.store.table import (
    THROTTLING_REASONS,
    Table,
    back_off,
    throttled,
    to_attributes,
    to_values,
    too_large,
    translate_call_error,
)

MAX_ITEMS = 100
_SINGLE_WRITES = {"Put": "put_item", "Update": "update_item", "Delete": "delete_item"}
# Twenty documents racing for the next number of one CAI range each lose up to nineteen times:
# enough attempts, with jittered backoff capped at MAX_BACKOFF_S, for all of them to get one.
COMMAND_ATTEMPTS = 25
MAX_BACKOFF_S = 0.25
# A transaction cancelled only because another one held some of its items (TransactionConflict)
# wrote nothing and its conditions still stand: the same request is sent again, this many times,
# before the whole command is run again.
RESUBMISSIONS = 10
# How long a commit that takes a number waits for the counter's lease before the command runs
# again (store/table.py Table.lease; a lease left by a crashed holder expires sooner)
LEASE_WAIT_S = 5.0
# A counter whose number was taken by another writer within this many seconds is contended: this
# process's next commits on it go straight through its lease (Renumbering)
CONTENDED_S = 10.0
_contended: dict[tuple[str, str], float] = {}
# Shardable items another transaction had in flight within CONTENDED_S: this process's next
# transactions write them to a shard from the first submission, instead of meeting the conflict again
_hot_items: dict[tuple[str, str], float] = {}


def forget_contention() -> None:
    _contended.clear()
    _hot_items.clear()

T = TypeVar("T")


class LostRace(Exception):
    """Another writer got there first (a version, counter or transaction conflict): the whole
    command is loaded and built again."""


class Guard(NamedTuple):
    """A further condition on a versioned update (`update_fields(..., guard=)`), built by a repository
    (store/repositories): what a command checked on the item as read, with its names and values."""
    condition: str
    names: dict[str, str]
    values: dict[str, Any]


@dataclass
class Transaction(MergedWrites):
    table: Table
    operations: list[Operation] = field(default_factory=list)
    renumbering: Renumbering | None = None
    # what retaking the number changed in the request, in order: `rewritten` makes the
    # command's own result say the same
    substitutions: list[dict[str, str]] = field(default_factory=list)
    _failed: int | None = None  # the operation whose condition failed in the last submission
    # each counted item's operation and its counts so far (add_counts)
    _counted: dict[tuple[str, str], tuple[int, Counter[str]]] = field(default_factory=dict)
    # each accumulated item's operation and what it adds and sets so far (accumulate)
    _accumulated: dict[tuple[str, str], tuple[Any, ...]] = field(default_factory=dict)

    def take_number(self, renumbering: Renumbering) -> None:
        """Marks the operation just added as the one that takes a number (see Renumbering)."""
        renumbering.operation = len(self.operations) - 1
        self.renumbering = renumbering

    def _expression(self, kind: str, key_or_item: Mapping[str, Any], *, condition: str | None,
                    names: dict[str, str] | None, values: dict[str, Any] | None,
                    on_fail: ApiError | None, extra: dict[str, Any] | None = None) -> None:
        request: dict[str, Any] = {"TableName": self.table.name, **(extra or {})}
        request["Item" if kind == "Put" else "Key"] = to_attributes(key_or_item)
        if condition:
            request["ConditionExpression"] = condition
        if names:
            request["ExpressionAttributeNames"] = names
        if values:
            request["ExpressionAttributeValues"] = to_values(values)
        self.operations.append(Operation({kind: request}, on_fail))

    def put(self, item: Mapping[str, Any], *, condition: str | None = None,
            names: dict[str, str] | None = None, values: dict[str, Any] | None = None,
            on_fail: ApiError | None = None) -> "Transaction":
        self._expression("Put", item, condition=condition, names=names, values=values, on_fail=on_fail)
        return self

    def put_typed(self, item: dict[str, Any], *, condition: str | None = None,
                  on_fail: ApiError | None = None) -> "Transaction":
        """Puts an item given in DynamoDB's typed form (`{"S": ...}`), as read raw: written back
        exactly (a restored archive's items)."""
        request = {"TableName": self.table.name, "Item": item, **({"ConditionExpression": condition} if condition else {})}
        self.operations.append(Operation({"Put": request}, on_fail))
        return self

    def put_new(self, item: Mapping[str, Any], *, on_fail: ApiError | None = None) -> "Transaction":
        """Creates an item that must not exist yet (a fresh id, a reserved unique value)."""
        return self.put(item, condition="attribute_not_exists(PK)", on_fail=on_fail)

    def update_fields(self, key: Key, changes: dict[str, Any], expected_version: int, *,
                      on_fail: ApiError | None = None, also_require: str | None = None,
                      names: dict[str, str] | None = None,
                      values: dict[str, Any] | None = None, guard: Guard | None = None) -> "Transaction":
        """Sets (or removes, for None) only the changed attributes and bumps `version`, so that
        counters kept on the same item by other commands are never overwritten.
        `also_require` adds a condition (with its `names` and `values`) to the version check with
        AND: parenthesize any OR inside it (DynamoDB refuses redundant parentheses); `guard` gives
        the three at once."""
        if guard is not None:
            if also_require or names or values:
                raise ValueError("a guard brings its own condition, names and values")
            also_require, names, values = guard
        condition = "#version = :expectedVersion"
        if also_require:
            condition += f" AND {also_require}"
        return self.set_fields(key, {**changes, "version": expected_version + 1}, condition=condition,
                               names={"#version": "version", **(names or {})},
                               values={":expectedVersion": expected_version, **(values or {})},
                               on_fail=on_fail)

    def set_fields(self, key: Key, changes: Mapping[str, Any], *, condition: str | None = None,
                   names: dict[str, str] | None = None, values: dict[str, Any] | None = None,
                   on_fail: ApiError | None = None) -> "Transaction":
        """Sets (or removes, for None) exactly these attributes, under `condition`."""
        names, values = {**(names or {})}, {**(values or {})}
        assignments, removals = [], []
        for index, (name, value) in enumerate(changes.items()):
            names[f"#f{index}"] = name
            if value is None:
                removals.append(f"#f{index}")
            else:
                values[f":v{index}"] = value
                assignments.append(f"#f{index} = :v{index}")
        expression = "SET " + ", ".join(assignments) if assignments else ""
        if removals:
            expression += (" " if expression else "") + "REMOVE " + ", ".join(removals)
        return self.update(key, expression, condition=condition, names=names, values=values,
                           on_fail=on_fail)

    def update(self, key: Key, update: str, *, condition: str | None = None,
               names: dict[str, str] | None = None, values: dict[str, Any] | None = None,
               on_fail: ApiError | None = None, shardable: bool = False) -> "Transaction":
        """`shardable`: an update by ADD alone, of an item read as the sum of its shards (keys.shard)."""
        self._expression("Update", key, condition=condition, names=names, values=values,
                         on_fail=on_fail, extra={"UpdateExpression": update})
        if shardable:
            self.operations[-1].shardable_sort_key = key["SK"]
        return self

    def increment(self, key: Key, attribute: str, amount: int = 1,
                  also_set: dict[str, Any] | None = None) -> "Transaction":
        names, values = {"#counter": attribute}, {":amount": amount}
        expression = "ADD #counter :amount"
        if also_set:
            assignments = []
            for index, (name, value) in enumerate(also_set.items()):
                names[f"#s{index}"], values[f":s{index}"] = name, value
                assignments.append(f"#s{index} = :s{index}")
            expression += " SET " + ", ".join(assignments)
        return self.update(key, expression, names=names, values=values)

    def check(self, key: Key, condition: str, *, names: dict[str, str] | None = None,
              values: dict[str, Any] | None = None, on_fail: ApiError | None = None,
              shardable: bool = False) -> "Transaction":
        """`shardable`: an item written alike to every shard (keys.shards)."""
        self._expression("ConditionCheck", key, condition=condition, names=names, values=values,
                         on_fail=on_fail)
        if shardable:
            self.operations[-1].shardable_sort_key = key["SK"]
        return self

    def require(self, key: Key, on_missing: ApiError) -> "Transaction":
        return self.check(key, "attribute_exists(PK)", on_fail=on_missing)

    def delete(self, key: Key, *, condition: str | None = None, names: dict[str, str] | None = None,
               values: dict[str, Any] | None = None, on_fail: ApiError | None = None) -> "Transaction":
        self._expression("Delete", key, condition=condition, names=names, values=values, on_fail=on_fail)
        return self

    def commit(self) -> None:
        if not self.operations:
            return
        if len(self.operations) > MAX_ITEMS:
            raise DocumentTooLarge()
        if self.renumbering is None:
            self._submit()
            return
        counter = (self.renumbering.counter["PK"], self.renumbering.counter["SK"])
        if time.monotonic() - _contended.get(counter, -CONTENDED_S) > CONTENDED_S:
            try:
                self._submit(counter_contended=True)  # alone at the counter, as most of the time: no lease
                return
            except LostRace:
                if self._failed != self.renumbering.operation:
                    raise
                _contended[counter] = time.monotonic()
        self._commit_numbered(self.renumbering)

    def _commit_numbered(self, renumbering: Renumbering) -> None:
        """Under the counter's lease: the number the last holder left (else the counter read),
        and the lease given back in the same transaction with the next number left on it (or,
        when the transaction has no room for one more item, right after it). A number left wrong
        (the counter changed otherwise) is read again once."""
        _contended[(renumbering.counter["PK"], renumbering.counter["SK"])] = time.monotonic()
        with self.table.lease(renumbering.counter, LEASE_WAIT_S) as lease:
            if lease is None:
                raise LostRace()
            left = lease.left.get("nextNumber")
            self._retake_number(int(left) if left is not None else None)
            give_back = None
            if len(self.operations) < MAX_ITEMS:
                self.update(lease.key, "SET nextNumber = :next REMOVE holder, expiresAtMs", condition="holder = :me",
                            values={":next": renumbering.number + 1, ":me": lease.holder})
                give_back = next(iter(self.operations[-1].request.values()))
            for read_again in (False, True):
                try:
                    self._submit()
                    lease.released = give_back is not None
                    return
                except LostRace:
                    if read_again or self._failed != renumbering.operation:
                        raise
                    self._retake_number(None)
                    if give_back is not None:
                        give_back["ExpressionAttributeValues"].update(to_values({":next": renumbering.number + 1}))

    def _submit(self, counter_contended: bool = False) -> None:
        """`counter_contended`: a conflict on the number's counter is not resubmitted but answered
        as the counter taken (the commit then waits for the counter's lease)."""
        self._failed = None
        now = time.monotonic()
        for operation in self.operations:
            if operation.shardable_sort_key is not None and now - _hot_items.get(
                    operation.home(), -CONTENDED_S) <= CONTENDED_S:
                operation.spread()
        send = self._send_single if self._single() else self._send_transaction
        for attempt in range(RESUBMISSIONS + 1):
            try:
                send()
                return
            except ClientError as error:
                if counter_contended and self._counter_in_flight(error):
                    assert self.renumbering is not None
                    self._failed = self.renumbering.operation
                    raise LostRace() from error
                if attempt < RESUBMISSIONS and self._resubmittable(error):
                    self._spread(error)
                    back_off(attempt, 0.005, MAX_BACKOFF_S)
                    continue
                raise self._translate(error) from error

    def _spread(self, error: ClientError) -> None:
        """The hot items another transaction had in flight go to shards of their own for the
        resubmission: the next writers of one company do not queue behind one item."""
        reasons = error.response.get("CancellationReasons") or [{"Code": "TransactionConflict"}]  # one write alone
        for operation, reason in zip(self.operations, reasons, strict=False):
            if reason.get("Code") == "TransactionConflict" and operation.shardable_sort_key is not None:
                _hot_items[operation.home()] = time.monotonic()
                operation.spread()

    def _single(self) -> bool:
        """One write alone is sent as that write: as atomic and as conditional, at half the write
        units of a one-item TransactWriteItems (the webhook records, a setting, a counter)."""
        return len(self.operations) == 1 and next(iter(self.operations[0].request)) in _SINGLE_WRITES

    def _send_transaction(self) -> None:
        self.table.client.transact_write_items(TransactItems=[operation.request for operation in self.operations])

    def _send_single(self) -> None:
        (kind, request), = self.operations[0].request.items()
        getattr(self.table.client, _SINGLE_WRITES[kind])(**request)

    def _retake_number(self, left: int | None) -> None:
        assert self.renumbering is not None
        retaken = self.renumbering.retake(self.table, left)
        if retaken is None:
            raise LostRace()
        substitutions, counter_values = retaken
        if not substitutions:
            return
        self.substitutions.append(substitutions)
        for operation in self.operations:
            substitute(next(iter(operation.request.values())), substitutions)
        counter = next(iter(self.operations[self.renumbering.operation].request.values()))
        counter["ExpressionAttributeValues"].update(to_values(counter_values))

    def rewritten(self, result: T) -> T:
        """The command's result with the number it finally took (see Renumbering)."""
        for substitutions in self.substitutions:
            result = rewrite(result, substitutions)
        return result

    def _counter_in_flight(self, error: ClientError) -> bool:
        reasons = error.response.get("CancellationReasons") or []
        index = self.renumbering.operation if self.renumbering is not None else -1
        return 0 <= index < len(reasons) and reasons[index].get("Code") == "TransactionConflict"

    def _resubmittable(self, error: ClientError) -> bool:
        """Cancelled only for items another transaction had in flight: nothing was written and
        every condition still stands, so the same request is sent again."""
        code = error.response.get("Error", {}).get("Code")
        if code == "TransactionConflictException":  # the one write alone met a transaction in flight
            return True
        reasons = {reason.get("Code") for reason in error.response.get("CancellationReasons") or []}
        return code == "TransactionCanceledException" and "TransactionConflict" in reasons \
            and reasons <= {"None", "TransactionConflict"}

    def _translate(self, error: ClientError) -> Exception:
        """Each cancellation reason has its own outcome: a failed condition is the operation's
        own error (or a lost race), a conflict with a transaction in flight is a lost race (the
        command runs again), an item grown past 400 KB is the caller's 400, throttling is 503
        with Retry-After; anything else is a bug and stays one."""
        code = error.response.get("Error", {}).get("Code")
        if code == "ConditionalCheckFailedException":  # the one write alone
            self._failed = 0
            return self.operations[0].on_fail or LostRace()
        if code == "TransactionCanceledException":
            reasons = error.response.get("CancellationReasons") or []
            for index, (operation, reason) in enumerate(zip(self.operations, reasons, strict=False)):
                if reason.get("Code") == "ConditionalCheckFailed":
                    self._failed = index
                    return operation.on_fail or LostRace()
            codes = {reason.get("Code") for reason in reasons}
            if codes & THROTTLING_REASONS:
                return throttled()
            if "ValidationError" in codes and any(
                    "size" in (reason.get("Message") or "").lower() for reason in reasons):
                return too_large()
            if "TransactionConflict" in codes:
                return LostRace()
            unknown: Exception = error
            return unknown
        if code in ("TransactionConflictException", "TransactionInProgressException"):
            return LostRace()
        return translate_call_error(error)


def run_with_retries(command: Callable[[], T], attempts: int = COMMAND_ATTEMPTS) -> T:
    """Runs a whole command (load, decide, commit) again when it lost a race, a bounded number
    of times with jittered backoff."""
    for attempt in range(attempts):
        try:
            return command()
        except LostRace:
            if attempt == attempts - 1:
                break
            back_off(attempt, 0.01, MAX_BACKOFF_S)
    raise ServiceUnavailable("Too many concurrent changes to the same records; retry.",
                             code="CONCURRENT_UPDATE", headers={"Retry-After": "1"})
