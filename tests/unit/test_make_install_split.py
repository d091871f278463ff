"""`make run` installs what running needs (infra/devstack/requirements.txt: the service and the local stack),
`make test` adds the test, browser, fuzzing and client-generation tools (requirements-dev.txt); the
stamps reinstall exactly what a changed requirements file touches. Read with `make -n` (nothing
runs) in a copy of the Makefile, and from the installed packages' own metadata."""
from __future__ import annotations

import ast
import os
import re
import shutil
import subprocess
import sys
import time
from importlib import metadata
from pathlib import Path

import pytest
from packaging.requirements import Requirement

ROOT = Path(__file__).resolve().parents[2]
# what only testing needs (cfn-lint and openapi-spec-validator, which the tests use too, come with moto's server)
DEV_TOOLS = {"pytest", "pytest-xdist", "hypothesis", "playwright", "schemathesis", "openapi-python-client",
             "ruff", "pypdf"}  # openpyxl is a run-time need since issue 41 (imported XLSX files)

pytestmark = pytest.mark.skipif(shutil.which("make") is None, reason="make is not installed")


def planned(folder: Path, target: str, *flags: str) -> list[str]:
    """The commands `make` would run for the target (the virtualenv's path cut off)."""
    ran = subprocess.run(["make", "-n", *flags, target, "VENV=venv"], cwd=folder, capture_output=True, text=True,
                         check=True)
    return [line.replace("venv/bin/", "") for line in ran.stdout.splitlines()]


def installs(commands: list[str]) -> list[str]:
    return [line.split()[-1] for line in commands if "pip install -q -r" in line]


def test_make_run_installs_what_running_needs_and_make_test_the_rest():
    assert installs(planned(ROOT, "run", "-B")) == ["infra/devstack/requirements.txt"]
    assert installs(planned(ROOT, "package", "-B")) == ["infra/devstack/requirements.txt"]
    assert installs(planned(ROOT, "test", "-B")) == ["infra/devstack/requirements.txt", "requirements-dev.txt"]
    for target in ("fuzz", "sdk", "bench"):
        assert installs(planned(ROOT, target, "-B"))[-1] == "requirements-dev.txt", target
    ci = (ROOT / ".ci" / "run").read_text()
    assert re.findall(r"^make .*$", ci, re.MULTILINE) == ["make test"]


def test_the_stamps_reinstall_what_a_changed_file_touches(tmp_path):
    (tmp_path / "infra" / "devstack").mkdir(parents=True)
    for name in ("Makefile", "requirements.txt", "infra/devstack/requirements.txt", "requirements-dev.txt"):
        shutil.copy(ROOT / name, tmp_path / name)
    (tmp_path / "venv").mkdir()
    past = time.time() - 100
    for name in ("requirements.txt", "infra/devstack/requirements.txt", "requirements-dev.txt"):
        os.utime(tmp_path / name, (past, past))
    (tmp_path / "venv" / ".run-installed").touch()
    (tmp_path / "venv" / ".dev-installed").touch()
    os.utime(tmp_path / "venv" / ".run-installed", (past + 10, past + 10))
    os.utime(tmp_path / "venv" / ".dev-installed", (past + 20, past + 20))
    assert installs(planned(tmp_path, "run")) == [] and installs(planned(tmp_path, "test")) == []
    os.utime(tmp_path / "requirements-dev.txt", (past + 30, past + 30))  # a test tool added
    assert installs(planned(tmp_path, "run")) == []
    assert installs(planned(tmp_path, "test")) == ["requirements-dev.txt"]
    os.utime(tmp_path / "requirements.txt", (past + 40, past + 40))  # a runtime library added
    assert installs(planned(tmp_path, "run")) == ["infra/devstack/requirements.txt"]
    assert installs(planned(tmp_path, "test")) == ["infra/devstack/requirements.txt", "requirements-dev.txt"]


def _canonical(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


def _requirements(path: Path) -> list[Requirement]:
    found = []
    for line in path.read_text().splitlines():
        line = line.split("#")[0].strip()
        if line.startswith("-r "):
            found += _requirements(path.parent / line[3:].strip())
        elif line:
            found.append(Requirement(line))
    return found


def closure(path: Path) -> set[str]:
    """Every distribution pip installs for the file, as the installed packages' metadata says."""
    seen: set[str] = set()
    pending = [(requirement, frozenset(requirement.extras)) for requirement in _requirements(path)]
    while pending:
        requirement, extras = pending.pop()
        name = _canonical(requirement.name)
        key = f"{name}[{','.join(sorted(extras))}]"
        if key in seen:
            continue
        seen.add(key)
        for line in metadata.requires(requirement.name) or []:
            dependency = Requirement(line)
            if dependency.marker is None or any(dependency.marker.evaluate({"extra": extra}) for extra in extras or {""}):
                pending.append((dependency, frozenset(dependency.extras)))
    return {key.split("[")[0] for key in seen}


def test_what_make_run_installs_runs_the_local_stack_and_holds_no_test_tool():
    local = closure(ROOT / "infra/devstack/requirements.txt")
    assert {"chalice", "moto", "boto3", "pydantic", "werkzeug"} <= local
    assert local & DEV_TOOLS == set()
    assert DEV_TOOLS <= closure(ROOT / "requirements-dev.txt")
    # every module the app and the local stack import, at the top or inside a function, comes from the
    # standard library or from those
    owners = metadata.packages_distributions()
    imported = set()
    for path in [ROOT / "app.py", *(ROOT / "chalicelib").rglob("*.py"), *(ROOT / "infra" / "devstack").rglob("*.py")]:
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            if isinstance(node, ast.Import):
                imported.update(alias.name.split(".")[0] for alias in node.names)
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                imported.add(node.module.split(".")[0])
    third_party = imported - set(sys.stdlib_module_names) - {"app", "chalicelib", "infra"}
    assert {"moto", "werkzeug", "joserfc", "segno", "xlsxwriter"} <= third_party
    assert {name for name in third_party if name not in owners} == set()
    assert {_canonical(owners[name][0]) for name in third_party} - local == set()
