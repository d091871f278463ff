"""The HTTP transmitter against the stand-in authority (infra/devstack/dte_authority.py), each test with a
stand-in of its own on a port of its own: logging in once per token, the authority's answers,
what it refuses (signature, schema, dates, duplicates), and calls that got no answer made again
with backoff without ever registering a DTE twice. No AWS: the password is given, not unsealed."""
from __future__ import annotations

import base64
import dataclasses
import datetime as dt

import pytest

from chalicelib import clock
from chalicelib.countries.sv.domain import dte
from chalicelib.countries.sv.services.dte_authority import (
    HttpDteTransmitter,
    TransmissionFailed,
    forget_authority_tokens,
)
from infra.devstack.dte_authority import StandInAuthority, seal_of, serve
from tests.dte_keys import FORGERS_KEY
from tests.unit.dte_fixtures import CODIGO, PUBLIC_KEY, SV, factura, line, submitted

NIT = "06140101901013"
PASSWORD = "clave-api"
# the fixtures' DTEs are issued on 2026-11-02 at 10:15 in San Salvador (16:15 UTC)
ISSUED = dt.datetime(2026, 11, 2, 16, 15, tzinfo=dt.timezone.utc)


@pytest.fixture
def at(monkeypatch):
    def move(moment: dt.datetime) -> None:
        monkeypatch.setattr(clock, "now", lambda: moment)
    move(ISSUED + dt.timedelta(minutes=5))
    return move


@pytest.fixture
def authority(at):
    stand_in = StandInAuthority()
    stand_in.register(NIT, PASSWORD, PUBLIC_KEY)
    server, url = serve(stand_in)
    stand_in.url = url
    forget_authority_tokens()
    yield stand_in
    server.shutdown()
    forget_authority_tokens()


@pytest.fixture
def waits() -> list[float]:
    return []


@pytest.fixture
def transmitter(authority, waits) -> HttpDteTransmitter:
    return HttpDteTransmitter(authority.url, lambda company_id: PASSWORD, timeout=5, attempts=3, backoff=0.5,
                              sleep=waits.append)


def test_an_accepted_dte_gets_the_seal_and_one_log_in_serves_many_calls(authority, transmitter):
    first = transmitter.transmit(submitted(factura()))
    assert first.accepted and first.observations == []
    assert first.sello_recepcion == seal_of(CODIGO, "DTE-01-00010001-000000000000001")
    assert len(first.sello_recepcion) == 40 and first.sello_recepcion.startswith("2026")
    other = factura()
    other["dte"] = {**other["dte"], "codigoGeneracion": dte.new_codigo_generacion(),
                    "numeroControl": "DTE-01-00010001-000000000000002"}
    assert transmitter.transmit(submitted(other)).accepted
    assert authority.calls["/seguridad/auth"] == 1 and authority.calls["/fesv/recepciondte"] == 2
    assert set(authority.registered) == {CODIGO, other["dte"]["codigoGeneracion"]}


def test_an_expired_token_is_renewed_once(authority, transmitter, at):
    assert transmitter.transmit(submitted(factura())).accepted
    at(ISSUED + dt.timedelta(hours=23))  # the stand-in's token lasts 24 hours from 10:20
    assert transmitter.transmit(submitted(factura())).accepted  # already registered: the first answer
    assert authority.calls["/seguridad/auth"] == 1
    at(ISSUED + dt.timedelta(hours=25))  # expired at the authority, not yet here: a 401, a new log-in
    assert transmitter.transmit(submitted(factura())).accepted
    assert authority.calls["/seguridad/auth"] == 2


def test_a_forged_or_altered_signature_is_refused(authority, transmitter):
    forged = transmitter.transmit(submitted(factura(), key=FORGERS_KEY))
    assert not forged.accepted
    assert forged.observations == ["[documento] FIRMA INVALIDA: NO CORRESPONDE AL CERTIFICADO DEL EMISOR"]
    genuine = submitted(factura())
    header, payload, signature = genuine.documento.split(".")
    altered_payload = base64.urlsafe_b64encode(base64.urlsafe_b64decode(payload + "==").replace(
        b'"totalPagar":113', b'"totalPagar":1.13')).rstrip(b"=").decode()
    assert altered_payload != payload
    altered = transmitter.transmit(dataclasses.replace(genuine, documento=f"{header}.{altered_payload}.{signature}"))
    assert altered.observations == forged.observations
    assert authority.registered == {}
    assert transmitter.transmit(genuine).accepted  # refused, the code was not taken


def test_an_unknown_taxpayer_or_a_wrong_password_is_not_logged_in(authority, waits):
    wrong = HttpDteTransmitter(authority.url, lambda company_id: "otra", sleep=waits.append)
    with pytest.raises(TransmissionFailed, match="refused the log-in"):
        wrong.transmit(submitted(factura()))
    unknown = HttpDteTransmitter(authority.url, lambda company_id: PASSWORD, sleep=waits.append)
    with pytest.raises(TransmissionFailed, match="refused the log-in"):
        unknown.transmit(dataclasses.replace(submitted(factura()), nit="06140202902024"))
    assert waits == [] and authority.calls["/fesv/recepciondte"] == 0  # no reason to wait: nothing sent


def test_the_authority_rejects_what_its_rules_refuse(authority, transmitter, at):
    free = transmitter.transmit(submitted(factura(lines=[line("1", "0", "0.13")])))
    assert free.observations == ["DOCUMENTO RECHAZADO", "[resumen.totalPagar] DEBE SER MAYOR QUE CERO"]
    [heading, observation] = transmitter.transmit(submitted(factura(currency="HNL"))).observations
    assert observation.startswith("[identificacion.tipoMoneda] 'HNL' is not in the authority's format")
    lowercase = factura()
    lowercase["dte"] = {**lowercase["dte"], "codigoGeneracion": CODIGO.lower()}
    observations = transmitter.transmit(submitted(lowercase)).observations
    assert observations[1].startswith("[identificacion.codigoGeneracion]")
    # another company's NIT as the issuer
    stranger = factura()
    stranger["dte"] = {**stranger["dte"], "emisor": {**stranger["dte"]["emisor"], "nit": "06140202902024"}}
    assert "[emisor.nit] NO CORRESPONDE AL USUARIO AUTENTICADO" in transmitter.transmit(submitted(stranger)).observations
    # dated tomorrow; received more than 24 hours after its issue
    assert transmitter.transmit(submitted(factura(date="2026-11-03"))).observations[1:] == [
        "[identificacion.fecEmi] LA FECHA DE EMISION NO PUEDE SER POSTERIOR A LA FECHA ACTUAL"]
    at(ISSUED + dt.timedelta(hours=24, minutes=1))
    assert transmitter.transmit(submitted(factura())).observations[1:] == [
        "[identificacion.fecEmi] FUERA DEL PLAZO DE TRANSMISION: TRANSMITA EN CONTINGENCIA"]
    assert authority.registered == {}


def test_no_answer_is_asked_again_with_backoff(authority, transmitter, waits):
    authority.faults(unavailable=True)
    with pytest.raises(TransmissionFailed, match="did not answer"):
        transmitter.transmit(submitted(factura()))
    assert waits == [0.5, 1.0] and authority.calls["/seguridad/auth"] == 3  # not even the log-in answered
    authority.faults(unavailable=False)
    assert transmitter.transmit(submitted(factura())).accepted


def test_a_lost_answer_is_sent_again_and_never_makes_two_documents(authority, transmitter, waits):
    authority.faults(drop_answers=1)  # the authority registers the DTE; its answer never arrives
    result = transmitter.transmit(submitted(factura()))
    assert result.accepted and result.sello_recepcion == seal_of(CODIGO, "DTE-01-00010001-000000000000001")
    assert waits == [0.5]
    # the second attempt was answered "already registered", and the first answer was asked for
    assert authority.calls["/fesv/recepciondte"] == 2 and authority.calls["/fesv/recepcion/consultadte/"] == 1
    assert list(authority.registered) == [CODIGO]


def test_a_timed_out_transmission_is_sent_again_and_never_makes_two_documents(authority, waits):
    impatient = HttpDteTransmitter(authority.url, lambda company_id: PASSWORD, timeout=0.3, backoff=0.5,
                                   sleep=waits.append)
    impatient.transmit(submitted(factura(lines=[line("1", "0", "0.13")])))  # logged in before the slow answers
    authority.faults(delay_answers=1, delay_seconds=1.0)  # registered, answered after the caller gave up
    result = impatient.transmit(submitted(factura()))
    assert result.accepted and result.sello_recepcion == seal_of(CODIGO, "DTE-01-00010001-000000000000001")
    assert waits == [0.5] and list(authority.registered) == [CODIGO]
    assert authority.calls["/fesv/recepcion/consultadte/"] == 1


def test_a_registered_dte_the_consultation_does_not_find_is_no_answer(authority, transmitter):
    assert transmitter.transmit(submitted(factura())).accepted
    # the same code under another type: registered there, yet its consultation finds nothing
    confused = dataclasses.replace(submitted(factura()), tipo_dte="03")
    with pytest.raises(TransmissionFailed, match="consultation"):
        transmitter.transmit(confused)


def test_a_consultation_answers_only_the_issuers_own_dte(authority, transmitter):
    assert transmitter.transmit(submitted(factura())).accepted
    asked = b'{"nitEmisor": "06140202902024", "tdte": "01", "codigoGeneracion": "%s"}' % CODIGO.encode()
    assert authority.handle("/fesv/recepcion/consultadte/", {"authorization": "Bearer nope"}, asked)[0] == 401
    authority.register("06140202902024", "otra", PUBLIC_KEY)
    status, logged_in = authority.handle("/seguridad/auth", {}, b"user=06140202902024&pwd=otra")
    assert status == 200 and logged_in["body"]["token"].startswith("Bearer ")
    status, answer = authority.handle("/fesv/recepcion/consultadte/", {"authorization": logged_in["body"]["token"]},
                                      asked)
    assert (status, answer["estado"]) == (404, "RECHAZADO")  # another NIT's DTE is not found
    assert SV["taxId"].replace("-", "") == NIT


def test_a_lot_is_answered_by_its_code_then_polled_and_a_dte_that_arrived_before_gets_its_first_answer(
        authority, transmitter):
    from chalicelib.countries.sv.services.dte_authority import Lot, LotRefused

    alone = submitted(factura())
    first = transmitter.transmit(alone)  # arrived alone first: in the lot, "already registered" (004)
    other = factura()
    other["dte"] = {**other["dte"], "codigoGeneracion": dte.new_codigo_generacion(),
                    "numeroControl": "DTE-01-00010001-000000000000002"}
    forged = submitted(other, key=FORGERS_KEY)
    lot = Lot(company_id=1, nit=NIT, ambiente="00", id_envio=dte.new_codigo_generacion(),
              documentos=(alone.documento, forged.documento))
    with pytest.raises(LotRefused) as refused:
        transmitter.send_lot(dataclasses.replace(lot, documentos=()))
    assert refused.value.observations == ["LOTE RECHAZADO", "[documentos] DEBE CONTENER DE 1 A 100 DOCUMENTOS FIRMADOS"]
    authority.faults(lots_in_process=1)
    codigo_lote = transmitter.send_lot(lot)
    assert transmitter.send_lot(lot) == codigo_lote  # the same sending again: its first answer
    tipos = {CODIGO: "01", other["dte"]["codigoGeneracion"]: "01"}
    assert transmitter.lot_answers(lot, codigo_lote, tipos) == []  # in process
    answers = {answer.codigo_generacion: answer.result for answer in transmitter.lot_answers(lot, codigo_lote, tipos)}
    assert answers[CODIGO].accepted and answers[CODIGO].sello_recepcion == first.sello_recepcion
    rejected = answers[other["dte"]["codigoGeneracion"]]
    assert not rejected.accepted and rejected.observations == [
        "[documento] FIRMA INVALIDA: NO CORRESPONDE AL CERTIFICADO DEL EMISOR"]
    assert authority.calls["/fesv/recepcion/consultadte/"] == 1  # the 004 answered by its first answer
