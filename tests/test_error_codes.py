"""Every error code the code can raise is documented in docs/errors.md with the status it is
raised with, and the table lists no code the code no longer raises."""
from __future__ import annotations

import re
from pathlib import Path

from tests.error_codes import raised_codes

ROW = re.compile(r"^\| `([A-Z][A-Z0-9_]+)` \| (\d{3}) \|", re.M)


def documented() -> dict[str, int]:
    text = (Path(__file__).resolve().parents[1] / "docs" / "errors.md").read_text()
    rows = ROW.findall(text)
    assert len(rows) == len({code for code, _ in rows}), "a code is listed twice"
    return {code: int(status) for code, status in rows}


def test_every_raised_code_is_documented_with_its_status():
    raised, table = raised_codes(), documented()
    assert sorted(set(raised) - set(table)) == [], "codes missing from docs/errors.md"
    wrong = {code: (sorted(statuses), table[code]) for code, statuses in raised.items() if statuses != {table[code]}}
    assert wrong == {}, "raised with another status than documented (or with two statuses)"
    assert sorted(set(table) - set(raised)) == [], "documented codes nothing raises any more"


def test_one_status_per_kind_of_error():
    table = documented()
    collisions = [code for code in table if re.search(r"TAKEN|DUPLICATE|ALREADY_MEMBER|OVERLAP|CONFLICT", code)]
    assert collisions and all(table[code] == 409 for code in collisions), collisions
