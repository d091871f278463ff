"""The checkout's top level holds only what the developers' guide lists: the app, its packages, the
deployment and its tools, the tests, the requirements, and the project's own files (one place each)."""
from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
ALLOWED = {"app.py", "chalicelib", ".chalice", "infra", "tests", "requirements.txt", "requirements-dev.txt",
           "README.md", "Makefile", ".ci", "pyproject.toml", "docs", ".gitignore"}


@pytest.mark.skipif(shutil.which("git") is None or not (ROOT / ".git").exists(), reason="not a git checkout")
def test_the_top_level_holds_only_what_the_guide_lists():
    tracked = subprocess.run(["git", "ls-files"], cwd=ROOT, capture_output=True, text=True, check=True).stdout
    assert {path.split("/")[0] for path in tracked.splitlines()} - ALLOWED == set()
