"""Journeys of access in the console: logging in and switching company, inviting a colleague who
accepts in another browser and, as a seller, is refused the settings; deactivating the user
behind an API key ends both their session and the key."""
from __future__ import annotations

import re
import time
import uuid

from tests.browser.conftest import api_call


def invitation_link(stack, email: str, timeout: float = 10) -> str:
    """The local stack prints each invitation's link (its e-mail went to moto's SES)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        for line in reversed(stack.read_log().splitlines()):
            if email in line:
                found = re.search(r"(https?://\S+/app/#/accept-invitation\?token=[\w-]+)", line)
                if found:
                    return found.group(1)
        time.sleep(0.2)
    raise AssertionError(f"no invitation link for {email} in the stack's log")


def invite(console, email: str, name: str, role: str) -> None:
    console.goto("/settings/users")
    console.page.click("text=Invitar usuario")
    dialog = console.page.locator("dialog")
    dialog.locator("#f-email").fill(email)
    dialog.locator("#f-name").fill(name)
    dialog.locator("#f-role").select_option(role)
    console.shot("invite-dialog")
    dialog.locator("button[type=submit]").click()
    console.page.wait_for_selector(f"td:has-text('{email}')")


def accept(console, link: str, password: str, name: str | None = None) -> None:
    console.page.goto(link)
    console.page.wait_for_selector("#f-password")
    if name:
        console.page.fill("#f-name", name)
    console.page.fill("#f-password", password)
    console.shot("accept-invitation")
    console.page.click("form button[type=submit]")
    console.page.wait_for_selector(".shell")
    console.wait_loaded()


def test_log_in_and_switch_company(console, demo, stack):
    console.open("/")
    console.page.wait_for_selector("#f-email")
    console.shot("login")
    console.login(demo["email"], demo["password"])
    console.wait_loaded()
    assert console.page.inner_text("h1") == "Inicio"
    assert "Propietario" in console.page.inner_text(".who")
    console.shot("home")

    # the demo owner's companies so far: the two demo companies (HN, SV) and any an earlier journey of this
    # stack made (tests/browser/conftest.py fresh_company)
    companies_before = console.page.locator("#company-switcher option").count()
    status, _, other = console.as_session("POST", "/companies", {"name": "Sucursal Norte S.A.", "country": "HN"})
    assert status == 201, other
    try:
        console.page.reload()
        console.wait_loaded()
        switcher = console.page.locator("#company-switcher")
        assert switcher.locator("option").count() == companies_before + 1  # and this one
        console.switch_company(other["id"])
        console.shot("switched")
        status, _, me = console.as_session("GET", "/auth/me")
        assert me["companyId"] == other["id"]
        console.goto("/settings/company")
        assert "Sucursal Norte" in console.page.inner_text("#content")
    finally:  # the demo owner's next login opens the demo company again
        console.as_session("POST", "/auth/switch-company", {"companyId": demo["companyId"]})
    assert not console.errors


def test_invited_seller_accepts_in_another_browser_and_settings_refuse(console_factory, demo, stack):
    owner = console_factory()
    owner.login_to_company(demo["email"], demo["password"], demo["companyId"])
    email = f"vendedora-{uuid.uuid4().hex[:8]}@example.com"
    invite(owner, email, "Ana Vendedora", "seller")
    row = owner.page.locator("tr", has_text=email)
    assert "Invitado" in row.inner_text()
    owner.shot("users-invited")

    seller = console_factory()
    accept(seller, invitation_link(stack[0], email), "clave-segura-123", "Ana Vendedora")
    assert "Vendedor" in seller.page.inner_text(".who")
    assert seller.page.locator(".sidebar", has_text="Configuración").count() == 0
    seller.shot("seller-home")
    for route in ("/settings/users", "/settings/api-keys", "/settings/webhooks"):
        seller.goto(route)
        refusal = seller.page.locator(".page-error")
        assert "no permite" in refusal.inner_text(), route
        seller.shot("seller-refused")

    owner.goto("/settings/users")
    row = owner.page.locator("tr", has_text=email)
    assert "Activo" in row.inner_text() and "Vendedor" in row.inner_text()
    status, _, users = owner.as_session("GET", "/settings/users")
    listed = next(u for u in users["users"] if u["email"] == email)
    assert listed["role"] == "seller" and listed["isActive"] and listed["lastLoginAt"]
    assert not owner.errors and not seller.errors


def test_deactivating_the_keys_user_ends_the_key_and_the_session(console_factory, demo, stack):
    base = stack[0].base
    owner = console_factory()
    owner.login_to_company(demo["email"], demo["password"], demo["companyId"])
    email = f"admin-{uuid.uuid4().hex[:8]}@example.com"
    invite(owner, email, "Admin Temporal", "admin")
    admin = console_factory()
    accept(admin, invitation_link(stack[0], email), "clave-admin-123")
    status, _, created = admin.as_session("POST", "/settings/api-keys", {"name": "integración"})
    assert status == 201, created
    assert api_call(base, "GET", "/companies", created["key"])[0] == 200

    owner.goto("/settings/users")
    owner.page.locator("tr", has_text=email).locator("button", has_text="Desactivar").click()
    owner.page.locator("dialog button.primary").click()
    owner.page.wait_for_selector(f"tr:has-text('{email}') .badge-inactive")
    owner.shot("user-deactivated")

    status, _, refused = api_call(base, "GET", "/companies", created["key"])
    assert status == 401 and refused["code"] == "API_KEY_NO_USER"
    admin.goto("/documents")
    admin.page.wait_for_selector("#f-email")  # the session ended at once: back to the login page
    admin.shot("admin-session-ended")
    audit = owner.as_session("GET", "/settings/audit-log")[2]
    assert any(entry["action"] == "user.updated" for entry in audit["entries"])
    owner.goto("/settings/audit-log")
    assert "isActive: true → false" in owner.page.inner_text("#content")
    owner.shot("audit-log")
    assert "user.updated" in owner.page.inner_text("#content")
    assert not owner.errors and not admin.errors


def test_an_accountant_of_sixty_companies_finds_and_enters_any(console_factory, demo, stack):
    """The switcher names 50 companies and searches the rest; the one entered stays named."""
    owner = console_factory()
    owner.login_to_company(demo["email"], demo["password"], demo["companyId"])
    email = f"contadora-{uuid.uuid4().hex[:8]}@example.com"
    status, _, invited = owner.as_session("POST", "/settings/users", {"email": email, "name": "Rosa Contadora",
                                                                       "role": "accountant"})
    assert status == 201, invited
    accountant = console_factory()
    accept(accountant, invitation_link(stack[0], email), "clave-contadora-123", "Rosa Contadora")
    created = {}
    for n in range(1, 60):  # the demo company and 59 of her own clients
        status, _, company = accountant.as_session("POST", "/companies", {"name": f"Cliente {n:02d} S.A.",
                                                                          "country": "HN"})
        assert status == 201, company
        created[n] = company["id"]
    accountant.page.reload()
    accountant.wait_loaded()
    switcher = accountant.page.locator("#company-switcher")
    assert switcher.locator("option").count() == 50
    search = accountant.page.locator("#company-search")
    search.fill("cliente 57")
    accountant.page.wait_for_selector(f"#company-switcher option[value='{created[57]}']", state="attached")
    accountant.shot("company-search")
    switcher.select_option(str(created[57]))
    accountant.wait_loaded()
    assert accountant.as_session("GET", "/auth/me")[2]["companyId"] == created[57]
    accountant.open("/settings/company")  # a deep link, loaded afresh: the switcher names this company
    accountant.page.reload()
    accountant.wait_loaded()
    assert accountant.page.locator("#company-switcher option:checked").inner_text() == "Cliente 57 S.A."
    assert "Cliente 57 S.A." in accountant.page.inner_text("#content")
    accountant.shot("company-entered")
    assert not owner.errors and not accountant.errors
