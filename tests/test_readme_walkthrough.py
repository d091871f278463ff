"""The README's walkthrough runs top to bottom: every `sh` block from "Walkthrough with curl" to
the admin CLI, as written, in bash, against a fresh local stack (the demo companies `make run`
seeds), twice in a row on the same stack: it reads the stack's address from BASE and every id
from the answers it gets, and leaves nothing in the folder it runs from. Each curl's status is the
line the README's own `curl` function prints; every one must succeed but those the README itself
says are refused. Its documents are dated in November 2026 and age: it runs again months later, on a
stack whose clock starts then (DEVSTACK_NOW) and a shell whose `date` reads the same clock. The runs in a
row keep the stack's table in memory (`--table-in-memory`: the README's calls answer alike on both
engines, tests/test_memory_dynamodb.py compares them); the later run's stack is moto's, as `make run`
starts it."""
from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

from infra.devstack import shifted_clock
from tests.test_local_stack import call, fresh_stack

ROOT = Path(__file__).resolve().parent.parent
pytestmark = pytest.mark.smoke

# the calls the README shows being refused, with the status it says they get
REFUSED = [
    "POST /documents/{id}/unconfirm: 400",  # "this one answers 400 INSUFFICIENT_STOCK"
    "POST /journal-entries: 400",  # dated in the closed year 2025: "400 PERIOD_CLOSED"
]
# what the README's `curl` prints on stderr after each answer
STATUS_LINE = re.compile(r"^=> (\d{3}) ([A-Z]+) (\S+)$")
# months after the walkthrough's November 2026, past its CAI's old fixed deadline (30 June 2027), in
# a year whose next is 2028: what was dated then is long overdue, today-dated documents are in 2027
LATER = "2027-09-15"


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
    # (/fiscal-years/2025: a year; 05/11/2026: a bank's date)
    assert re.findall(r"(?<!\d)/(?!20\d\d/)\d+(?=[/\s\"'?]|$)", script, re.MULTILINE) == []
    assert re.findall(r'Id\\?"?: \d', script) == []
    # statuses shown: no silent curl; files written to the walkthrough's temporary folder only
    assert re.findall(r"curl -s\b", script) == []
    assert re.findall(r"curl [^|\n]*?(?:-o|-c|-b) (?!\"\$WORK/)\S+", script) == []


def run_once(script: str, cwd: Path, base: str, path: str) -> tuple[list[str], list[str], int]:
    """(the failed calls as "METHOD /path: status", stderr lines that are no status, statuses seen)."""
    ran = subprocess.run(["bash", "-c", script], cwd=cwd, capture_output=True, text=True, timeout=300,
                         env={**os.environ, "BASE": base, "PATH": path})
    statuses, others, polls = [], [], 0
    for line in ran.stderr.splitlines():
        match = STATUS_LINE.match(line)
        polled = bool(match and JOB_POLL.search(match.groups()[2]) and statuses and statuses[-1] == match.groups())
        polls = polls + 1 if polled else 0
        if polls == SETTLES_WITHIN:  # `settled` gave up: the job never finished (a stuck import or export)
            others.append(f"{match.groups()[2]} still under way after {SETTLES_WITHIN} reads")
        if match and not polled:
            statuses.append(match.groups())
        elif not match and line.strip():
            others.append(line)
    failed = [f"{method} {re.sub(r'/[0-9]+(?=/|$)', '/{id}', re.sub(r'^https?://[^/]+', '', url).split('?')[0])}: "
              f"{status}" for status, method, url in statuses if not status.startswith("2")]
    return failed, others + ([f"exit status {ran.returncode}"] if ran.returncode else []), len(statuses)


def shell_clock_at(day: str, folder: Path) -> str:
    """A PATH whose `date` tells the time as a stack started now at `day` (DEVSTACK_NOW) does: the
    machine's clock moved by the same offset (a date given with -d or -r is left as it is)."""
    real = shutil.which("date")
    offset = round(shifted_clock.parse(day).timestamp() - time.time())
    folder.mkdir()
    (folder / "date").write_text(
        "#!/bin/sh\n"
        f'for arg in "$@"; do case "$arg" in -d*|--date*|-r*|--reference*) exec {real} "$@";; esac; done\n'
        f'exec {real} -d "@$(( $({real} +%s) + {offset} ))" "$@"\n')
    (folder / "date").chmod(0o755)
    return f"{folder}:{os.environ['PATH']}"


def with_python3_itself(folder: Path, path: str) -> str:
    """`path` with the interpreter itself first as `python3`: the walkthrough starts python3 about a
    hundred times a run, and a version manager's shim (pyenv's, on CI) costs 60 ms more each start."""
    folder.mkdir(exist_ok=True)
    (folder / "python3").symlink_to(Path(sys.executable).resolve())
    return f"{folder}:{path}"


# a job's own address, read again while the job is under way (`settled`)
JOB_POLL = re.compile(r"/(?:imports|exports)/\d+$")
SETTLES_WITHIN = 150  # reads 0.2 s apart (`settled` reads 300): the walkthrough's jobs take a second or two
CALL = r"(?<![\w-]){}(?= )(?! \(\))"


def expected_calls(script: str) -> int:
    """The status lines the walkthrough prints: each curl it writes, and for each function it defines (but
    `curl` itself, the wrapper) the curls of its body once per call of it. A job followed until it settles
    (`settled`: the same GET again while the job is under way) prints its repeated statuses counted once."""
    functions = dict(re.findall(r"^(\w+)\(\) \{(.*?)\}$", script, re.M | re.S))
    outside = re.sub(r"^\w+\(\) \{.*?\}$", "", script, flags=re.M | re.S)
    total = len(re.findall(CALL.format("curl"), outside))
    for name, body in functions.items():
        if name != "curl":
            total += len(re.findall(CALL.format("curl"), body)) * len(re.findall(CALL.format(name), outside))
    return total


def run_on_fresh_stack(tmp_path: Path, runs: tuple[str, ...], day: str | None = None, *, in_memory: bool) -> None:
    """The walkthrough, once per run, on a fresh stack (whose clock starts at `day`, if given)."""
    script = walkthrough()
    curls = expected_calls(script)
    assert curls > 100  # the whole walkthrough, not an empty extraction
    path = with_python3_itself(tmp_path / "python", shell_clock_at(day, tmp_path / "bin") if day else os.environ["PATH"])
    with fresh_stack(tmp_path, env={shifted_clock.VARIABLE: day} if day else None,
                     table_in_memory=in_memory) as (stack, credentials):
        checkout = tmp_path / "checkout"  # stands for the clone: the walkthrough reads .local/ there
        checkout.mkdir()
        (checkout / ".local").symlink_to(stack.state_dir)
        for run in runs:
            failed, other_errors, statuses = run_once(script, checkout, stack.base, path)
            assert other_errors == [], (run, other_errors[-20:])
            assert statuses == curls, run
            assert failed == REFUSED, (run, failed)
            assert sorted(path.name for path in checkout.iterdir()) == [".local"], run
        if day:  # the service and the stand-in authority both at `day`: a DTE dated then, accepted
            status, _, invoice = call("POST", f"{stack.base}/documents", {
                "type": "01", "businessPartnerId": 1, "lines": [{"productId": 1, "quantity": 1, "unitPrice": 25.00}]},
                headers={"Authorization": f"Bearer {credentials['sv']['apiKey']}"})
            assert status == 201, invoice
            assert (invoice["date"], invoice["dte"]["status"]) == (day, "accepted"), invoice["dte"]
            assert invoice["dte"]["selloRecepcion"].startswith(day[:4])


def test_the_readme_walkthrough_runs_twice_against_one_local_stack(tmp_path):
    run_on_fresh_stack(tmp_path, ("first", "second"), in_memory=True)


def test_the_readme_walkthrough_runs_months_after_its_dates(tmp_path):
    """Its November invoices are ten months old: none blocks its later sales (the customer with a
    credit block has paid what it owed), the reconciliation of 30 November clears only what was
    dated by then, its CAI range, API key and schedule run to dates of the year after today's."""
    run_on_fresh_stack(tmp_path, ("months later",), day=LATER, in_memory=False)


def test_the_shell_clock_reads_the_stacks_day(tmp_path):
    path = shell_clock_at(LATER, tmp_path / "bin")
    shown = subprocess.run(["bash", "-c", "date -u +%F; echo $(( $(date +%Y) + 1 )); date -d 2026-11-04 +%F"],
                           capture_output=True, text=True, env={**os.environ, "PATH": path}).stdout.split()
    assert shown == [LATER, "2028", "2026-11-04"]
