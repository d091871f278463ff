"""A company's archive (services/imports/company_export.py, company_archive.py, archive_consistency.py,
company_restore.py): items as DynamoDB types them, read and written back whole, and the export jobs."""
from __future__ import annotations

from typing import Any

from chalicelib.errors import ApiError
from chalicelib.store import keys
from chalicelib.store.table import Table
from chalicelib.store.transaction import Transaction

# the attributes that make an item's key (never copied from one company's item into another's)
KEY_ATTRIBUTES = ("PK", "SK")
# the partitions of a typed item's indexes that may name other companies (named when unreadable)
CROSS_COMPANY_INDEX_PARTITIONS = ("GSI1PK", "GSI2PK")
# the family (store/company_items.py `family`) of the company's card gateways
PAYMENT_GATEWAY_FAMILY = keys.small_collection(0, keys.PAYMENT_GATEWAY).split("#")[-1]


def typed_key(item: dict[str, Any]) -> tuple[str, str]:
    """A typed item's key, as `keys.pair` gives a plain one."""
    return item["PK"]["S"], item["SK"]["S"]


def has_typed_key(item: Any) -> bool:
    return isinstance(item, dict) and "S" in item.get("PK", {}) and "S" in item.get("SK", {})


def typed_sort_key(item: dict[str, Any]) -> str:
    return str(item["SK"]["S"])


def last_part_of_sort_key(item: dict[str, Any]) -> str:
    """What a counter's or sequence's sort key ends with: the kind it counts."""
    return typed_sort_key(item).split("#")[-1]


def sort_key_of(key: keys.Key) -> str:
    """A key's sort part, which names a counter (an archive's consistency problem names it)."""
    return key["SK"]


def restore(transaction: Transaction, item: dict[str, Any], on_taken: ApiError) -> None:
    """A typed item written back whole where nothing stands yet."""
    transaction.put_typed(item, condition="attribute_not_exists(PK)", on_fail=on_taken)


def take_for_restore(transaction: Transaction, guard: dict[str, Any], job_id: int, on_taken: ApiError) -> None:
    """The company's restore guard for this job: refused when another job's restore holds it."""
    transaction.put(guard, condition="attribute_not_exists(PK) OR jobId = :job", values={":job": job_id},
                    on_fail=on_taken)


def newest_export(table: Table, company_id: int) -> dict[str, Any] | None:
    newest, _ = table.query(partition=("PK", keys.export_jobs_partition(company_id)), forward=False, limit=1,
                            consistent=True)
    return newest[0] if newest else None


def set_on_existing(table: Table, key: keys.Key, changes: dict[str, Any]) -> None:
    """`changes` set on an item still there (an export job), in a transaction of its own."""
    transaction = Transaction(table)
    transaction.set_fields(key, changes, condition="attribute_exists(PK)")
    transaction.commit()
