"""Import jobs: making one from an uploaded file, reading them, running a dry run for real. (The
markers of the units a run landed are kinds.py's: ImportContext.mark_done/is_done.)

A job's file is kept in the files bucket (store/files.py) and the job item says where; the work
itself (services/imports/runner.py) runs on the jobs queue, or in the request when no queue is
configured (the unit tests). Permissions follow what a kind writes: records (WRITE), the books
(ACCOUNTING), a whole company (MANAGE)."""
from __future__ import annotations

import base64
import binascii
import re
from typing import Any, Callable

from chalicelib import clock
from chalicelib.auth.policy import check_permission
from chalicelib.domain.roles import ACCOUNTING, MANAGE, WRITE
from chalicelib.errors import ApiError, NotFound, ValidationFailed
from chalicelib.events.queue import DeliveryQueue, get_jobs_queue
from chalicelib.messages.phrases import Phrase
from chalicelib.services.commands import Command
from chalicelib.services.imports import kinds
from chalicelib.store import keys
from chalicelib.store.files import get_files
from chalicelib.store.listing import partition_page
from chalicelib.store.repositories import imports as stored_imports
from chalicelib.store.repositories.imports import VALIDATING
from chalicelib.store.table import Table
from chalicelib.store.transaction import LostRace, Transaction

# the largest file taken, decoded (the contract's 4 MB), and its request body: that file in base64
# (4/3 of it) with the JSON around it
MAX_FILE_BYTES = 4 * 1024 * 1024
MAX_REQUEST_BYTES = 5_767_168  # 5.5 MB: 5,592,408 bytes of base64 and 170 KB for the rest
ERRORS_LIMIT = 100
MAX_FILE_PROBLEMS = 100  # a 400's details: the file's problems (each undecodable line one) beyond are not named
PERMISSIONS = {"partners": WRITE, "products": WRITE, "chart": ACCOUNTING, "opening-balances": ACCOUNTING,
               "open-items": ACCOUNTING, "opening-stock": ACCOUNTING, "company": MANAGE}
_DATA_URL = re.compile(r"^data:[^,]{0,200};base64,")
_UNSAFE_NAME = re.compile(r"[^A-Za-z0-9._-]+")
QueueGetter = Callable[[], "DeliveryQueue | None"]


def create_job(command: Command, body: dict[str, Any], queue: QueueGetter = get_jobs_queue) -> dict[str, Any]:
    """Stores the file and the job (`validating`), then queues the run, or runs it here without
    a queue. Answers the job as it then is."""
    kind_name = body["kind"]
    check_permission(command.principal, PERMISSIONS[kind_name])
    kind = kinds.kind(kind_name)
    content = decoded_content(body["content"])
    if kind.needs_date and not body.get("date"):
        raise ValidationFailed.for_field("date", "is required for this kind of import (the changeover date)")
    if body.get("date") and not kind.needs_date:
        raise ValidationFailed.for_field("date", "is only taken by the opening kinds (the changeover date)")
    mapping = body.get("mapping") or {}
    columns = mapping.get("columns") or {}  # checked with the file's headings (domain/import_files.py)

    company_id, table = command.company_id, command.table
    refuse_unreadable(kind_name, kind, body["fileName"], content, columns, table, company_id)
    job_id = table.next_id(keys.id_sequence(company_id, keys.IMPORT_JOB))
    file_key = keys.import_file_object(company_id, job_id, safe_file_name(body["fileName"]))
    get_files().put(file_key, content)  # before the job: a job never names a file that is not there
    job = {**keys.import_job(company_id, job_id), "itemType": "IMPORT_JOB", "id": job_id, "companyId": company_id, "kind": kind_name,
           "fileName": body["fileName"], "fileKey": file_key, "fileBytes": len(content), "status": VALIDATING,
           "dryRun": bool(body.get("dryRun")), "date": body.get("date"),
           "mapping": {"columns": columns, "existing": mapping.get("existing") or "error"},
           "rows": 0, "valid": 0, "invalid": 0, "processed": 0, "createdAt": clock.now_iso(),
           "createdBy": command.principal.user_id}
    command.commit(Transaction(table).put_new(job), job_view(job, [], None))
    _start(table, company_id, job_id, queue)
    return get_job(table, company_id, job_id, ERRORS_LIMIT, None)


def refuse_unreadable(kind_name: str, kind: Any, file_name: str, content: bytes, columns: dict[str, Any],
                      table: Table, company_id: int) -> None:
    """Before anything is stored, what the request itself can tell: a file that cannot be read as the
    kind's table (not CSV or XLSX, not text, its headings wrong, too long) is a 400 naming each
    problem's row and column; a restore into a company that has records, a 409. Reading is bounded
    (domain/import_files.py), so the request pays at most a few seconds; the rows' own problems
    (the kind's rules) are the job's."""
    if kind_name == "company":
        from chalicelib.services.imports import company_archive, company_restore

        try:
            company_archive.check_container(content)
        except company_archive.ArchiveInvalid as invalid:
            raise file_invalid([invalid.error]) from None
        if not company_restore.is_empty(table, company_id):  # checked again by the job: a race
            raise ApiError("This company already has records: a company archive is restored into a new, empty "
                           "company.", code="COMPANY_NOT_EMPTY")
        return
    from chalicelib.domain import import_files

    try:
        rows, errors = import_files.read_rows(file_name, content, kind.columns, columns or None)
    except import_files.ImportFileInvalid as invalid:
        rows, errors = [], [invalid.error]
    lines = {row.line for row in rows}
    problems = [error for error in errors if error.row not in lines]  # the file's, not a row's
    if problems:
        raise file_invalid(problems)


def file_invalid(problems: list[Any]) -> ApiError:
    """400 IMPORT_INVALID naming each problem (RowError) by row and column, the first MAX_FILE_PROBLEMS."""
    return ApiError("The file cannot be imported: each problem is named by its row and column.",
                    code="IMPORT_INVALID", details=[
                        {"field": "content", "row": error.row, "column": error.column, "message": error.message}
                        for error in problems[:MAX_FILE_PROBLEMS]])


def decoded_content(text: str) -> bytes:
    """The file from its base64 (line breaks and a browser's `data:...;base64,` prefix allowed)."""
    compact = "".join(_DATA_URL.sub("", text.strip(), count=1).split())
    if len(compact) > (MAX_FILE_BYTES + 2) // 3 * 4:
        raise too_large()
    try:
        content = base64.b64decode(compact, validate=True)
    except (binascii.Error, ValueError):
        raise ValidationFailed.for_field("content", "must be the file's content in base64") from None
    if len(content) > MAX_FILE_BYTES:
        raise too_large()
    if not content:
        raise ValidationFailed.for_field("content", "the file is empty")
    return content


def too_large() -> ApiError:
    return ApiError(Phrase("The file is larger than {} MB; split it into smaller files.",
                           MAX_FILE_BYTES // (1024 * 1024)),
                    code="PAYLOAD_TOO_LARGE")


def safe_file_name(name: str) -> str:
    """The name as an object key's last part: its own name only (no folders), plain characters."""
    base = name.replace("\\", "/").rsplit("/", 1)[-1]
    return _UNSAFE_NAME.sub("_", base).strip("._")[-100:] or "file"


def _start(table: Table, company_id: int, job_id: int, queue: QueueGetter) -> None:
    jobs_queue = queue()
    if jobs_queue is not None:
        jobs_queue.send({"job": "import", "companyId": company_id, "id": job_id})
        return
    from chalicelib.services.imports import runner

    try:
        runner.run_import(table, company_id, job_id)
    except LostRace as lost:
        # not the request's race: run again, the request would make a second job (the queue's
        # redelivery is the way to run a job again)
        raise RuntimeError(f"import job {job_id} lost a race in its inline run") from lost


def get_job(table: Table, company_id: int, job_id: int, errors_limit: int = ERRORS_LIMIT,
            errors_cursor: str | None = None) -> dict[str, Any]:
    job = _job(table, company_id, job_id)
    try:
        errors, next_cursor = partition_page(table, keys.import_errors_partition(company_id, job_id), errors_limit,
                                             errors_cursor)
    except ValidationFailed:
        raise ValidationFailed.for_field("errorsCursor", "invalid or expired cursor") from None
    return job_view(job, errors, next_cursor)


def list_jobs(table: Table, company_id: int, limit: int, cursor: str | None) -> dict[str, Any]:
    """The company's jobs, newest first."""
    items, next_cursor = partition_page(table, keys.import_jobs_partition(company_id), limit, cursor, newest_first=True)
    return {"imports": [job_summary(item) for item in items], "limit": limit, "nextCursor": next_cursor}


def run_job(command: Command, job_id: int, queue: QueueGetter = get_jobs_queue) -> dict[str, Any]:
    """A `ready` dry run made real (its file is kept: no upload again), or a job a fault stopped
    (`failed` with `stopped`) run again: it resumes where it stopped."""
    table, company_id = command.table, command.company_id
    job = _job(table, company_id, job_id)
    check_permission(command.principal, PERMISSIONS[job["kind"]])
    if not stored_imports.start_importing(table, keys.import_job(company_id, job_id)):
        raise ApiError(Phrase("The import's status is {}: only a dry run that found no problem (ready), or an import "
                              "stopped by a fault, can be run.", job['status']), code="IMPORT_NOT_READY")
    if job.get("stopped"):
        from chalicelib.services.imports import runner

        table.remove(runner.stop_notice(company_id, job_id))
    _start(table, company_id, job_id, queue)
    return get_job(table, company_id, job_id, ERRORS_LIMIT, None)


def _job(table: Table, company_id: int, job_id: int) -> dict[str, Any]:
    job = table.get(keys.import_job(company_id, job_id))
    if job is None:
        raise NotFound("Import not found.")
    return job


def job_summary(job: dict[str, Any]) -> dict[str, Any]:
    return {"id": job["id"], "kind": job["kind"], "fileName": job["fileName"], "status": job["status"],
            "dryRun": job["dryRun"], "date": job.get("date"), "rows": job.get("rows", 0),
            "valid": job.get("valid", 0), "invalid": job.get("invalid", 0), "processed": job.get("processed", 0),
            "result": job.get("result"), "createdAt": job["createdAt"], "finishedAt": job.get("finishedAt")}


def job_view(job: dict[str, Any], errors: list[dict[str, Any]], next_cursor: str | None) -> dict[str, Any]:
    """The job with a page of its problems; a problem the API's model found carries its `issue`
    (validation kind and context) for the route to answer it in the reader's language."""
    return {**job_summary(job),
            "errors": [{"row": error["row"], "column": error.get("column"), "message": error["message"],
                        **({"issue": error["issue"]} if error.get("issue") else {}),
                        **({"phrase": error["phrase"]} if error.get("phrase") else {})}
                       for error in errors],
            "errorsNextCursor": next_cursor}


def _table_kind(name: str) -> Any:
    if name not in kinds.TABLE_KINDS:
        raise NotFound(Phrase("No import template of that kind: the kinds are {}.", ', '.join(kinds.TABLE_KINDS)))
    return kinds.kind(name)


def template_columns(name: str, lang: str) -> dict[str, Any]:
    """A kind's template described: its columns with their headings in `lang`, and whether it asks a date."""
    from chalicelib.domain.import_templates import heading

    kind = _table_kind(name)
    return {"kind": name, "needsDate": kind.needs_date, "columns": [
        {"name": column.name, "heading": heading(column, lang), "required": column.required,
         "example": column.example} for column in kind.columns]}


def template_file(name: str, lang: str, media_type: str) -> bytes:
    """A kind's template to fill in (CSV or XLSX), its headings in `lang`."""
    from chalicelib.domain.import_templates import template

    return template(_table_kind(name).columns, lang, media_type)
