"""One command = one TransactWriteItems. Invariants are ConditionExpressions; each operation
says which API error its failed condition means, so CancellationReasons map to precise 4xx."""
from __future__ import annotations

import random
import time
from dataclasses import dataclass, field
from typing import Any, Callable, TypeVar

from botocore.exceptions import ClientError

from chalicelib.errors import ApiError, DocumentTooLarge, ServiceUnavailable
from chalicelib.store.keys import Key
from chalicelib.store.table import Table, to_attributes, to_values

MAX_ITEMS = 100
# Twenty documents racing for the next number of one CAI range each lose up to nineteen times:
# enough attempts, with jittered backoff capped at MAX_BACKOFF_S, for all of them to get one.
COMMAND_ATTEMPTS = 25
MAX_BACKOFF_S = 0.25

T = TypeVar("T")


class LostRace(Exception):
    """Another writer got there first (a version, counter or transaction conflict): the whole
    command is loaded and built again."""


@dataclass
class _Operation:
    request: dict[str, Any]
    on_fail: ApiError | None


@dataclass
class Transaction:
    table: Table
    operations: list[_Operation] = field(default_factory=list)

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
        try:
            self.table.client.transact_write_items(
                TransactItems=[operation.request for operation in self.operations])
        except ClientError as error:
            raise self._translate(error) from error

    def _translate(self, error: ClientError) -> Exception:
        code = error.response.get("Error", {}).get("Code")
        if code == "TransactionCanceledException":
            reasons = error.response.get("CancellationReasons") or []
            for operation, reason in zip(self.operations, reasons, strict=False):
                if reason.get("Code") == "ConditionalCheckFailed":
                    return operation.on_fail or LostRace()
            return LostRace()
        if code in ("TransactionConflictException", "TransactionInProgressException"):
            return LostRace()
        if code in ("ProvisionedThroughputExceededException", "ThrottlingException",
                    "RequestLimitExceeded"):
            return ServiceUnavailable()
        if code == "ValidationException" and "size" in str(error.response.get("Error", {}).get("Message", "")).lower():
            return DocumentTooLarge("A record would exceed DynamoDB's 400 KB item size; shorten it or split it.")
        return error


def run_with_retries(command: Callable[[], T], attempts: int = COMMAND_ATTEMPTS) -> T:
    """Runs a whole command (load, decide, commit) again when it lost a race, a bounded number
    of times with jittered backoff."""
    for attempt in range(attempts):
        try:
            return command()
        except LostRace:
            if attempt == attempts - 1:
                break
            time.sleep(random.uniform(0, min(MAX_BACKOFF_S, 0.01 * (2 ** attempt))))
    raise ServiceUnavailable("Too many concurrent changes to the same records; retry.",
                             code="CONCURRENT_UPDATE")
