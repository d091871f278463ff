"""A stand-in for Wompi El Salvador (issue 43), run by the local stack and the tests: its documented
endpoints (the OAuth2 token, POST/GET /EnlacePago, GET /TransaccionCompra/{id}), a payment page at
the `urlEnlace` it hands out, the signed webhook and redirect, driven by the test-mode rules third
parties describe (docs/gateways.md "## Wompi"):

- every payment approves, except one with CVV 111, which is declined (and sends no webhook:
  Wompi is said to notify successful payments only);
- an app registered non-productive (test mode, as the demo app is) answers esReal=false,
  EsProductiva=false, estaProductivo=false;
- a link takes one successful payment (limitesDeUso) within its vigencia.

Tests drive it from Python: `pay(url, cvv=...)` returns the webhooks it would send (a Delivery
each), `fault(...)` breaks it, `settle(day)` pays out, net of `fee_terms`. The demo app is
DEMO_CLIENT_ID / DEMO_API_SECRET; `register` adds others.

    python -m infra.devstack.wompi_standin --port 8004
"""
from __future__ import annotations

import argparse
import datetime as _dt
import html
import secrets
import threading
import time
import urllib.parse
import uuid
from dataclasses import dataclass, field
from decimal import Decimal
from http.server import ThreadingHTTPServer
from typing import Any

from chalicelib import clock, jsoncodec
from chalicelib.domain import wompi as formats
from chalicelib.domain.gateway_fees import FeeTerms, net_of_fee
from infra.devstack import standin_server
from infra.devstack.standin_server import Delivery, Payout, Reply, StandInRequest

DEMO_CLIENT_ID = "wompi-demo-app-0001"
DEMO_API_SECRET = "wompi-demo-api-secret-0001"
TEST_CARD = "5200000000002235"  # the test card third parties name; any card approves in test mode
DECLINING_CVV = "111"
TOKEN_LIFETIME_S = 3600
STATUS_TIMEOUT_S = 3.0  # longer than the tests' GATEWAY_TIMEOUT_S=2
# the stand-in's own fee (Wompi publishes none we could cite): 3.5 % + 0.25, IVA 13 % on it
DEMO_FEE_TERMS = FeeTerms(Decimal("3.5"), Decimal("0.25"), Decimal("0.13"))
EL_SALVADOR = _dt.timezone(_dt.timedelta(hours=-6))
FAULTS = ("status_timeout", "status_unavailable", "token_unavailable", "api_unavailable", "duplicate_webhook",
          "bad_signature", "payout_delay_days")


@dataclass
class App:
    client_id: str
    secret: str
    productive: bool
    id: str = field(default_factory=lambda: str(uuid.uuid4()))
    account_id: str = field(default_factory=lambda: str(uuid.uuid4()))


@dataclass
class Link:
    id: int
    code: str
    client_id: str
    body: dict[str, Any]
    successes: int = 0
    failures: int = 0
    transaction_ids: list[str] = field(default_factory=list)

    @property
    def reference(self) -> str:
        return self.body["identificadorEnlaceComercio"]

    @property
    def amount(self) -> Decimal:
        return Decimal(self.body["monto"]).quantize(Decimal("0.01"))


@dataclass
class Transaction:
    id: str
    link_id: int
    reference: str  # identificadorEnlaceComercio
    client_id: str
    amount: Decimal
    approved: bool
    live: bool
    paid_at: _dt.datetime  # El Salvador's time, as Wompi writes it
    authorization: str | None
    message: str
    card_last4: str
    payout_reference: str | None = None

    def as_wompi(self) -> dict[str, Any]:
        """DetalleTransaccionCompraOutput, as a real answer shows it (enums as strings)."""
        return {"idTransaccion": self.id, "esReal": self.live, "esAprobada": self.approved,
                "codigoAutorizacion": self.authorization, "mensaje": self.message, "formaPago": "PagoNormal",
                "monto": self.amount, "idExterno": None,
                "resultadoTransaccion": formats.APPROVED if self.approved else "Fallida",
                "fechaTransaccion": self.paid_at.isoformat(), "montoOriginal": None, "datosAdicionales": {},
                "datosBitcoin": None}


class LinkUnavailable(Exception):
    """The link is spent (its one successful payment made), expired, not yet valid or unknown."""


class StandInWompi:
    def __init__(self) -> None:
        self._lock = threading.RLock()
        self.apps: dict[str, App] = {}
        self.tokens: dict[str, tuple[str, float]] = {}  # token -> (client id, dies at)
        self.token_calls: dict[str, int] = {}  # client id -> tokens issued
        self.links: dict[int, Link] = {}
        self._codes: dict[str, int] = {}
        self.transactions: dict[str, Transaction] = {}
        self.redirects: dict[str, str] = {}  # transaction id -> where the customer was sent back
        self.payouts: list[Payout] = []
        self.base_url = "http://127.0.0.1"  # replaced by the Host each request names
        self._next_link = 1000
        self.register(DEMO_CLIENT_ID, DEMO_API_SECRET)
        self.reset_faults()

    # --- the tests' and the local stack's controls ---------------------------------------------

    def register(self, client_id: str, secret: str, productive: bool = False) -> App:
        """An app of the panel: its App ID and API Secret; productive=False is test mode."""
        with self._lock:
            app = self.apps[client_id] = App(client_id, secret, productive)
            return app

    def reset_faults(self) -> None:
        with self._lock:
            self.faults: dict[str, Any] = {}
            self.fee_terms = DEMO_FEE_TERMS

    def fault(self, **kinds: Any) -> None:
        """status_timeout / status_unavailable (GET /TransaccionCompra sleeps past the deadline / 503),
        token_unavailable, api_unavailable (the token / EnlacePago answer 503), duplicate_webhook (each
        webhook sent twice), bad_signature (a wompi_hash that signs nothing), payout_delay_days=n."""
        unknown = set(kinds) - set(FAULTS)
        if unknown:
            raise ValueError(f"unknown faults: {sorted(unknown)}")
        with self._lock:
            self.faults.update(kinds)

    def revoke_tokens(self) -> None:
        """Every token issued is forgotten: the next API call with one answers 401."""
        with self._lock:
            self.tokens.clear()

    def pay(self, checkout_url: str, *, card: str | None = None, cvv: str | None = None,
            deliver: bool = False, name: str = "Cliente de Prueba", email: str = "cliente@example.com"
            ) -> list[Delivery]:
        """The customer pays on the link's page: the webhooks Wompi sends (none when declined),
        posted too when `deliver`. LinkUnavailable when the link cannot be paid; ValueError for a
        card number Wompi would refuse."""
        deliveries = self._pay(self._code_of(checkout_url), card or TEST_CARD, cvv or "123", name, email)[1]
        if deliver:
            for delivery in deliveries:
                delivery.send()
        return deliveries

    def settle(self, day: _dt.date, client_id: str | None = None) -> Payout:
        """Pays out the approved payments made up to `day` (El Salvador's date) not yet paid out,
        each net of `fee_terms`, on `day` (+ the payout_delay_days fault). Nothing to pay: 0.00."""
        with self._lock:
            due = [t for t in self.transactions.values() if t.approved and t.payout_reference is None
                   and t.paid_at.astimezone(EL_SALVADOR).date() <= day
                   and (client_id is None or t.client_id == client_id)]
            reference = f"WOMPI-{day:%Y%m%d}-{len(self.payouts) + 1:04d}"
            amount = sum((net_of_fee(t.amount, self.fee_terms) for t in due), Decimal("0.00"))
            for transaction in due:
                transaction.payout_reference = reference
            payout = Payout(amount, day + _dt.timedelta(days=int(self.faults.get("payout_delay_days", 0))),
                            reference, tuple(t.id for t in due))
            self.payouts.append(payout)
            return payout

    # --- HTTP ---------------------------------------------------------------------------------

    def handle(self, request: StandInRequest) -> Reply:
        host = request.headers.get("host")
        if host:
            self.base_url = f"http://{host}"
        parts = [part for part in request.path.split("/") if part]
        if request.method == "POST" and parts == ["connect", "token"]:
            return self._token(request)
        if parts[:1] == ["lk"] and len(parts) == 2:
            return self._page(request, parts[1])
        if parts[:1] == ["qr"] and len(parts) == 2 and request.method == "GET":
            return self._qr(parts[1])
        if parts[:1] in (["EnlacePago"], ["TransaccionCompra"]):
            app = self._app_of(request)
            if app is None:
                return Reply(401, b"", {"WWW-Authenticate": "Bearer"})
            if parts == ["EnlacePago"] and request.method == "POST":
                return self._create_link(app, request)
            if parts[0] == "EnlacePago" and len(parts) == 2 and request.method == "GET":
                return self._read_link(app, parts[1])
            if parts[0] == "TransaccionCompra" and len(parts) == 2 and request.method == "GET":
                return self._read_transaction(app, urllib.parse.unquote(parts[1]))
        return _error(404, "Recurso no encontrado", "Ruteo")

    def _token(self, request: StandInRequest) -> Reply:
        if self.faults.get("token_unavailable"):
            return Reply(503)
        form = request.form()
        app = self.apps.get(form.get("client_id", ""))
        if form.get("grant_type") != "client_credentials":
            return Reply.of_json(400, {"error": "unsupported_grant_type"})
        if app is None or not secrets.compare_digest(app.secret.encode(), form.get("client_secret", "").encode()):
            return Reply.of_json(400, {"error": "invalid_client"})
        if form.get("audience") != formats.AUDIENCE:
            return Reply.of_json(400, {"error": "invalid_request", "error_description": "audience"})
        token = secrets.token_urlsafe(32)
        with self._lock:
            self.tokens[token] = (app.client_id, time.monotonic() + TOKEN_LIFETIME_S)
            self.token_calls[app.client_id] = self.token_calls.get(app.client_id, 0) + 1
        return Reply.of_json(200, {"access_token": token, "expires_in": TOKEN_LIFETIME_S, "token_type": "Bearer",
                                   "scope": formats.AUDIENCE})

    def _app_of(self, request: StandInRequest) -> App | None:
        kind, _, token = request.headers.get("authorization", "").partition(" ")
        with self._lock:
            held = self.tokens.get(token) if kind.lower() == "bearer" else None
            if held is None or held[1] < time.monotonic():
                return None
            return self.apps.get(held[0])

    def _create_link(self, app: App, request: StandInRequest) -> Reply:
        if self.faults.get("api_unavailable"):
            return Reply(503)
        try:
            body = jsoncodec.loads(request.body)
        except ValueError:
            return _error(400, "El cuerpo de la solicitud no es JSON válido")
        problems = _link_problems(body)
        if problems:
            return _error(400, problems)
        with self._lock:
            self._next_link += 1
            link = Link(self._next_link, secrets.token_urlsafe(6), app.client_id, body)
            self.links[link.id] = link
            self._codes[link.code] = link.id
        return Reply.of_json(200, self._link_urls(link, app))

    def _link_urls(self, link: Link, app: App) -> dict[str, Any]:
        url = f"{self.base_url}/lk/{link.code}"
        return {"idEnlace": link.id, "urlQrCodeEnlace": f"{self.base_url}/qr/{link.code}", "urlEnlace": url,
                "estaProductivo": app.productive, "urlEnlaceLargo": url}

    def _read_link(self, app: App, link_id: str) -> Reply:
        link = self.links.get(int(link_id)) if link_id.isdigit() else None
        if link is None or link.client_id != app.client_id:
            return _error(404, "El enlace de pago no existe", "EnlacePagoController")
        body = link.body
        return Reply.of_json(200, jsoncodec.loads(jsoncodec.dumps({
            **self._link_urls(link, app), "monto": body["monto"], "nombreProducto": body["nombreProducto"],
            "usable": self._unusable(link) is None, "cantidadPagosExitosos": link.successes,
            "cantidadIntentoPagoFallidos": link.failures, "formaPago": body.get("formaPago"),
            "infoProducto": body.get("infoProducto"), "configuracion": body.get("configuracion"),
            "vigencia": body.get("vigencia"), "limitesDeUso": body.get("limitesDeUso"),
            "transacciones": [self.transactions[t].as_wompi() for t in link.transaction_ids]})))

    def _read_transaction(self, app: App, transaction_id: str) -> Reply:
        if self.faults.get("status_unavailable"):
            return Reply(503)
        if self.faults.get("status_timeout"):
            time.sleep(STATUS_TIMEOUT_S)
        transaction = self.transactions.get(transaction_id)
        if transaction is None or transaction.client_id != app.client_id:
            return _error(404, "La transacción no existe", "TransaccionCompraController")
        return Reply(200, jsoncodec.dumps(transaction.as_wompi()).encode(), {"Content-Type": "application/json"})

    def _qr(self, code: str) -> Reply:
        if code not in self._codes:
            return Reply(404)
        import segno

        svg = segno.make(f"{self.base_url}/lk/{code}", error="m").svg_inline(scale=4)
        return Reply(200, svg.encode(), {"Content-Type": "image/svg+xml"})

    def _page(self, request: StandInRequest, code: str) -> Reply:
        link = self.links.get(self._codes.get(code, -1))
        if link is None:
            return Reply.of_html(404, standin_server.page("Wompi", "Enlace no encontrado", "<p>Este enlace de pago no existe.</p>"))
        if request.method == "GET":
            unusable = self._unusable(link)
            if unusable:
                return Reply.of_html(410, standin_server.page("Wompi", "Enlace no disponible", f"<p>{html.escape(unusable)}</p>"))
            return Reply.of_html(200, _form(link))
        form = request.form()
        try:
            transaction, deliveries = self._pay(code, form.get("numeroTarjeta") or TEST_CARD, form.get("cvv") or "",
                                                form.get("nombre") or "Cliente", form.get("email") or "")
        except LinkUnavailable as reason:
            return Reply.of_html(410, standin_server.page("Wompi", "Enlace no disponible", f"<p>{html.escape(str(reason))}</p>"))
        except ValueError as reason:
            return Reply.of_html(400, standin_server.page("Wompi", "Datos de tarjeta no válidos", f"<p>{html.escape(str(reason))}</p>"
                                            f'<p><a href="/lk/{code}">Intentar de nuevo</a></p>'))
        for delivery in deliveries:
            delivery.send()
        if not transaction.approved:
            return Reply.of_html(200, standin_server.page("Wompi", "Transacción rechazada", "<p>Su banco rechazó el pago. No se hizo ningún "
                                            f'cargo.</p><p><a href="/lk/{code}">Intentar de nuevo</a></p>'))
        return Reply.redirect(self.redirects[transaction.id])

    # --- paying ---------------------------------------------------------------------------------

    def _code_of(self, checkout_url: str) -> str:
        parts = [part for part in urllib.parse.urlsplit(checkout_url).path.split("/") if part]
        if len(parts) != 2 or parts[0] != "lk":
            raise LinkUnavailable(f"not a link of this stand-in: {checkout_url}")
        return parts[1]

    def _unusable(self, link: Link) -> str | None:
        limits, validity = link.body.get("limitesDeUso") or {}, link.body.get("vigencia") or {}
        now = clock.now()
        if link.successes >= int(limits.get("cantidadMaximaPagosExitosos") or 10 ** 9):
            return "Este enlace ya recibió su pago."
        if limits.get("cantidadMaximaPagosFallidos") and link.failures >= int(limits["cantidadMaximaPagosFallidos"]):
            return "Este enlace alcanzó el máximo de intentos fallidos."
        if validity.get("fechaInicio") and now < _dt.datetime.fromisoformat(validity["fechaInicio"]) - _dt.timedelta(minutes=5):
            return "Este enlace todavía no está vigente."
        if validity.get("fechaFin") and now > _dt.datetime.fromisoformat(validity["fechaFin"]):
            return "Este enlace ya venció."
        return None

    def _pay(self, code: str, card: str, cvv: str, name: str, email: str) -> tuple[Transaction, list[Delivery]]:
        card = card.replace(" ", "").replace("-", "")
        if not card.isdigit() or not 13 <= len(card) <= 19:
            raise ValueError("El número de tarjeta no es válido")
        with self._lock:
            link = self.links.get(self._codes.get(code, -1))
            if link is None:
                raise LinkUnavailable("Este enlace de pago no existe.")
            unusable = self._unusable(link)
            if unusable:
                raise LinkUnavailable(unusable)
            app = self.apps[link.client_id]
            approved = cvv != DECLINING_CVV
            transaction = Transaction(
                id=str(uuid.uuid4()), link_id=link.id, reference=link.reference, client_id=app.client_id,
                amount=link.amount, approved=approved, live=app.productive,
                paid_at=clock.now().astimezone(EL_SALVADOR), authorization=f"{secrets.randbelow(10 ** 6):06d}"
                if approved else None, message="AUTORIZADO" if approved else "DENEGADA", card_last4=card[-4:])
            self.transactions[transaction.id] = transaction
            link.transaction_ids.append(transaction.id)
            if not approved:
                link.failures += 1
                return transaction, []  # Wompi notifies successful payments only (third parties say)
            link.successes += 1
            self.redirects[transaction.id] = self._redirect(link, app, transaction)
            webhook = self._webhook(link, app, transaction, name, email)
            return transaction, [webhook] * (2 if self.faults.get("duplicate_webhook") else 1)

    def _webhook(self, link: Link, app: App, transaction: Transaction, name: str, email: str) -> Delivery:
        """The docs' webhook body, signed in wompi_hash with the app's API Secret."""
        body = jsoncodec.dumps({
            "IdCuenta": app.account_id, "FechaTransaccion": transaction.paid_at.isoformat(),
            "Monto": transaction.amount, "ModuloUtilizado": "BotonPago", "FormaPagoUtilizada": "PagoNormal",
            "IdTransaccion": transaction.id, "ResultadoTransaccion": formats.APPROVED,
            "CodigoAutorizacion": transaction.authorization, "IdIntentoPago": str(uuid.uuid4()), "Cantidad": 1,
            "EsProductiva": app.productive,
            "Aplicativo": {"Nombre": "Aplicativo de prueba", "Url": "https://demo.example.test/", "Id": app.id},
            "EnlacePago": {"Id": link.id, "IdentificadorEnlaceComercio": link.reference,
                           "NombreProducto": link.body["nombreProducto"]},
            "cliente": {"Nombre": name, "Email": email}}).encode()
        signature = formats.webhook_signature(app.secret, body)
        if self.faults.get("bad_signature"):
            signature = formats.webhook_signature("not-" + app.secret, body)
        url = (link.body.get("configuracion") or {}).get("urlWebhook") or ""
        return Delivery(url, body, {"Content-Type": "application/json", formats.SIGNATURE_HEADER: signature})

    def _redirect(self, link: Link, app: App, transaction: Transaction) -> str:
        params = {"identificadorEnlaceComercio": link.reference, "idTransaccion": transaction.id,
                  "idEnlace": str(link.id), "monto": f"{transaction.amount:.2f}"}
        params["hash"] = formats.redirect_signature(app.secret, params)
        target = (link.body.get("configuracion") or {}).get("urlRedirect") or f"{self.base_url}/"
        return target + ("&" if "?" in target else "?") + urllib.parse.urlencode(params)


def _link_problems(body: Any) -> list[str]:
    """What Wompi requires of a link (third parties' reading of the docs), in its own words' style."""
    if not isinstance(body, dict):
        return ["El cuerpo de la solicitud debe ser un objeto"]
    problems = []
    reference, amount, product = body.get("identificadorEnlaceComercio"), body.get("monto"), body.get("nombreProducto")
    configuration = body.get("configuracion") if isinstance(body.get("configuracion"), dict) else {}
    if not isinstance(reference, str) or not 0 < len(reference) <= formats.MAX_TEXT:
        problems.append("El identificador del enlace del comercio es requerido (máximo 500 caracteres)")
    if isinstance(amount, bool) or not isinstance(amount, (int, Decimal)) or amount < Decimal("0.01"):
        problems.append("El monto debe ser mayor o igual a 0.01")
    if not isinstance(product, str) or not 0 < len(product) <= formats.MAX_TEXT:
        problems.append("El nombre del producto es requerido (máximo 500 caracteres)")
    if not isinstance(configuration.get("notificarTransaccionCliente"), bool):
        problems.append("Debe indicar si se notifica la transacción al cliente")
    if not configuration.get("urlWebhook") and not configuration.get("emailsNotificacion"):
        problems.append("Debe indicar una URL de webhook o correos de notificación")
    for name in ("fechaInicio", "fechaFin"):
        value = (body.get("vigencia") or {}).get(name) if isinstance(body.get("vigencia"), dict) else None
        if value is not None:
            try:
                if _dt.datetime.fromisoformat(value).tzinfo is None:
                    raise ValueError(value)
            except (TypeError, ValueError):
                problems.append(f"La vigencia ({name}) no es una fecha válida")
    return problems


def _error(status: int, messages: str | list[str], service: str = "EnlacePagoController") -> Reply:
    """Wompi's error answer (WompiApiError)."""
    said = [messages] if isinstance(messages, str) else messages
    return Reply.of_json(status, {"servicioError": service, "mensajes": said, "subTipoError": None})


def _form(link: Link) -> str:
    product = html.escape(link.body["nombreProducto"])
    return standin_server.page("Wompi", "Pagar con tarjeta", f"""<p>{product}</p><p>Monto: <b>US$ {link.amount:,.2f}</b></p>
<form method="post" action="/lk/{link.code}">
<label>Nombre en la tarjeta <input name="nombre" autocomplete="cc-name"></label>
<label>Correo electrónico <input name="email" type="email" autocomplete="email"></label>
<label>Número de tarjeta <input name="numeroTarjeta" value="{TEST_CARD}" inputmode="numeric" autocomplete="cc-number"></label>
<label>Vencimiento (MM/AA) <input name="vencimiento" value="01/29" autocomplete="cc-exp"></label>
<label>CVV <input name="cvv" value="123" inputmode="numeric" autocomplete="cc-csc"></label>
<button type="submit">Pagar</button></form>
<p><small>Modo de prueba: todo pago se aprueba; el CVV {DECLINING_CVV} lo rechaza.</small></p>""")


def serve(standin: StandInWompi, port: int = 0) -> tuple[ThreadingHTTPServer, str]:
    server, url = standin_server.serve(standin.handle, "wompi-standin", port)
    standin.base_url = url
    return server, url


def main() -> None:
    parser = argparse.ArgumentParser(description="Wompi El Salvador, played locally (issue 43)")
    parser.add_argument("--port", type=int, default=8004)
    arguments = parser.parse_args()
    standin = StandInWompi()
    server = standin_server.make_server(standin.handle, arguments.port)
    standin.base_url = f"http://127.0.0.1:{arguments.port}"
    print(f"Wompi stand-in on {standin.base_url} (App ID {DEMO_CLIENT_ID}, API Secret {DEMO_API_SECRET})", flush=True)
    server.serve_forever()


if __name__ == "__main__":
    main()
