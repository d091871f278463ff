"""What Lambda runs never needs infra/ (chalice packages app.py and chalicelib/ only), and infra's
packages depend one way: devstack may use deploy (the template's table) and ops (migrations, table
scans); ops and deploy use neither the devstack nor the benchmarks."""
from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def imported(paths: list[Path]) -> set[tuple[str, str]]:
    """(file, module) for every import in these files, relative imports included as written."""
    found = set()
    for path in paths:
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            if isinstance(node, ast.Import):
                found |= {(str(path.relative_to(ROOT)), alias.name) for alias in node.names}
            elif isinstance(node, ast.ImportFrom) and node.module:
                found.add((str(path.relative_to(ROOT)), node.module))
    return found


def offending(package: str, allowed: tuple[str, ...]) -> list[tuple[str, str]]:
    files = sorted((ROOT / package).rglob("*.py"))
    assert files, package
    return sorted((file, module) for file, module in imported(files)
                  if module.split(".")[0] in ("infra", "tests") and not module.startswith(allowed))


def test_the_lambda_code_imports_nothing_from_infra_or_tests():
    assert offending("chalicelib", ()) == []
    assert [module for _, module in imported([ROOT / "app.py"]) if module.split(".")[0] in ("infra", "tests")] == []


def test_infra_packages_depend_one_way():
    assert offending("infra/deploy", ("infra.deploy",)) == []
    assert offending("infra/ops", ("infra.ops",)) == []
    assert offending("infra/devstack", ("infra.devstack", "infra.deploy", "infra.ops")) == []
