"""The README's walkthrough runs top to bottom: every `sh` block from "Walkthrough with curl" to
the admin CLI, as written, in bash, against a fresh local stack (the demo company `make run`
seeds). Each curl's status is recorded; every one must succeed but those the README itself says
are refused."""
from __future__ import annotations

import re
import subprocess
from pathlib import Path

import pytest

from tests.test_local_stack import fresh_stack

ROOT = Path(__file__).resolve().parent.parent
pytestmark = pytest.mark.smoke

# the calls the README shows being refused, with the status it says they get
REFUSED = [
    "POST /documents/1/unconfirm: 400",  # "this one answers 400 INSUFFICIENT_STOCK"
    "POST /journal-entries: 400",  # dated in the closed year 2025: "400 PERIOD_CLOSED"
]


def walkthrough() -> str:
    text = (ROOT / "README.md").read_text()
    section = text[text.index("## Walkthrough with curl"):text.index("## Admin CLI")]
    return "\n".join(re.findall(r"```sh\n(.*?)```", section, re.DOTALL))


def test_the_readme_walkthrough_runs_against_the_local_stack(tmp_path):
    script = walkthrough()
    curls = len(re.findall(r"(?<![\w-])curl ", script))
    assert curls > 100  # the whole walkthrough, not an empty extraction
    with fresh_stack(tmp_path) as (stack, _credentials):
        work = tmp_path / "work"
        work.mkdir()
        (work / ".local").symlink_to(stack.state_dir)
        script = (script.replace("http://127.0.0.1:8000", stack.base)
                  .replace("http://127.0.0.1:8002", f"http://127.0.0.1:{stack.authority_port}"))
        # every curl reports its status, method and address on stderr; what it prints is untouched
        preamble = "curl() { command curl -w '%{stderr}STATUS %{http_code} %{method} %{url_effective}\\n' \"$@\"; }\n"
        ran = subprocess.run(["bash", "-c", preamble + script], cwd=work, capture_output=True, text=True, timeout=300)
    statuses = [line.split(" ", 3)[1:] for line in ran.stderr.splitlines() if line.startswith("STATUS ")]
    other_errors = [line for line in ran.stderr.splitlines() if not line.startswith("STATUS ")]
    assert other_errors == [], ran.stderr[-3000:]
    assert len(statuses) == curls, ran.stderr[-3000:]
    failed = [f"{method} {re.sub(r'^https?://[^/]+', '', url).split('?')[0]}: {status}"
              for status, method, url in statuses if not status.startswith("2")]
    assert failed == REFUSED, "\n".join(failed)
