"""What the local stack costs the machine (the browser journeys and the fuzz contract each run one
per test worker): CPU of the stack's process, read from /proc (wall time on a shared machine is
noise), for its start, for a stretch of idling, and per API request of a representative mix.

    python -m infra.bench.local_stack [--idle 20] [--rounds 40]
"""
from __future__ import annotations

import argparse
import json
import os
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
TICKS = os.sysconf("SC_CLK_TCK")


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def _cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / TICKS  # utime + stime


def _call(method: str, url: str, body: Any = None, headers: dict[str, str] | None = None) -> int:
    data = json.dumps(body).encode() if body is not None else None
    request = urllib.request.Request(url, data=data, method=method,
                                     headers={"Content-Type": "application/json", **(headers or {})})
    try:
        with urllib.request.urlopen(request, timeout=60) as response:
            response.read()
            return int(response.status)
    except urllib.error.HTTPError as error:
        return int(error.code)


def measure(idle_s: float, rounds: int) -> dict[str, float]:
    state = Path(tempfile.mkdtemp(prefix="bench-stack-")) / "state"
    port = _free_port()
    ports = [str(_free_port()) for _ in range(4)]
    env = {k: v for k, v in os.environ.items() if not k.startswith(("AWS_", "DTE_AUTHORITY_", "PIXELPAY_", "WOMPI_"))
           and k not in ("TABLE_NAME", "API_BASE_URL")}
    log = open(state.parent / "stack.log", "w")
    process = subprocess.Popen([sys.executable, "-m", "infra.devstack.local", "--fresh", "--port", str(port),
                                "--moto-port", ports[0], "--dte-authority-port", ports[1], "--pixelpay-port",
                                ports[2], "--wompi-port", ports[3], "--state-dir", str(state)],
                               cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT)
    try:
        while "Local stack ready" not in (state.parent / "stack.log").read_text():
            assert process.poll() is None, (state.parent / "stack.log").read_text()
            time.sleep(0.1)
        started = _cpu_seconds(process.pid)
        time.sleep(3)  # the first schedule's run, two seconds after the start
        before = _cpu_seconds(process.pid)
        time.sleep(idle_s)
        idle = _cpu_seconds(process.pid) - before
        credentials = json.loads((state / "credentials.json").read_text())
        base, key = f"http://127.0.0.1:{port}", {"Authorization": f"Bearer {credentials['apiKey']}"}
        before, requests, began = _cpu_seconds(process.pid), 0, time.monotonic()
        for round_ in range(rounds):
            for method, path, body in (
                    ("GET", "/business-partners", None),
                    ("POST", "/business-partners", {"name": f"Bench {round_}", "type": "customer"}),
                    ("GET", "/chart-of-accounts?limit=50", None),
                    ("GET", "/products", None),
                    ("GET", "/journal-entries/trial-balance", None)):
                status = _call(method, base + path, body, key)
                assert status < 300, (method, path, status)
                requests += 1
        served, elapsed = _cpu_seconds(process.pid) - before, time.monotonic() - began
        return {"start_cpu_s": round(started, 2), "idle_cpu_percent": round(100 * idle / idle_s, 1),
                "requests": requests, "cpu_ms_per_request": round(1000 * served / requests, 1),
                # without what the stack would have spent idling meanwhile
                "cpu_ms_per_request_net": round(1000 * (served - idle / idle_s * elapsed) / requests, 1)}
    finally:
        process.terminate()
        process.wait(timeout=60)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--idle", type=float, default=20.0)
    parser.add_argument("--rounds", type=int, default=40)
    args = parser.parse_args()
    print(json.dumps(measure(args.idle, args.rounds), indent=2))


if __name__ == "__main__":
    main()
