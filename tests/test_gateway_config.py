"""A gateway's configuration cannot send PixelPay's credential elsewhere (issue 43, review): in
production the status and void calls carry x-auth-hash = MD5(secret) and the void signature to
the gateway's `endpoint`, so it must name PixelPay's host (or one a setting allows), and a user
who never saw the secret cannot repoint a gateway (endpoint, mode, Key ID) without giving it
again; a provider's refusal never reads back the page of a host that is not the provider's. And
the Spanish of the gateways' answers says no English."""
from __future__ import annotations

import http.server
import json
import threading
from decimal import Decimal
from types import SimpleNamespace

import pytest

from chalicelib import messages
from chalicelib.domain import pixelpay
from chalicelib.messages import es
from chalicelib.services.integrations.providers import GatewayAccess, ProviderError, adapter_for
from chalicelib.services.integrations.providers import http as provider_http
from chalicelib.settings import reset_settings
from tests.documents_support import Shop
from tests.gateway_support import PIXELPAY_SECRET, new_pixelpay_gateway

SPANISH = {"Accept-Language": "es"}


@pytest.fixture
def shop(api, company_a) -> Shop:
    return Shop(api, company_a)


# --- the endpoint -----------------------------------------------------------------------------------

REFUSED_ENDPOINTS = (
    "https://127.0.0.1:8443",  # a port, and an address
    "https://169.254.169.254",  # the cloud's metadata service
    "https://10.0.0.5",
    "https://2130706433",  # 127.0.0.1 written as one number
    "https://0x7f000001",
    "https://[::1]",
    "https://evil.example",
    "https://pixelpay.app.evil.example",
    "https://evilpixelpay.app",  # not a subdomain: a name that ends the same
    "https://banrural.pixelpay.app:8443",
    "https://sonia@banrural.pixelpay.app",
    "https://banrural.pixelpay.app/api",
    "http://banrural.pixelpay.app",
)
ACCEPTED_ENDPOINTS = ("https://pixelpay.app", "https://banrural.pixelpay.app/", "https://banrural.pixelpay.app:443",
                      "https://Banrural.PixelPay.app")


@pytest.mark.parametrize("endpoint", REFUSED_ENDPOINTS)
def test_an_endpoint_that_is_not_pixelpays_host_is_refused(endpoint):
    assert pixelpay.endpoint_problem(endpoint) is not None


@pytest.mark.parametrize("endpoint", ACCEPTED_ENDPOINTS)
def test_pixelpay_and_its_subdomains_are_accepted(endpoint):
    assert pixelpay.endpoint_problem(endpoint) is None


def test_a_host_the_setting_allows_is_accepted_and_its_subdomains_too():
    assert pixelpay.endpoint_problem("https://pagos.banco.example", ("banco.example",)) is None
    assert pixelpay.endpoint_problem("https://banco.example", (" Banco.Example ",)) is None
    assert pixelpay.endpoint_problem("https://otrobanco.example", ("banco.example",)) is not None
    assert pixelpay.endpoint_problem("https://10.0.0.5", ("10.0.0.5",)) is not None  # an address: never


def test_the_api_refuses_an_endpoint_that_is_not_pixelpays_host_on_create_and_update(api, shop):
    gateway = new_pixelpay_gateway(shop)
    path = f"/payments/gateways/{gateway['id']}"
    for endpoint in REFUSED_ENDPOINTS:
        created = new_pixelpay_gateway(shop, endpoint=endpoint, mode="production", expect=400)
        assert created["details"][0]["field"] == "endpoint", (endpoint, created)
        updated = api.put(path, {"endpoint": endpoint, "mode": "production", "secret": PIXELPAY_SECRET}, key=shop.key)
        assert updated.status == 400 and updated.json["details"][0]["field"] == "endpoint", (endpoint, updated.text)
    assert api.get(path, key=shop.key).json["version"] == 1  # nothing changed
    spanish = api.put(path, {"endpoint": "https://evil.example", "secret": PIXELPAY_SECRET}, key=shop.key,
                      headers=SPANISH)
    assert "pixelpay.app" in spanish.json["message"] and "address" not in spanish.json["message"]
    for endpoint in ACCEPTED_ENDPOINTS:
        assert new_pixelpay_gateway(shop, endpoint=endpoint, mode="production")["endpoint"] == endpoint


def test_the_setting_lets_the_local_stack_name_a_host_of_its_own(api, shop, monkeypatch):
    monkeypatch.setenv("PIXELPAY_ALLOWED_HOSTS", "pixelpay.local.test, pagos.banco.example")
    reset_settings()
    try:
        created = new_pixelpay_gateway(shop, endpoint="https://pixelpay.local.test", mode="production")
        assert created["endpoint"] == "https://pixelpay.local.test"
        new_pixelpay_gateway(shop, endpoint="https://evil.example", mode="production", expect=400)
    finally:
        monkeypatch.delenv("PIXELPAY_ALLOWED_HOSTS")
        reset_settings()
    new_pixelpay_gateway(shop, endpoint="https://pixelpay.local.test", mode="production", expect=400)


# --- repointing a gateway needs its secret ------------------------------------------------------------

@pytest.mark.parametrize("changes", [{"endpoint": "https://banrural.pixelpay.app", "mode": "production"},
                                     {"endpoint": "https://banrural.pixelpay.app"}, {"mode": "production"},
                                     {"keyId": "another-key-id"}])
def test_a_put_that_repoints_the_gateway_without_the_secret_is_refused(api, shop, changes):
    gateway = new_pixelpay_gateway(shop)
    path = f"/payments/gateways/{gateway['id']}"
    refused = api.put(path, changes, key=shop.key)
    assert refused.status == 400 and refused.json["details"][0]["field"] == "secret", refused.text
    assert api.get(path, key=shop.key).json["version"] == 1
    spanish = api.put(path, changes, key=shop.key, headers=SPANISH)
    assert spanish.json["details"][0]["message"] == es.PHRASES[
        "required again when the endpoint, the mode or the Key ID changes: the secret goes where they point"]
    accepted = api.put(path, {**changes, "secret": PIXELPAY_SECRET}, key=shop.key)
    assert accepted.status == 200, accepted.text
    assert {name: accepted.json[name] for name in changes} == changes and accepted.json["version"] == 2


def test_a_put_that_keeps_where_the_secret_goes_needs_no_secret(api, shop):
    gateway = new_pixelpay_gateway(shop)
    path = f"/payments/gateways/{gateway['id']}"
    same = api.put(path, {"mode": "test", "keyId": gateway["keyId"], "name": "Tarjetas"}, key=shop.key)
    assert same.status == 200 and same.json["name"] == "Tarjetas", same.text


# --- a refusal never reads back a page that is not the provider's -----------------------------------

class _NotPixelPay(http.server.BaseHTTPRequestHandler):
    """A host that is not PixelPay: an internal page, not JSON."""
    page = b"<html>root:x:0:0 internal admin console token=abc123</html>"

    def do_POST(self) -> None:  # noqa: N802
        self.rfile.read(int(self.headers.get("content-length") or 0))
        self.send_response(403)
        self.send_header("Content-Type", "text/html")
        self.end_headers()
        self.wfile.write(self.page)

    def log_message(self, *args) -> None:
        pass


@pytest.fixture
def not_pixelpay():
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), _NotPixelPay)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield f"http://127.0.0.1:{server.server_address[1]}"
    server.shutdown()


def test_a_refusal_that_is_not_json_is_not_read_back(not_pixelpay):
    # a gateway saved with such an endpoint before it was checked: the adapter still echoes nothing
    access = GatewayAccess(provider="pixelpay", mode="production", key_id="k", secret=PIXELPAY_SECRET, company_id=1,
                           gateway_id=7, user_email="sonia@pixel.hn", endpoint=not_pixelpay)
    adapter = adapter_for("pixelpay")
    with pytest.raises(ProviderError) as voided:
        adapter.refund(access, "uuid-1", "pl_x", Decimal("10.00"), "cancelled")
    assert "root:x" not in voided.value.message and "token" not in voided.value.message
    assert voided.value.message == "PixelPay refused the void (HTTP 403): -"


def test_a_refusal_keeps_pixelpays_json_message_bounded():
    assert pixelpay.answer_message({"success": False, "message": "  Firma inválida  "}) == "Firma inválida"
    assert pixelpay.answer_message({"message": "x" * 1000}) == "x" * 300
    assert pixelpay.answer_message({"message": 12}) == "-" and pixelpay.answer_message(None) == "-"


# --- Spanish ------------------------------------------------------------------------------------------

def test_a_wrong_transaction_time_is_reported_on_the_time():
    answer = {"success": True, "data": {"response_approved": False, "transaction_date": "2026-11-03",
                                        "transaction_time": "99:99"}}
    with pytest.raises(pixelpay.StatusUnreadable) as unreadable:
        pixelpay.read_status(answer)
    assert str(unreadable.value) == "transaction_time"


def test_wompis_unreadable_transaction_is_named_by_its_field_in_spanish(monkeypatch):
    answer = {"idTransaccion": "t-1", "esAprobada": True, "esReal": False, "monto": "1.0",
              "fechaTransaccion": "2026-11-03T10:00:00-06:00"}
    wompi = adapter_for("wompi")
    # Wompi's answer to GET /TransaccionCompra/t-1, its amount written as text
    monkeypatch.setattr(type(wompi), "_api", lambda *args, **kwargs: provider_http.Answer(200, answer, json.dumps(answer)))
    access = GatewayAccess("wompi", "test", "app", "api-secret-0123456789", 1, 8)
    notification = SimpleNamespace(transaction_id="t-1")  # all confirm reads of it
    with pytest.raises(ProviderError) as refused:
        wompi.confirm(access, notification)
    assert refused.value.message == "Wompi answered a transaction this service cannot read: monto"
    assert messages.phrase(refused.value.message) == \
        "Wompi respondió con una transacción que este servicio no puede leer: monto"


def test_the_clearing_account_has_one_spanish_name():
    """"clearing account" is "cuenta de compensación" in every Spanish answer and console label."""
    from pathlib import Path

    named = {english: spanish for english, spanish in es.PHRASES.items() if "clearing account" in english}
    assert named and {english: spanish for english, spanish in named.items()
                      if "cuenta de compensación" not in spanish} == {}
    console = (Path(__file__).parent.parent / "chalicelib/console/locales/es.js").read_text()
    texts = "\n".join(es.PHRASES.values()) + console
    assert "liquidadora" not in texts.lower()
