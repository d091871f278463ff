"""Issue 43, point 4: a card payment in the console. In a fresh Honduran company (the demo company is
shared) with one open invoice of L 1,150.00 (1,000.00 + 15 % ISV), the owner configures a PixelPay
gateway in test mode (the form speaks PixelPay's words, Wompi's when Wompi is chosen; the secret is
written, never shown again), opens the invoice, generates a card link and sees its QR; the customer
pays at the PixelPay stand-in (the notification it sends is posted to the stack's webhook); the invoice
shows paid, the banking page shows the clearing account's balance (the payment net of the fee) and a
payout moves it to the bank. Screenshots in Spanish and English at 1280 and 390 px wide."""
from __future__ import annotations

import base64
import urllib.error
import urllib.parse
import urllib.request
import uuid
from decimal import Decimal

from tests.browser.conftest import created, fresh_company, read
from tests.browser.conftest import shot_without_notices as shot
from tests.browser.reports_support import number, switch_language, today
from tests.browser.test_year_close_journey import account_ids

CAI_CODE = "F1E2D3-C4B5A6-0F1E2D-3C4B5A-6F7E8D-9C"
WIDTHS = (1280, 390)
# PixelPay's public sandbox credentials (research/pixelpay.md §1: every SDK's setupSandbox)
SANDBOX_KEY_ID = "1234567890"
SANDBOX_SECRET = "@s4ndb0x-abcd-1234-n1l4-p1x3l"


def delivered(stack_base: str, delivery) -> tuple[int, str]:
    """The stand-in's notification posted as it would reach the app: same path, body and headers,
    at the stack's address (the stand-in addresses it to API_BASE_URL)."""
    path = urllib.parse.urlsplit(delivery.url)
    target = f"{stack_base}{path.path}" + (f"?{path.query}" if path.query else "")
    body = delivery.body if isinstance(delivery.body, bytes) else str(delivery.body).encode()
    request = urllib.request.Request(target, data=body, method="POST", headers=dict(delivery.headers))
    try:
        with urllib.request.urlopen(request, timeout=30) as answer:
            return answer.status, answer.read().decode()
    except urllib.error.HTTPError as error:
        return error.code, error.read().decode()


def label_of(page, field: str) -> str:
    return page.inner_text(f"dialog[open] label[for='f-{field}']")


def test_a_card_payment_from_gateway_to_bank(console, demo, stack, pixelpay):
    page = console.page
    tag = uuid.uuid4().hex[:4].upper()
    now = today()
    with fresh_company(console, demo, f"Tarjetas {tag}"):
        accounts = account_ids(console)
        created(console, "/cai", {"cai": CAI_CODE, "branchId": 1, "emissionPoint": "001", "documentType": "01",
                                  "rangeStart": 1, "rangeEnd": 500, "deadline": "2099-12-31"})
        customer = created(console, "/business-partners", {"name": f"Ferretería El Sol {tag}", "type": "customer",
                                                           "taxId": "08011999000124"})
        # 10 x 100.00 = 1,000.00 + 15 % ISV 150.00 = 1,150.00
        invoice = created(console, "/documents", {
            "type": "01", "businessPartnerId": customer["id"], "date": now.isoformat(),
            "lines": [{"description": "Cemento gris", "quantity": 10, "unitPrice": 100, "taxRate": "0.15"}]})
        assert Decimal(str(invoice["pending"])) == Decimal("1150.00")
        bank = created(console, "/bank-accounts", {"name": f"BAC {tag}", "currency": "HNL", "openingBalance": "10000.00",
                                                   "openingBalanceDate": "2020-01-01", "chartOfAccountId": accounts["110103"]})
        clearing_ledger = created(console, "/chart-of-accounts", {"code": "110105", "name": "Fondos en PixelPay",
                                                                  "type": "asset", "parentId": accounts["1101"]})
        clearing = created(console, "/bank-accounts", {"name": f"PixelPay {tag}", "currency": "HNL", "openingBalance": "0.00",
                                                       "openingBalanceDate": "2020-01-01",
                                                       "chartOfAccountId": clearing_ledger["id"]})
        method = created(console, "/payments/methods", {"name": f"Tarjeta PixelPay {tag}", "bankAccountId": clearing["id"]})

        # --- the gateway: PixelPay's words, Wompi's when Wompi is chosen, what was typed kept -------------
        console.goto("/settings/gateways")
        page.click(".new-gateway")
        page.wait_for_selector("dialog[open] #f-keyId")
        assert (label_of(page, "keyId"), label_of(page, "secret")) == ("Key ID", "Secret Key")
        assert page.locator("dialog[open] #f-userEmail").count() == 1
        page.fill("dialog[open] #f-name", "PixelPay prueba")
        page.fill("dialog[open] #f-keyId", SANDBOX_KEY_ID)
        page.select_option("dialog[open] #f-provider", "wompi")
        page.wait_for_selector("dialog[open] form.gateway-form-wompi")
        assert (label_of(page, "keyId"), label_of(page, "secret")) == ("App ID", "API Secret")
        assert page.locator("dialog[open] #f-userEmail").count() == 0   # PixelPay's own
        assert page.input_value("dialog[open] #f-name") == "PixelPay prueba"
        page.select_option("dialog[open] #f-provider", "pixelpay")
        page.wait_for_selector("dialog[open] form.gateway-form-pixelpay")
        assert page.input_value("dialog[open] #f-keyId") == SANDBOX_KEY_ID
        page.select_option("dialog[open] #f-mode", "test")
        page.fill("dialog[open] #f-secret", SANDBOX_SECRET)
        page.fill("dialog[open] #f-userEmail", "duena@example.test")
        page.select_option("dialog[open] #f-paymentMethodId", str(method["id"]))
        assert "cuenta de compensación" in page.inner_text("dialog[open] .field:has(#f-paymentMethodId) .help")
        page.fill("dialog[open] #f-feePercent", "3.5")
        page.fill("dialog[open] #f-feeFixed", "5")
        page.select_option("dialog[open] #f-feeTaxRate", "0.15")
        page.locator(f"dialog[open] #f-feeAccountId option[value='{accounts['6302']}']").wait_for(state="attached")
        page.select_option("dialog[open] #f-feeAccountId", str(accounts["6302"]))
        shot(console, "gateway-new")
        page.click("dialog[open] button[type=submit]")
        page.wait_for_selector("dialog[open]", state="detached")
        console.wait_loaded()
        gateway = read(console, "/payments/gateways")["paymentGateways"][0]
        assert (gateway["provider"], gateway["mode"], gateway["keyId"]) == ("pixelpay", "test", SANDBOX_KEY_ID)
        assert gateway["clearingBankAccountId"] == clearing["id"] and gateway["hasSecret"]
        assert "secret" not in gateway and SANDBOX_SECRET not in str(gateway)
        row = page.locator(".crud tbody tr", has_text="PixelPay prueba")
        assert "Prueba" in row.inner_text() and f"PixelPay {tag}" in row.inner_text()
        assert gateway["secretFingerprint"] in row.inner_text() and SANDBOX_SECRET not in page.content()
        # 3.5 % + L 5.00, tax 15 %
        assert "3.5% + L 5.00 · impuesto 15%" in row.inner_text().replace("\xa0", " ")

        # --- editing: the secret field empty, kept when left so -------------------------------------------
        row.locator(".edit-gateway").click()
        page.wait_for_selector("dialog[open] #f-secret")
        assert page.input_value("dialog[open] #f-secret") == ""
        help_text = page.inner_text("dialog[open] .field:has(#f-secret) .help")
        assert "Dejar vacío para conservar" in help_text and gateway["secretFingerprint"] in help_text
        assert page.locator("dialog[open] #f-provider").count() == 0     # the provider is fixed
        page.fill("dialog[open] #f-userEmail", "cobros@example.test")
        shot(console, "gateway-edit")
        page.click("dialog[open] button[type=submit]")
        page.wait_for_selector("dialog[open]", state="detached")
        console.wait_loaded()
        kept = read(console, f"/payments/gateways/{gateway['id']}")
        assert (kept["userEmail"], kept["hasSecret"]) == ("cobros@example.test", True)
        assert kept["secretFingerprint"] == gateway["secretFingerprint"]

        # --- the invoice: a card link, its address and QR ----------------------------------------------------
        console.goto(f"/documents/{invoice['id']}")
        page.click(".card-button")
        page.wait_for_selector("dialog[open] #f-gatewayId")
        assert "L 1,150.00" in page.inner_text("dialog[open] .field:has(#f-amount) .help").replace("\xa0", " ")
        page.click("dialog[open] button[type=submit]")
        page.wait_for_selector("dialog[open] #link-qr")
        qr = page.get_attribute("#link-qr", "src")
        assert qr.startswith("data:image/svg+xml;base64,") and b"<svg" in base64.b64decode(qr.split(",", 1)[1])
        # the browser draws it (an SVG without its namespace is a broken image)
        page.wait_for_function("() => document.getElementById('link-qr').naturalWidth > 0")
        url = page.input_value("#link-url")
        links = read(console, f"/payments/documents/{invoice['id']}/links")
        link = (links.get("links") or links.get("paymentLinks"))[0]
        assert link["url"] == url and Decimal(str(link["amount"])) == Decimal("1150.00") and link["status"] == "active"
        assert page.inner_text("#link-amount").replace("\xa0", " ") == "L 1,150.00"
        assert "Activo" in page.inner_text("#link-status")
        shot(console, "link")
        page.locator("dialog[open] header button.icon").click()
        page.wait_for_selector("#doc-links tbody tr")
        assert page.locator("#doc-links tbody tr").count() == 1
        # the link shown again from its row, in both languages, at both widths (once paid it has no QR)
        for language in ("es", "en"):
            switch_language(console, language)
            for width in WIDTHS:
                page.set_viewport_size({"width": width, "height": 860})
                console.goto(f"/documents/{invoice['id']}")
                page.locator("#doc-links .show-link").click()
                page.wait_for_function("() => document.getElementById('link-qr')?.naturalWidth > 0")
                assert page.evaluate("document.documentElement.scrollWidth") <= width, (language, width)
                shot(console, f"link-{language}-{width}")
                page.locator("dialog[open] header button.icon").click()
        page.set_viewport_size({"width": 1280, "height": 860})
        switch_language(console, "es")

        # --- the customer pays at PixelPay (the stand-in), its notification reaches the app ----------------
        deliveries = pixelpay.pay(url)
        assert deliveries
        for delivery in deliveries:
            status, answer = delivered(stack[0].base, delivery)
            assert status == 200, answer
        paid = read(console, f"/documents/{invoice['id']}")
        assert Decimal(str(paid["pending"])) == 0 and paid["paymentStatus"] == "paid"    # 1,150.00 - 1,150.00
        console.goto(f"/documents/{invoice['id']}")
        assert page.get_attribute("#doc-status .status-badges", "data-payment-status") == "paid"
        assert page.locator(".card-button").count() == 0     # nothing left to charge
        # the fee the gateway kept, on the payment: 45.25 and its ISV 6.79 (worked below)
        assert "Comisión L 45.25 + impuesto L 6.79" in page.inner_text(".card-fee").replace("\xa0", " ")
        assert "Pagado" in page.inner_text("#doc-links")
        page.locator("#doc-links .show-link").click()                    # a paid link: its facts, no QR
        page.wait_for_selector("dialog[open] #link-status .badge-paid")
        assert page.locator("dialog[open] #link-qr, dialog[open] #link-url").count() == 0
        page.locator("dialog[open] header button.icon").click()
        shot(console, "invoice-paid")

        # --- the clearing account: the payment net of the fee ----------------------------------------------
        # fee 1,150.00 x 3.5 % = 40.25 + 5.00 = 45.25; its ISV 45.25 x 15 % = 6.7875 -> 6.79;
        # clearing 1,150.00 - 45.25 - 6.79 = 1,097.96
        assert Decimal(str(read(console, f"/bank-accounts/{clearing['id']}")["balance"])) == Decimal("1097.96")
        console.goto("/banking")
        clearing_row = page.locator(".crud tbody tr", has_text=f"PixelPay {tag}")
        assert "Fondos en pasarela · PixelPay prueba" in clearing_row.inner_text()
        assert "L 1,097.96" in clearing_row.inner_text().replace("\xa0", " ")
        assert page.locator(".crud tbody tr", has_text=f"BAC {tag}").locator(".badge-clearing").count() == 0
        shot(console, "banking")
        console.goto(f"/banking/{clearing['id']}")
        assert number(page.inner_text("#clearing-balance")) == Decimal("1097.96")

        # --- the payout: the clearing balance to the bank ----------------------------------------------------
        page.click("#clearing-card .payout-button")
        page.locator(f"dialog[open] #f-bankAccountId option[value='{bank['id']}']").wait_for(state="attached")
        assert page.locator(f"dialog[open] #f-bankAccountId option[value='{clearing['id']}']").count() == 0
        assert Decimal(page.input_value("dialog[open] #f-amount")) == Decimal("1097.96")
        page.select_option("dialog[open] #f-bankAccountId", str(bank["id"]))
        page.fill("dialog[open] #f-reference", f"LIQ-{tag}")
        shot(console, "payout")
        page.click("dialog[open] button[type=submit]")
        page.wait_for_selector("dialog[open]", state="detached")
        console.wait_loaded()
        # clearing 1,097.96 - 1,097.96 = 0.00; the bank 10,000.00 + 1,097.96 = 11,097.96
        assert Decimal(str(read(console, f"/bank-accounts/{clearing['id']}")["balance"])) == 0
        assert Decimal(str(read(console, f"/bank-accounts/{bank['id']}")["balance"])) == Decimal("11097.96")
        assert number(page.inner_text("#clearing-balance")) == 0
        transactions = read(console, f"/bank-accounts/{bank['id']}/transactions")["transactions"]
        assert any(Decimal(str(t["amount"])) == Decimal("1097.96") and t.get("reference") == f"LIQ-{tag}"
                   for t in transactions), transactions

        # --- the screens in both languages, at both widths ---------------------------------------------------
        for language in ("es", "en"):
            switch_language(console, language)
            for width in WIDTHS:
                page.set_viewport_size({"width": width, "height": 860})
                console.goto("/settings/gateways")
                assert page.evaluate("document.documentElement.scrollWidth") <= width, (language, width)
                shot(console, f"gateways-{language}-{width}")
                page.locator(".crud tbody tr", has_text="PixelPay prueba").locator(".edit-gateway").click()
                page.wait_for_selector("dialog[open] #f-secret")
                shot(console, f"gateway-edit-{language}-{width}")
                page.locator("dialog[open] header button.icon").click()
                console.goto(f"/documents/{invoice['id']}")
                assert page.evaluate("document.documentElement.scrollWidth") <= width, (language, width)
                shot(console, f"invoice-{language}-{width}")
                console.goto("/banking")
                assert page.evaluate("document.documentElement.scrollWidth") <= width, (language, width)
                shot(console, f"banking-{language}-{width}")
                console.goto(f"/banking/{clearing['id']}")
                page.click("#clearing-card .payout-button")
                page.wait_for_selector("dialog[open] #f-amount")
                shot(console, f"payout-{language}-{width}")
                page.locator("dialog[open] header button.icon").click()
        page.set_viewport_size({"width": 1280, "height": 860})
        switch_language(console, "es")
    assert not console.errors


def test_a_pending_notification_is_checked_again_from_the_console(console, demo, stack, pixelpay):
    """PixelPay's status call unavailable when its callback arrives: the decision is `pending` (the
    app answers 503, nothing paid); the gateway's notifications show it "Pendiente" with "Verificar de
    nuevo", which, PixelPay answering again, books the payment."""
    page = console.page
    tag = uuid.uuid4().hex[:4].upper()
    with fresh_company(console, demo, f"Pendientes {tag}"):
        accounts = account_ids(console)
        created(console, "/cai", {"cai": CAI_CODE, "branchId": 1, "emissionPoint": "001", "documentType": "01",
                                  "rangeStart": 1, "rangeEnd": 500, "deadline": "2099-12-31"})
        customer = created(console, "/business-partners", {"name": f"Pulpería La Luna {tag}", "type": "customer",
                                                           "taxId": "08011999000125"})
        # 2 x 100.00 = 200.00 + 15 % ISV 30.00 = 230.00
        invoice = created(console, "/documents", {
            "type": "01", "businessPartnerId": customer["id"], "date": today().isoformat(),
            "lines": [{"description": "Arroz", "quantity": 2, "unitPrice": 100, "taxRate": "0.15"}]})
        clearing = created(console, "/bank-accounts", {"name": f"PixelPay {tag}", "currency": "HNL", "openingBalance": "0.00",
                                                       "openingBalanceDate": "2020-01-01", "chartOfAccountId": accounts["110103"]})
        method = created(console, "/payments/methods", {"name": f"Tarjeta {tag}", "bankAccountId": clearing["id"]})
        gateway = created(console, "/payments/gateways", {
            "name": "PixelPay prueba", "provider": "pixelpay", "mode": "test", "keyId": SANDBOX_KEY_ID,
            "secret": SANDBOX_SECRET, "paymentMethodId": method["id"]})
        link = created(console, "/payments/generate-link", {"documentId": invoice["id"], "gatewayId": gateway["id"]})

        pixelpay.fault(status_unavailable=True)
        deliveries = pixelpay.pay(link["url"])
        status, answer = delivered(stack[0].base, deliveries[0])
        assert status == 503, answer
        assert Decimal(str(read(console, f"/documents/{invoice['id']}")["pending"])) == Decimal("230.00")

        console.goto("/settings/gateways")
        page.locator(".crud tbody tr", has_text="PixelPay prueba").locator(".gateway-notifications").click()
        row = page.locator("#gateway-notifications tbody tr")
        row.wait_for()
        assert "Pendiente" in row.inner_text()
        shot(console, "pending")
        pixelpay.reset_faults()
        row.locator(".recheck-button").click()
        page.wait_for_selector("#gateway-notifications tbody tr .badge-accepted")
        assert page.locator("#gateway-notifications .recheck-button").count() == 0
        shot(console, "rechecked")
        paid = read(console, f"/documents/{invoice['id']}")
        assert Decimal(str(paid["pending"])) == 0 and paid["paymentStatus"] == "paid"    # 230.00 - 230.00
    assert not console.errors
