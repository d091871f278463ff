"""Every error code the code can raise is in the catalog (chalicelib/error_codes.py, which the
OpenAPI document lists per status and which alone gives an error its status), the catalog lists
no code the code no longer raises, docs/errors.md shows the catalog as it is, and no HTTP status
is written below the API layer (chalicelib/api): the rest names errors by code only."""
from __future__ import annotations

import ast
import re
from pathlib import Path

from chalicelib.error_codes import ERROR_CODES
from tests.error_codes import raised_codes

ROOT = Path(__file__).resolve().parents[1]
ROW = re.compile(r"^\| `([A-Z][A-Z0-9_]+)` \| (\d{3}) \| (.*) \|$", re.M)
# the layer that turns errors and results into HTTP answers, and the table it reads statuses from
AT_THE_DOOR = {ROOT / "chalicelib" / "api", ROOT / "chalicelib" / "errors.py", ROOT / "chalicelib" / "error_codes.py",
               *(ROOT / "chalicelib" / "countries").glob("*/routes.py")}  # a country pack's own routes


def test_the_docs_show_the_catalog():
    text = (ROOT / "docs" / "errors.md").read_text()
    assert [(code, int(status), meaning) for code, status, meaning in ROW.findall(text)] == [
        (code, status, meaning) for code, (status, meaning) in ERROR_CODES.items()]


def test_every_raised_code_is_in_the_catalog_and_no_other():
    raised = raised_codes()
    assert sorted(raised - set(ERROR_CODES)) == [], "codes missing from chalicelib/error_codes.py"
    assert sorted(set(ERROR_CODES) - raised) == [], "documented codes nothing raises any more"


def test_one_status_per_kind_of_error():
    collisions = [code for code in ERROR_CODES if re.search(r"TAKEN|DUPLICATE|ALREADY_MEMBER|OVERLAP|CONFLICT", code)]
    assert collisions and all(ERROR_CODES[code][0] == 409 for code in collisions), collisions


def _http_statuses(tree: ast.AST) -> list[int]:
    """Lines that give something an HTTP status: `status = 4xx` (a class's or `x.status`), `status=4xx`
    passed to a call. An outgoing call's answer read (`response.status`) is no such line."""
    def is_status(value: ast.expr | None) -> bool:
        return isinstance(value, ast.Constant) and type(value.value) is int and 100 <= value.value <= 599

    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Assign) and is_status(node.value) and any(
                getattr(target, "id", getattr(target, "attr", None)) == "status" for target in node.targets):
            found.append(node.lineno)
        elif isinstance(node, ast.Call):
            found += [node.lineno for k in node.keywords if k.arg in ("status", "status_code") and is_status(k.value)]
    return sorted(found)


def test_no_http_status_below_the_api_layer():
    offending = {}
    for path in sorted((ROOT / "chalicelib").rglob("*.py")):
        if any(path == door or door in path.parents for door in AT_THE_DOOR):
            continue
        if lines := _http_statuses(ast.parse(path.read_text())):
            offending[str(path.relative_to(ROOT))] = lines
    assert offending == {}, "name the error's code (its status is chalicelib/error_codes.py's) or answer from the route"


def test_the_guard_sees_a_status():
    assert _http_statuses(ast.parse("class A:\n    status = 409\nraise E('x', code='C', status=400)\nc.status = 200\n")) \
        == [2, 3, 4]
