"""What an unmatched line could be: ranked candidates (domain/bank_matching.py scores them)."""
from __future__ import annotations

from typing import Any

from chalicelib.store.table import Table


def suggest(table: Table, company_id: int, account: dict[str, Any],
            lines: list[dict[str, Any]]) -> dict[int, list[dict[str, Any]]]:
    """line id -> its suggestions, best first: [{kind: transaction|document|payment|rule, score,
    reasons, transactionId?, documents?: [{documentId, amount}], ruleId?}]. One page of lines at a
    time: candidates are read once for the page, never by a scan of the company's documents."""
    return {}
