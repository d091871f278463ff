"""A stand-in for PixelPay (issue 43), run by the local stack and the tests: the adapter
(chalicelib/services/integrations/providers/pixelpay.py) speaks HTTP to it as to PixelPay's
sandbox. What it serves (docs/gateways.md "PixelPay" gives each source, and what is assumed):

- `GET {base}/hosted/payment/other?_key=..&_order_id=..&_amount=..`: the hosted payment page, a
  small form in Spanish (card number, CVV, "Pagar"); `POST` of the same address pays: the
  transaction is kept, its result posted as JSON (or a form: the `form_callback` fault) to
  `_callback` (TransactionResult's fields,
  `order_id` and `payment_hash` = MD5(order_id|key_id|secret)), and the customer sent (303) to
  `_complete`;
- `POST /api/v2/transaction/status` ({payment_uuid}) and `/void` ({payment_uuid, void_reason,
  void_signature}), `/sale` (a card charged straight, as the SDK's doSale): `x-auth-key` and
  `x-auth-hash` (MD5 of the secret) checked against the keys it knows: the sandbox's fixed key
  always, others `register`ed (or `POST /_standin/keys`); the sandbox key only with `env` "sandbox".

The outcome is chosen by the amount, as the sandbox's: 2.00 declined ("Transacción denegada"),
4.00 declined (a stolen card), 3.00 and 5.00 to 14.00 the sandbox's documented errors (no
transaction). Any other amount approves here; the real sandbox approves only 1.00 (and answers
others "test case doesn't exist"), which would make a demo invoice unpayable.

Tests drive it in Python: `pay(checkout_url)` (the customer on the hosted page; the callback(s)
returned as Deliveries, posted too with `deliver=True`), `transactions`, `voids`, `fault(...)`,
`reset_faults()`, `fee_terms` and `settle(day)` (the payout of what it holds, net of its fee).
Run alone: `python -m infra.devstack.pixelpay_standin --port 8003`."""
from __future__ import annotations

import argparse
import datetime as _dt
import html
import json
import secrets
import threading
import time
import urllib.parse
from dataclasses import dataclass
from decimal import Decimal, InvalidOperation
from http.server import ThreadingHTTPServer
from typing import Any

from chalicelib import clock, jsoncodec
from chalicelib.domain import pixelpay as formats
from chalicelib.domain.gateway_fees import FeeTerms, net_of_fee
from infra.devstack import standin_server
from infra.devstack.standin_server import Delivery, Payout, Reply, StandInRequest

CENT = Decimal("0.01")
SANDBOX_CARDS = {"4111111111111111": "999", "5555555555554444": "999"}
DEFAULT_CARD = "4111111111111111"
# the sandbox's cases by amount (the SDK tests): (HTTP status, message); 402 keeps a declined transaction
CASES: dict[Decimal, tuple[int, str]] = {
    Decimal(2): (402, "Transacción denegada"),
    Decimal(3): (400, "Configuración de comercio inválida"),
    Decimal(4): (402, "Tarjeta con reporte de robo o extravío"),
    Decimal(5): (406, "Error al encontrar el cobro"),
    Decimal(6): (412, "El límite de intentos para esta tarjeta ha sido superado"),
    Decimal(7): (500, "Error general del sistema"),
    Decimal(8): (408, "Tiempo de espera excedido"),
    Decimal(9): (412, "Lo sentimos, este valor excede el máximo permitido al comercio"),
    Decimal(10): (412, "Lo sentimos, este comercio ha llegado a su límite de transacciones"),
    Decimal(11): (412, "Lo sentimos, este comercio ha llegado a su límite de ventas"),
    Decimal(12): (412, "El comercio no acepta tarjetas de este emisor."),
    Decimal(13): (412, "El comercio no acepta tarjetas de este tipo."),
    Decimal(14): (412, "El comercio no permite transacciones de este país o región."),
}
APPROVED_MESSAGE = "Transacción completada exitosamente"
STATUS_TIMEOUT_SECONDS = 3.0  # past the adapter's deadline (GATEWAY_TIMEOUT_S, 2 s in tests)
FAULTS: dict[str, Any] = {
    "status_timeout": False,  # True (STATUS_TIMEOUT_SECONDS) or seconds: the status call answers that late
    "status_unavailable": False,  # the status call answers 503
    "void_unavailable": False,  # the void call answers 503
    "void_refused": False,  # the void call answers 412
    "bad_hash": False,  # the callback's payment_hash is not the merchant's
    "duplicate_callback": False,  # the callback is sent twice
    "form_callback": False,  # the callback is sent as an x-www-form-urlencoded form, not JSON
    "status_without_order_id": False,  # the status answer omits order_id (the SDK's TransactionResult has none)
    "status_without_date": False,  # the status answer omits transaction_date and transaction_time
    "payout_delay_days": 0,  # a payout is made this many days after the day settled
}


@dataclass
class Transaction:
    payment_uuid: str
    order_id: str
    key_id: str
    amount: Decimal
    currency: str
    approved: bool
    message: str
    created_at: _dt.datetime
    callback_url: str | None
    authorization: str | None
    card_last4: str
    voided: bool = False
    payout_reference: str | None = None

    @property
    def day(self) -> _dt.date:
        return self.created_at.astimezone(formats.HONDURAS).date()

    def result(self, secret: str) -> dict[str, Any]:
        """The SDK's TransactionResult, with the order's id and currency (what the callback and the
        status call answer here)."""
        local = self.created_at.astimezone(formats.HONDURAS)
        return {
            "transaction_type": "sale", "order_id": self.order_id, "order_currency": self.currency,
            "transaction_amount": self.amount, "transaction_approved_amount": self.amount if self.approved else Decimal("0.00"),
            "transaction_auth": self.authorization, "transaction_id": self.payment_uuid[-12:],
            "transaction_reference": self.payment_uuid[:12], "transaction_date": local.strftime("%Y-%m-%d"),
            "transaction_time": local.strftime("%H:%M:%S"), "response_approved": self.approved,
            "response_incomplete": False, "response_code": "00" if self.approved else "05",
            "response_reason": self.message, "payment_uuid": self.payment_uuid,
            "payment_hash": formats.payment_hash(self.order_id, self.key_id, secret)}


@dataclass(frozen=True)
class VoidRecord:
    payment_uuid: str
    order_id: str
    reason: str
    signature: str
    auth_user: str | None
    at: _dt.datetime


@dataclass
class _Merchant:
    secret: str
    user_email: str | None = None


class StandInPixelPay:
    def __init__(self) -> None:
        self._lock = threading.RLock()
        self.merchants: dict[str, _Merchant] = {formats.SANDBOX_KEY_ID: _Merchant(formats.SANDBOX_SECRET)}
        self.transactions: dict[str, Transaction] = {}
        self.voids: list[VoidRecord] = []
        self.payouts: list[Payout] = []
        self.reset_faults()

    # --- the tests' handles ---------------------------------------------------------------------

    def register(self, key_id: str, secret: str, user_email: str | None = None) -> None:
        """A merchant's credentials (PixelPay's panel gives them): with `user_email`, its voids'
        x-auth-user and void_signature are checked too."""
        with self._lock:
            self.merchants[key_id] = _Merchant(secret, user_email)

    def reset_faults(self) -> None:
        with self._lock:
            self.faults: dict[str, Any] = dict(FAULTS)
            self.fee_terms = FeeTerms()

    def fault(self, **faults: Any) -> None:
        unknown = set(faults) - set(FAULTS)
        if unknown:
            raise ValueError(f"unknown faults: {sorted(unknown)}")
        with self._lock:
            self.faults.update(faults)

    def pay(self, checkout_url: str, *, card: str | None = None, cvv: str | None = None,
            deliver: bool = False) -> list[Delivery]:
        """The customer pays on the hosted page: the callback(s) PixelPay sends (none when the
        sandbox's case is an error, not a transaction)."""
        query = dict(urllib.parse.parse_qsl(urllib.parse.urlsplit(checkout_url).query, keep_blank_values=True))
        card = card or DEFAULT_CARD
        outcome = self._hosted_payment(query, card, cvv or SANDBOX_CARDS.get(card, "999"))
        deliveries = outcome[1]
        if deliver:
            for delivery in deliveries:
                delivery.deliver()
        return deliveries

    def settle(self, day: _dt.date, *, key_id: str | None = None, currency: str | None = None) -> Payout:
        """What PixelPay pays out on `day`: its approved, unvoided, unsettled transactions of that day
        or before (of `key_id`, in `currency`, when given), net of `fee_terms`; dated later by the
        `payout_delay_days` fault."""
        with self._lock:
            due = [t for t in self.transactions.values()
                   if t.approved and not t.voided and t.payout_reference is None and t.day <= day
                   and (key_id is None or t.key_id == key_id) and (currency is None or t.currency == currency)]
            currencies = {t.currency for t in due}
            if len(currencies) > 1:
                raise ValueError(f"transactions in {sorted(currencies)}: settle one currency at a time")
            paid_on = day + _dt.timedelta(days=int(self.faults["payout_delay_days"]))
            reference = f"PXP-{paid_on:%Y%m%d}-{len(self.payouts) + 1:04d}"
            amount = sum((net_of_fee(t.amount, self.fee_terms) for t in due), Decimal("0.00"))
            for transaction in due:
                transaction.payout_reference = reference
            payout = Payout(amount.quantize(CENT), paid_on, reference, tuple(t.payment_uuid for t in due),
                            currencies.pop() if currencies else currency)
            self.payouts.append(payout)
            return payout

    # --- HTTP ---------------------------------------------------------------------------------

    def handle(self, request: StandInRequest) -> Reply:
        path = request.path.rstrip("/")
        if path == formats.HOSTED_PAGE_PATH:
            return self._hosted_page(request)
        if request.method == "POST" and path == formats.STATUS_PATH:
            return self._authenticated(request, self._status)
        if request.method == "POST" and path == formats.VOID_PATH:
            return self._authenticated(request, self._void)
        if request.method == "POST" and path == formats.SALE_PATH:
            return self._authenticated(request, self._sale)
        if request.method == "POST" and path == "/_standin/keys":
            body = request.json()
            self.register(str(body["keyId"]), str(body["secret"]), body.get("userEmail"))
            return Reply.of_json(200, {"registered": body["keyId"]})
        if request.method == "POST" and path == "/_standin/faults":
            self.reset_faults()
            self.fault(**request.json())
            return Reply.of_json(200, self.faults)
        return Reply.of_json(404, {"success": False, "message": "Recurso no encontrado"})

    def _authenticated(self, request: StandInRequest, then: Any) -> Reply:
        key_id = request.headers.get("x-auth-key", "")
        merchant = self.merchants.get(key_id)
        if merchant is None or request.headers.get("x-auth-hash", "").lower() != formats.md5_hex(merchant.secret):
            return _refusal(401, "Credenciales de comercio inválidas")
        try:
            body = json.loads(request.body or b"{}")
        except ValueError:
            return _refusal(400, "La solicitud no es JSON válido")
        if not isinstance(body, dict):
            return _refusal(400, "La solicitud no es JSON válido")
        if key_id == formats.SANDBOX_KEY_ID and body.get("env") != "sandbox":
            return _refusal(400, "El valor KEY es inválido")
        return then(request, key_id, merchant, body)

    def _transaction_of(self, key_id: str, body: dict[str, Any]) -> Transaction | None:
        transaction = self.transactions.get(str(body.get("payment_uuid") or ""))
        return transaction if transaction is not None and transaction.key_id == key_id else None

    def _status(self, request: StandInRequest, key_id: str, merchant: _Merchant, body: dict[str, Any]) -> Reply:
        delay = self.faults["status_timeout"]
        if delay:
            time.sleep(STATUS_TIMEOUT_SECONDS if delay is True else float(delay))
        if self.faults["status_unavailable"]:
            return _refusal(503, "Servicio no disponible")
        transaction = self._transaction_of(key_id, body)
        if transaction is None:
            return _refusal(406, "Error al encontrar el cobro")
        data = transaction.result(merchant.secret)
        if self.faults["status_without_order_id"]:
            del data["order_id"]
        if self.faults["status_without_date"]:
            del data["transaction_date"], data["transaction_time"]
        return _answer(200, transaction.message, data)

    def _void(self, request: StandInRequest, key_id: str, merchant: _Merchant, body: dict[str, Any]) -> Reply:
        if self.faults["void_unavailable"]:
            return _refusal(503, "Servicio no disponible")
        auth_user = request.headers.get("x-auth-user")
        signature = str(body.get("void_signature") or "")
        if not auth_user or not signature:
            return _refusal(401, "La anulación requiere x-auth-user y void_signature")
        with self._lock:
            transaction = self._transaction_of(key_id, body)
            if transaction is None:
                return _refusal(406, "Error al encontrar el cobro")
            if merchant.user_email is not None and (
                    auth_user != formats.sha512_hex(merchant.user_email)
                    or signature != formats.void_signature(merchant.user_email, transaction.order_id, merchant.secret)):
                return _refusal(401, "Firma de anulación inválida")
            if self.faults["void_refused"] or transaction.voided or not transaction.approved:
                return _refusal(412, "La transacción no puede ser anulada")
            transaction.voided = True
            self.voids.append(VoidRecord(transaction.payment_uuid, transaction.order_id,
                                         str(body.get("void_reason") or ""), signature, auth_user, clock.now()))
            return _answer(200, "Transacción anulada", {**transaction.result(merchant.secret), "transaction_type": "void"})

    def _sale(self, request: StandInRequest, key_id: str, merchant: _Merchant, body: dict[str, Any]) -> Reply:
        status, transaction, message = self._charge(
            key_id, str(body.get("order_id") or ""), body.get("order_amount"), str(body.get("order_currency") or ""),
            str(body.get("card_number") or ""), str(body.get("card_cvv") or ""), body.get("order_callback"))
        if transaction is None:
            return _refusal(status, message)
        return _answer(status, message, transaction.result(merchant.secret))

    # --- the hosted page --------------------------------------------------------------------------

    def _hosted_page(self, request: StandInRequest) -> Reply:
        fields = {**request.query, **(request.form() if request.method == "POST" else {})}
        problem = self._order_problem(fields)
        if problem:
            return Reply.of_html(400, standin_server.page("PixelPay", "Pago no disponible", f"<p>{html.escape(problem)}</p>"))
        if request.method == "GET":
            return Reply.of_html(200, _form_page(fields))
        status, deliveries, message = self._hosted_payment(fields, fields.get("card_number", ""),
                                                          fields.get("card_cvv", ""))
        for delivery in deliveries:  # PixelPay posts the callback itself
            delivery.send(timeout=5)
        if status == 200:
            return Reply.redirect(fields["_complete"])
        back = html.escape(fields["_cancel"], quote=True)
        return Reply.of_html(status if status < 500 else 502, standin_server.page("PixelPay",
            "Pago no realizado", f"<p role=\"alert\">{html.escape(message)}</p><p><a href=\"{back}\">Volver al comercio</a></p>"))

    def _order_problem(self, fields: dict[str, str]) -> str | None:
        if fields.get("_key") not in self.merchants:
            return "Comercio no válido (_key)."
        for name in ("_order_id", "_cancel", "_complete", "_amount", "_currency"):
            if not fields.get(name):
                return f"Falta el campo {name}."
        try:
            if Decimal(fields["_amount"]) <= 0:
                return "Monto no válido (_amount)."
        except InvalidOperation:
            return "Monto no válido (_amount)."
        return None

    def _hosted_payment(self, fields: dict[str, str], card: str, cvv: str) -> tuple[int, list[Delivery], str]:
        problem = self._order_problem(fields)
        if problem:
            raise ValueError(problem)
        key_id = fields["_key"]
        status, transaction, message = self._charge(key_id, fields["_order_id"], fields["_amount"],
                                                    fields["_currency"], card, cvv, fields.get("_callback"))
        if transaction is None or not transaction.callback_url:
            return status, [], message
        payload = transaction.result(self.merchants[key_id].secret)
        if self.faults["bad_hash"]:
            payload["payment_hash"] = formats.md5_hex("not the merchant's secret")
        if self.faults["form_callback"]:
            body = urllib.parse.urlencode({name: _form_value(value) for name, value in payload.items()}).encode()
            content_type = "application/x-www-form-urlencoded"
        else:
            body, content_type = jsoncodec.dumps(payload).encode(), "application/json"
        delivery = Delivery(transaction.callback_url, body, {"Content-Type": content_type,
                                                             "User-Agent": "PixelPay-StandIn"})
        return status, [delivery, delivery] if self.faults["duplicate_callback"] else [delivery], message

    def _charge(self, key_id: str, order_id: str, amount_text: Any, currency: str, card: str, cvv: str,
                callback_url: Any) -> tuple[int, Transaction | None, str]:
        """A sale by the sandbox's rules: (HTTP status, the transaction kept or None, message)."""
        try:
            amount = Decimal(str(amount_text)).quantize(CENT)
        except InvalidOperation:
            return 422, None, "El campo order_amount es inválido"
        if not order_id or amount <= 0 or currency.upper() not in ("HNL", "USD", "NIO"):
            return 422, None, "Los datos de la orden son inválidos"
        digits = card.replace(" ", "")
        if not (digits.isdigit() and len(digits) == 16) or not (cvv.isdigit() and 3 <= len(cvv) <= 4):
            return 422, None, "Los datos de la tarjeta son inválidos"
        status, message = CASES.get(amount, (200, APPROVED_MESSAGE))
        if status not in (200, 402):
            return status, None, message
        transaction = Transaction(
            payment_uuid=f"P-{secrets.token_hex(4)}-{secrets.token_hex(2)}-{secrets.token_hex(6)}",
            order_id=order_id, key_id=key_id, amount=amount, currency=currency.upper(), approved=status == 200,
            message=message, created_at=clock.now(), callback_url=str(callback_url) if callback_url else None,
            authorization=f"{secrets.randbelow(10 ** 6):06d}" if status == 200 else None, card_last4=digits[-4:])
        with self._lock:
            self.transactions[transaction.payment_uuid] = transaction
        return status, transaction, message


def _form_value(value: Any) -> str:
    """A result field as a form sends it: booleans as true/false, nothing as empty."""
    if isinstance(value, bool):
        return "true" if value else "false"
    return "" if value is None else str(value)


def _answer(status: int, message: str, data: dict[str, Any]) -> Reply:
    return Reply(status, jsoncodec.dumps({"success": status == 200, "message": message, "data": data}).encode(),
                 {"Content-Type": "application/json"})


def _refusal(status: int, message: str) -> Reply:
    return Reply.of_json(status, {"success": False, "message": message})


def _form_page(fields: dict[str, str]) -> str:
    action = html.escape(formats.HOSTED_PAGE_PATH + "?" + urllib.parse.urlencode(fields), quote=True)
    cancel = html.escape(fields["_cancel"], quote=True)
    return standin_server.page("PixelPay", "Pagar con tarjeta", (
        f"<p>Orden <strong>{html.escape(fields['_order_id'])}</strong>: "
        f"<strong>{html.escape(fields['_currency'])} {html.escape(fields['_amount'])}</strong></p>"
        f"<form method=\"post\" action=\"{action}\">"
        "<label for=\"card_number\">Número de tarjeta</label>"
        f"<input id=\"card_number\" name=\"card_number\" inputmode=\"numeric\" value=\"{DEFAULT_CARD}\" required>"
        "<label for=\"card_cvv\">CVV</label>"
        "<input id=\"card_cvv\" name=\"card_cvv\" inputmode=\"numeric\" value=\"999\" required>"
        "<button type=\"submit\">Pagar</button></form>"
        f"<p><a href=\"{cancel}\">Cancelar y volver al comercio</a></p>"))


def serve(standin: StandInPixelPay, port: int = 0) -> tuple[ThreadingHTTPServer, str]:
    return standin_server.serve(standin.handle, "pixelpay-standin", port)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--port", type=int, default=8003)
    args = parser.parse_args(argv)
    server = standin_server.make_server(StandInPixelPay().handle, args.port)
    print(f"PixelPay stand-in on http://127.0.0.1:{args.port} (sandbox key {formats.SANDBOX_KEY_ID})", flush=True)
    server.serve_forever()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
