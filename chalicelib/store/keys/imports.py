"""Moving a business in and out (issue 41): import jobs with their problems and the markers of the
units they landed, company exports, and where their files lie in the files bucket (store/files.py)."""
from __future__ import annotations

from chalicelib.store.keys.base import Key, company_prefix, sortable_id

IMPORT_JOB = "IMPORT"
EXPORT_JOB = "EXPORT"


def import_jobs_partition(company_id: int) -> str:
    """A company's import jobs, by id (newest last: listed backwards)."""
    return f"{company_prefix(company_id)}#{IMPORT_JOB}"


def import_job(company_id: int, job_id: int) -> Key:
    return {"PK": import_jobs_partition(company_id), "SK": sortable_id(job_id)}


def import_errors_partition(company_id: int, job_id: int) -> str:
    """A job's problems, in the file's order: paged on read."""
    return f"{company_prefix(company_id)}#IMPORTERR#{job_id}"


def import_error(company_id: int, job_id: int, row: int, sequence: int) -> Key:
    """A problem of the job at a file's line (0: the file as a whole), the `sequence`-th of it."""
    return {"PK": import_errors_partition(company_id, job_id), "SK": f"{row:08d}#{sequence:06d}"}


def import_unit(company_id: int, job_id: int, unit: str) -> Key:
    """The marker that a unit of the job landed (written in the unit's own transaction)."""
    return {"PK": f"{company_prefix(company_id)}#IMPORTUNIT#{job_id}", "SK": unit}


def export_jobs_partition(company_id: int) -> str:
    return f"{company_prefix(company_id)}#{EXPORT_JOB}"


def export_job(company_id: int, export_id: int) -> Key:
    return {"PK": export_jobs_partition(company_id), "SK": sortable_id(export_id)}


# Object keys in the files bucket: a company's files under a prefix of its own, like its items.
def import_file_object(company_id: int, job_id: int, file_name: str) -> str:
    """The uploaded file of a job; `file_name` already sanitized (services/imports/jobs.py)."""
    return f"imports/{company_id}/{job_id}/{file_name}"


def export_archive_object(company_id: int, export_id: int) -> str:
    return f"exports/{company_id}/{export_id}/company-{company_id}-export-{export_id}.zip"


# issue 41: fixarch
def company_restore_guard(company_id: int) -> Key:
    """The company taken by one restore job (its `jobId`): a second job restoring into it is refused."""
    return {"PK": company_prefix(company_id), "SK": "RESTORE"}
