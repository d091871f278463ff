"""The suite's order under xdist (tests/conftest.py): about how long a test of each file takes,
read from a `pytest --durations=0` log (setup + call + teardown per test, averaged over the
file's tests listed), written to tests/expected_seconds.json for the files whose tests take 3 s
or more. Not part of `make test`; run after a full `--durations=0` run when the slow files change:

    python -m infra.bench.suite_order durations.log"""
from __future__ import annotations

import json
import re
import sys
from collections import defaultdict
from pathlib import Path

TABLE = Path(__file__).resolve().parents[2] / "tests" / "expected_seconds.json"
LINE = re.compile(r"\s*(?P<seconds>[\d.]+)s (?:setup|call|teardown)\s+(?P<test>\S.*)$")
SLOW = 3  # seconds: a file whose tests take less keeps its place


def seconds_per_test(log: str) -> dict[str, int]:
    tests: dict[str, float] = defaultdict(float)
    for line in log.splitlines():
        if found := LINE.match(line.rstrip()):
            tests[found["test"]] += float(found["seconds"])
    files: dict[str, list[float]] = defaultdict(list)
    for test, seconds in tests.items():
        files[test.split("::")[0]].append(seconds)
    averages = {path: round(sum(times) / len(times)) for path, times in files.items()}
    return dict(sorted(((path, s) for path, s in averages.items() if s >= SLOW), key=lambda pair: (-pair[1], pair[0])))


def main(argv: list[str]) -> int:
    table = seconds_per_test(Path(argv[0]).read_text())
    TABLE.write_text(json.dumps(table, indent=1) + "\n")
    print(f"{len(table)} files in {TABLE}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
