"""Bank rules, pure: conditions on a statement line, all or any, the first rule that matches."""
from __future__ import annotations

from decimal import Decimal

from chalicelib.domain.bank_rules import first_match, matches

COMMISSION = {"amount": Decimal("-25.30"), "description": "COMISIÓN POR MANEJO DE CUENTA", "reference": "CM-001"}
DEPOSIT = {"amount": Decimal("1500"), "description": "Depósito en efectivo", "reference": None}


def rule(*conditions, match="all", **fields):
    return {"conditions": [dict(zip(("field", "operator", "value"), c)) for c in conditions], "match": match, **fields}


def test_text_is_accent_and_case_blind():
    assert matches(rule(("description", "contains", "comision")), COMMISSION)
    assert matches(rule(("description", "contains", "  Manejo de CUENTA ")), COMMISSION)
    assert matches(rule(("description", "equals", "comision por manejo de cuenta")), COMMISSION)
    assert not matches(rule(("description", "equals", "comision")), COMMISSION)
    assert matches(rule(("reference", "equals", "cm-001")), COMMISSION)
    assert not matches(rule(("reference", "contains", "cm")), DEPOSIT)  # no reference: nothing contains
    assert not matches(rule(("description", "contains", "")), COMMISSION)  # an empty text matches nothing


def test_amount_is_absolute_and_between_is_inclusive():
    assert matches(rule(("amount", "equals", "25.30")), COMMISSION)  # |-25.30| = 25.30
    assert matches(rule(("amount", "equals", 25.3)), COMMISSION)
    assert not matches(rule(("amount", "equals", "-25.30")), COMMISSION)
    assert matches(rule(("amount", "between", ["25.30", "30"])), COMMISSION)   # 25.30 <= 25.30 <= 30
    assert matches(rule(("amount", "between", [20, "25.30"])), COMMISSION)     # 20 <= 25.30 <= 25.30
    assert not matches(rule(("amount", "between", ["25.31", "30"])), COMMISSION)
    assert not matches(rule(("amount", "between", "25.30")), COMMISSION)       # not a [min, max] pair


def test_direction():
    assert matches(rule(("direction", "equals", "out")), COMMISSION)
    assert not matches(rule(("direction", "equals", "in")), COMMISSION)
    assert matches(rule(("direction", "equals", "in")), DEPOSIT)


def test_all_and_any():
    both = (("description", "contains", "comision"), ("direction", "equals", "in"))
    assert not matches(rule(*both), COMMISSION)           # all: the direction fails
    assert matches(rule(*both, match="any"), COMMISSION)  # any: the description suffices
    assert not matches(rule(), COMMISSION)                # no conditions: nothing


def test_first_match_follows_the_given_order():
    broad = rule(("direction", "equals", "out"), id=1)
    narrow = rule(("description", "contains", "comision"), id=2)
    assert first_match([narrow, broad], COMMISSION)["id"] == 2
    assert first_match([broad, narrow], COMMISSION)["id"] == 1
    assert first_match([narrow], DEPOSIT) is None
