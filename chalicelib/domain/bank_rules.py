"""Bank rules, pure: does a rule match a statement line, and which rule comes first."""
from __future__ import annotations

from decimal import Decimal, InvalidOperation
from typing import Any, Mapping, Sequence

from chalicelib.domain.search import normalized

TEXT_FIELDS = ("description", "reference")
MONEY_IN, MONEY_OUT = "in", "out"


def matches(rule: Mapping[str, Any], line: Mapping[str, Any]) -> bool:
    """`rule`: {conditions: [{field: description|reference|amount|direction, operator:
    contains|equals|between, value}], match: all|any}; `line`: the stored line (camelCase).
    Text compares accent- and case-blind; amount compares the line's absolute amount; direction
    is `in` (amount > 0) or `out`. A rule without conditions matches nothing."""
    conditions = rule.get("conditions") or []
    if not conditions:
        return False
    results = (condition_holds(condition, line) for condition in conditions)
    return any(results) if rule.get("match") == "any" else all(results)


def condition_holds(condition: Mapping[str, Any], line: Mapping[str, Any]) -> bool:
    field, operator, value = condition["field"], condition["operator"], condition.get("value")
    if field in TEXT_FIELDS:
        text, wanted = normalized(str(line.get(field) or "")).strip(), normalized(str(value or "")).strip()
        if operator == "contains":
            return bool(wanted) and wanted in text
        return operator == "equals" and text == wanted
    if field == "amount":
        amount = abs(Decimal(str(line["amount"])))
        if operator == "equals":
            return amount == _decimal(value)
        if operator == "between" and isinstance(value, (list, tuple)) and len(value) == 2:
            low, high = _decimal(value[0]), _decimal(value[1])
            return low is not None and high is not None and low <= amount <= high
        return False
    if field == "direction":
        direction = MONEY_IN if Decimal(str(line["amount"])) > 0 else MONEY_OUT
        return operator == "equals" and str(value).lower() == direction
    return False


def _decimal(value: Any) -> Decimal | None:
    try:
        return Decimal(str(value))
    except (InvalidOperation, ValueError):
        return None


def first_match(rules: Sequence[Mapping[str, Any]], line: Mapping[str, Any]) -> Mapping[str, Any] | None:
    """The first of `rules` (already in priority order) that matches `line`."""
    return next((rule for rule in rules if matches(rule, line)), None)
