"""The README's walkthrough runs top to bottom: every `sh` block from "Walkthrough with curl" to
the admin CLI, as written, in bash, against a fresh local stack (the demo companies `make run`
seeds), twice in a row on the same stack: it reads the stack's address from BASE and every id
from the answers it gets, and leaves nothing in the folder it runs from. Each curl's status is the
line the README's own `curl` function prints; every one must succeed but those the README itself
says are refused."""
from __future__ import annotations

import os
import re
import subprocess
from pathlib import Path

import pytest

from tests.test_local_stack import fresh_stack

ROOT = Path(__file__).resolve().parent.parent
pytestmark = pytest.mark.smoke

# the calls the README shows being refused, with the status it says they get
REFUSED = [
    "POST /documents/{id}/unconfirm: 400",  # "this one answers 400 INSUFFICIENT_STOCK"
    "POST /journal-entries: 400",  # dated in the closed year 2025: "400 PERIOD_CLOSED"
]
# what the README's `curl` prints on stderr after each answer
STATUS_LINE = re.compile(r"^=> (\d{3}) ([A-Z]+) (\S+)$")


def walkthrough() -> str:
    text = (ROOT / "README.md").read_text()
    section = text[text.index("## Walkthrough with curl"):text.index("## Admin CLI")]
    return "\n".join(re.findall(r"```sh\n(.*?)```", section, re.DOTALL))


def test_the_walkthrough_names_no_port_no_id_and_hides_no_status():
    script = walkthrough()
    # the API's address only as BASE's default (9000 is the webhook receiver a reader runs); no id
    # written in a path or a body
    assert re.findall(r"127\.0\.0\.1:\d+", script) == ["127.0.0.1:8000", "127.0.0.1:9000"]
    assert "BASE=${BASE:-http://127.0.0.1:8000}" in script
    assert re.findall(r"/(?!20\d\d/)\d+(?=[/\s\"'?]|$)", script, re.MULTILINE) == []  # (/fiscal-years/2025: a year)
    assert re.findall(r'Id\\?"?: \d', script) == []
    # statuses shown: no silent curl; files written to the walkthrough's temporary folder only
    assert re.findall(r"curl -s\b", script) == []
    assert re.findall(r"curl [^|\n]*?(?:-o|-c|-b) (?!\"\$WORK/)\S+", script) == []


def run_once(script: str, cwd: Path, base: str) -> tuple[list[str], list[str], int]:
    """(the failed calls as "METHOD /path: status", stderr lines that are no status, statuses seen)."""
    ran = subprocess.run(["bash", "-c", script], cwd=cwd, capture_output=True, text=True, timeout=300,
                         env={**os.environ, "BASE": base})
    statuses, others = [], []
    for line in ran.stderr.splitlines():
        match = STATUS_LINE.match(line)
        if match:
            statuses.append(match.groups())
        elif line.strip():
            others.append(line)
    failed = [f"{method} {re.sub(r'/[0-9]+(?=/|$)', '/{id}', re.sub(r'^https?://[^/]+', '', url).split('?')[0])}: "
              f"{status}" for status, method, url in statuses if not status.startswith("2")]
    return failed, others + ([f"exit status {ran.returncode}"] if ran.returncode else []), len(statuses)


def test_the_readme_walkthrough_runs_twice_against_one_local_stack(tmp_path):
    script = walkthrough()
    curls = len(re.findall(r"(?<![\w-])curl (?!\(\))", script)) - 1  # less the `command curl` inside the function
    assert curls > 100  # the whole walkthrough, not an empty extraction
    with fresh_stack(tmp_path) as (stack, _credentials):
        checkout = tmp_path / "checkout"  # stands for the clone: the walkthrough reads .local/ there
        checkout.mkdir()
        (checkout / ".local").symlink_to(stack.state_dir)
        for run in ("first", "second"):
            failed, other_errors, statuses = run_once(script, checkout, stack.base)
            assert other_errors == [], (run, other_errors[-20:])
            assert statuses == curls, run
            assert failed == REFUSED, (run, failed)
            assert sorted(path.name for path in checkout.iterdir()) == [".local"], run
