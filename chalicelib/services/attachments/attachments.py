"""Attaching papers to a record: POST answers a presigned upload; reads ask S3 whether the file
arrived (`status: pending|uploaded`) and answer a presigned download once it has; DELETE of an
uploaded file only while the record is a draft (a document or journal entry `draft`, a statement line
not matched), of a pending one (no file arrived) whatever the record; the item first (under that
condition, in one transaction) and then the object. A pending attachment older than its upload link
(abandoned: no file can arrive any more) is removed when it would keep a record at its limit."""
from __future__ import annotations

import datetime
import logging
import secrets
from typing import Any

from chalicelib import clock
from chalicelib.domain import attachments as rules
from chalicelib.errors import ApiError, NotFound, ValidationFailed
from chalicelib.services import records
from chalicelib.services.commands import Command
from chalicelib.store import keys
from chalicelib.store.attachments import get_attachment_objects
from chalicelib.store.repositories import attachments as stored
from chalicelib.store.table import Table
from chalicelib.store.transaction import Transaction

log = logging.getLogger(__name__)
PENDING, UPLOADED = "pending", "uploaded"
_STORED = ("id", "recordType", "recordId", "fileName", "contentType", "size", "createdAt")


def _not_found() -> NotFound:
    return NotFound("Attachment not found.")


def _record_not_found(record_type: str) -> NotFound:
    return NotFound({"document": "Document not found.", "journalEntry": "Journal entry not found.",
                     "statementLine": "Statement line not found."}[record_type])


# --- the record an attachment belongs to ---------------------------------------------------------------

def _statement_line_key(table: Table, company_id: int, line_id: int) -> keys.Key | None:
    """A line's key from its id alone (ids are the company's): among its few bank accounts' lines."""
    accounts = records.small_records(table, company_id, keys.BANK_ACCOUNT)
    candidates = [keys.statement_line(company_id, int(account["id"]), line_id) for account in accounts]
    return stored.first_existing(table, candidates)


def _item_key(company_id: int, record_type: str, record_id: int, bank_account_id: int | None) -> keys.Key:
    if record_type == "statementLine":
        assert bank_account_id is not None
        return keys.statement_line(company_id, bank_account_id, record_id)
    if record_type == "document":
        return keys.document(company_id, record_id)
    return keys.entity(company_id, keys.JOURNAL_ENTRY, record_id)


def record_key(table: Table, company_id: int, record_type: str, record_id: int) -> keys.Key | None:
    """The record's item key, None when the company has no such record."""
    if record_type == "statementLine":
        return _statement_line_key(table, company_id, record_id)
    key = _item_key(company_id, record_type, record_id, None)
    return key if table.get(key) is not None else None


def _existing_record(table: Table, company_id: int, record_type: str, record_id: int) -> keys.Key:
    key = record_key(table, company_id, record_type, record_id)
    if key is None:
        raise _record_not_found(record_type)
    return key


# --- answers -------------------------------------------------------------------------------------------

def _expiry(seconds: int) -> str:
    return clock.iso(clock.now() + datetime.timedelta(seconds=seconds))


def _object_key(company_id: int, item: dict[str, Any]) -> str:
    """Built from the caller's company, never stored whole: an item copied into another company (a
    restored archive) can only name that company's objects."""
    return keys.attachment_object_key(company_id, item["recordType"], int(item["recordId"]), int(item["id"]),
                                      item.get("objectToken"))


def _arrived(company_id: int, item: dict[str, Any]) -> bool:
    return get_attachment_objects().uploaded_size(_object_key(company_id, item)) is not None


def _view(company_id: int, item: dict[str, Any]) -> dict[str, Any]:
    """The attachment with whether its file arrived (S3's length is the signed one: S3 took no other)."""
    view = {name: item[name] for name in _STORED}
    view["status"] = UPLOADED if _arrived(company_id, item) else PENDING
    return view


# --- commands and reads --------------------------------------------------------------------------------

def create_attachment(command: Command, fields: dict[str, Any]) -> dict[str, Any]:
    table, company_id = command.table, command.company_id
    record_type, record_id = fields["recordType"], int(fields["recordId"])
    file_name = rules.safe_file_name(fields["fileName"])
    if file_name is None:
        raise ValidationFailed.for_field("fileName", "must name a file")
    record = _existing_record(table, company_id, record_type, record_id)
    bank_account_id = stored.bank_account_of(record) if record_type == "statementLine" else None
    attachment_id = table.next_id(keys.id_sequence(company_id, keys.ATTACHMENT))
    item = {**keys.attachment(company_id, record_type, record_id, attachment_id), "itemType": keys.ATTACHMENT,
            "id": attachment_id, "recordType": record_type, "recordId": record_id, "fileName": file_name,
            "contentType": fields["contentType"], "size": int(fields["size"]), "objectToken": secrets.token_hex(8),
            "createdAt": clock.now_iso(), "createdBy": command.principal.user_id}
    if bank_account_id is not None:
        item["bankAccountId"] = bank_account_id
    transaction = command.transaction()
    transaction.require(record, _record_not_found(record_type))
    transaction.put_new(item)
    transaction.put_new({**keys.attachment_pointer(company_id, attachment_id), "recordType": record_type,
                         "recordId": record_id})
    abandoned = _abandoned_when_full(table, company_id, record_type, record_id)
    for stale in abandoned:
        _delete_items(transaction, company_id, stale)
    stored.count_on_record(transaction, company_id, record_type, record_id, 1 - len(abandoned),
                           at_most=rules.MAX_PER_RECORD + len(abandoned),
                           on_full=ApiError("A record takes at most 10 attachments: delete one "
                                            "first.", code="ATTACHMENT_LIMIT_REACHED"))
    upload_url = get_attachment_objects().upload_url(_object_key(company_id, item), item["contentType"],
                                                     item["size"], rules.UPLOAD_EXPIRES_S)
    answer = {**{name: item[name] for name in _STORED}, "status": PENDING}
    # the link is shown once, as an API key's secret: an Idempotency-Key replay answers it null (by
    # then it may have expired); the client deletes the pending attachment and attaches again
    result = {**answer, "uploadUrl": upload_url, "uploadExpiresAt": _expiry(rules.UPLOAD_EXPIRES_S)}
    return command.commit(transaction, result, replay={**answer, "uploadUrl": None, "uploadExpiresAt": None})


def _abandoned_when_full(table: Table, company_id: int, record_type: str, record_id: int) -> list[dict[str, Any]]:
    """When the record holds its limit: its pending attachments older than an upload link (theirs has
    expired, no file can arrive any more), so that announced uploads never made block it for ever."""
    count = table.get(keys.attachment_count(company_id, record_type, record_id))
    if count is None or int(count.get("count", 0)) < rules.MAX_PER_RECORD:
        return []
    links_made_after = clock.now() - datetime.timedelta(seconds=rules.UPLOAD_EXPIRES_S + rules.CLOCK_SKEW_S)
    items = stored.of_record(table, company_id, record_type, record_id)
    return [item for item in items
            if clock.parse_iso(item["createdAt"]) < links_made_after and not _arrived(company_id, item)]


def _delete_items(transaction: Transaction, company_id: int, item: dict[str, Any]) -> None:
    """The attachment's item (still there: a concurrent delete fails the transaction) and its pointer."""
    record_type, record_id, attachment_id = item["recordType"], int(item["recordId"]), int(item["id"])
    stored.delete(transaction, company_id, record_type, record_id, attachment_id, _not_found())


def _stored(table: Table, company_id: int, attachment_id: int) -> dict[str, Any]:
    pointer = table.get(keys.attachment_pointer(company_id, attachment_id))
    item = None if pointer is None else table.get(
        keys.attachment(company_id, pointer["recordType"], int(pointer["recordId"]), attachment_id))
    if item is None:
        raise _not_found()
    return item


def list_attachments(table: Table, company_id: int, record_type: str, record_id: int) -> dict[str, Any]:
    """The record's attachments, oldest first (at most 10: one Query)."""
    _existing_record(table, company_id, record_type, record_id)
    items = stored.of_record(table, company_id, record_type, record_id)
    return {"data": [_view(company_id, item) for item in items]}


def get_attachment(table: Table, company_id: int, attachment_id: int) -> dict[str, Any]:
    """With a download link once the file has arrived (null while pending)."""
    item = _stored(table, company_id, attachment_id)
    view = _view(company_id, item)
    uploaded = view["status"] == UPLOADED
    view["downloadUrl"] = get_attachment_objects().download_url(
        _object_key(company_id, item), item["contentType"], rules.content_disposition(item["fileName"]),
        rules.DOWNLOAD_EXPIRES_S) if uploaded else None
    view["downloadExpiresAt"] = _expiry(rules.DOWNLOAD_EXPIRES_S) if uploaded else None
    return view


def delete_attachment(command: Command, attachment_id: int) -> None:
    """An uploaded file only from a draft; a pending one (its file never arrived: an upload that failed
    or was abandoned) whatever the record, so announced uploads never made cannot block it."""
    table, company_id = command.table, command.company_id
    item = _stored(table, company_id, attachment_id)
    record_type, record_id = item["recordType"], int(item["recordId"])
    bank_account_id = int(item["bankAccountId"]) if item.get("bankAccountId") is not None else None
    transaction = command.transaction()
    if _arrived(company_id, item):
        stored.require_draft(transaction, _item_key(company_id, record_type, record_id, bank_account_id), record_type,
                             ApiError("Only a draft's attachments can be deleted (a document or journal entry "
                                           "in draft, a statement line not matched).",
                                           code="ATTACHMENT_RECORD_NOT_DRAFT"))
    _delete_items(transaction, company_id, item)
    stored.count_on_record(transaction, company_id, record_type, record_id, -1)
    command.commit(transaction, None)
    # after the commit: a failed delete leaves bytes behind, never an entry without its papers; a pending
    # one's file arriving meanwhile goes too (the caller asked it gone; versioning keeps its bytes)
    try:
        get_attachment_objects().delete(_object_key(company_id, item))
    except Exception:
        log.exception("attachment %s: its object was not deleted", attachment_id)
