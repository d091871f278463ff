"""Browser tests: real Chromium (Debian's package) driven by Playwright against a fresh local
stack. Every test of this folder runs in one xdist worker (group "browser") so that one stack
and one browser serve them all; each test gets its own browser context (its own cookies)."""
from __future__ import annotations

import os
import re
import shutil
from pathlib import Path

import pytest

from tests.test_local_stack import call, fresh_stack

ROOT = Path(__file__).resolve().parents[2]
SCREENSHOTS = ROOT / "build" / "screenshots"
CHROMIUM_FLAGS = ["--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--disable-background-networking",
                  "--disable-component-update", "--disable-sync", "--no-first-run", "--disable-quic"]


@pytest.hookimpl(tryfirst=True)  # before xdist reads the groups
def pytest_collection_modifyitems(items):
    for item in items:
        if "tests/browser/" in str(item.fspath).replace(os.sep, "/"):
            item.add_marker(pytest.mark.xdist_group("browser"))
            item.add_marker(pytest.mark.browser)


def chromium_path() -> str:
    found = os.environ.get("CHROMIUM") or shutil.which("chromium") or shutil.which("chromium-browser")
    if not found:
        pytest.fail("Chromium is missing: `make test` installs Debian's chromium package (apt-get install chromium).")
    return found


@pytest.fixture(scope="session")
def stack(tmp_path_factory):
    """(stack, credentials) of a fresh local stack shared by the browser tests."""
    with fresh_stack(tmp_path_factory.mktemp("browser-stack"), {"LOG_INVITATION_LINKS": "1"}) as running:
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
        self.context = browser.new_context(locale="es-HN", viewport={"width": 1280, "height": 860},
                                           accept_downloads=True)
        self.context.set_default_timeout(15_000)
        self.page = self.context.new_page()
        self.errors: list[str] = []
        self.page.on("pageerror", lambda error: self.errors.append(str(error)))
        self.prefix = re.sub(r"[^a-z0-9]+", "-", test_name.lower()).strip("-")
        self.shots = 0

    def open(self, route: str = "/") -> None:
        self.page.goto(f"{self.base}/app/#{route}")

    def shot(self, name: str) -> Path:
        """Saves what the page shows under build/screenshots/ for a reviewer."""
        SCREENSHOTS.mkdir(parents=True, exist_ok=True)
        self.shots += 1
        path = SCREENSHOTS / f"{self.prefix}-{self.shots:02d}-{name}.png"
        self.page.screenshot(path=str(path), full_page=True)
        return path

    def login(self, email: str, password: str) -> None:
        self.open("/login")
        self.page.fill("#f-email", email)
        self.page.fill("#f-password", password)
        self.page.click("form button[type=submit]")
        self.page.wait_for_selector(".shell")

    def goto(self, route: str) -> None:
        """Navigates inside the console and waits for the page to finish loading."""
        self.page.evaluate("route => { location.hash = route; }", route)
        self.wait_loaded()

    def wait_loaded(self) -> None:
        self.page.wait_for_function("() => !document.querySelector('#content .loading, .page .loading')")

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
