"""One command = one TransactWriteItems. Invariants are ConditionExpressions; each operation
says which API error its failed condition means, so CancellationReasons map to precise 4xx."""
from __future__ import annotations

import re
import time
from abc import ABC, abstractmethod
from dataclasses import dataclass, field
from typing import Any, Callable, TypeVar

from botocore.exceptions import ClientError

from chalicelib.errors import ApiError, DocumentTooLarge, ServiceUnavailable
from chalicelib.store.keys import Key
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


def forget_contention() -> None:
    _contended.clear()

T = TypeVar("T")


class LostRace(Exception):
    """Another writer got there first (a version, counter or transaction conflict): the whole
    command is loaded and built again."""


@dataclass
class _Operation:
    request: dict[str, Any]
    on_fail: ApiError | None


class Renumbering(ABC):
    """A gap-free number taken in the transaction: a counter read, then written with a condition
    on what was read. Every document of a series needs that one item. A commit first tries the
    number it read; when another writer took it first, the counter is contended and its commits
    (in this process, for CONTENDED_S) go through a lease on it (`Table.lease`), one at a time:
    the holder takes the next number the previous one left on the lease (`retake`), stamps it
    into the transaction it already built and gives the lease back in that transaction. The
    command is never run again for having read the counter a while ago: the write ceiling of one
    company's invoices is one transaction per number, instead of every command racing for it and
    all but one losing their whole work.

    `retake` answers the substitutions (old -> new, in every string of the transaction: the
    number in the document, its entry's description, its events) and the counter operation's new
    condition values ({} and {} when the number read is still the next), or None when the counter
    changed otherwise (the command runs again, and chooses or refuses anew)."""

    operation: int
    counter: dict[str, str]

    @abstractmethod
    def retake(self, table: Table, left: int | None) -> tuple[dict[str, str], dict[str, Any]] | None:
        """`left`: the next number the lease's last holder left, trusted without a read (the
        counter's own condition catches it when wrong); None: read the counter."""


@dataclass
class Transaction:
    table: Table
    operations: list[_Operation] = field(default_factory=list)
    renumbering: Renumbering | None = None
    # what retaking the number changed in the request, in order: `rewritten` makes the
    # command's own result say the same
    substitutions: list[dict[str, str]] = field(default_factory=list)
    _failed: int | None = None  # the operation whose condition failed in the last submission

    def take_number(self, renumbering: Renumbering) -> None:
        """Marks the operation just added as the one that takes a number (see Renumbering)."""
        renumbering.operation = len(self.operations) - 1
        self.renumbering = renumbering

    def _expression(self, kind: str, key_or_item: dict[str, Any], *, condition: str | None,
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
        self.operations.append(_Operation({kind: request}, on_fail))

    def put(self, item: dict[str, Any], *, condition: str | None = None,
            names: dict[str, str] | None = None, values: dict[str, Any] | None = None,
            on_fail: ApiError | None = None) -> "Transaction":
        self._expression("Put", item, condition=condition, names=names, values=values, on_fail=on_fail)
        return self

    def put_new(self, item: dict[str, Any], *, on_fail: ApiError | None = None) -> "Transaction":
        """Creates an item that must not exist yet (a fresh id, a reserved unique value)."""
        return self.put(item, condition="attribute_not_exists(PK)", on_fail=on_fail)

    def update_fields(self, key: Key, changes: dict[str, Any], expected_version: int, *,
                      on_fail: ApiError | None = None, also_require: str | None = None,
                      names: dict[str, str] | None = None,
                      values: dict[str, Any] | None = None) -> "Transaction":
        """Sets (or removes, for None) only the changed attributes and bumps `version`, so that
        counters kept on the same item by other commands are never overwritten.
        `also_require` adds a condition (with its `names` and `values`) to the version check with
        AND: parenthesize any OR inside it (DynamoDB refuses redundant parentheses)."""
        condition = "#version = :expectedVersion"
        if also_require:
            condition += f" AND {also_require}"
        return self.set_fields(key, {**changes, "version": expected_version + 1}, condition=condition,
                               names={"#version": "version", **(names or {})},
                               values={":expectedVersion": expected_version, **(values or {})},
                               on_fail=on_fail)

    def set_fields(self, key: Key, changes: dict[str, Any], *, condition: str | None = None,
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
               on_fail: ApiError | None = None) -> "Transaction":
        self._expression("Update", key, condition=condition, names=names, values=values,
                         on_fail=on_fail, extra={"UpdateExpression": update})
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
              values: dict[str, Any] | None = None, on_fail: ApiError | None = None) -> "Transaction":
        self._expression("ConditionCheck", key, condition=condition, names=names, values=values,
                         on_fail=on_fail)
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
        for attempt in range(RESUBMISSIONS + 1):
            try:
                self.table.client.transact_write_items(
                    TransactItems=[operation.request for operation in self.operations])
                return
            except ClientError as error:
                if counter_contended and self._counter_in_flight(error):
                    assert self.renumbering is not None
                    self._failed = self.renumbering.operation
                    raise LostRace() from error
                if attempt < RESUBMISSIONS and self._resubmittable(error):
                    back_off(attempt, 0.005, MAX_BACKOFF_S)
                    continue
                raise self._translate(error) from error

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
            _substitute(next(iter(operation.request.values())), substitutions)
        counter = next(iter(self.operations[self.renumbering.operation].request.values()))
        counter["ExpressionAttributeValues"].update(to_values(counter_values))

    def rewritten(self, result: T) -> T:
        """The command's result with the number it finally took (see Renumbering)."""
        for substitutions in self.substitutions:
            result = _rewrite(result, substitutions)
        return result

    def _counter_in_flight(self, error: ClientError) -> bool:
        reasons = error.response.get("CancellationReasons") or []
        index = self.renumbering.operation if self.renumbering is not None else -1
        return 0 <= index < len(reasons) and reasons[index].get("Code") == "TransactionConflict"

    def _resubmittable(self, error: ClientError) -> bool:
        """Cancelled only for items another transaction had in flight: nothing was written and
        every condition still stands, so the same request is sent again."""
        if error.response.get("Error", {}).get("Code") != "TransactionCanceledException":
            return False
        reasons = {reason.get("Code") for reason in error.response.get("CancellationReasons") or []}
        return "TransactionConflict" in reasons and reasons <= {"None", "TransactionConflict"}

    def _translate(self, error: ClientError) -> Exception:
        """Each cancellation reason has its own outcome: a failed condition is the operation's
        own error (or a lost race), a conflict with a transaction in flight is a lost race (the
        command runs again), an item grown past 400 KB is the caller's 400, throttling is 503
        with Retry-After; anything else is a bug and stays one."""
        code = error.response.get("Error", {}).get("Code")
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
            return error
        if code in ("TransactionConflictException", "TransactionInProgressException"):
            return LostRace()
        return translate_call_error(error)


# Where a taken number is written, and so where a retaken one replaces it: the fields that hold
# the number itself (at any depth but a CAI block, whose rangeStart may equal it), a description
# that ends with it (an automatic entry's, its postings', the partner ledger's "Factura ..."), and
# the "number" of a stored JSON answer (the Idempotency-Key record). Nothing else: not keys, not
# a client's text (a reference, a line's description, an Idempotency-Key) that quotes it.
NUMBER_FIELDS = frozenset({"number", "documentNumber"})
_NOT_RENUMBERED = frozenset({"cai", "lines", "PK", "SK"})


def _renumbered(name: str, value: str, substitutions: dict[str, str]) -> str:
    for old, new in substitutions.items():
        if name in NUMBER_FIELDS and value == old:
            return new
        if name == "description" and value.endswith(f" {old}"):
            return value[:-len(old)] + new
        if name == "body":
            value = value.replace(f'"number":"{old}"', f'"number":"{new}"')
    return value


def _substitute(request: dict[str, Any], substitutions: dict[str, str]) -> None:
    """Rewrites, in place, a taken number in one operation of a transaction (DynamoDB JSON): in
    its item, or in the values its update expression assigns."""
    if "Item" in request:
        _substitute_attributes(request["Item"], substitutions)
    values, names = request.get("ExpressionAttributeValues") or {}, request.get("ExpressionAttributeNames") or {}
    for name_token, value_token in re.findall(r"(#\w+)\s*=\s*(:\w+)", request.get("UpdateExpression", "")):
        name = names.get(name_token, "")
        if name not in _NOT_RENUMBERED and "S" in values.get(value_token, {}):
            values[value_token]["S"] = _renumbered(name, values[value_token]["S"], substitutions)
        elif name not in _NOT_RENUMBERED and "M" in values.get(value_token, {}):
            _substitute_attributes(values[value_token]["M"], substitutions)


def _substitute_attributes(attributes: dict[str, Any], substitutions: dict[str, str]) -> None:
    for name, typed in attributes.items():
        if name in _NOT_RENUMBERED:
            continue
        if "S" in typed:
            typed["S"] = _renumbered(name, typed["S"], substitutions)
        elif "M" in typed:
            _substitute_attributes(typed["M"], substitutions)


def _rewrite(value: Any, substitutions: dict[str, str], name: str = "") -> Any:
    """A command's result (plain values) with the number it finally took, by the same rules."""
    if isinstance(value, str):
        return _renumbered(name, value, substitutions)
    if isinstance(value, dict):
        return {key: inner if key in _NOT_RENUMBERED else _rewrite(inner, substitutions, key)
                for key, inner in value.items()}
    if isinstance(value, list):
        return [_rewrite(inner, substitutions, name) for inner in value]
    return value


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
