"""Pure rules, no AWS: JSON codec, secrets, roles, taxes, origin parsing."""
from __future__ import annotations

from decimal import Decimal

import pytest
from hypothesis import given
from hypothesis import strategies as st

from chalicelib import jsoncodec
from chalicelib.auth import secrets
from chalicelib.auth.policy import origin_of
from chalicelib.domain import roles, taxes


@given(st.decimals(allow_nan=False, allow_infinity=False, places=2, min_value=-10 ** 12, max_value=10 ** 12))
def test_decimals_survive_json_exactly(amount):
    assert jsoncodec.loads(jsoncodec.dumps({"amount": amount}))["amount"] == amount


def test_money_is_written_as_a_number_with_its_cents():
    assert jsoncodec.dumps({"total": Decimal("100.10"), "n": 3, "ok": True, "x": None}) == \
        '{"total":100.10,"n":3,"ok":true,"x":null}'
    assert jsoncodec.loads("0.1")  == Decimal("0.1")


def test_non_finite_numbers_are_refused():
    with pytest.raises(ValueError):
        jsoncodec.loads('{"a": NaN}')
    with pytest.raises(ValueError):
        jsoncodec.dumps(Decimal("NaN"))


@given(st.text())
def test_strings_round_trip(text):
    assert jsoncodec.loads(jsoncodec.dumps([text])) == [text]


def test_key_ids_and_secrets_have_the_documented_shape():
    key_id = secrets.new_key_id()
    assert secrets.KEY_ID_PATTERN.match(key_id)
    secret = secrets.new_key_secret()
    assert secret.startswith("sk_") and len(secret) >= 3 + 43
    assert secrets.matches_hash(secret, secrets.sha256_hex(secret))
    assert not secrets.matches_hash(secret + "x", secrets.sha256_hex(secret))


def test_passwords_are_salted_scrypt():
    first, second = secrets.hash_password("s3cret-pass"), secrets.hash_password("s3cret-pass")
    assert first != second and first.startswith("scrypt$")
    assert secrets.verify_password("s3cret-pass", first)
    assert not secrets.verify_password("wrong", first)
    assert not secrets.verify_password("anything", None)


def test_roles():
    assert roles.may(roles.VIEWER, roles.READ) and not roles.may(roles.VIEWER, roles.WRITE)
    assert roles.may(roles.SELLER, roles.WRITE) and not roles.may(roles.SELLER, roles.MANAGE)
    assert roles.may(roles.ADMIN, roles.MANAGE)
    assert not roles.may("stranger", roles.READ)


def test_isv_rates():
    assert taxes.check_tax_rate(Decimal("0.15")) == Decimal("0.15")
    assert taxes.check_tax_rate(Decimal("0.150")) == Decimal("0.150")
    with pytest.raises(ValueError):
        taxes.check_tax_rate(Decimal("0.12"))


@pytest.mark.parametrize("url,origin", [
    ("http://localhost:8000/app?x=1", "http://localhost:8000"),
    ("HTTPS://App.Example.HN", "https://app.example.hn"),
    ("null", None), ("", None), ("/relative", None),
])
def test_origin_of(url, origin):
    assert origin_of(url) == origin


def test_origin_check_exempts_inbound_gateway_callbacks_only():
    from chalicelib.auth.policy import check_origin
    from chalicelib.errors import Forbidden

    allowed = ("http://localhost:8000",)
    check_origin("POST", "/webhooks/gateway-a", {}, None, allowed)
    check_origin("POST", "/webhooks/gateway-b", {"origin": "https://gateway.example"}, None, allowed)
    check_origin("GET", "/business-partners", {}, None, allowed)
    for path in ("/webhooksx", "/settings/webhooks", "/business-partners"):
        with pytest.raises(Forbidden) as raised:
            check_origin("POST", path, {}, None, allowed)
        assert raised.value.code == "CSRF_NO_ORIGIN"


def test_an_integer_field_takes_a_json_number_without_a_fraction_and_nothing_else():
    """12.0 is the integer 12 in JSON and to JSON Schema (a generated client may send it); "12",
    true and 12.5 are not integers."""
    from decimal import Decimal

    import pydantic

    from chalicelib import jsoncodec
    from chalicelib.models.payment_setup import ConditionCreate

    body = jsoncodec.loads('{"name": "Crédito", "type": "credit", "creditDays": 30.0}')
    assert ConditionCreate.model_validate(body).credit_days == 30
    for refused in ('"30"', "true", "30.5", "1e400"):
        with pytest.raises(pydantic.ValidationError):
            ConditionCreate.model_validate(jsoncodec.loads(f'{{"name": "C", "type": "credit", "creditDays": {refused}}}'))
    assert jsoncodec.whole_number(Decimal("1E+3")) == 1000 and jsoncodec.whole_number(Decimal("0.5")) == Decimal("0.5")
