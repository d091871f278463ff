"""The suite's order (tests/conftest.py): the slow files' seconds read from a durations log, and
every file the table names still there."""
from __future__ import annotations

import json
from pathlib import Path

from infra.bench.suite_order import TABLE, seconds_per_test

ROOT = Path(__file__).resolve().parents[2]

LOG = """============================= slowest durations ==============================
63.17s call     tests/test_walk.py::test_runs_twice
2.00s setup    tests/test_walk.py::test_runs_twice
5.00s call     tests/test_walk.py::test_months_after
1.50s call     tests/test_bad.py::test_route[GET /inventory/valuation]
1.50s setup    tests/test_bad.py::test_route[GET /inventory/valuation]
0.20s call     tests/test_bad.py::test_route[POST /documents]
(5145 durations < 0.005s hidden.  Use -vv to show these durations.)
"""


def test_a_files_seconds_are_its_tests_average_and_the_quick_files_are_left_out():
    # test_walk: (63.17 + 2.00 + 5.00) / 2 tests = 35.085 -> 35; test_bad: (3.00 + 0.20) / 2 = 1.6 < 3
    assert seconds_per_test(LOG) == {"tests/test_walk.py": 35}


def test_every_file_of_the_table_exists():
    table = json.loads(TABLE.read_text())
    assert table and [path for path in table if not (ROOT / path).is_file()] == []
