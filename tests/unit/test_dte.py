"""El Salvador DTE rules and the sandbox authority, no AWS: which documents are DTEs, generation
codes, control numbers, what is sent, and the state an answer leaves."""
from __future__ import annotations

import base64
import dataclasses
import uuid

import pytest
from hypothesis import given
from hypothesis import strategies as st

from chalicelib.domain import dte
from chalicelib.domain.dte import DteResult
from chalicelib.services.dte import (
    SandboxDteTransmitter,
    TransmissionFailed,
    UnreachableDteTransmitter,
    configured_transmitter,
    transaction_items,
)
from tests.dte_keys import FORGERS_KEY
from tests.unit.dte_fixtures import CODIGO, PUBLIC_KEY, SV, factura, line, submitted


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


def test_only_sales_invoices_and_notes_of_el_salvador_companies_may_be_dtes():
    assert all(dte.issues_dte(SV, document_type) for document_type in ("01", "113", "06", "07"))
    for document_type in ("100", "101", "112", "103", "104", "105", "106", "102", "11", "05"):
        assert not dte.issues_dte(SV, document_type)
    assert not dte.issues_dte({"country": "HN"}, "01") and not dte.issues_dte({}, "01")
    assert transaction_items(SV, "01") == 2 and transaction_items({"country": "HN"}, "01") == 0


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


def sandbox() -> SandboxDteTransmitter:
    return SandboxDteTransmitter(lambda company_id: PUBLIC_KEY if company_id == SV["id"] else None)


def test_the_sandbox_accepts_a_valid_dte_with_a_deterministic_seal():
    first = sandbox().transmit(submitted(pending_document()))
    again = sandbox().transmit(submitted(pending_document()))
    assert first.accepted and first.observations == [] and first.received_at
    assert first.sello_recepcion == again.sello_recepcion
    assert len(first.sello_recepcion) == 40 and first.sello_recepcion.isalnum()
    assert first.sello_recepcion == first.sello_recepcion.upper()
    other = pending_document()
    other["dte"] = {**other["dte"], "codigoGeneracion": dte.new_codigo_generacion()}
    assert sandbox().transmit(submitted(other)).sello_recepcion != first.sello_recepcion


def test_the_sandbox_refuses_a_forged_or_altered_signature():
    forged = sandbox().transmit(submitted(pending_document(), key=FORGERS_KEY))
    assert not forged.accepted and forged.observations == [
        "documento: la firma no corresponde al certificado del emisor"]
    genuine = submitted(pending_document())
    header, payload, signature = genuine.documento.split(".")
    altered_payload = base64.urlsafe_b64encode(base64.urlsafe_b64decode(payload + "==").replace(
        b'"totalPagar":113', b'"totalPagar":1.13')).rstrip(b"=").decode()
    assert altered_payload != payload
    altered = dataclasses.replace(genuine, documento=f"{header}.{altered_payload}.{signature}")
    assert sandbox().transmit(altered).observations == ["documento: la firma no corresponde al certificado del emisor"]
    unknown_company = dataclasses.replace(genuine, company_id=99)
    assert not sandbox().transmit(unknown_company).accepted


def test_the_sandbox_rejects_what_the_authority_would():
    free = pending_document(lines=[line("1", "0", "0.13")])
    assert sandbox().transmit(submitted(free)).observations == ["resumen.totalPagar: debe ser mayor que cero"]
    in_lempiras = pending_document(currency="HNL")
    [observation] = sandbox().transmit(submitted(in_lempiras)).observations
    assert observation.startswith("identificacion.tipoMoneda: 'HNL' is not in the authority's format")
    document = pending_document()
    document["dte"] = {**document["dte"], "codigoGeneracion": CODIGO.lower(), "numeroControl": "DTE-1-1-1"}
    observations = sandbox().transmit(submitted(document)).observations
    # the schema's patterns and lengths, then the version-4 rule the schema does not state
    assert [text.split(":")[0] for text in observations] == [
        "identificacion.codigoGeneracion", "identificacion.numeroControl", "identificacion.numeroControl",
        "identificacion.codigoGeneracion"]
    assert observations[-1] == "identificacion.codigoGeneracion: debe ser un UUID v4 en mayúsculas"


def test_the_transmitter_is_chosen_by_setting(settings_env):
    table = None  # the sandbox reads the registered keys only when it checks a signature
    assert isinstance(configured_transmitter(table), SandboxDteTransmitter)  # the default
    settings_env(DTE_TRANSMITTER="unreachable")
    assert isinstance(configured_transmitter(table), UnreachableDteTransmitter)
    with pytest.raises(TransmissionFailed):
        configured_transmitter(table).transmit(submitted(pending_document()))
    settings_env(DTE_TRANSMITTER="ministerio")
    with pytest.raises(ValueError, match="sandbox, unreachable"):
        configured_transmitter(table)
