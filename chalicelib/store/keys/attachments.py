"""Attachments (issue 44): the papers behind a document, journal entry or statement line. A record's
attachments are one partition (listed by one strongly consistent Query, counted by an item beside
them); an attachment found by its id alone goes through a pointer item naming its record."""
from __future__ import annotations

from chalicelib.store.keys.base import Key, sortable_id

ATTACHMENT = "ATTACH"
# recordType -> the part of the keys naming the record's kind
ATTACHED_KINDS = {"document": "DOC", "journalEntry": "JE", "statementLine": "BANKLINE"}
ATTACHMENT_COUNT_SORT_KEY = "COUNT"
ATTACHMENT_SORT_PREFIX = "A#"  # the record's attachments, beside their count


def record_attachments_partition(company_id: int, record_type: str, record_id: int) -> str:
    return f"C#{company_id}#{ATTACHMENT}#{ATTACHED_KINDS[record_type]}#{record_id}"


def attachment(company_id: int, record_type: str, record_id: int, attachment_id: int) -> Key:
    return {"PK": record_attachments_partition(company_id, record_type, record_id),
            "SK": f"{ATTACHMENT_SORT_PREFIX}{sortable_id(attachment_id)}"}


def attachment_count(company_id: int, record_type: str, record_id: int) -> Key:
    """How many attachments the record has: added to (under a condition: fewer than the most)
    and taken from in the transactions that create and delete them."""
    return {"PK": record_attachments_partition(company_id, record_type, record_id), "SK": ATTACHMENT_COUNT_SORT_KEY}


def attachment_pointer(company_id: int, attachment_id: int) -> Key:
    """{recordType, recordId} of an attachment, by its id (ids from the company's ATTACH sequence)."""
    return {"PK": f"C#{company_id}#{ATTACHMENT}ID", "SK": sortable_id(attachment_id)}


def attachment_object_key(company_id: int, record_type: str, record_id: int, attachment_id: int,
                          token: str | None = None) -> str:
    """The S3 object's key in the attachments bucket: the company first (never another's), no file
    name (the name is metadata, handed back in the download's Content-Disposition); the id then the
    attachment's random token (none on attachments made before it), so no upload link of a deleted
    attachment names a key anything reads."""
    suffix = f"{attachment_id}-{token}" if token else f"{attachment_id}"
    return f"companies/{company_id}/{ATTACHED_KINDS[record_type]}/{record_id}/{suffix}"
