"""Wompi El Salvador's formats (chalicelib/domain/wompi.py, issue 43), no I/O: the docs' own webhook
sample parsed, the wompi_hash and the redirect hash worked out here with hmac/hashlib, the token
form, the link body, the status answer as a real one reads, and what is refused (naming the field)."""
from __future__ import annotations

import datetime as dt
import hashlib
import hmac
from decimal import Decimal

import pytest

from chalicelib import jsoncodec
from chalicelib.domain import wompi
from chalicelib.errors import ApiError

SECRET = "api-secret-of-the-app-0001"
# https://docs.wompi.sv/webhook/definicion-webhook, verbatim
DOCS_WEBHOOK = b"""{ "IdCuenta": "980b36e6-15ab-463f-4444-ada3e396fe48",
  "FechaTransaccion": "2020-07-07T21:27:03.3403497-06:00",
  "Monto": 1, "ModuloUtilizado": "BotonPago", "FormaPagoUtilizada": "PagoNormal",
  "IdTransaccion": "2bedafea-0924-49f0-927d-8c638e193990",
  "ResultadoTransaccion": "ExitosaAprobada",
  "CodigoAutorizacion": "ba7dbfd3-50d1-403c-bbfd-d3be5dc766f8",
  "IdIntentoPago": "c6e10505-cada-4ae7-9892-d8786b7f455f",
  "Cantidad": 1, "EsProductiva": false,
  "Aplicativo": { "Nombre": "Sitio Web Bitworks", "Url": "https://www.bitworks.com.sv/",
                  "Id": "d432aef2-3333-4a75-4444-22e20789834a" },
  "EnlacePago": { "Id": 66, "IdentificadorEnlaceComercio": "OC1234", "NombreProducto": "Camisa Azula" },
  "cliente": { "Nombre": "string", "Email": "string", "additionalProp1": "string", "additionalProp2": "string" } }"""


def test_the_docs_webhook_sample_parses():
    notification = wompi.parse_webhook(DOCS_WEBHOOK)
    assert notification.provider == "wompi"
    assert notification.link_id == "OC1234"  # EnlacePago.IdentificadorEnlaceComercio: our link id
    assert notification.transaction_id == "2bedafea-0924-49f0-927d-8c638e193990"
    assert notification.approved is True and notification.live is False
    assert notification.amount == Decimal("1.00") and notification.currency is None
    # 21:27:03.3403497 at UTC-6 is 03:27:03.340349 the next day in UTC (Python keeps 6 of the 7 digits)
    assert notification.paid_at == dt.datetime(2020, 7, 8, 3, 27, 3, 340349, tzinfo=dt.timezone.utc)


def test_a_result_other_than_exitosa_aprobada_is_not_approved():
    body = DOCS_WEBHOOK.replace(b'"ExitosaAprobada"', b'"Fallida"')
    assert wompi.parse_webhook(body).approved is False


def test_the_wompi_hash_is_the_hmac_sha256_of_the_exact_body_in_lowercase_hex():
    expected = hmac.new(SECRET.encode("utf-8"), DOCS_WEBHOOK, hashlib.sha256).hexdigest()
    assert wompi.webhook_signature(SECRET, DOCS_WEBHOOK) == expected
    wompi.verify_webhook(SECRET, DOCS_WEBHOOK, {"wompi_hash": expected})
    wompi.verify_webhook(SECRET, DOCS_WEBHOOK, {"Wompi_Hash": expected.upper()})  # any case of name and hex


@pytest.mark.parametrize(("body", "headers", "code"), [
    (DOCS_WEBHOOK, {}, "SIGNATURE_REQUIRED"),
    (DOCS_WEBHOOK, {"wompi_hash": "  "}, "SIGNATURE_REQUIRED"),
    (DOCS_WEBHOOK, {"wompi_hash": "not hex"}, "INVALID_SIGNATURE"),
    # one space more in the body: the bytes signed are not these
    (DOCS_WEBHOOK.replace(b'"Monto": 1,', b'"Monto":  1,'), {"wompi_hash": hmac.new(
        SECRET.encode(), DOCS_WEBHOOK, hashlib.sha256).hexdigest()}, "INVALID_SIGNATURE"),
    # signed with another key
    (DOCS_WEBHOOK, {"wompi_hash": hmac.new(b"another-secret", DOCS_WEBHOOK, hashlib.sha256).hexdigest()},
     "INVALID_SIGNATURE"),
])
def test_a_missing_or_wrong_hash_is_refused(body, headers, code):
    with pytest.raises(ApiError) as refused:
        wompi.verify_webhook(SECRET, body, headers)
    assert (refused.value.status, refused.value.code) == (401, code)


def _without(path: str) -> bytes:
    payload = jsoncodec.loads(DOCS_WEBHOOK)
    *parents, name = path.split(".")
    target = payload
    for parent in parents:
        target = target[parent]
    del target[name]
    return jsoncodec.dumps(payload).encode()


def _with(name: str, value: object) -> bytes:
    payload = jsoncodec.loads(DOCS_WEBHOOK)
    payload[name] = value
    return jsoncodec.dumps(payload).encode()


@pytest.mark.parametrize(("body", "field"), [
    (b"[]", "body"),
    (_without("EnlacePago"), "EnlacePago"),
    (_without("EnlacePago.IdentificadorEnlaceComercio"), "EnlacePago.IdentificadorEnlaceComercio"),
    (_without("IdTransaccion"), "IdTransaccion"),
    (_with("IdTransaccion", "two words"), "IdTransaccion"),
    (_without("ResultadoTransaccion"), "ResultadoTransaccion"),
    (_with("Monto", "1.00"), "Monto"),
    (_with("Monto", 0), "Monto"),
    (_with("Monto", True), "Monto"),
    (_with("FechaTransaccion", "2020-07-07T21:27:03"), "FechaTransaccion"),  # no time zone
    (_with("EsProductiva", "false"), "EsProductiva"),
])
def test_a_webhook_missing_a_field_is_refused_naming_it(body, field):
    with pytest.raises(ApiError) as refused:
        wompi.parse_webhook(body)
    assert (refused.value.status, refused.value.code) == (400, "VALIDATION_ERROR")
    assert refused.value.details[0]["field"] == field


def test_a_body_that_is_not_json_is_malformed():
    with pytest.raises(ApiError) as refused:
        wompi.parse_webhook(b"IdTransaccion=1")
    assert (refused.value.status, refused.value.code) == (400, "MALFORMED_JSON")


def test_the_redirect_hash_is_over_the_four_fields_of_a_link_as_received():
    params = {"identificadorEnlaceComercio": "OC1234", "idTransaccion": "2bedafea-0924-49f0-927d-8c638e193990",
              "idEnlace": "66", "monto": "25.00"}
    text = "OC1234" "2bedafea-0924-49f0-927d-8c638e193990" "66" "25.00"  # no separator, monto as received
    expected = hmac.new(SECRET.encode(), text.encode(), hashlib.sha256).hexdigest()
    assert wompi.redirect_signature(SECRET, params) == expected
    assert wompi.redirect_is_signed(SECRET, {**params, "hash": expected})
    assert not wompi.redirect_is_signed(SECRET, {**params, "monto": "25", "hash": expected})  # reformatted: not it
    assert not wompi.redirect_is_signed(SECRET, params)  # no hash


def test_the_token_form_and_answer():
    assert wompi.token_form("app-id", SECRET) == {"grant_type": "client_credentials", "client_id": "app-id",
                                                  "client_secret": SECRET, "audience": "wompi_api"}
    # https://docs.wompi.sv/auntenticacion/autenticacion, the answer's sample
    token = wompi.read_token({"access_token": "eyJz93a...k4laUWw", "expires_in": 3600, "token_type": "Bearer",
                              "scope": "wompi_api"})
    assert (token.access_token, token.expires_in) == ("eyJz93a...k4laUWw", 3600)
    with pytest.raises(ValueError):
        wompi.read_token({"error": "invalid_client"})


def test_the_link_body_asks_one_card_payment_of_the_amount_until_the_links_expiry():
    el_salvador = dt.timezone(dt.timedelta(hours=-6))
    body = wompi.link_body(reference="pl_abc", amount=Decimal("25"), product="Factura 1", description="Factura 1",
                           redirect_url="https://app/#/pay/done", webhook_url="https://api/webhooks/gateway-b",
                           starts_at=dt.datetime(2026, 3, 1, 9, 30, 15, 123456, tzinfo=el_salvador),
                           expires_at=dt.datetime(2026, 3, 8, 9, 30, tzinfo=el_salvador))
    assert body["identificadorEnlaceComercio"] == "pl_abc"
    assert str(body["monto"]) == "25.00"  # decimal dollars, to the cent
    assert body["formaPago"] == {"permitirTarjetaCreditoDebido": True, "permitirPagoConPuntoAgricola": False,
                                 "permitirPagoEnCuotasAgricola": False, "permitirPagoEnBitcoin": False,
                                 "permitePagoQuickPay": False}
    assert body["infoProducto"] == {"descripcionProducto": "Factura 1"}
    assert body["configuracion"]["esMontoEditable"] is False and body["configuracion"]["cantidadPorDefecto"] == 1
    # 09:30 at UTC-6 is 15:30 UTC, to the second
    assert body["vigencia"] == {"fechaInicio": "2026-03-01T15:30:15+00:00", "fechaFin": "2026-03-08T15:30:00+00:00"}
    assert body["limitesDeUso"] == {"cantidadMaximaPagosExitosos": 1}
    assert jsoncodec.dumps(body["monto"]) == "25.00"  # written as a JSON number


def test_the_link_answer_and_wompis_error_answer():
    link = wompi.read_link({"idEnlace": Decimal("66"), "urlEnlace": "https://lk.wompi.sv/abcd",
                            "urlQrCodeEnlace": "https://wompistorage.blob.core.windows.net/qr/66.png",
                            "estaProductivo": False, "urlEnlaceLargo": "https://pagos.wompi.sv/x"})
    assert (link.id, link.url, link.productive) == ("66", "https://lk.wompi.sv/abcd", False)
    assert link.qr_image_url.endswith("66.png")
    with pytest.raises(ValueError):
        wompi.read_link({"idEnlace": 66})
    # an observed 400 (research/wompi.md §3)
    assert wompi.error_messages({"mensajes": ["El número de tarjeta no es válido"],
                                 "servicioError": "TransaccionCompraController", "subTipoError": None}) == [
        "El número de tarjeta no es válido"]
    assert wompi.error_messages({"error": "invalid_client"}) == ["invalid_client"]


# an observed real answer of GET /TransaccionCompra/{id} (research/wompi.md §4), as the service reads it
OBSERVED_STATUS = (b'{"codigoAutorizacion":"102448","datosAdicionales":{},"datosBitcoin":null,"esAprobada":true,'
                   b'"esReal":true,"fechaTransaccion":"2024-08-26T14:26:49.0336649-06:00","formaPago":"PagoNormal",'
                   b'"idTransaccion":"5e0b9e4c-9d43-4b8e-8f53-2a3c1a0e7f11","mensaje":"AUTORIZADO","monto":1.0,'
                   b'"montoOriginal":null,"resultadoTransaccion":"ExitosaAprobada"}')


def test_the_status_answer_is_read():
    transaction = wompi.read_transaction(jsoncodec.loads(OBSERVED_STATUS))
    assert (transaction.approved, transaction.live, transaction.amount) == (True, True, Decimal("1.00"))
    assert (transaction.authorization, transaction.message) == ("102448", "AUTORIZADO")
    assert transaction.paid_at == dt.datetime(2024, 8, 26, 20, 26, 49, 33664, tzinfo=dt.timezone.utc)  # 14:26 at UTC-6


@pytest.mark.parametrize("broken", [
    OBSERVED_STATUS.replace(b'"esAprobada":true', b'"esAprobada":"true"'),
    OBSERVED_STATUS.replace(b'"esReal":true,', b''),
    OBSERVED_STATUS.replace(b'"monto":1.0', b'"monto":"1.0"'),
    OBSERVED_STATUS.replace(b'-06:00', b''),
])
def test_a_status_answer_missing_what_decides_is_unreadable(broken):
    with pytest.raises(ValueError):
        wompi.read_transaction(jsoncodec.loads(broken))
