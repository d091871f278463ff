"""Smoke test: the real local stack in a subprocess, over HTTP, with both key headers and a
session cookie; then a restart that finds the data again, after a SIGTERM and after a SIGKILL."""
from __future__ import annotations

import contextlib
import json
import os
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
pytestmark = pytest.mark.smoke


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def call(method, url, body=None, headers=None):
    data = json.dumps(body).encode() if body is not None else None
    request = urllib.request.Request(url, data=data, method=method,
                                     headers={"Content-Type": "application/json", **(headers or {})})
    try:
        with urllib.request.urlopen(request, timeout=30) as response:
            return response.status, dict(response.headers), json.loads(response.read() or b"null")
    except urllib.error.HTTPError as error:
        return error.code, dict(error.headers), json.loads(error.read() or b"null")


class Stack:
    def __init__(self, state_dir: Path, fresh: bool, env: dict[str, str] | None = None,
                 table_in_memory: bool = False) -> None:
        self.port, self.moto_port, self.authority_port = free_port(), free_port(), free_port()
        self.pixelpay_port, self.wompi_port = free_port(), free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        self.state_dir = state_dir
        # (not the test session's AWS, stand-in authority or card gateways: the stack starts its own)
        env = {**{k: v for k, v in os.environ.items()
                  if not k.startswith(("AWS_", "DTE_AUTHORITY_", "PIXELPAY_", "WOMPI_"))
                  and k not in ("TABLE_NAME", "API_BASE_URL")},
               **(env or {})}
        command = [sys.executable, "-m", "infra.devstack.local", "--port", str(self.port), "--moto-port",
                   str(self.moto_port), "--dte-authority-port", str(self.authority_port),
                   "--pixelpay-port", str(self.pixelpay_port), "--wompi-port", str(self.wompi_port),
                   "--state-dir", str(state_dir)] + (["--fresh"] if fresh else []) + (
                   ["--table-in-memory"] if table_in_memory else [])
        self.log = open(state_dir.parent / f"stack-{self.port}.log", "w")
        self.process = subprocess.Popen(command, cwd=ROOT, env=env, stdout=self.log, stderr=subprocess.STDOUT)

    def wait_ready(self, timeout: float = 90) -> dict:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            assert self.process.poll() is None, self.read_log()
            if "Local stack ready" in self.read_log():
                return json.loads((self.state_dir / "credentials.json").read_text())
            time.sleep(0.3)
        raise AssertionError("local stack did not start:\n" + self.read_log())

    def read_log(self) -> str:
        self.log.flush()
        return Path(self.log.name).read_text()

    def stop(self) -> int:
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                return self.process.wait(timeout=60)
            except subprocess.TimeoutExpired:
                self.process.kill()
                return self.process.wait()
        return self.process.returncode


@contextlib.contextmanager
def fresh_stack(tmp_path: Path, env: dict[str, str] | None = None, table_in_memory: bool = False):
    """A fresh local stack, ready: (stack, credentials); stopped afterwards. `table_in_memory`: its
    table in memory, not in moto (faster; no stream, so no webhook is fanned out)."""
    state = tmp_path / "state"
    state.mkdir()
    stack = Stack(state, fresh=True, env=env, table_in_memory=table_in_memory)
    try:
        yield stack, stack.wait_ready()
    finally:
        stack.stop()


def test_local_stack_serves_http_and_keeps_its_data(tmp_path):
    state = tmp_path / "state"
    state.mkdir()
    stack = Stack(state, fresh=True)
    try:
        credentials = stack.wait_ready()
        # (pixelpay: the demo company's card gateway and its accounts, issue 43)
        assert set(credentials) == {"baseUrl", "companyId", "apiKey", "email", "password", "sv", "pixelpay"}
        base, key = stack.base, credentials["apiKey"]

        status, _, body = call("GET", f"{base}/business-partners", headers={"Authorization": f"Bearer {key}"})
        assert status == 200 and body["total"] == 0
        status, _, partner = call("POST", f"{base}/business-partners", {"name": "Smoke", "type": "both"},
                                  headers={"X-API-Key": key})
        assert status == 201, partner
        status, headers, session = call("POST", f"{base}/auth/login",
                                        {"email": credentials["email"], "password": credentials["password"]},
                                        headers={"Origin": base})
        assert status == 200, session
        cookie = headers["Set-Cookie"].split(";")[0]
        status, _, me = call("GET", f"{base}/auth/me", headers={"Cookie": cookie})
        assert status == 200 and me["companyId"] == credentials["companyId"]
        status, _, missing = call("GET", f"{base}/no-such-route", headers={"X-API-Key": key})
        assert status == 404 and missing["code"] == "NOT_FOUND"
        status, _, denied = call("GET", f"{base}/business-partners")
        assert status == 401 and denied["code"] == "AUTHENTICATION_REQUIRED"
        assert stack.stop() == 0
        assert "State saved under" in stack.read_log()
        assert (state / "table").is_dir() and not (state / "table.json").exists()

        again = Stack(state, fresh=False)
        stack = again
        assert again.wait_ready() == {**credentials, "baseUrl": again.base}
        status, _, found = call("GET", f"{again.base}/business-partners/{partner['id']}",
                                headers={"Authorization": f"Bearer {key}"})
        assert status == 200 and found["name"] == "Smoke"
        status, _, listed = call("GET", f"{again.base}/business-partners", headers={"X-API-Key": key})
        assert listed["total"] == 1
    finally:
        stack.stop()


def test_the_local_stack_runs_its_own_tax_authority_for_el_salvador(tmp_path):
    """`make run` starts the stand-in authority and seeds El Salvador's demo company registered there:
    the credentials' `sv` key issues a factura to its consumer and a crédito fiscal to its taxpayer,
    both accepted by the stand-in over HTTP, posted to the Salvadoran chart."""
    with fresh_stack(tmp_path, env={"DTE_AUTHORITY_URL": ""}) as (stack, credentials):
        authority = f"http://127.0.0.1:{stack.authority_port}"
        assert f"El Salvador's tax authority: {authority} (the stand-in)" in stack.read_log()
        sv = credentials["sv"]
        # (wompi: the app's keys at the stand-in; wompiGateway: the gateway and its accounts, issue 43)
        assert set(sv) == {"companyId", "apiKey", "wompi", "wompiGateway"} and sv["companyId"] != credentials["companyId"]
        auth = {"Authorization": f"Bearer {sv['apiKey']}"}
        status, _, company = call("GET", f"{stack.base}/companies", headers=auth)
        assert status == 200 and company["country"] == "SV" and company["id"] == sv["companyId"], company
        issued = {}
        for partner, tipo_dte in ((1, "01"), (2, "03")):  # the consumer, the registered taxpayer
            # 2 hours of support at 25.00: 50.00 + 13 % IVA 6.50 = 56.50
            status, _, invoice = call("POST", f"{stack.base}/documents", {
                "type": "01", "businessPartnerId": partner,
                "lines": [{"productId": 1, "quantity": 2, "unitPrice": 25.00}]}, headers=auth)
            assert status == 201, invoice
            assert (invoice["dte"]["tipoDte"], invoice["dte"]["status"]) == (tipo_dte, "accepted"), invoice["dte"]
            assert invoice["dte"]["selloRecepcion"].startswith(invoice["date"][:4])
            assert invoice["total"] == 56.5
            issued[invoice["dte"]["codigoGeneracion"]] = tipo_dte
        registered = json.loads((stack.state_dir / "dte-authority.json").read_text())["registered"]
        assert {code: entry["tipoDte"] for code, entry in registered.items()} == issued
        status, _, debit = call("GET", f"{stack.base}/chart-of-accounts?limit=100&type=liability", headers=auth)
        assert "IVA débito fiscal" in [account["name"] for account in debit["accounts"]]


def test_a_killed_stack_keeps_what_it_had_written(tmp_path):
    """No save at intervals: each change is in the log as soon as it is made, so a stack killed
    without a chance to save anything finds it again."""
    with fresh_stack(tmp_path) as (stack, credentials):
        key = {"X-API-Key": credentials["apiKey"]}
        status, _, partner = call("POST", f"{stack.base}/business-partners", {"name": "Before the kill",
                                                                          "type": "customer"}, headers=key)
        assert status == 201, partner
        time.sleep(0.5)  # the log writer's turn (it writes each batch as it comes)
        stack.process.kill()
        stack.process.wait()
        again = Stack(stack.state_dir, fresh=False)
        try:
            again.wait_ready()
            status, _, found = call("GET", f"{again.base}/business-partners/{partner['id']}", headers=key)
            assert status == 200 and found["name"] == "Before the kill"
        finally:
            again.stop()
