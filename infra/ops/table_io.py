"""Whole-table reads and batched writes of typed items (DynamoDB's `{"S": ...}` form), for the
operator's tools and the local stack: never a request's path."""
from __future__ import annotations

from typing import Any, Iterator

BATCH_WRITE_MAX = 25  # DynamoDB's limit per BatchWriteItem


def scan_items(client: Any, table_name: str, **scan_args: Any) -> Iterator[dict[str, Any]]:
    """Every item a Scan returns, page after page (`scan_args`: a filter, ...)."""
    start = None
    while True:
        page = client.scan(TableName=table_name, **scan_args, **({"ExclusiveStartKey": start} if start else {}))
        yield from page["Items"]
        start = page.get("LastEvaluatedKey")
        if not start:
            return


def scan_types(table: Any, item_types: set[str]) -> list[dict[str, Any]]:
    """Every item of the given `itemType`s, as the store reads them (a whole-table scan: operators' tools only)."""
    from chalicelib.store.table import from_attributes

    kinds = sorted(item_types)
    return [from_attributes(raw) for raw in scan_items(
        table.client, table.name, FilterExpression="itemType IN (" + ", ".join(f":t{i}" for i in range(len(kinds))) + ")",
        ExpressionAttributeValues={f":t{i}": {"S": kind} for i, kind in enumerate(kinds)})]


def write_batches(client: Any, table_name: str, requests: list[dict[str, Any]]) -> None:
    """Put and delete requests in batches, each sent again until none is left unprocessed."""
    for start in range(0, len(requests), BATCH_WRITE_MAX):
        pending: dict[str, Any] = {table_name: requests[start:start + BATCH_WRITE_MAX]}
        while pending:
            pending = client.batch_write_item(RequestItems=pending).get("UnprocessedItems") or {}
