"""The import kind "company": a company archive (services/imports/company_archive.py) restored into a
new, empty company of the same country, with the same books.

Every item is moved to the new company's id (store/company_items.py `moved`: keys, index keys,
texts naming the old partitions, `companyId`); the company's own ids (documents, partners,
accounts, ...) are the archive's, so references between records hold and the numbering state
(sequences, document series, CAI ranges' next numbers) carries on where it was. The company item is
merged: the new company's identity (id, name, owner, members, creation) kept, the archive's settings
and fiscal setup taken.

Only items under the archive's company's own partitions are taken, and once moved every key
attribute must be the new company's (or a cross-company index partition its key function built):
a crafted archive writes nowhere else. The archive's counters must be at least what its records
used (services/imports/archive_consistency.py). Records keep no `importJob` stamp: the new
company's import jobs number from 1 again and would take the source's records for their own.

Items are written in units of at most MAX_TRANSACTION_ITEMS, each a transaction with its
done-marker and each item put only where nothing is (a unit lands whole or not at all, so a run
again skips the units done and never meets its own writes), the company item last, merged. The
first unit also writes the company's restore guard (`C#{c}` / RESTORE, the job's id): a second job
restoring into the same company is refused, the same job run again goes on."""
from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from chalicelib import clock
from chalicelib.domain.import_rows import Row, RowError
from chalicelib.errors import Conflict
from chalicelib.messages.phrases import Phrase
from chalicelib.services.identity import accounts
from chalicelib.services.imports import archive_consistency, company_archive
from chalicelib.services.imports.kinds import MAX_TRANSACTION_ITEMS, Checked, ImportContext
from chalicelib.store import keys
from chalicelib.store.company_items import family, holds_records, moved, outside, under_company
from chalicelib.store.repositories import archives as stored_archives
from chalicelib.store.table import Table, from_attributes, to_attributes
from chalicelib.store.transaction import Transaction

# the company item's attributes that are the new company's own: never the archive's
IDENTITY = (*stored_archives.KEY_ATTRIBUTES, "itemType", "id", "name", "ownerUserId", "activeOwnerCount", "createdAt", "version")
UNIT_BYTES = 3_000_000  # a transaction carries at most 4 MB
FIRST_UNIT = "items-000001"
STAMP = "importJob"  # the import job that wrote a record: never the source company's


@dataclass
class Plan:
    source_company_id: int
    units: list[tuple[str, list[dict[str, Any]]]]  # (unit, typed items moved to the new company)
    company: dict[str, Any]                         # the archive's company item, moved


class CompanyKind:
    name = "company"
    columns = ()
    needs_date = False

    def check(self, context: ImportContext, rows: list[Row]) -> Checked:
        return Checked([RowError(0, None, "a company archive is restored from its ZIP file")])

    def check_archive(self, context: ImportContext, content: bytes) -> Checked:
        try:
            archive = company_archive.read(content)
        except company_archive.ArchiveInvalid as invalid:
            return Checked([invalid.error])
        errors = _foreign_items(archive)
        plan = None
        if not errors:
            plan, errors = _plan(archive, context.company_id)
        errors += archive_consistency.torn_problems(archive)
        target = context.table.get(keys.company(context.company_id))
        if target is None or target.get("country") != archive.manifest.get("country"):
            errors.append(RowError(0, None, Phrase("the archive is of a company of {}, this company is of {}",
                                                   archive.manifest.get('country'), (target or {}).get('country'))))
        guard = context.table.get(keys.company_restore_guard(context.company_id))
        if guard is not None and int(guard["jobId"]) != context.job_id:
            errors.append(RowError(0, None, Phrase("another restore (import {}) is running or ran into this company: "
                                                   "an archive is restored into a new, empty company", guard['jobId'])))
        elif guard is None and not context.is_done(FIRST_UNIT) and not is_empty(context.table, context.company_id):
            errors.append(RowError(0, None, "this company already has records: an archive is restored into a "
                                            "new, empty company"))
        if errors:
            return Checked(errors)
        return Checked([], plan)

    def apply(self, context: ImportContext, plan: Plan) -> dict[str, int]:
        starting = {keys.pair(key) for key in accounts.default_branch_and_warehouse_keys(context.company_id)}
        # the audit trail's count: the new company's own entries (its creation, its first key) are counted there
        # already, so the archive's entries add to it
        audit_count = keys.entity_count(context.company_id, keys.AUDIT)
        for unit, items in plan.units:
            if context.is_done(unit):
                continue
            transaction = Transaction(context.table)
            if unit == plan.units[0][0]:
                _guard(transaction, context)
            for item in items:
                if stored_archives.typed_key(item) in starting:  # branch 1, warehouse 1: POST /companies made them
                    transaction.put_typed(item)
                    continue
                if stored_archives.typed_key(item) == keys.pair(audit_count):
                    transaction.increment(audit_count, "total", int(from_attributes(item).get("total", 0)))
                    continue
                stored_archives.restore(transaction, item, Conflict(
                    "The company already holds a record the archive restores: an archive is restored into a new, "
                    "empty company."))
            context.mark_done(transaction, unit)
            transaction.commit()
        if not context.is_done("company"):
            target = context.table.get(keys.company(context.company_id)) or {}
            merged = {**{name: value for name, value in from_attributes(plan.company).items() if name not in IDENTITY},
                      **{name: target[name] for name in IDENTITY if name in target},
                      "version": int(target.get("version", 0)) + 1, "updatedAt": clock.now_iso(),
                      "restoredFrom": plan.source_company_id, "importJob": context.job_id}
            transaction = Transaction(context.table)
            if not plan.units:
                _guard(transaction, context)
            transaction.put_typed(to_attributes(merged))
            context.mark_done(transaction, "company")
            transaction.commit()
        written = sum(len(items) for _, items in plan.units) + 1
        return {"created": written, "updated": 0, "items": written}


def _guard(transaction: Transaction, context: ImportContext) -> None:
    """The company taken by this job's restore, in the transaction of its first writes."""
    stored_archives.take_for_restore(
        transaction, {**keys.company_restore_guard(context.company_id), "itemType": "RESTORE", "jobId": context.job_id,
                      "at": clock.now_iso()}, context.job_id, Conflict(
                        "Another restore is running or ran into this company: an archive is restored into a new, "
                        "empty company."))


def _foreign_items(archive: company_archive.Archive) -> list[RowError]:
    """Every item must be under the manifest's company's own partitions, of a family an archive
    holds, in its own file."""
    errors = []
    for kind, items in sorted(archive.items.items()):
        for line, item in enumerate(items, start=1):
            if not stored_archives.has_typed_key(item) \
                    or not under_company(stored_archives.typed_key(item)[0], archive.company_id) or family(item, archive.company_id) != kind \
                    or kind in company_archive.EXCLUDED_FAMILIES:
                errors.append(RowError(line, None, Phrase("items/{}.jsonl: an item that is not one of company {}'s "
                                                          "records", kind, archive.company_id)))
                break
    return errors


def is_empty(table: Table, company_id: int) -> bool:
    """Whether the company holds nothing but what POST /companies made (and its jobs)."""
    return not holds_records(table, company_id)


def _plan(archive: company_archive.Archive, company_id: int) -> tuple[Plan, list[RowError]]:
    """The items moved to the new company, in units; an item that would land outside it refuses
    the archive, naming it."""
    old = archive.company_id
    company: dict[str, Any] = {}
    ordered: list[dict[str, Any]] = []
    errors = []
    for kind, items in sorted(archive.items.items()):
        for line, item in enumerate(items, start=1):
            try:
                placed = {name: value for name, value in moved(item, old, company_id).items() if name != STAMP}
                wrong = outside(placed, company_id)
            except (KeyError, ValueError, IndexError, TypeError, AttributeError):
                wrong = list(stored_archives.CROSS_COMPANY_INDEX_PARTITIONS)  # a cross-company index whose sort key its function cannot read
            if wrong:
                partition, sort = stored_archives.typed_key(item)
                errors.append(RowError(line, None, Phrase("items/{}.jsonl: the item {} / {} would be written outside "
                                                          "this company ({})",
                                                          kind, partition, sort, ', '.join(wrong))))
            elif kind == "COMPANY" and stored_archives.typed_sort_key(item) == stored_archives.sort_key_of(keys.company(old)):
                company = placed
            else:
                ordered.append(placed)
    units: list[tuple[str, list[dict[str, Any]]]] = []
    current: list[dict[str, Any]] = []
    size = 0
    for item in ordered:
        item_size = len(json.dumps(item, default=str))  # bytes (a DTE's payload) counted as their text
        if current and (len(current) >= MAX_TRANSACTION_ITEMS or size + item_size > UNIT_BYTES):
            units.append((f"items-{len(units) + 1:06d}", current))
            current, size = [], 0
        current.append(item)
        size += item_size
    if current:
        units.append((f"items-{len(units) + 1:06d}", current))
    return Plan(old, units, company), errors


KIND = CompanyKind()
