"""docs/architecture.md's map matches the tree (issue 29): every path the map names exists, every
package of chalicelib is on it, and every module of the business's rooms (services/ and the
country packs) is named in the page, so a reader who follows it finds every file."""
from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PAGE = (ROOT / "docs" / "architecture.md").read_text()
MAP = PAGE.split("```")[1]
ROOMS = ("chalicelib/services", "chalicelib/countries")


def _source_dirs() -> list[Path]:
    return sorted(path for path in (ROOT / "chalicelib").rglob("*")
                  if path.is_dir() and "__pycache__" not in path.parts)


def test_every_path_on_the_map_exists():
    named = set(re.findall(r"(?<![\w/.])((?:chalicelib|infra|tests)/[\w/.\-]*\w/?)", MAP))
    assert named, "the map names no path: was its code block moved?"
    assert sorted(path for path in named if not (ROOT / path).exists()) == []


def test_every_folder_of_chalicelib_is_on_the_map():
    """By its whole path, or by its name under its parent (`  hn/`, `domain/dte_schemas/`)."""
    missing = [str(folder.relative_to(ROOT)) for folder in _source_dirs()
               if f"{folder.relative_to(ROOT)}/" not in MAP and not re.search(rf"(?<![\w.]){re.escape(folder.name)}/", MAP)]
    assert missing == []


def test_every_module_of_the_rooms_is_named():
    unnamed = [str(module.relative_to(ROOT)) for room in ROOMS for module in sorted((ROOT / room).rglob("*.py"))
               if module.name != "__init__.py" and "__pycache__" not in module.parts
               and not re.search(rf"(?<![\w.]){re.escape(module.name)}", PAGE)]
    assert unnamed == []
