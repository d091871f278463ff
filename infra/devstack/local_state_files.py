"""The local stack's table on disk (infra/devstack/local_state.py keeps it): a snapshot and the segments of
an append-only change log, and the fold of the log into a new snapshot, which runs in a child
process (`python -m infra.devstack.local_state_files fold DIRECTORY THROUGH [TABLE]`) so that folding
hundreds of MB never holds the stack's interpreter. Nothing here imports moto."""
from __future__ import annotations

import fcntl
import json
import os
import sys
import time
from pathlib import Path
from typing import Any, Iterator

SNAPSHOT = "snapshot.jsonl"
LOCK = "compaction.lock"
FORMAT = "local-state/1"
_ITEM_MARK = ', "item": '
_DELETED_END = ', "item": null}\n'


# --- lines ----------------------------------------------------------------------------------------

def change_line(key: dict[str, Any], item: dict[str, Any] | None) -> str:
    """One change (or one snapshot item) as a line. The key comes first and no JSON string can
    hold `, "item": ` (its quote would be escaped): the text before it names the item."""
    return '{"key": ' + json.dumps(key) + _ITEM_MARK + json.dumps(item) + "}\n"


def _identity(line: str) -> str:
    return line[:line.index(_ITEM_MARK)]


def segment_path(directory: Path, number: int) -> Path:
    return directory / f"log-{number:08d}.jsonl"


def segments(directory: Path) -> list[tuple[int, Path]]:
    found = []
    for path in directory.glob("log-*.jsonl"):
        try:
            found.append((int(path.stem[4:]), path))
        except ValueError:
            continue
    return sorted(found)


def _complete_lines(path: Path) -> Iterator[str]:
    """The file's change lines but a last one cut short by a crash (and a line a failed write
    garbled)."""
    with path.open(encoding="utf-8") as file:
        for line in file:
            if not line.endswith("\n"):
                return
            if line.startswith('{"key": ') and _ITEM_MARK in line:
                yield line


def changes(path: Path) -> Iterator[tuple[dict[str, Any], dict[str, Any] | None]]:
    for line in _complete_lines(path):
        try:
            change = json.loads(line)
        except ValueError:
            continue
        yield change["key"], change["item"]


def read_header(path: Path) -> dict[str, Any]:
    with path.open(encoding="utf-8") as file:
        header = json.loads(file.readline())
    if header.get("format") != FORMAT:
        raise ValueError(f"{path}: not a {FORMAT} snapshot")
    return header


def snapshot_through(directory: Path) -> int:
    path = directory / SNAPSHOT
    return read_header(path)["through"] if path.exists() else 0


# --- compaction: files only -----------------------------------------------------------------------

def fold(directory: Path, through: int, table_name: str = "") -> dict[str, Any]:
    """A new snapshot: the old one with the changes of the segments after it up to `through`,
    written beside it and then put in its place; those segments are deleted afterwards. Memory
    holds the folded changes only, the snapshot is streamed. Reads and writes files only."""
    started = time.perf_counter()
    with directory_lock(directory):
        return _fold(directory, through, table_name, started)


def _fold(directory: Path, through: int, table_name: str, started: float) -> dict[str, Any]:
    snapshot = directory / SNAPSHOT
    old_through = snapshot_through(directory)
    changes: dict[str, str] = {}
    folded = [(number, path) for number, path in segments(directory) if number <= through]
    for number, path in folded:
        if number > old_through:  # those before are in the snapshot already (a fold cut short)
            for line in _complete_lines(path):
                changes[_identity(line)] = line
    temporary = directory / (SNAPSHOT + ".tmp")
    items = 0
    with temporary.open("w", encoding="utf-8") as out:
        out.write(json.dumps({"format": FORMAT, "table": table_name, "through": max(through, old_through)}) + "\n")
        if snapshot.exists():
            with snapshot.open(encoding="utf-8") as old:
                old.readline()
                for line in old:
                    if changes:
                        changed = changes.pop(_identity(line), None)
                        if changed is not None:
                            line = changed
                            if line.endswith(_DELETED_END):
                                continue
                    out.write(line)
                    items += 1
        for line in changes.values():
            if not line.endswith(_DELETED_END):
                out.write(line)
                items += 1
        out.flush()
        os.fsync(out.fileno())
    temporary.replace(snapshot)
    fsync_directory(directory)
    for _, path in folded:
        path.unlink(missing_ok=True)
    return {"items": items, "segments": len(folded), "snapshotBytes": snapshot.stat().st_size,
            "seconds": round(time.perf_counter() - started, 3)}


class directory_lock:
    """Held by a fold for its whole run and by a restore: a restart never reads the files while a
    fold left behind by a killed stack replaces them."""

    def __init__(self, directory: Path) -> None:
        self.path = directory / LOCK

    def __enter__(self) -> None:
        self.descriptor = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o644)
        fcntl.flock(self.descriptor, fcntl.LOCK_EX)

    def __exit__(self, *_: Any) -> None:
        os.close(self.descriptor)


def fsync_directory(directory: Path) -> None:
    try:
        descriptor = os.open(directory, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(descriptor)
    except OSError:
        pass
    finally:
        os.close(descriptor)


def _main(argv: list[str]) -> int:
    """`python -m infra.devstack.local_state_files fold DIRECTORY THROUGH [TABLE]`: the compaction's child."""
    if len(argv) < 3 or argv[0] != "fold":
        print(__doc__, file=sys.stderr)
        return 2
    os.nice(10)  # the stack's requests first
    result = fold(Path(argv[1]), int(argv[2]), argv[3] if len(argv) > 3 else "")
    print(json.dumps(result))
    return 0


if __name__ == "__main__":
    sys.exit(_main(sys.argv[1:]))
