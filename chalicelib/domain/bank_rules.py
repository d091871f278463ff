"""Bank rules, pure: does a rule match a statement line, and which rule comes first."""
from __future__ import annotations

from typing import Any, Mapping, Sequence


def matches(rule: Mapping[str, Any], line: Mapping[str, Any]) -> bool:
    """`rule`: {conditions: [{field: description|reference|amount|direction, operator:
    contains|equals|between, value}], match: all|any}; `line`: the stored line (camelCase).
    Text compares accent- and case-blind; amount compares the line's absolute amount; direction
    is `in` (amount > 0) or `out`."""
    return False


def first_match(rules: Sequence[Mapping[str, Any]], line: Mapping[str, Any]) -> Mapping[str, Any] | None:
    """The first of `rules` (already in priority order) that matches `line`."""
    return next((rule for rule in rules if matches(rule, line)), None)
