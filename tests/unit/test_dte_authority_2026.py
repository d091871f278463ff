"""The stand-in authority (infra/devstack/dte_authority.py) on the 2026 formats, through the HTTP
transmitter: a DTE is checked by the edition its version declares (the 2026 control number
DTE-tt-XnnnPnnn-..., a version its type has), an invalidation by the edition of the DTE it
invalidates, and the return event (18, fe-eret-v1) is received at reception. The 2026 documents
here are written by hand from the fixtures' factura (the service's own are the sales part's)."""
from __future__ import annotations

import copy
import datetime as dt
from decimal import Decimal

import pytest

from chalicelib import clock
from chalicelib.countries.sv.domain import dte_formats, dte_invalidation_event, dte_json
from chalicelib.countries.sv.services import dte_signing
from chalicelib.countries.sv.services.dte import Submission
from chalicelib.countries.sv.services.dte_authority import HttpDteTransmitter, forget_authority_tokens
from infra.devstack.dte_authority import StandInAuthority, seal_of, serve
from tests.dte_keys import SIGNING_KEY
from tests.unit.dte_fixtures import CODIGO, OTHER_CODIGO, PUBLIC_KEY, factura
from tests.unit.test_dte_authority import ISSUED, NIT, PASSWORD

NUMERO_2026 = "DTE-01-M001P001-000000000000001"  # casa matriz (M) 001, point of sale P001


@pytest.fixture
def authority(monkeypatch):
    """A stand-in of its own, five minutes after the fixtures' DTEs were issued."""
    monkeypatch.setattr(clock, "now", lambda: ISSUED + dt.timedelta(minutes=5))
    stand_in = StandInAuthority()
    stand_in.register(NIT, PASSWORD, PUBLIC_KEY)
    server, stand_in.url = serve(stand_in)
    forget_authority_tokens()
    yield stand_in
    server.shutdown()
    forget_authority_tokens()


@pytest.fixture
def transmitter(authority) -> HttpDteTransmitter:
    return HttpDteTransmitter(authority.url, lambda company_id: PASSWORD, timeout=5, attempts=1)


def fe_v2(numero_control: str = NUMERO_2026, version: int = 2) -> dict:
    """The fixtures' factura (2 x 50.00 + 13 % IVA = 113.00) as fe-f-v2 has it: the 2026 control
    number and establishment codes, the emisor's district, no extension, ivaRete for ivaRete1."""
    sent = copy.deepcopy(dte_json.authority_document(factura()))
    sent.pop("extension")
    sent["identificacion"].update(version=version, numeroControl=numero_control)
    for gone in ("codEstableMH", "codPuntoVentaMH", "tipoEstablecimiento"):
        sent["emisor"].pop(gone)
    sent["emisor"].update(codEstable="M001", codPuntoVenta="P001")
    sent["emisor"]["direccion"]["distrito"] = "14"  # San Salvador Centro's San Salvador (pre-2024 municipio 14)
    summary = sent["resumen"]
    summary["ivaRete"] = summary.pop("ivaRete1")
    summary.pop("reteRenta")
    summary["observaciones"] = None
    return sent


def signed(sent: dict) -> Submission:
    identification = sent["identificacion"]
    return Submission(company_id=7, nit=NIT, ambiente="00", tipo_dte=identification["tipoDte"],
                      version=identification["version"], codigo_generacion=identification["codigoGeneracion"],
                      documento=dte_signing.sign_with(SIGNING_KEY, sent))


def test_a_2026_factura_is_received_and_one_with_the_legacy_control_number_refused(authority, transmitter):
    legacy_form = fe_v2("DTE-01-00010001-000000000000001")
    refused = transmitter.transmit(signed(legacy_form))
    assert not refused.accepted
    assert ("[identificacion.numeroControl] DEBE TENER LA FORMA DTE-01-XnnnPnnn-nnnnnnnnnnnnnnn (X: M, S, B O P "
            "SEGUN EL TIPO DE ESTABLECIMIENTO) EN LA VERSION 2") in refused.observations
    sent = fe_v2()
    sent["identificacion"]["codigoGeneracion"] = OTHER_CODIGO  # the refused code is not registered; another
    assert dte_formats.schema_problems(sent) == []
    accepted = transmitter.transmit(signed(sent))
    assert accepted.accepted and accepted.sello_recepcion == seal_of(OTHER_CODIGO, NUMERO_2026)
    # the legacy edition keeps its own form: the fixtures' v1 factura, DTE-01-00010001-...
    legacy = dte_json.authority_document(factura())
    assert legacy["identificacion"]["version"] == 1 and transmitter.transmit(signed(legacy)).accepted


def test_a_version_its_type_does_not_have_is_refused_by_name(authority, transmitter):
    # FE is v1 (legacy) or v2 (2026); v4 is the crédito fiscal's 2026 version
    sent = fe_v2(version=4)
    refused = transmitter.transmit(signed(sent))
    assert not refused.accepted
    assert refused.observations[1:] == ["[identificacion.version] LA VERSION 4 NO CORRESPONDE AL TIPO DE DOCUMENTO 01"]


def test_a_2026_dte_is_not_invalidated_with_the_legacy_event(authority, transmitter):
    sent = fe_v2()
    assert transmitter.transmit(signed(sent)).accepted
    document = factura()
    document["dte"].update(numeroControl=NUMERO_2026, selloRecepcion=seal_of(CODIGO, NUMERO_2026))
    document["dte"]["receptor"]["correo"] = "ana@example.com"  # an invalidation names the buyer's e-mail
    someone = {"name": "Marta Ruiz", "documentType": "13", "documentNumber": "01234567-8"}
    event = dte_invalidation_event.legacy_event(document, {"invalidationType": 2, "reason": "Operación rescindida",
                                             "responsible": someone, "requester": someone},
                                  "1A2B3C4D-5E6F-4A1B-8C2D-3E4F5A6B7C8D", "2026-11-02", "10:30:00", None)
    assert dte_formats.schema_problems(event, dte_formats.INVALIDATION) == []  # a well-formed v2 event
    submission = Submission(company_id=7, nit=NIT, ambiente="00", tipo_dte="01", version=2,
                            codigo_generacion=event["identificacion"]["codigoGeneracion"],
                            documento=dte_signing.sign_with(SIGNING_KEY, event))
    refused = transmitter.invalidate(submission)
    assert not refused.accepted
    assert refused.observations[1:] == [
        "[identificacion.version] UN DOCUMENTO VERSION 2 SE INVALIDA CON EL EVENTO VERSION 3"]
    assert CODIGO not in authority.invalidations


def test_the_return_event_is_received_at_reception(authority, transmitter):
    event = return_event()
    assert dte_formats.schema_problems(event, dte_formats.RETORNO) == []
    answer = transmitter.transmit(signed_event(event))
    assert answer.accepted and answer.sello_recepcion == seal_of(RETURN_CODIGO, "18")
    assert authority.registered[RETURN_CODIGO]["tipoDte"] == "18"


RETURN_CODIGO = "7C6B5A4D-3E2F-4A1B-9C8D-7E6F5A4B3C2D"


def return_event() -> dict:
    """A return of one of the factura's two items (50.00 + 6.50 IVA = 56.50), by hand; fe-eret-v1 wants
    the codes the Ministerio assigned the establishment (4 characters, not nullable)."""
    sent = fe_v2()
    emisor = {"nit": sent["emisor"]["nit"], "nombre": sent["emisor"]["nombre"], "codEstableMH": "0001",
              "codEstable": "M001", "codPuntoVentaMH": "0001", "codPuntoVenta": "P001", "recintoFiscal": None,
              "tipoRegimen": None, "regimen": None, "tipoItemExpor": None}
    item = {"numItem": 1, "tipoItem": 2, "codigoGeneracion": CODIGO, "cantidad": Decimal(1),
            "precioUni": Decimal("56.50"), "descripcion": "Artículo", "codigo": None, "uniMedida": 59,
            "montoDescu": Decimal(0), "codTributo": None, "ventaNoSuj": Decimal(0), "ventaExenta": Decimal(0),
            "ventaGravada": Decimal("56.50"), "compra": Decimal(0), "tributos": None, "psv": Decimal(0),
            "ivaItem": Decimal("6.50"), "noGravado": Decimal(0), "seguro": Decimal(0), "flete": Decimal(0),
            "ivaRete": Decimal(0), "reteRenta": Decimal(0)}
    summary = {"totalNoSuj": Decimal(0), "totalExenta": Decimal(0), "totalGravada": Decimal("56.50"),
               "totalCompraExcluidos": Decimal(0), "subTotalVentas": Decimal("56.50"), "tributos": None,
               "totalSeguro": Decimal(0), "totalFlete": Decimal(0), "montoTotalOperacion": Decimal("56.50"),
               "ivaRete": Decimal(0), "reteRenta": Decimal(0), "totalNoGravado": Decimal(0),
               "totalPagar": Decimal("56.50"), "totalLetras": "CINCUENTA Y SEIS 50/100 USD",
               "totalNoOnerosas": Decimal(0), "totalIva": Decimal("6.50"), "saldoFavor": Decimal(0)}
    return {"identificacion": {"version": 1, "ambiente": "00", "tipoModelo": 1, "tipoOperacion": 1,
                               "tipoEvento": "18", "tipoContingencia": None, "motivoContin": None,
                               "codigoGeneracion": RETURN_CODIGO, "fecEmi": "2026-11-02", "horEmi": "10:18:00",
                               "fusion": None, "tipoMoneda": "USD"},
            "documentoRelacionado": [{"tipoDocumento": "01", "codigoGeneracion": CODIGO, "fechaEmision": "2026-11-02"}],
            "emisor": emisor,
            "documento": {"tipoDocumento": None, "numDocumento": None, "nombre": None, "codPais": None,
                          "nombrePais": None, "telefono": None, "correo": None},
            "ventaTercero": None, "compraTercero": None, "cuerpoDocumento": [item], "resumen": summary,
            "apendice": None}


def signed_event(event: dict) -> Submission:
    return Submission(company_id=7, nit=NIT, ambiente="00", tipo_dte="18", version=1,
                      codigo_generacion=event["identificacion"]["codigoGeneracion"],
                      documento=dte_signing.sign_with(SIGNING_KEY, event))
