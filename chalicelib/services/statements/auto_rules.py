"""A statement import's bank rules applied (issue 42): each new unmatched line the first active
`autoCreate` rule of its account covers is created and matched through the match use case
(matching.py), one transaction per line. Apart from bank_rules.py (the rules themselves), which
the match reads a rule from."""
from __future__ import annotations

import logging
from collections.abc import Mapping
from typing import Any

from chalicelib.domain import bank_rules as rule_domain
from chalicelib.errors import ApiError
from chalicelib.services.commands import Command
from chalicelib.services.statements import matching
from chalicelib.services.statements.bank_rules import active_rules, rules_for_account
from chalicelib.store.transaction import LostRace, run_with_retries

log = logging.getLogger(__name__)


def line_command(command: Command) -> Command:
    """A line's own command: the import's principal and table, without the import's
    Idempotency-Key (the import's own transaction records it, and a key is recorded once; a line
    already matched refuses a second match by its condition, so a re-run creates nothing twice)."""
    return Command(principal=command.principal, table=command.table)


def creation(rule: Mapping[str, Any], line: dict[str, Any]) -> dict[str, Any]:
    """What a rule creates for a line, as the match's `create` takes it: the action, described by
    the line's own description when the rule gives none."""
    return {"description": str(line.get("description") or rule["name"])[:200], **rule["action"]}


def apply_auto_rules(command: Command, account: dict[str, Any], lines: list[dict[str, Any]]) -> int:
    """After an import: each new unmatched line the first matching active `autoCreate` rule of
    its account covers is created and matched (matching.match_line with `create` and `ruleId`),
    one transaction per line, run again when it loses a race. A line that fails (a rule gone
    stale, a race lost every time) stays unmatched and the others go on. Answers how many were created."""
    account_id = int(account["id"])
    rules = [rule for rule in rules_for_account(active_rules(command.table, command.company_id), account_id)
             if rule.get("autoCreate")]
    if not rules:
        return 0
    created = 0
    for line in lines:
        if line.get("status", "unmatched") != "unmatched":
            continue
        rule = rule_domain.first_match(rules, line)
        if rule is None:
            continue
        body = {"create": creation(rule, line), "ruleId": int(rule["id"])}
        try:
            # a race lost here is the line's alone: its match is loaded and run again, and after
            # the last attempt (ServiceUnavailable, an ApiError) the line stays unmatched; it
            # never escapes to the import, whose own retry would import the file again
            def match(line_id: int = int(line["id"]), body: dict[str, Any] = body) -> dict[str, Any]:
                return matching.match_line(line_command(command), account_id, line_id, body)

            run_with_retries(match)
        except (ApiError, LostRace) as refused:
            log.info("bank rule %s not applied to line %s: %s", rule["id"], line["id"], refused)
            continue
        created += 1
    return created
