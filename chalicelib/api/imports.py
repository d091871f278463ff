"""Moving a business in (issue 41): import jobs from CSV/XLSX files (or a company archive) and the
templates to fill in. Problems are stored in English and answered in the caller's language."""
from __future__ import annotations

from typing import Any

from chalice import Blueprint

from chalicelib import messages
from chalicelib.api.exports import file_answer, requested_type
from chalicelib.api.routing import READ, WRITE, Call, endpoint
from chalicelib.exports import CSV, XLSX
from chalicelib.services.imports.jobs import MAX_REQUEST_BYTES

blueprint = Blueprint(__name__)
TAG = "Imports"
M = "chalicelib.models.imports:"
TEMPLATE_TYPES = (CSV, XLSX)


def _in_language(job: dict[str, Any], call: Call) -> dict[str, Any]:
    lang = messages.language(call.headers)
    return {**job, "errors": [{"row": error["row"], "column": error["column"],
                               "message": messages.stored_problem(error["message"], error.get("issue"), lang,
                                                                  error.get("phrase"))}
                              for error in job["errors"]]}


@endpoint(blueprint, "POST", "/imports", summary="Import a file (CSV, XLSX, or a company archive): a job, run "
          "asynchronously", tag=TAG, body=M + "ImportCreate", response=M + "ImportJob", status=202,
          permission=WRITE, max_body_bytes=MAX_REQUEST_BYTES)
def create_import(call: Call) -> Any:
    from chalicelib.services.imports import jobs

    return _in_language(jobs.create_job(call.command, call.body.model_dump(by_alias=True)), call)


@endpoint(blueprint, "GET", "/imports", summary="The company's import jobs, newest first", tag=TAG,
          query=M + "ImportListQuery", response=M + "ImportJobList", permission=READ)
def list_imports(call: Call) -> Any:
    from chalicelib.services.imports import jobs

    return jobs.list_jobs(call.command.table, call.principal.company_id, call.query.limit, call.query.cursor)


@endpoint(blueprint, "GET", "/imports/{id}", summary="An import job, with a page of its problems by row and column",
          tag=TAG, query=M + "ImportJobQuery", response=M + "ImportJob", permission=READ)
def get_import(call: Call) -> Any:
    from chalicelib.services.imports import jobs

    job = jobs.get_job(call.command.table, call.principal.company_id, call.ids["id"], call.query.errors_limit,
                       call.query.errors_cursor)
    return _in_language(job, call)


@endpoint(blueprint, "POST", "/imports/{id}/run", summary="Run a dry run that found no problem for real (or an "
          "import a fault stopped, again)", tag=TAG, response=M + "ImportJob", status=202, permission=WRITE,
          idempotent=False)
def run_import(call: Call) -> Any:
    from chalicelib.services.imports import jobs

    return _in_language(jobs.run_job(call.command, call.ids["id"]), call)


@endpoint(blueprint, "GET", "/imports/templates/{kind}", summary="A kind's template: its columns as JSON, or the "
          "file to fill in (CSV or XLSX by Accept)", tag=TAG, query=M + "TemplateQuery", response=M + "ImportTemplate",
          string_ids=("kind",), exports=TEMPLATE_TYPES, permission=READ)
def import_template(call: Call) -> Any:
    from chalicelib.services.imports import jobs

    lang = call.query.language or messages.language(call.headers)
    call.response_headers["Vary"] = "Accept, Accept-Language"
    media_type = requested_type(call.headers, TEMPLATE_TYPES)
    if media_type is None:
        return jobs.template_columns(call.ids["kind"], lang)
    body = jobs.template_file(call.ids["kind"], lang, media_type)
    return file_answer(body, media_type, f"{call.ids['kind']}-{lang}", "Accept, Accept-Language")
