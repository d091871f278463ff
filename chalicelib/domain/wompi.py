"""Wompi El Salvador's formats (issue 43), no I/O: the OAuth2 token form, the payment link
(POST /EnlacePago) and its answer, the webhook and its `wompi_hash` signature, the redirect's
hash, and the transaction status (GET /TransaccionCompra/{id}). docs/gateways.md "## Wompi"
cites where each field is documented and says what is assumed where the documentation is silent.

Wompi takes US dollars only and names no currency anywhere: amounts are decimal dollars."""
from __future__ import annotations

import datetime as _dt
import hashlib
import hmac
import re
from dataclasses import dataclass
from decimal import Decimal
from typing import Any, Mapping

from chalicelib import jsoncodec
from chalicelib.domain.gateways import ProviderNotification, SignatureRefused, json_object
from chalicelib.domain.money import MAX_AMOUNT
from chalicelib.errors import ValidationFailed
from chalicelib.messages.phrases import Phrase

PROVIDER = "wompi"
CURRENCY = "USD"
AUDIENCE = "wompi_api"
SIGNATURE_HEADER = "wompi_hash"
APPROVED = "ExitosaAprobada"  # ResultadoTransaccion of an approved payment
# the longest texts Wompi takes for the link's reference and product (third-party notes: 500)
MAX_TEXT = 500
CENT = Decimal("0.01")
_TRANSACTION_ID = re.compile(r"[\x21-\x7e]{1,200}")
_HEX_SHA256 = re.compile(r"[0-9a-fA-F]{64}")


# --- the token (POST {id}/connect/token) ---------------------------------------------------------

def token_form(client_id: str, client_secret: str) -> dict[str, str]:
    """The client-credentials form: the App ID and the API Secret, audience always wompi_api."""
    return {"grant_type": "client_credentials", "client_id": client_id, "client_secret": client_secret,
            "audience": AUDIENCE}


@dataclass(frozen=True)
class Token:
    access_token: str
    expires_in: int  # seconds


def read_token(body: Any) -> Token:
    """`{"access_token", "expires_in", "token_type": "Bearer"}`; ValueError on anything else."""
    if not isinstance(body, dict) or not isinstance(body.get("access_token"), str) or not body["access_token"]:
        raise ValueError("no access_token in the token answer")
    expires_in = jsoncodec.whole_number(body.get("expires_in"))
    if not isinstance(expires_in, int) or isinstance(expires_in, bool) or expires_in <= 0:
        expires_in = 300  # not said: kept briefly, a 401 drops it anyway
    return Token(body["access_token"], expires_in)


# --- the payment link (POST /EnlacePago) --------------------------------------------------------

def link_body(*, reference: str, amount: Decimal, product: str, description: str, redirect_url: str,
              webhook_url: str, starts_at: _dt.datetime, expires_at: _dt.datetime,
              notify_customer: bool = False) -> dict[str, Any]:
    """A link for one card payment of exactly `amount`: our link id is `identificadorEnlaceComercio`
    (the webhook and the redirect carry it back); one successful payment, then the link is spent."""
    return {
        "identificadorEnlaceComercio": reference,
        "monto": amount.quantize(CENT),
        "nombreProducto": product[:MAX_TEXT],
        "formaPago": {"permitirTarjetaCreditoDebido": True, "permitirPagoConPuntoAgricola": False,
                      "permitirPagoEnCuotasAgricola": False, "permitirPagoEnBitcoin": False,
                      "permitePagoQuickPay": False},
        "infoProducto": {"descripcionProducto": description[:MAX_TEXT]},
        "configuracion": {"urlRedirect": redirect_url, "urlWebhook": webhook_url,
                          "notificarTransaccionCliente": notify_customer, "esMontoEditable": False,
                          "esCantidadEditable": False, "cantidadPorDefecto": 1},
        "vigencia": {"fechaInicio": wompi_time(starts_at), "fechaFin": wompi_time(expires_at)},
        "limitesDeUso": {"cantidadMaximaPagosExitosos": 1},
    }


def wompi_time(moment: _dt.datetime) -> str:
    """ISO 8601 with its offset, to the second (the docs type `vigencia` as date-time only)."""
    return moment.astimezone(_dt.timezone.utc).replace(microsecond=0).isoformat()


@dataclass(frozen=True)
class WompiLink:
    id: str  # idEnlace (an integer at Wompi, kept as text)
    url: str  # urlEnlace: where the customer pays
    qr_image_url: str | None
    productive: bool | None  # estaProductivo: False while the app is in test mode


def read_link(body: Any) -> WompiLink:
    """CrearEnlacePagoOutput; ValueError when it lacks the link's id or URL."""
    if not isinstance(body, dict):
        raise ValueError("the answer is not an object")
    link_id, url = body.get("idEnlace"), body.get("urlEnlace")
    if isinstance(link_id, Decimal):
        link_id = jsoncodec.whole_number(link_id)
    if isinstance(link_id, bool) or not isinstance(link_id, (int, str)) or str(link_id) == "":
        raise ValueError("no idEnlace in the answer")
    if not isinstance(url, str) or not url.startswith(("https://", "http://")):
        raise ValueError("no urlEnlace in the answer")
    qr = body.get("urlQrCodeEnlace")
    productive = body.get("estaProductivo")
    return WompiLink(str(link_id), url, qr if isinstance(qr, str) and qr else None,
                     productive if isinstance(productive, bool) else None)


def error_messages(body: Any) -> list[str]:
    """Wompi's error answer `{servicioError, mensajes: [...], subTipoError}`: its messages."""
    if isinstance(body, dict):
        found = body.get("mensajes")
        if isinstance(found, list):
            return [str(item)[:300] for item in found if isinstance(item, (str, int, Decimal))][:5]
        for name in ("error_description", "error", "message", "title"):  # the token service's own words
            if isinstance(body.get(name), str):
                return [body[name][:300]]
    return []


# --- the webhook --------------------------------------------------------------------------------

def parse_webhook(raw_body: bytes) -> ProviderNotification:
    """The webhook body as a notification; 400 MALFORMED_JSON, or VALIDATION_ERROR naming the field.
    Unknown fields are accepted (the `cliente` map is open)."""
    payload = json_object(raw_body)
    link = payload.get("EnlacePago")
    if not isinstance(link, dict):
        raise ValidationFailed.for_field("EnlacePago", "required: an object")
    live = payload.get("EsProductiva")
    if live is not None and not isinstance(live, bool):
        raise ValidationFailed.for_field("EsProductiva", "must be true or false")
    return ProviderNotification(
        provider=PROVIDER,
        link_id=_text(link, "IdentificadorEnlaceComercio", "EnlacePago.IdentificadorEnlaceComercio"),
        transaction_id=_transaction_id(payload.get("IdTransaccion"), "IdTransaccion"),
        approved=_text(payload, "ResultadoTransaccion", "ResultadoTransaccion") == APPROVED,
        amount=_amount(payload.get("Monto"), "Monto"),
        currency=None,  # Wompi names none: its links are in USD (the confirmation says so)
        paid_at=_timestamp(payload.get("FechaTransaccion"), "FechaTransaccion"),
        live=live)


def webhook_signature(secret: str, raw_body: bytes) -> str:
    """Lowercase hex HMAC-SHA256 of the body exactly as sent, keyed with the API Secret."""
    return hmac.new(secret.encode(), raw_body, hashlib.sha256).hexdigest()


def header(headers: Mapping[str, str], name: str) -> str:
    """A header by name whatever its case (the API hands them lowercased; Wompi's PHP sample reads Wompi_Hash)."""
    wanted = name.lower()
    return next((value for key, value in headers.items() if key.lower() == wanted), "")


def verify_webhook(secret: str, raw_body: bytes, headers: Mapping[str, str]) -> None:
    """401 SIGNATURE_REQUIRED without `wompi_hash`, INVALID_SIGNATURE unless it signs these bytes."""
    sent = (header(headers, SIGNATURE_HEADER) or "").strip()
    if not sent:
        raise SignatureRefused(Phrase("The {} header is required.", SIGNATURE_HEADER), code="SIGNATURE_REQUIRED")
    if not secret or not _HEX_SHA256.fullmatch(sent) or \
            not hmac.compare_digest(webhook_signature(secret, raw_body), sent.lower()):
        raise SignatureRefused()


# --- the redirect -------------------------------------------------------------------------------

REDIRECT_FIELDS = ("identificadorEnlaceComercio", "idTransaccion", "idEnlace", "monto")


def redirect_signature(secret: str, params: Mapping[str, str]) -> str:
    """A payment link's redirect hash: lowercase hex HMAC-SHA256, keyed with the API Secret, of
    identificadorEnlaceComercio + idTransaccion + idEnlace + monto, concatenated as received (no
    separator, `monto` not reformatted). The official plugin's order; the "Crear Enlace de Pago"
    page gives another (the API flow's seven fields): docs/gateways.md."""
    text = "".join(params.get(name, "") for name in REDIRECT_FIELDS)
    return hmac.new(secret.encode(), text.encode(), hashlib.sha256).hexdigest()


def redirect_is_signed(secret: str, params: Mapping[str, str]) -> bool:
    sent = (params.get("hash") or "").strip().lower()
    return bool(secret) and _HEX_SHA256.fullmatch(sent) is not None and \
        hmac.compare_digest(redirect_signature(secret, params), sent)


# --- the transaction (GET /TransaccionCompra/{id}) ------------------------------------------------

@dataclass(frozen=True)
class WompiTransaction:
    transaction_id: str
    approved: bool  # esAprobada
    live: bool  # esReal: False for a test-mode app's transactions
    amount: Decimal
    paid_at: _dt.datetime
    authorization: str | None
    message: str | None


class TransactionUnreadable(ValueError):
    """A transaction answer lacking a field we decide on, or holding it in a form we do not read;
    its only argument is Wompi's name of the field (an answer that is no JSON object: "JSON"), the
    one part an error shows in any language."""

    @property
    def field(self) -> str:
        return str(self.args[0])


def read_transaction(body: Any) -> WompiTransaction:
    """DetalleTransaccionCompraOutput; TransactionUnreadable (naming the field) when a field we
    decide on is missing or unreadable."""
    if not isinstance(body, dict):
        raise TransactionUnreadable("JSON")
    for name in ("esAprobada", "esReal"):
        if not isinstance(body.get(name), bool):
            raise TransactionUnreadable(name)
    transaction_id = body.get("idTransaccion")
    if not isinstance(transaction_id, str) or not _TRANSACTION_ID.fullmatch(transaction_id):
        raise TransactionUnreadable("idTransaccion")
    amount = body.get("monto")
    if isinstance(amount, bool) or not isinstance(amount, (int, Decimal)) or not 0 <= amount <= MAX_AMOUNT:
        raise TransactionUnreadable("monto")
    try:
        paid_at = _moment(body.get("fechaTransaccion"))
    except (ValueError, TypeError, OverflowError):
        raise TransactionUnreadable("fechaTransaccion") from None
    authorization, message = body.get("codigoAutorizacion"), body.get("mensaje")
    return WompiTransaction(transaction_id, body["esAprobada"], body["esReal"], Decimal(amount).quantize(CENT),
                            paid_at, authorization if isinstance(authorization, str) else None,
                            message if isinstance(message, str) else None)


# --- fields -------------------------------------------------------------------------------------

def _text(payload: dict[str, Any], name: str, field: str) -> str:
    value = payload.get(name)
    if not isinstance(value, str) or not 0 < len(value) <= 200:
        raise ValidationFailed.for_field(field, "required: a string of 1 to 200 characters")
    return value


def _transaction_id(value: Any, field: str) -> str:
    if not isinstance(value, str) or not 0 < len(value) <= 200:
        raise ValidationFailed.for_field(field, "required: a string of 1 to 200 characters")
    if not _TRANSACTION_ID.fullmatch(value):
        raise ValidationFailed.for_field(field, "visible ASCII characters only")
    return value


def _amount(value: Any, field: str) -> Decimal:
    if isinstance(value, bool) or not isinstance(value, (int, Decimal)):
        raise ValidationFailed.for_field(field, "required: a number")
    amount = Decimal(value)
    if not 0 < amount <= MAX_AMOUNT:
        raise ValidationFailed.for_field(field, Phrase("must be greater than 0 and at most {}", MAX_AMOUNT))
    return amount.quantize(CENT)


def _timestamp(value: Any, field: str) -> _dt.datetime:
    try:
        return _moment(value)
    except (ValueError, TypeError, OverflowError):
        raise ValidationFailed.for_field(field, "an ISO 8601 timestamp with its time zone") from None


def _moment(value: Any) -> _dt.datetime:
    """Wompi writes seven fractional digits (.NET): Python reads them from 3.11 on."""
    if not isinstance(value, str) or len(value) > 40:
        raise ValueError("not a timestamp")
    moment = _dt.datetime.fromisoformat(value)
    if moment.tzinfo is None:
        raise ValueError("no time zone")
    return moment.astimezone(_dt.timezone.utc)
