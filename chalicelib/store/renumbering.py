"""A gap-free number taken inside a transaction, and retaken when another writer took it first:
the counter's protocol (Renumbering) and where a retaken number is rewritten in the transaction
already built (store/transaction.py commits it)."""
from __future__ import annotations

import re
from abc import ABC, abstractmethod
from typing import TYPE_CHECKING, Any

from chalicelib.store.keys.documents import renumbered_number_index

if TYPE_CHECKING:
    from chalicelib.store.table import Table


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
    number: int  # the number the transaction holds now

    @abstractmethod
    def retake(self, table: Table, left: int | None) -> tuple[dict[str, str], dict[str, Any]] | None:
        """`left`: the next number the lease's last holder left, trusted without a read (the
        counter's own condition catches it when wrong); None: read the counter."""


# Where a taken number is written, and so where a retaken one replaces it: the fields that hold
# the number itself (at any depth but a CAI block, whose rangeStart may equal it), a description
# that ends with it (an automatic entry's, its postings', the partner ledger's "Factura ..."), and
# the "number" of a stored JSON answer (the Idempotency-Key record). Nothing else: not keys, not
# a client's text (a reference, a line's description, an Idempotency-Key) that quotes it; the one
# key rewritten is the document's GSI3SK, which finds it by its number (keys.document_number_index).
NUMBER_FIELDS = frozenset({"number", "documentNumber", "lastDocumentNumber"})  # the last: a scheduled run's
_NOT_RENUMBERED = frozenset({"cai", "lines", "PK", "SK", "GSI3SK"})


def _renumbered(name: str, value: str, substitutions: dict[str, str]) -> str:
    for old, new in substitutions.items():
        if name in NUMBER_FIELDS and value == old:
            return new
        if name == "description" and value.endswith(f" {old}"):
            return value[:-len(old)] + new
        if name == "body":
            value = value.replace(f'"number":"{old}"', f'"number":"{new}"')
    return value


def substitute(request: dict[str, Any], substitutions: dict[str, str]) -> None:
    """Rewrites, in place, a taken number in one operation of a transaction (DynamoDB JSON): in
    its item, or in the values its update expression assigns."""
    if "Item" in request:
        item = request["Item"]
        _substitute_attributes(item, substitutions)
        if "GSI3SK" in item and "number" in item:  # the document found by its number (keys.document_number_index)
            item["GSI3SK"]["S"] = renumbered_number_index(item["GSI3SK"]["S"], item["number"]["S"])
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


def rewrite(value: Any, substitutions: dict[str, str], name: str = "") -> Any:
    """A command's result (plain values) with the number it finally took, by the same rules."""
    if isinstance(value, str):
        return _renumbered(name, value, substitutions)
    if isinstance(value, dict):
        return {key: inner if key in _NOT_RENUMBERED else rewrite(inner, substitutions, key)
                for key, inner in value.items()}
    if isinstance(value, list):
        return [rewrite(inner, substitutions, name) for inner in value]
    return value
