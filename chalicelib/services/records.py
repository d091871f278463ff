"""Company-scoped master records (business partners, products, ...): create, update, get and
list, each write one transaction carrying its outbox event."""
from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Callable

from chalicelib import clock
from chalicelib.errors import NotFound, ValidationFailed, VersionConflict
from chalicelib.events import outbox
from chalicelib.messages.phrases import Phrase
from chalicelib.services import search
from chalicelib.services.commands import Command
from chalicelib.store import keys
from chalicelib.store.listing import Page, list_collection
from chalicelib.store.repositories import records as record_store
from chalicelib.store.table import Table
from chalicelib.store.transaction import Guard, Transaction

# Adds what a kind needs to the transaction (reservations, existence checks) given the
# company, the new item and, for updates, the item before the change.
ExtraOperations = Callable[[Transaction, int, dict[str, Any], "dict[str, Any] | None"], None]


@dataclass(frozen=True)
class RecordKind:
    kind: str
    resource_type: str
    label: str
    created_event: str
    updated_event: str
    event_data: Callable[[dict[str, Any]], dict[str, Any]]
    initial_values: Callable[[], dict[str, Any]] = dict
    # the fields `q` finds a record by (services/search.py)
    search_fields: tuple[str, ...] = ()

    def not_found(self) -> NotFound:
        return NotFound(Phrase("{} not found.", self.label))


def get_record(table: Table, company_id: int, kind: RecordKind, record_id: int) -> dict[str, Any]:
    item = table.get(keys.entity(company_id, kind.kind, record_id))
    if item is None:
        raise kind.not_found()
    return item


def list_records(table: Table, company_id: int, kind: RecordKind, *, page: int, limit: int,
                 cursor: str | None, query: str | None = None) -> Page:
    """In id order; with `query`, those it finds (services/search.py)."""
    if query is not None and kind.search_fields:
        return search.find(table, company_id, kind.kind, query, page, limit, cursor)
    return list_collection(table, partition=keys.collection_partition(company_id, kind.kind),
                           count_key=keys.entity_count(company_id, kind.kind), page=page,
                           limit=limit, cursor=cursor)


def create_record(command: Command, kind: RecordKind, fields: dict[str, Any],
                  extra: ExtraOperations | None = None,
                  view: Callable[[dict[str, Any]], dict[str, Any]] | None = None) -> dict[str, Any]:
    """`view`: how the new record is answered (also the answer an Idempotency-Key replays)."""
    item = new_record_item(command.table, command.company_id, kind, fields)
    transaction = command.transaction()
    add_new_record(transaction, command.company_id, kind, item, extra)
    return command.commit(transaction, view(item) if view else item)


def new_record_item(table: Table, company_id: int, kind: RecordKind, fields: dict[str, Any]) -> dict[str, Any]:
    """A new record of `kind` with a fresh id, not written yet (add_new_record writes it)."""
    return _record_item(company_id, kind, table.next_id(keys.id_sequence(company_id, kind.kind)), fields)


def new_record_items(table: Table, company_id: int, kind: RecordKind,
                     many_fields: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """New records with fresh ids taken in one round trip (an import's unit): ids a unit that
    never commits leaves unused are skipped, as a create that fails leaves its id."""
    last = table.add(keys.id_sequence(company_id, kind.kind), "value", len(many_fields))
    first = last - len(many_fields) + 1
    return [_record_item(company_id, kind, first + n, fields) for n, fields in enumerate(many_fields)]


def _record_item(company_id: int, kind: RecordKind, record_id: int, fields: dict[str, Any]) -> dict[str, Any]:
    now = clock.now_iso()
    return {**keys.entity(company_id, kind.kind, record_id),
            **keys.collection_index(company_id, kind.kind, record_id),
            "itemType": kind.kind, "id": record_id, **kind.initial_values(),
            **{name: value for name, value in fields.items() if value is not None},
            "version": 1, "createdAt": now, "updatedAt": now}


def add_new_record(transaction: Transaction, company_id: int, kind: RecordKind, item: dict[str, Any],
                   extra: ExtraOperations | None = None, *, batch: bool = False) -> None:
    """The writes of a new record: the item, its count, its search terms, what the kind adds and
    its event. `batch` (an import writing many records in one transaction): neither the count,
    which the batch adds once for all (count_records: a transaction writes an item once), nor
    the event (docs/decisions.md, issue 41: an import announces nothing)."""
    transaction.put_new(item)
    if not batch:
        count_records(transaction, company_id, kind, 1)
    search.index(transaction, company_id, kind.kind, kind.search_fields, None, item)
    if extra:
        extra(transaction, company_id, item, None)
    if not batch:
        outbox.emit(transaction, kind.created_event, company_id, kind.resource_type, item["id"],
                    kind.event_data(item))


def count_records(transaction: Transaction, company_id: int, kind: RecordKind, amount: int) -> None:
    transaction.increment(keys.entity_count(company_id, kind.kind), "total", amount,
                          also_set=keys.entity_count_index(company_id, kind.kind))


def update_record(command: Command, kind: RecordKind, record_id: int, changes: dict[str, Any],
                  expected_version: int | None, extra: ExtraOperations | None = None,
                  current: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """`current`: the record as the caller already read it."""
    current = dict(current) if current else get_record(command.table, command.company_id, kind, record_id)

    def add_effects(transaction: Transaction, updated: dict[str, Any]) -> None:
        _update_effects(transaction, command.company_id, kind, current, updated, extra)
        outbox.emit(transaction, kind.updated_event, command.company_id, kind.resource_type,
                    record_id, kind.event_data(updated))

    return update_item(command, keys.entity(command.company_id, kind.kind, record_id), current,
                       changes, expected_version, add_effects)


def _update_effects(transaction: Transaction, company_id: int, kind: RecordKind, current: dict[str, Any],
                    updated: dict[str, Any], extra: ExtraOperations | None) -> None:
    if extra:
        extra(transaction, company_id, updated, current)
    search.index(transaction, company_id, kind.kind, kind.search_fields, current, updated)


def _changed(current: dict[str, Any], changes: dict[str, Any]) -> tuple[dict[str, Any], dict[str, Any]]:
    """What of `changes` differs from the stored item (stamped updatedAt) and the item as it becomes
    (a None removes a field; the version one more); no changes: ({}, current)."""
    changes = {name: value for name, value in changes.items() if current.get(name) != value}
    if not changes:
        return {}, current
    changes["updatedAt"] = clock.now_iso()
    updated = {name: value for name, value in {**current, **changes}.items() if value is not None}
    updated["version"] = current["version"] + 1
    return changes, updated


def add_record_update(transaction: Transaction, company_id: int, kind: RecordKind, current: dict[str, Any],
                      changes: dict[str, Any], extra: ExtraOperations | None = None) -> dict[str, Any] | None:
    """An import's update of a record in its batch's transaction, as update_record writes it but
    without an event (add_new_record's `batch`): the record as it becomes, None when nothing changes."""
    changes, updated = _changed(current, changes)
    if not changes:
        return None
    transaction.update_fields(keys.entity(company_id, kind.kind, current["id"]), changes, current["version"])
    _update_effects(transaction, company_id, kind, current, updated, extra)
    return updated


def update_item(command: Command, key: keys.Key, current: dict[str, Any], changes: dict[str, Any],
                expected_version: int | None,
                add_effects: Callable[[Transaction, dict[str, Any]], None] | None = None,
                guard: Guard | None = None) -> dict[str, Any]:
    """Sparse update of a versioned item. `expected_version` (If-Match or the body's `version`)
    makes a stale write a 409; without it a concurrent writer only makes the command run
    again on fresh data. `guard` (a repository's Guard) is a further condition the caller
    has already checked on `current`: when it fails, a concurrent change made it false, and
    the command runs again to report it precisely."""
    if expected_version is not None and expected_version != current["version"]:
        raise VersionConflict()
    changes, updated = _changed(current, changes)
    if not changes:
        return current
    transaction = command.transaction()
    transaction.update_fields(key, changes, current["version"],
                              on_fail=VersionConflict() if expected_version is not None and not guard else None,
                              guard=guard)
    if add_effects:
        add_effects(transaction, updated)
    return command.commit(transaction, updated)


# --- small collections (branches, CAI ranges, warehouses) -------------------------------------------
# A company has a handful of these: they live in one partition read whole, strongly consistent,
# which is also how a document finds its branch, range or warehouse.

def small_records(table: Table, company_id: int, kind: str) -> list[dict[str, Any]]:
    return record_store.small_collection(table, company_id, kind)


def get_small_record(table: Table, company_id: int, kind: str, record_id: int, label: str) -> dict[str, Any]:
    item = table.get(keys.small_record(company_id, kind, record_id))
    if item is None:
        raise NotFound(Phrase("{} not found.", label))
    return item


def small_page(items: list[dict[str, Any]], page: int, limit: int) -> Page:
    window = items[(page - 1) * limit:page * limit]
    return Page(items=window, total=len(items), page=page, limit=limit, next_cursor=None)


def create_small_record(command: Command, kind: str, fields: dict[str, Any],
                        add_checks: Callable[[Transaction, dict[str, Any]], None] | None = None,
                        view: Callable[[dict[str, Any]], dict[str, Any]] | None = None) -> dict[str, Any]:
    """A new small record in one transaction, with the checks (references, guards) the kind adds;
    answered as `view` shows it (also the answer an Idempotency-Key replays)."""
    item = new_small_record(command.table, command.company_id, kind, fields)
    transaction = command.transaction()
    transaction.put_new(item)
    if add_checks:
        add_checks(transaction, item)
    return command.commit(transaction, view(item) if view else item)


def new_small_record(table: Table, company_id: int, kind: str, fields: dict[str, Any]) -> dict[str, Any]:
    record_id = table.next_id(keys.id_sequence(company_id, kind))
    now = clock.now_iso()
    return {**keys.small_record(company_id, kind, record_id), "itemType": kind, "id": record_id,
            **{name: value for name, value in fields.items() if value is not None},
            "version": 1, "createdAt": now, "updatedAt": now}


def keep_default_active(table: Table, company_id: int, default_field: str, record_id: int,
                        changes: dict[str, Any], label: str) -> None:
    """Documents fall back to the company's default branch and warehouse: those stay active."""
    if changes.get("isActive") is False:
        company = table.get(keys.company(company_id)) or {}
        if company.get(default_field) is not None and int(company[default_field]) == record_id:
            raise ValidationFailed.for_field("isActive", Phrase("the company's default {} stays active", label))


def require_reference(transaction: Transaction, company_id: int, kind: str, item: dict[str, Any], field: str,
                      label: str) -> None:
    """The small record an item names in `field` (a branch, a bank account) exists, checked in
    the item's own transaction."""
    if item.get(field) is not None:
        transaction.require(keys.small_record(company_id, kind, int(item[field])),
                            ValidationFailed.for_field(field, Phrase("no such {}", label)))
