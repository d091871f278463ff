"""Acting on a statement line: match (to a bank transaction, to documents it pays, to a new bank
transaction, to a transfer between own accounts), unmatch, ignore and restore. Each one command,
one transaction."""
from __future__ import annotations

from typing import Any

from chalicelib.services.commands import Command


def match_line(command: Command, account_id: int, line_id: int, body: dict[str, Any]) -> dict[str, Any]:
    """`body` is the match request as the API takes it (camelCase): exactly one of `transactionId`,
    `documents` (+ `paymentMethodId`?), `create`, `transferToAccountId`; `ruleId` when a bank rule
    creates it. Answers the line as stored after the match."""
    raise NotImplementedError
