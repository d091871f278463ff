"""The tests named for DynamoDB Local exist (issue 45): `make test`'s sample (ON_DYNAMODB_LOCAL in the
Makefile) and the moto-only list of tests/dynamodb_local.py name files and test functions that are there,
so a renamed test cannot silently drop out of the run on AWS's own engine or out of the skip list."""
from __future__ import annotations

import ast
import re
from pathlib import Path

from tests.dynamodb_local import MOTO_ONLY

ROOT = Path(__file__).resolve().parents[2]


def _tests_of(path: Path) -> set[str]:
    return {node.name for node in ast.parse(path.read_text()).body
            if isinstance(node, ast.FunctionDef) and node.name.startswith("test")}


def _missing(node_ids: list[str]) -> list[str]:
    missing = []
    for node_id in node_ids:
        path, _, name = node_id.partition("::")
        if not (ROOT / path).is_file() or (name and name not in _tests_of(ROOT / path)):
            missing.append(node_id)
    return missing


def make_test_sample() -> list[str]:
    makefile = (ROOT / "Makefile").read_text().replace("\\\n", " ")
    found = re.search(r"^ON_DYNAMODB_LOCAL := (.*)$", makefile, re.MULTILINE)
    assert found, "the Makefile names no ON_DYNAMODB_LOCAL"
    return found.group(1).split()


def test_make_test_runs_the_store_s_tests_and_journeys_that_exist_on_dynamodb_local():
    sample = make_test_sample()
    assert "tests/test_store.py" in sample and len(sample) >= 8
    assert _missing(sample) == []
    assert "$(ON_DYNAMODB_LOCAL)" in (ROOT / "Makefile").read_text()


def test_every_moto_only_entry_names_an_existing_file_or_test():
    assert _missing(list(MOTO_ONLY)) == []
