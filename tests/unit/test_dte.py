"""El Salvador DTE rules, no AWS: which documents are DTEs, generation
codes, control numbers, what is sent, and the state an answer leaves."""
from __future__ import annotations

import uuid

import pytest
from hypothesis import given
from hypothesis import strategies as st

from chalicelib.countries.sv.domain import dte
from chalicelib.countries.sv.domain.dte import DteResult
from tests.unit.dte_fixtures import CODIGO, SV, factura


def test_generation_codes_are_fresh_uppercase_uuid4():
    codes = {dte.new_codigo_generacion() for _ in range(200)}
    assert len(codes) == 200
    for code in codes:
        assert code == code.upper() and dte.is_codigo_generacion(code)
        parsed = uuid.UUID(code)
        assert parsed.version == 4 and parsed.variant == uuid.RFC_4122


@pytest.mark.parametrize("value", [
    CODIGO.lower(),                                  # lowercase
    "C768CB60-E74B-11F1-A64B-02FC00000001",          # version 1 (time-based)
    "5B4A3C2D-1E0F-4A9B-CC7D-6E5F4A3B2C1D",          # not the RFC 4122 variant
    CODIGO.replace("-", ""),                         # no hyphens
    CODIGO + "0", " " + CODIGO, "", None, 42,
])
def test_anything_else_is_not_a_generation_code(value):
    assert not dte.is_codigo_generacion(value)
    with pytest.raises(ValueError):
        dte.check_codigo_generacion(value)


def test_control_numbers_take_establishment_and_point_from_the_document_number():
    assert dte.numero_control("01", "001-001-01-00000042", 42) == "DTE-01-00010001-000000000000042"
    assert dte.numero_control("01", "012-003-113-00000001", 7) == "DTE-01-00120003-000000000000007"
    assert dte.numero_control("01", "001-001-01-00000001", 10 ** 15 - 1).endswith("-999999999999999")
    for sequence in (0, 10 ** 15):
        with pytest.raises(ValueError):
            dte.numero_control("01", "001-001-01-00000001", sequence)


@given(st.integers(min_value=1, max_value=10 ** 15 - 1))
def test_every_control_number_has_the_authoritys_shape(sequence):
    assert dte.is_numero_control(dte.numero_control("01", "001-001-01-00000001", sequence))


def test_only_sales_invoices_notes_purchases_and_certificates_of_el_salvador_companies_may_be_dtes():
    assert all(dte.issues_dte(SV, document_type) for document_type in ("01", "113", "06", "07", "103", "11", "05"))
    for document_type in ("100", "101", "112", "104", "105", "106", "102"):
        assert not dte.issues_dte(SV, document_type)
    # a purchase is one when the supplier has no NRC: the buyer issues the factura de sujeto excluido
    assert dte.tipo_dte("103", {"name": "Juan"}) == dte.tipo_dte("11", {"name": "Juan"}) == "14"
    assert dte.tipo_dte("103", {"name": "Empresa", "nrc": "1-0"}) is None
    assert not dte.issues_dte({"country": "HN"}, "01") and not dte.issues_dte({}, "01")


def pending_document(**fields) -> dict:
    """A confirmed factura of 100 at 13 % to a consumer named by DUI, in the authority's terms."""
    return factura(**fields)


def test_a_sale_is_a_factura_or_for_a_taxpayer_a_credito_fiscal_and_only_its_notes_are_dtes():
    consumer, taxpayer = {"name": "Cliente"}, {"name": "Empresa", "nrc": "123456-7"}
    assert (dte.tipo_dte("01", consumer), dte.tipo_dte("113", taxpayer)) == ("01", "03")
    credito_fiscal, factura = {"dte": {"tipoDte": "03"}}, {"dte": {"tipoDte": "01"}}
    assert (dte.tipo_dte("06", taxpayer, credito_fiscal), dte.tipo_dte("07", taxpayer, credito_fiscal)) == ("05", "06")
    assert dte.tipo_dte("06", consumer, factura) is None and dte.tipo_dte("07", taxpayer, None) is None
    state = dte.pending_dte("01", CODIGO, "DTE-01-00010001-000000000000001")
    assert state == {"status": "pending", "tipoDte": "01", "codigoGeneracion": CODIGO,
                     "numeroControl": "DTE-01-00010001-000000000000001", "observations": [], "attempts": 0}


def test_an_answer_accepts_or_rejects_and_a_silence_keeps_it_pending():
    pending = pending_document()["dte"]
    silent = dte.unanswered(pending, "TimeoutError: " + "x" * 600, "2026-11-02T10:00:00.000Z")
    assert silent["status"] == "pending" and silent["attempts"] == 1 and len(silent["lastError"]) == 500
    assert silent["lastAttemptAt"] == "2026-11-02T10:00:00.000Z"

    accepted = dte.answered(silent, DteResult(True, "2026-11-02T11:00:00.000Z", sello_recepcion="S" * 40))
    assert accepted["status"] == "accepted" and accepted["selloRecepcion"] == "S" * 40
    assert accepted["acceptedAt"] == accepted["transmittedAt"] == "2026-11-02T11:00:00.000Z"
    assert accepted["attempts"] == 2 and "lastError" not in accepted and accepted["codigoGeneracion"] == CODIGO

    rejected = dte.answered(pending, DteResult(False, "2026-11-02T11:00:00.000Z", observations=["receptor.nit"]))
    assert rejected["status"] == "rejected" and rejected["observations"] == ["receptor.nit"]
    assert "selloRecepcion" not in rejected and "acceptedAt" not in rejected


def test_only_a_pending_dte_takes_an_answer_and_acceptance_needs_a_seal():
    accepted = dte.answered(pending_document()["dte"], DteResult(True, "t", sello_recepcion="S"))
    with pytest.raises(ValueError):
        dte.answered(accepted, DteResult(False, "t"))
    with pytest.raises(ValueError):
        dte.unanswered(accepted, "late", "t")
    with pytest.raises(ValueError):
        dte.answered(pending_document()["dte"], DteResult(True, "t"))
