"""Running an import job: read its file, check every row, and (not a dry run, no problem found)
apply the kind's plan. kinds.py says what a kind promises; this module keeps the job's side:

- one run at a time: a lease on the job item (holder and expiry), taken by a conditional update;
  a second worker finding it held leaves (its message is a duplicate, or the holder's comes back);
- a run again is safe: a job `ready`, `done` or `failed` is never run by a message again, and one
  left `importing` by a fault runs check and apply again, which skip what already landed;
- a fault propagates (the queue redelivers the message); on its last receive the worker marks the
  job failed and `stopped` with a notice that it can be run again (POST /imports/{id}/run).
"""
from __future__ import annotations

import datetime
import uuid
from typing import Any

from chalicelib import clock
from chalicelib.domain.import_rows import Row, RowError
from chalicelib.errors import ApiError
from chalicelib.messages.phrases import Phrase
from chalicelib.observability import logger
from chalicelib.services.imports import kinds
from chalicelib.services.imports.kinds import Checked, ImportContext
from chalicelib.store import keys
from chalicelib.store.files import FileMissing, get_files
from chalicelib.store.repositories import imports as stored_imports
from chalicelib.store.repositories.imports import DONE, FAILED, IMPORTING, READY, VALIDATING
from chalicelib.store.table import Table
from chalicelib.store.transaction import MAX_ITEMS, Transaction

# the worker's timeout (900 s) and a margin: a holder that died frees the job after this
LEASE_SECONDS = 960
# problems kept per job (the first, in the file's order); `invalid` counts every row that has one
MAX_STORED_ERRORS = 1000
# the notice of a run stopped by faults: after every row's problems (row 0 sorts first, so a sequence
# of its own past any file problem's)
_STOP_SEQUENCE = 999_999


class LeaseLost(Exception):
    """Another run holds the job now (this one's lease expired): this one stops writing."""


def run_import(table: Table, company_id: int, job_id: int) -> str:
    """Runs the job if it needs a run and nobody runs it; answers the status it left it in,
    or "busy" when another run holds it."""
    key = keys.import_job(company_id, job_id)
    job = table.get(key)
    if job is None:
        return "missing"
    if job["status"] not in (VALIDATING, IMPORTING):
        return str(job["status"])  # a message again for a job that finished: nothing to do
    holder = uuid.uuid4().hex
    if not _take_lease(table, key, holder):
        logger.info("import job held by another run", extra={"companyId": company_id, "jobId": job_id})
        return "busy"
    run = _Run(table, key, holder)
    try:
        return _run(table, job, run)
    except ApiError as refusal:  # from the check (apply's are _run's): a rule, not a fault
        return _refused_by_rule(run, job, refusal)
    finally:
        stored_imports.give_back_lease(table, key, holder)


def _refused_by_rule(run: _Run, job: dict[str, Any], refusal: ApiError) -> str:
    """A rule refused the import (a 4xx ApiError from the kind's check, e.g. no account rule): not a
    fault, so no retry would change it; the job fails naming the refusal. A server-side error (5xx)
    or a lost race (kinds.is_rule_refusal) stays a fault: the queue delivers the message again."""
    if not kinds.is_rule_refusal(refusal):
        raise refusal
    details = [detail for detail in refusal.details or [] if isinstance(detail, dict) and detail.get("field")]
    column = str(details[0]["field"]) if details else None
    logger.info("import job refused by a rule", extra={"companyId": job["companyId"], "jobId": job["id"],
                                                      "code": refusal.code})
    return _failed(run, int(job["companyId"]), int(job["id"]), [RowError(0, column, refusal.message)],
                   int(job.get("rows", 0)), 0)


def _take_lease(table: Table, key: keys.Key, holder: str) -> bool:
    now = clock.epoch_seconds()
    return stored_imports.take_lease(table, key, holder, now, now + LEASE_SECONDS)


class _Run:
    """The job item's writes of one run: each only while this run holds the lease."""

    def __init__(self, table: Table, key: keys.Key, holder: str) -> None:
        self.table, self.key, self.holder = table, key, holder
        self.reported: int | None = None

    def set(self, fields: dict[str, Any], remove: tuple[str, ...] = ()) -> None:
        if not stored_imports.set_while_held(self.table, self.key, self.holder, fields, remove):
            raise LeaseLost(self.key)

    def progress(self, rows: int) -> None:
        """The kind's progress (rows landed so far), which also renews the lease."""
        if rows != self.reported:
            self.set({"processed": rows, "leaseUntil": clock.epoch_seconds() + LEASE_SECONDS})
            self.reported = rows


def _run(table: Table, job: dict[str, Any], run: _Run) -> str:
    company_id, job_id = int(job["companyId"]), int(job["id"])
    kind = kinds.kind(job["kind"])
    context = ImportContext(table=table, company_id=company_id, job_id=job_id, user_id=job.get("createdBy"),
                            date=datetime.date.fromisoformat(job["date"]) if job.get("date") else None,
                            update_existing=(job.get("mapping") or {}).get("existing") == "update",
                            progress=run.progress)
    try:
        content = get_files().get(job["fileKey"])
    except FileMissing:
        return _failed(run, company_id, job_id, [RowError(0, None, "The uploaded file is no longer kept (files are "
                                                                  "kept 7 days): upload it again.")], 0, 0)
    rows, errors, checked = _checked(context, job, kind, content)
    # rows of data with a problem: the heading's (line 1) and the file's own (0) are not rows
    invalid = len({error.row for error in errors} & {row.line for row in rows})
    if errors:
        valid = len(rows) - invalid if checked is not None else 0
        return _failed(run, company_id, job_id, errors, len(rows), valid, invalid)
    assert checked is not None
    counts = {"rows": len(rows), "valid": len(rows), "invalid": 0}
    if job["dryRun"]:
        run.set({"status": READY, **counts, "finishedAt": clock.now_iso()})
        return READY
    run.set({"status": IMPORTING, **counts})
    try:
        result = kind.apply(context, checked.plan)
    except kinds.UnitRefused as refused:
        return _refused(run, company_id, job_id, kind, refused.error, refused.lines, len(rows))
    except ApiError as error:
        if not kinds.is_rule_refusal(error):
            raise
        return _refused(run, company_id, job_id, kind, error, (0,), len(rows))  # a kind that does not name its unit's rows
    run.set({"status": DONE, "result": dict(result), "processed": len(rows), "finishedAt": clock.now_iso()})
    return DONE


def _checked(context: ImportContext, job: dict[str, Any], kind: Any,
             content: bytes) -> tuple[list[Row], list[RowError], Checked | None]:
    """The rows, every problem found (sorted by line and column) and the kind's check (None when
    the file as a whole was wrong and its rows were not checked)."""
    if job["kind"] == "company":  # an archive, not a table: the kind reads the bytes itself
        checked = kind.check_archive(context, content)
        return [], list(checked.errors), checked
    from chalicelib.domain import import_files

    try:
        rows, errors = import_files.read_rows(job["fileName"], content, kind.columns,
                                              (job.get("mapping") or {}).get("columns") or None)
    except import_files.ImportFileInvalid as invalid:
        return [], [_row_error_of(invalid)], None
    errors = list(errors)
    if any(error.row == 0 for error in errors):
        return rows, errors, None  # columns missing or unknown: the rows cannot be read as the kind's
    checked = kind.check(context, rows)
    errors += checked.errors
    return rows, sorted(errors, key=lambda error: (error.row, error.column or "")), checked


def _row_error_of(invalid: Exception) -> RowError:
    found = getattr(invalid, "error", None) or next((arg for arg in invalid.args if isinstance(arg, RowError)), None)
    return found if isinstance(found, RowError) else RowError(0, None, str(invalid))


def _failed(run: _Run, company_id: int, job_id: int, errors: list[RowError], rows: int, valid: int,
            invalid: int = 0) -> str:
    """The problems stored (the first MAX_STORED_ERRORS), then the job failed: nothing was written."""
    store_errors(run.table, company_id, job_id, errors[:MAX_STORED_ERRORS])
    run.set({"status": FAILED, "rows": rows, "valid": valid, "invalid": invalid, "processed": 0,
             "finishedAt": clock.now_iso()})
    return FAILED


def _refused(run: _Run, company_id: int, job_id: int, kind: Any, error: ApiError, lines: tuple[int, ...],
             rows: int) -> str:
    """A rule refused a unit the check had accepted: another writer took one of its keys (a tax id, a
    document number) or closed a period between the two. The job fails naming the unit's rows; the
    units already written stay (`processed` counts their rows): a run again would meet the same
    refusal, and undoing them would race that writer again."""
    columns = {column.name for column in kind.columns}
    details = error.details or [{"message": error.message}]
    problems = [RowError(line, detail.get("field") if detail.get("field") in columns else None, detail["message"])
                for line in lines for detail in details]
    landed = run.reported or 0
    notice = RowError(0, None, Phrase("The import stopped at rows a rule refused after the check: someone changed the "
                                      "records meanwhile. The {} rows before them landed and stay: import the others "
                                      "in a new file.", landed))
    store_errors(run.table, company_id, job_id, [notice, *problems][:MAX_STORED_ERRORS])
    invalid = len(set(lines) - {0})
    run.set({"status": FAILED, "valid": rows - invalid, "invalid": invalid, "processed": landed,
             "finishedAt": clock.now_iso()})
    return FAILED


def store_errors(table: Table, company_id: int, job_id: int, errors: list[RowError]) -> None:
    """Each problem an item, keyed by its line and its place among the line's: written again the
    same by a run again (a put replaces)."""
    items, sequence, previous_row = [], 0, None
    for error in errors:
        sequence = sequence + 1 if error.row == previous_row else 0
        previous_row = error.row
        items.append({**keys.import_error(company_id, job_id, error.row, sequence), "itemType": "IMPORT_ERROR",
                      **error.as_json(), **({"issue": {"type": error.issue[0], "context": error.issue[1]}}
                                            if error.issue else {})})
    for start in range(0, len(items), MAX_ITEMS):
        transaction = Transaction(table)
        for item in items[start:start + MAX_ITEMS]:
            transaction.put(item)
        transaction.commit()


def stop_notice(company_id: int, job_id: int) -> keys.Key:
    return keys.import_error(company_id, job_id, 0, _STOP_SEQUENCE)


def mark_stopped(table: Table, company_id: int, job_id: int, attempts: int) -> bool:
    """The worker's last receive of a job's message failed: the job is failed and `stopped` (it may
    be run again), unless another run holds it or it finished meanwhile. True when marked."""
    now = clock.epoch_seconds()
    marked = stored_imports.stop_unheld(table, keys.import_job(company_id, job_id), now, clock.now_iso())
    if marked:
        notice = RowError(0, None, Phrase("The import stopped before it finished: it failed {} times in a row. Run it "
                                          "again to finish it: the rows that landed are not written twice.", attempts))
        Transaction(table).put({**stop_notice(company_id, job_id), "itemType": "IMPORT_ERROR",
                                **notice.as_json()}).commit()
    return marked
