"""Attachments' items: each under its record's partition, a pointer by id, and the record's count
(services/attachments/attachments.py; the files themselves are in store/attachments.py)."""
from __future__ import annotations

from typing import Any

from chalicelib.errors import ApiError
from chalicelib.store import keys
from chalicelib.store.table import Table
from chalicelib.store.transaction import Transaction


def first_existing(table: Table, candidates: list[keys.Key]) -> keys.Key | None:
    """The first of these keys whose item exists (their keys alone read, in one BatchGet)."""
    found = table.batch_get(candidates, fields=("PK", "SK")) if candidates else {}
    return next((key for key in candidates if keys.pair(key) in found), None)


def bank_account_of(statement_line: keys.Key) -> int:
    """The bank account whose partition holds a statement line's item."""
    return int(statement_line["PK"].rsplit("#", 1)[1])


def of_record(table: Table, company_id: int, record_type: str, record_id: int) -> list[dict[str, Any]]:
    """The record's attachments, oldest first (at most a few: one Query)."""
    return table.query_all(partition=("PK", keys.record_attachments_partition(company_id, record_type, record_id)),
                           sort_prefix=("SK", keys.ATTACHMENT_SORT_PREFIX), consistent=True)


def require_draft(transaction: Transaction, record: keys.Key, record_type: str, on_not_draft: ApiError) -> None:
    """The record still a draft when this commits (a statement line not matched), or gone (a draft
    document deleted leaves its papers deletable)."""
    if record_type == "statementLine":
        condition, values = "attribute_not_exists(PK) OR #status <> :matched", {":matched": "matched"}
    else:
        condition, values = "attribute_not_exists(PK) OR #status = :draft", {":draft": "draft"}
    transaction.check(record, condition, names={"#status": "status"}, values=values, on_fail=on_not_draft)


def count_on_record(transaction: Transaction, company_id: int, record_type: str, record_id: int, change: int,
                    at_most: int | None = None, on_full: ApiError | None = None) -> None:
    """Adds `change` to the record's count of attachments; refused (`on_full`) when the count before
    it has reached `at_most`."""
    key = keys.attachment_count(company_id, record_type, record_id)
    if at_most is None:
        transaction.update(key, "ADD #count :change", names={"#count": "count"}, values={":change": change})
        return
    transaction.update(key, "ADD #count :change", condition="attribute_not_exists(#count) OR #count < :most",
                       names={"#count": "count"}, values={":change": change, ":most": at_most}, on_fail=on_full)


def delete(transaction: Transaction, company_id: int, record_type: str, record_id: int, attachment_id: int,
           on_missing: ApiError) -> None:
    """The attachment's item (still there: a concurrent delete fails the transaction) and its pointer."""
    transaction.delete(keys.attachment(company_id, record_type, record_id, attachment_id),
                       condition="attribute_exists(PK)", on_fail=on_missing)
    transaction.delete(keys.attachment_pointer(company_id, attachment_id))
