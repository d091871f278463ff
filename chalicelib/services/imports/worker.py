"""The jobs queue's Lambda (`import_worker` in app.py): each message names a job, `{"job": "import" |
"export", "companyId", "id"}`. A fault propagates, so the queue delivers the message again (a run
again resumes: runner.py); on the last receive the redrive policy allows (LAST_RECEIVE, the
template's maxReceiveCount) an import is first marked failed and stopped, so that no job stays
`importing` for ever once its message has gone to the dead-letter queue."""
from __future__ import annotations

import importlib
import json
from typing import Any

from chalicelib.observability import logger
from chalicelib.store.table import Table, get_table

LAST_RECEIVE = 4  # ImportJobsQueue's maxReceiveCount (infra/deploy/resources.json; a test keeps them equal)


def run_messages(event: Any) -> None:
    """A chalice SQSEvent (batch size 1): each record's job run."""
    for record in event:
        raw = record.to_dict()
        receive_count = int((raw.get("attributes") or {}).get("ApproximateReceiveCount", "1"))
        run_message(get_table(), json.loads(record.body), receive_count)


def run_message(table: Table, message: dict[str, Any], receive_count: int) -> None:
    job, company_id, job_id = message.get("job"), int(message["companyId"]), int(message["id"])
    if job == "export":
        importlib.import_module("chalicelib.services.imports.company_export").run_export(table, company_id, job_id)
        return
    if job != "import":
        logger.error("unknown job message", extra={"job": job, "companyId": company_id, "jobId": job_id})
        return  # nothing would ever run it: not worth four receives
    from chalicelib.services.imports import runner

    try:
        runner.run_import(table, company_id, job_id)
    except Exception:
        if receive_count >= LAST_RECEIVE:
            logger.exception("import job stopped on its last receive", extra={"companyId": company_id, "jobId": job_id})
            runner.mark_stopped(table, company_id, job_id, receive_count)
        raise
