"""Every error code the code can raise is in the catalog (chalicelib/error_codes.py, which the
OpenAPI document lists per status) with the status it is raised with, the catalog lists no code
the code no longer raises, and docs/errors.md shows the catalog as it is."""
from __future__ import annotations

import re
from pathlib import Path

from chalicelib.error_codes import ERROR_CODES
from tests.error_codes import raised_codes

ROW = re.compile(r"^\| `([A-Z][A-Z0-9_]+)` \| (\d{3}) \| (.*) \|$", re.M)


def documented() -> dict[str, int]:
    return {code: status for code, (status, _) in ERROR_CODES.items()}


def test_the_docs_show_the_catalog():
    text = (Path(__file__).resolve().parents[1] / "docs" / "errors.md").read_text()
    assert [(code, int(status), meaning) for code, status, meaning in ROW.findall(text)] == [
        (code, status, meaning) for code, (status, meaning) in ERROR_CODES.items()]


def test_every_raised_code_is_documented_with_its_status():
    raised, table = raised_codes(), documented()
    assert sorted(set(raised) - set(table)) == [], "codes missing from chalicelib/error_codes.py"
    wrong = {code: (sorted(statuses), table[code]) for code, statuses in raised.items() if statuses != {table[code]}}
    assert wrong == {}, "raised with another status than documented (or with two statuses)"
    assert sorted(set(table) - set(raised)) == [], "documented codes nothing raises any more"


def test_one_status_per_kind_of_error():
    table = documented()
    collisions = [code for code in table if re.search(r"TAKEN|DUPLICATE|ALREADY_MEMBER|OVERLAP|CONFLICT", code)]
    assert collisions and all(table[code] == 409 for code in collisions), collisions
