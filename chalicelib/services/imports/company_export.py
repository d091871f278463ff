"""Export everything (POST /exports/company): the company archive (services/imports/company_archive.py)
made by a job, kept in the files bucket, downloaded through a presigned link.

The company's items are found by a parallel Scan of the whole table filtered to its partitions
(store/company_items.py): exports are rare and a Scan costs about $0.03 per GB read on demand
(eventually consistent), cheaper than an index every write of every company would keep up for
them. The Scan reads while the company may write: an archive read then may hold one side of a
write (a posting without its balance, an invoice without its counter's step). The export checks
what it read (services/imports/archive_consistency.py) and reads again, up to READS times, before
it fails the job naming the problem; the restore checks the same again. Export out of hours."""
from __future__ import annotations

import logging
import time
from typing import Any

from chalicelib import clock
from chalicelib.domain.import_rows import RowError
from chalicelib.errors import NotFound
from chalicelib.events.queue import DeliveryQueue
from chalicelib.services.commands import Command
from chalicelib.services.imports import archive_consistency, company_archive
from chalicelib.settings import get_settings
from chalicelib.store import keys
from chalicelib.store.company_items import family, scan_company
from chalicelib.store.files import get_files
from chalicelib.store.repositories import archives as stored_archives
from chalicelib.store.table import Table, make_client

LINK_SECONDS = 3600  # a download link lasts an hour; GET /exports/{id} makes a new one
EXPORT_KIND = keys.EXPORT_JOB
READS = 3  # a torn read is read again this many times in all
_log = logging.getLogger(__name__)


# the worker's 900 s and the queue's first redelivery: past that an export still "running" has stopped
UNDER_WAY_SECONDS = 15 * 60 + 300


def export_view(item: dict[str, Any], with_link: bool = True) -> dict[str, Any]:
    done = item["status"] == "done"
    return {"id": item["id"], "status": item["status"], "createdAt": item["createdAt"],
            "finishedAt": item.get("finishedAt"), "counts": item.get("counts"),
            "downloadUrl": get_files().presigned_url(item["objectKey"], LINK_SECONDS, item["fileName"])
            if done and with_link else None}


def start_export(command: Command) -> dict[str, Any]:
    """The export job, pending; without a queue (the unit tests) it runs in this request. An export
    of the company still under way is answered instead of a new one: each reads the whole table."""
    table, company_id = command.table, command.company_id
    under_way = _export_under_way(table, company_id)
    if under_way is not None:
        return export_view(under_way, with_link=False)
    export_id = table.next_id(keys.id_sequence(company_id, EXPORT_KIND))
    object_key = keys.export_archive_object(company_id, export_id)
    item = {**keys.export_job(company_id, export_id), "itemType": EXPORT_KIND, "id": export_id, "status": "pending",
            "createdAt": clock.now_iso(), "createdBy": command.principal.user_id, "objectKey": object_key,
            "fileName": object_key.rsplit("/", 1)[-1]}
    transaction = command.transaction()
    transaction.put_new(item)
    command.commit(transaction, export_view(item, with_link=False))
    queue_url = get_settings().import_queue_url
    if queue_url:
        DeliveryQueue(make_client("sqs"), queue_url).send({"job": "export", "companyId": company_id, "id": export_id})
    else:
        try:
            run_export(table, company_id, export_id)
        except Exception:  # noqa: BLE001 - recorded on the job (failed): the answer says so
            pass
    return get_export(table, company_id, export_id, with_link=False)


def _export_under_way(table: Table, company_id: int) -> dict[str, Any] | None:
    """The newest export, while it is pending or running and younger than the worker's longest run
    (an older one stopped: a new export may start)."""
    newest = stored_archives.newest_export(table, company_id)
    if not newest or newest["status"] not in ("pending", "running"):
        return None
    started = clock.parse_iso(str(newest["createdAt"]))
    return newest if (clock.now() - started).total_seconds() < UNDER_WAY_SECONDS else None


def get_export(table: Table, company_id: int, export_id: int, with_link: bool = True) -> dict[str, Any]:
    item = table.get(keys.export_job(company_id, export_id))
    if item is None:
        raise NotFound("Export not found.")
    return export_view(item, with_link)


def run_export(table: Table, company_id: int, export_id: int) -> dict[str, Any]:
    """The worker's part (or the request's, without a queue): every item of the company read,
    the archive made and stored, the job done with its counts. A job already done is left as it is
    (a message delivered twice); a fault marks it failed and raises (the queue tries again)."""
    key = keys.export_job(company_id, export_id)
    job = table.get(key)
    if job is None or job["status"] == "done":
        return job or {}
    _set(table, key, {"status": "running"})
    try:
        company = table.get(keys.company(company_id)) or {"id": company_id}
        items = _consistent_items(table, company_id, company.get("country"))
        content, manifest = company_archive.build(company, items, clock.now_iso())
        get_files().put(job["objectKey"], content, "application/zip")
    except Exception as error:
        _log.exception("export %s of company %s failed", export_id, company_id)
        _set(table, key, {"status": "failed", "finishedAt": clock.now_iso(),
                          **({"error": str(error)} if isinstance(error, TornRead) else {})})
        raise
    counts = {path.split("/")[-1].rsplit(".", 1)[0]: entry["count"] for path, entry in manifest["files"].items()
              if path.startswith(company_archive.ITEMS_FOLDER)}
    changes = {"status": "done", "finishedAt": clock.now_iso(), "counts": {"items": sum(counts.values()), **counts},
               "bytes": len(content)}
    _set(table, key, changes)
    return {**job, **changes}


class TornRead(Exception):
    """Every read of the company caught it writing: the archive would not be one moment of it."""


def _consistent_items(table: Table, company_id: int, country: str | None) -> list[dict[str, Any]]:
    """The archived items of a read whose books and counters agree (read again when torn)."""
    problems: list[RowError] = []
    for _ in range(READS):
        now = int(time.time())
        items = [kept for item in scan_company(table, company_id)
                 if (kept := company_archive.archived(item, company_id, now)) is not None]
        by_family: dict[str, list[dict[str, Any]]] = {}
        for item in items:
            by_family.setdefault(family(item, company_id), []).append(item)
        archive = company_archive.Archive({"companyId": company_id, "country": country}, by_family)
        problems = archive_consistency.torn_problems(archive)
        if not problems:
            return items
    first = problems[0].message
    raise TornRead(first if archive_consistency.TORN in first else f"{first}: {archive_consistency.TORN}")


def _set(table: Table, key: dict[str, str], changes: dict[str, Any]) -> None:
    stored_archives.set_on_existing(table, key, changes)

