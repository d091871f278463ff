"""Journeys through the console's settings and accounting pages: an API key whose secret is shown
once and then works until revoked; a webhook delivered to a local receiver and seen in the
delivery history; a closed accounting period refusing a manual entry; and a smoke pass over every
accounting, banking and settings page."""
from __future__ import annotations

import hashlib
import hmac
import http.server
import threading
import time
import uuid

from tests.browser.conftest import Console, account_id, api_call, bank_ledger


def test_api_key_secret_is_shown_once_works_and_is_revoked(console, demo, stack):
    base, page = stack[0].base, console.page
    console.login_to_company(demo["email"], demo["password"], demo["companyId"])
    console.goto("/settings/api-keys")
    console.shot("api-keys")
    name = f"Integración {uuid.uuid4().hex[:6]}"
    page.locator(".page-actions button", has_text="Nueva clave API").click()
    page.locator("dialog #f-name").fill(name)
    console.shot("api-key-dialog")
    page.locator("dialog button[type=submit]").click()
    page.wait_for_selector("#new-key [data-secret]")
    secret, full_key = page.locator("#new-key [data-secret]").all_inner_texts()
    key_id = page.inner_text("#new-key-id")
    assert full_key == f"{key_id}:{secret}"
    assert page.inner_text("#api-base-url") == f"{base}/"
    assert "no se volverá a mostrar" in page.inner_text("#new-key")
    console.shot("api-key-created")

    status, _, company = api_call(base, "GET", "/companies", full_key)
    assert status == 200 and company["id"] == demo["companyId"]

    # Away and back: the list shows the key, the secret is gone for good.
    console.goto("/")
    console.goto("/settings/api-keys")
    row = page.locator("table.grid tbody tr", has_text=key_id)
    assert name in row.inner_text() and f"…{secret[-4:]}" in row.inner_text()
    assert row.locator(".badge").inner_text() == "Activo"
    assert secret not in page.inner_text("body") and secret not in page.content()
    assert not page.query_selector("[data-secret]")
    console.shot("api-key-listed")
    status, _, keys = console.as_session("GET", "/settings/api-keys")
    listed = next(k for k in keys["apiKeys"] if k["id"] == key_id)
    assert listed["lastFour"] == secret[-4:] and "secret" not in listed

    row.locator("button", has_text="Revocar").click()
    console.shot("api-key-revoke-confirm")
    console.confirm()
    page.wait_for_selector(f"table.grid tbody tr:has-text('{key_id}') .badge-revoked")
    console.shot("api-key-revoked")
    status, _, refused = api_call(base, "GET", "/companies", full_key)
    assert status == 401, refused
    status, _, keys = console.as_session("GET", "/settings/api-keys")
    assert next(k for k in keys["apiKeys"] if k["id"] == key_id)["status"] == "revoked"
    assert not console.errors


class Receiver(http.server.BaseHTTPRequestHandler):
    received: list[tuple[dict[str, str], bytes]] = []

    def do_POST(self):  # noqa: N802 (http.server's name)
        body = self.rfile.read(int(self.headers.get("Content-Length") or 0))
        self.received.append(({name.lower(): value for name, value in self.headers.items()}, body))
        self.send_response(200)
        self.end_headers()
        self.wfile.write(b"ok")

    def log_message(self, *args):
        pass


def test_webhook_test_and_partner_event_reach_a_local_receiver(browser, stack_with_stream, request):
    """On a stack whose table has its stream (the partner's event is fanned out from it)."""
    (stack, demo), console = stack_with_stream, Console(browser, stack_with_stream[0].base, request.node.name)
    request.addfinalizer(console.close)
    base, page = stack.base, console.page
    Receiver.received = []
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Receiver)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    url = f"http://127.0.0.1:{server.server_address[1]}/hooks/{uuid.uuid4().hex[:6]}"
    try:
        console.login_to_company(demo["email"], demo["password"], demo["companyId"])
        console.goto("/settings/webhooks")
        name = f"Receptor {uuid.uuid4().hex[:6]}"
        page.locator(".page-actions button", has_text="Nuevo webhook").click()
        dialog = page.locator("dialog")
        dialog.locator("#f-name").fill(name)
        dialog.locator("#f-url").fill(url)
        dialog.locator("input[name=events][value='business_partner.created']").check()
        console.shot("webhook-dialog")
        dialog.locator("button[type=submit]").click()
        page.wait_for_selector("#new-webhook [data-secret]")
        secret = page.inner_text("#new-webhook [data-secret]")
        assert secret.startswith("whsec_")
        console.shot("webhook-created")
        page.locator("#new-webhook button", has_text="Ya lo guardé").click()
        assert secret not in page.inner_text("body")

        page.locator("table.grid tbody tr", has_text=name).locator("a").first.click()
        page.wait_for_selector("[data-page='settings-webhooks.detail'] h1")
        console.wait_loaded()
        assert page.inner_text("h1") == name
        page.locator(".page-actions button", has_text="Probar").click()
        partner = f"Cliente webhook {uuid.uuid4().hex[:6]}"
        status, _, created = api_call(base, "POST", "/business-partners", demo["apiKey"],
                                      {"name": partner, "type": "customer"})
        assert status == 201, created

        # Delivery is asynchronous (outbox, stream, SQS pollers): refresh the history until both arrive.
        deadline = time.monotonic() + 25
        while True:
            page.click("#refresh-deliveries")
            console.wait_loaded()
            delivered = [row for row in page.locator("#deliveries tbody tr").all() if row.locator(".badge-delivered").count()]
            events = {row.locator("td").nth(1).inner_text(): row.locator(".last-code").inner_text() for row in delivered}
            if {"webhook.test", "business_partner.created"} <= set(events) or time.monotonic() > deadline:
                break
            page.wait_for_timeout(500)
        console.shot("webhook-deliveries")
        assert events.get("webhook.test") == "200" and events.get("business_partner.created") == "200", events
        assert "Entregado" in page.inner_text("#deliveries")

        by_event = {headers["x-service-event"]: (headers, body) for headers, body in Receiver.received}
        assert {"webhook.test", "business_partner.created"} <= set(by_event)
        for headers, body in by_event.values():
            expected = "sha256=" + hmac.new(secret.encode(), body, hashlib.sha256).hexdigest()
            assert headers["x-service-signature"] == expected
        assert partner.encode() in by_event["business_partner.created"][1]

        page.locator("#deliveries tbody tr", has_text="webhook.test").locator("button", has_text="Detalle").click()
        page.wait_for_selector("dialog pre")
        console.shot("webhook-delivery-detail")
        page.locator("dialog button.icon").click()

        webhook_id = int(page.evaluate("location.hash").rsplit("/", 1)[1])
        status, _, history = console.as_session("GET", f"/settings/webhooks/{webhook_id}/deliveries")
        assert status == 200
        assert {d["event"] for d in history["deliveries"] if d["status"] == "delivered"} >= {"webhook.test",
                                                                                            "business_partner.created"}
        status, _, _ = console.as_session("DELETE", f"/settings/webhooks/{webhook_id}")
        assert status == 200
    finally:
        server.shutdown()
        server.server_close()
    assert not console.errors


def test_closed_period_refuses_a_manual_entry(console, demo, stack):
    base, page, key = stack[0].base, console.page, demo["apiKey"]
    cash, capital = account_id(base, key, "110101"), account_id(base, key, "3101")
    console.login_to_company(demo["email"], demo["password"], demo["companyId"])
    console.goto("/accounting/periods")
    name = f"Marzo 2021 {uuid.uuid4().hex[:4]}"
    page.locator(".page-actions button", has_text="Nuevo período").click()
    dialog = page.locator("dialog")
    dialog.locator("#f-name").fill(name)
    dialog.locator("#f-startDate").fill("2021-03-01")
    dialog.locator("#f-endDate").fill("2021-03-31")
    console.shot("period-dialog")
    dialog.locator("button[type=submit]").click()
    row = page.locator("table.grid tbody tr", has_text=name)
    row.locator(".badge-open").wait_for()

    def period():
        status, _, body = api_call(base, "GET", "/accounting-periods?limit=100", key)
        assert status == 200
        return next(p for p in body["accountingPeriods"] if p["name"] == name)

    assert period()["status"] == "open" and period()["startDate"] == "2021-03-01"
    row.locator("button", has_text="Cerrar").click()
    console.confirm()
    row.locator(".badge-closed").wait_for()
    console.shot("period-closed")
    assert period()["status"] == "closed"

    console.goto("/accounting/entries")
    page.locator(".page-actions button", has_text="Nueva partida").click()
    form = page.locator("dialog form")
    form.locator("[data-field=date]").fill("2021-03-15")
    form.locator("[data-field=description]").fill("Aporte en período cerrado")
    form.locator("[data-field='lines[0].chartOfAccountId']").select_option(str(cash))
    form.locator("[data-field='lines[0].debit']").fill("250")
    form.locator("[data-field='lines[1].chartOfAccountId']").select_option(str(capital))
    form.locator("[data-field='lines[1].credit']").fill("250")
    form.locator("select[name=status]").select_option("posted")
    form.locator("button[type=submit]").click()
    refusal = form.locator(".form-error .error-box[data-code=PERIOD_CLOSED]")
    refusal.wait_for()
    # in the console's language (it sends Accept-Language: es)
    assert refusal.inner_text() == "2021-03-15 cae en un período contable o ejercicio fiscal cerrado."
    assert form.locator("[data-error-for=date]").inner_text() == "cae en un período contable o ejercicio fiscal cerrado"
    console.shot("entry-refused")
    page.locator("dialog button.icon").click()
    status, _, entries = api_call(base, "GET", "/journal-entries?startDate=2021-03-01&endDate=2021-03-31", key)
    assert status == 200 and entries["total"] == 0

    console.goto("/accounting/periods")
    row = page.locator("table.grid tbody tr", has_text=name)
    row.locator("button", has_text="Reabrir").click()
    console.confirm()
    row.locator(".badge-open").wait_for()
    console.shot("period-reopened")
    reopened = period()
    assert reopened["status"] == "open" and reopened["reopenedAt"]
    assert not console.errors


def scheduled_by_typing(console, suffix: str) -> None:
    """A scheduled invoice's customer and product are found by typing (no select of every record);
    saved inactive, so that the hourly run leaves it alone."""
    page = console.page
    status, _, customer = console.as_session("POST", "/business-partners", {"name": f"Cliente programado {suffix}",
                                                                            "type": "customer"})
    assert status == 201, customer
    status, _, product = console.as_session("POST", "/products", {"code": f"PRG-{suffix}", "name": "Mantenimiento mensual",
                                                                  "type": "service", "unitPrice": 300, "taxRate": 0.15})
    assert status == 201, product
    page.click(".page-header button.primary")
    dialog = page.locator("dialog")
    partner_id = dialog.locator("input[type=hidden][name=businessPartnerId]").get_attribute("id")[2:]
    console.pick(partner_id, customer, within=dialog)
    line_id = dialog.locator(".schedule-line input[type=hidden]").get_attribute("id")[2:]
    console.pick(line_id, product, within=dialog)
    assert dialog.locator(".schedule-line [data-name=description]").input_value() == "Mantenimiento mensual"
    assert dialog.locator(".schedule-line [data-name=unitPrice]").input_value() == "300"
    dialog.locator("input[type=checkbox][data-field=isActive]").uncheck()
    console.shot("scheduled-invoice-dialog", full_page=False)
    dialog.locator("button[type=submit]").click()
    dialog.wait_for(state="detached")
    console.wait_loaded()
    status, _, listed = console.as_session("GET", "/scheduled-invoices?limit=100")
    saved = next(s for s in listed["scheduledInvoices"] if s["businessPartnerId"] == customer["id"])
    assert saved["lines"][0]["productId"] == product["id"] and saved["isActive"] is False
    assert f"Cliente programado {suffix}" in page.inner_text("#content table")


def test_every_accounting_and_settings_page_renders(console, demo, stack):
    base, page, key = stack[0].base, console.page, demo["apiKey"]
    cash = account_id(base, key, "110101")
    suffix = uuid.uuid4().hex[:6]
    status, _, entry = api_call(base, "POST", "/journal-entries", key, {
        "date": "2026-01-15", "description": f"Borrador smoke {suffix}", "status": "draft",
        "lines": [{"chartOfAccountId": cash, "debit": 10}, {"chartOfAccountId": account_id(base, key, "3101"), "credit": 10}]})
    assert status == 201, entry
    status, _, banks = api_call(base, "GET", "/bank-accounts?limit=1", key)
    if banks["bankAccounts"]:
        bank_id = banks["bankAccounts"][0]["id"]
    else:
        status, _, bank = api_call(base, "POST", "/bank-accounts", key, {
            "name": f"Banco smoke {suffix}", "openingBalanceDate": "2026-01-01",
            "chartOfAccountId": bank_ledger(base, key, suffix)})
        assert status == 201, bank
        bank_id = bank["id"]
    console.login_to_company(demo["email"], demo["password"], demo["companyId"])
    status, _, webhook = console.as_session("POST", "/settings/webhooks", {
        "name": f"Inactivo smoke {suffix}", "url": "http://127.0.0.1:9/unused", "events": ["product.created"],
        "isActive": False})
    assert status == 201, webhook

    routes = {
        "chart": "/accounting/chart", "ledger": f"/accounting/ledger?chartOfAccountId={cash}",
        "trial-balance": "/accounting/trial-balance", "periods": "/accounting/periods",
        "exchange-rates": "/accounting/exchange-rates",
        "entries": "/accounting/entries", "entry": f"/accounting/entries/{entry['id']}",
        "banking": "/banking", "bank-account": f"/banking/{bank_id}",
        "company": "/settings/company", "api-keys": "/settings/api-keys", "webhooks": "/settings/webhooks",
        "webhook": f"/settings/webhooks/{webhook['id']}", "payment-setup": "/settings/payment-setup",
        "gateways": "/settings/gateways", "branches": "/settings/branches", "warehouses": "/settings/warehouses",
        "scheduled-invoices": "/settings/scheduled-invoices",
    }
    try:
        for name, route in routes.items():
            console.goto(route)
            assert not page.query_selector(".page-error"), (route, page.inner_text("#content"))
            assert page.locator("#content h1").count() == 1, route
            console.shot(name)
            if name == "entry":
                assert f"Borrador smoke {suffix}" in page.inner_text("#content")
                assert page.locator(".page-actions button", has_text="Contabilizar").count() == 1
            if name == "scheduled-invoices":
                scheduled_by_typing(console, suffix)
        # English: the same pages render with their English labels.
        page.select_option("#language", "en")
        console.wait_loaded()
        for route in routes.values():
            console.goto(route)
            assert not page.query_selector(".page-error"), route
        console.shot("scheduled-invoices-en")
        page.select_option("#language", "es")
        console.wait_loaded()
    finally:
        console.as_session("DELETE", f"/settings/webhooks/{webhook['id']}")
    assert not console.errors
