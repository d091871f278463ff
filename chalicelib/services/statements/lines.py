"""Reading an account's statement lines."""
from __future__ import annotations

from typing import Any

from chalicelib.errors import NotFound
from chalicelib.store import keys
from chalicelib.store.table import Table

UNMATCHED, MATCHED, IGNORED = keys.LINE_STATUSES


def get_line(table: Table, company_id: int, account_id: int, line_id: int) -> dict[str, Any]:
    item = table.get(keys.statement_line(company_id, account_id, line_id))
    if item is None:
        raise NotFound("Statement line not found.")
    return item
