"""Browser tests: real Chromium (Debian's package) driven by Playwright against a fresh local
stack. Each xdist worker that runs some of them starts one stack and one Chromium for them (the
tests share the demo company, so each leaves it as it found it: the session in the demo company);
each test gets its own browser context (its own cookies)."""
from __future__ import annotations

import os
import re
import shutil
from contextlib import contextmanager
from pathlib import Path

import pytest

from tests.test_local_stack import call, fresh_stack

ROOT = Path(__file__).resolve().parents[2]
SCREENSHOTS = ROOT / "build" / "screenshots"
CHROMIUM_FLAGS = ["--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--disable-background-networking",
                  "--disable-component-update", "--disable-sync", "--no-first-run", "--disable-quic"]


def chromium_path() -> str:
    """Debian's chromium-headless-shell where there is one: the same engine as its chromium, without the
    windowed browser's machinery, which headless runs do not use (Playwright's own default for headless);
    it takes a third less CPU on the journeys."""
    found = (os.environ.get("CHROMIUM") or shutil.which("chromium-headless-shell") or shutil.which("chromium")
             or shutil.which("chromium-browser"))
    if not found:
        pytest.fail("Chromium is missing: `make test` installs Debian's chromium packages "
                    "(apt-get install chromium chromium-headless-shell).")
    return found


def _browser_stack(tmp_path_factory, table_in_memory: bool):
    standins = {name: os.environ[name] for name in ("PIXELPAY_URL", "PIXELPAY_SANDBOX_URL", "WOMPI_API_URL",
                                                     "WOMPI_ID_URL")}
    return fresh_stack(tmp_path_factory.mktemp("browser-stack"), {"LOG_INVITATION_LINKS": "1", **standins},
                       table_in_memory=table_in_memory)


@pytest.fixture(scope="session")
def stack(tmp_path_factory, gateway_standin_servers):
    """(stack, credentials) of a fresh local stack shared by the browser tests. Its card gateways are
    this session's stand-ins (tests/conftest.py), which the tests drive in Python (faults, payments).
    Its table is in memory (the console's journeys need none of the emulator's behaviour), so it has
    no stream: a journey that sees a webhook delivered takes `stack_with_stream`."""
    with _browser_stack(tmp_path_factory, table_in_memory=True) as running:
        yield running


@pytest.fixture(scope="session")
def stack_with_stream(tmp_path_factory, gateway_standin_servers):
    """A stack as `make run` starts it (moto's table, whose stream fans webhooks out)."""
    with _browser_stack(tmp_path_factory, table_in_memory=False) as running:
        yield running


@pytest.fixture(scope="session")
def browser():
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=chromium_path(), args=CHROMIUM_FLAGS)
        yield launched
        launched.close()


class Console:
    """One browser context on the console: its own cookies, screenshots named after the test."""

    def __init__(self, browser, base: str, test_name: str) -> None:
        self.base = base
        # the demo company's clock: the console's "today" (a form's default date) is the API's
        # today, even in the hours when UTC has already turned the day
        self.context = browser.new_context(locale="es-HN", timezone_id="America/Tegucigalpa",
                                           viewport={"width": 1280, "height": 860}, accept_downloads=True)
        self.context.set_default_timeout(15_000)
        self.page = self.context.new_page()
        self.errors: list[str] = []
        self.page.on("pageerror", lambda error: self.errors.append(str(error)))
        self.prefix = re.sub(r"[^a-z0-9]+", "-", test_name.lower()).strip("-")
        self.shots = 0

    def open(self, route: str = "/") -> None:
        self.page.goto(f"{self.base}/app/#{route}")

    def shot(self, name: str, full_page: bool = True) -> Path:
        """Saves what the page shows under build/screenshots/ for a reviewer."""
        stray = self.stray_words()
        assert not stray, f"the page shows a missing value as text: {stray}"
        SCREENSHOTS.mkdir(parents=True, exist_ok=True)
        self.shots += 1
        path = SCREENSHOTS / f"{self.prefix}-{self.shots:02d}-{name}.png"
        self.page.screenshot(path=str(path), full_page=full_page)
        return path

    def stray_words(self) -> list[str]:
        """JavaScript's own words for a missing value ("null", "undefined", "NaN") shown as text: a
        value the page forgot to format or leave out (a DOM `append` writes null as "null"). The
        console's pages only: the API reference (/docs) names JSON's null among a field's types."""
        return self.page.evaluate("""() => {
            if (!document.getElementById("app")) return [];
            const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
            const found = [];
            for (let node = walker.nextNode(); node; node = walker.nextNode()) {
                if (node.parentElement.closest("pre, code, script, style, textarea")) continue;
                const words = node.textContent.match(/\\b(null|undefined|NaN)\\b/g);
                if (words) found.push(`${node.parentElement.tagName}: ${node.textContent.trim().slice(0, 80)}`);
            }
            return found;
        }""")

    def login(self, email: str, password: str) -> None:
        self.open("/login")
        self.page.fill("#f-email", email)
        self.page.fill("#f-password", password)
        self.page.click("form button[type=submit]")
        self.page.wait_for_selector(".shell")
        self.wait_loaded()

    def login_to_company(self, email: str, password: str, company_id: int) -> None:
        """Logs in and makes sure the session is in that company (a session opens the company the
        user last switched to, and another test may have switched)."""
        self.login(email, password)
        self.switch_company(company_id)

    def switch_company(self, company_id: int) -> None:
        switcher = self.page.locator("#company-switcher")
        if switcher.input_value() != str(company_id):
            switcher.select_option(str(company_id))
            self.wait_loaded()

    def pick(self, field: str, record: dict, within=None) -> None:
        """Chooses a record in a type-ahead field (ui.js lookup, typeAhead): types its label as the
        console shows it (a product: "code · name"; a partner: "name (tax id)") and waits for the
        field to hold its id. `field` is the hidden input's id without "f-" (a document line's
        product: "lines-0-productId"); `within`, a dialog's locator."""
        if record.get("code") and "unitPrice" in record:
            label = f"{record['code']} · {record['name']}"
        else:
            label = f"{record['name']} ({record['taxId']})" if record.get("taxId") else record["name"]
        (within or self.page).locator(f"[id='f-{field}-search']").fill(label)
        self.page.wait_for_function("([field, id]) => document.getElementById('f-' + field).value === String(id)",
                                    arg=[field, record["id"]])

    def goto(self, route: str) -> None:
        """Navigates inside the console (again, when the page is already showing) and waits for
        the page to finish loading."""
        self.page.evaluate("""route => {
            document.getElementById("app").dataset.state = "navigating";
            if (location.hash === "#" + route) window.dispatchEvent(new HashChangeEvent("hashchange"));
            else location.hash = route;
        }""", route)
        self.wait_loaded()

    def wait_loaded(self) -> None:
        """Waits until the router has shown the page of the current address (a link's click
        changes it before the router runs) and the page's own loaders are done."""
        self.page.wait_for_function("""() => {
            const app = document.getElementById("app");
            return app.dataset.state === "ready" && app.dataset.route === location.hash
                && !document.querySelector("#content .loading, .page .loading");
        }""")

    def confirm(self) -> None:
        """Answers "Sí" in the console's confirmation dialog."""
        self.page.locator("dialog button.primary.danger").click()
        self.page.wait_for_selector("dialog", state="detached")

    def session_cookie(self) -> str:
        return next(c["value"] for c in self.context.cookies() if c["name"] == "accessToken")

    def as_session(self, method: str, path: str, body=None):
        """The API (web-only routes included) as this console's own session calls it."""
        return call(method, f"{self.base}{path}", body,
                    headers={"Cookie": f"accessToken={self.session_cookie()}", "Origin": self.base})

    def close(self) -> None:
        self.context.close()


@pytest.fixture
def console_factory(browser, stack, request):
    opened: list[Console] = []

    def open_console() -> Console:
        console = Console(browser, stack[0].base, f"{request.node.name}-{len(opened)}" if opened else request.node.name)
        opened.append(console)
        return console

    yield open_console
    for console in opened:
        console.close()


@pytest.fixture
def console(console_factory):
    return console_factory()


@pytest.fixture
def demo(stack):
    """The demo company's credentials, as `make run` prints them."""
    return stack[1]


def api_call(stack_base: str, method: str, path: str, key: str, body=None):
    """The API as an integrator sees it (to check what the console did)."""
    return call(method, f"{stack_base}{path}", body, headers={"Authorization": f"Bearer {key}"})


def all_items(base: str, key: str, path: str, field: str) -> list[dict]:
    """Every item of a paged list, through the API key."""
    items, page = [], 1
    while True:
        status, _, answer = api_call(base, "GET", f"{path}?page={page}&limit=100", key)
        assert status == 200, answer
        items += answer[field]
        if len(items) >= answer["total"] or not answer[field]:
            return items
        page += 1


def account_id(base: str, key: str, code: str) -> int:
    return next(a["id"] for a in all_items(base, key, "/chart-of-accounts", "accounts") if a["code"] == code)


def bank_ledger(base: str, key: str, tag: str) -> int:
    """A ledger account of its own for a new bank account, under "Efectivo y equivalentes" (1101): a bank
    account's ledger is a control account, empty when it is linked and shared with no other bank account
    (the demo company is shared by the tests)."""
    status, _, account = api_call(base, "POST", "/chart-of-accounts", key, {
        "code": f"110103-{tag}", "name": f"Banco {tag}", "type": "asset", "parentId": account_id(base, key, "1101")})
    assert status == 201, account
    return account["id"]


def amount(text: str) -> float:
    """'L 1,250.50', '-L 25.00' or 'USD 115.00' -> the number."""
    return float(re.sub(r"[^\d.-]", "", text))


@contextmanager
def fresh_company(console, demo, name: str):
    """A new Honduran company with the standard chart (its accounts and rules), the console
    switched to it; the demo company again afterwards (the demo owner's next login opens it, and
    other tests share it)."""
    console.login_to_company(demo["email"], demo["password"], demo["companyId"])
    status, _, company = console.as_session("POST", "/companies", {"name": name, "country": "HN"})
    assert status == 201, company
    try:
        console.page.reload()
        console.wait_loaded()
        console.switch_company(company["id"])
        status, _, imported = console.as_session("POST", "/chart-of-accounts/import-default")
        assert status in (200, 201), imported
        yield company
    finally:
        console.as_session("POST", "/auth/switch-company", {"companyId": demo["companyId"]})


def created(console, path: str, body: dict) -> dict:
    """A record the session creates through the API (201), as the console's own calls would."""
    status, _, answer = console.as_session("POST", path, body)
    assert status == 201, (path, answer)
    return answer


def read(console, path: str) -> dict:
    status, _, answer = console.as_session("GET", path)
    assert status == 200, (path, answer)
    return answer


def shot_without_notices(console, name: str) -> None:
    """A screenshot without the notices of the steps before covering the page."""
    console.page.evaluate("() => document.getElementById('toasts').replaceChildren()")
    console.shot(name)
