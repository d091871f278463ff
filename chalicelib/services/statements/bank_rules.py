"""The company's bank rules: conditions on a statement line and what to create for it."""
from __future__ import annotations

from typing import Any

from chalicelib.services.commands import Command
from chalicelib.store.table import Table


def active_rules(table: Table, company_id: int) -> list[dict[str, Any]]:
    """The company's rules in priority order (first wins)."""
    return []


def apply_auto_rules(command: Command, account: dict[str, Any], lines: list[dict[str, Any]]) -> int:
    """After an import: each new line an `autoCreate` rule matches is created and matched
    (matching.match_line with `create` and `ruleId`), one transaction per line. Answers how many."""
    return 0
