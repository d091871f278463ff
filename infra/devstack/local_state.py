"""The local stack's table on disk: a snapshot and an append-only change log, so that neither a
save nor a stop stalls a request, whatever the data's size.

The stack used to write the whole table to .local/table.json every 15 s and on stop, scanning it
through moto under the emulator's lock: with 17 MB of data every request stalled for seconds at
each save and a SIGTERM took over 10 s. Here instead:

- Every item change is captured where moto makes it: DynamoDBBackend's put_item, update_item and
  delete_item (the single-item calls, BatchWriteItem's puts and deletes) and transact_write_items
  (recorded once the transaction is over, from the items' state then, so that a rolled-back
  transaction leaves what moto holds). The hook copies the item's new full state (or notes its
  deletion) and hands it to a queue: no I/O, no lock of its own beyond the queue's. It runs
  inside whatever keeps moto's writes apart (the stack's lock around moto, or the faithful
  layer's), so the changes of one item are queued in the order they were made. (PartiQL writes,
  which the service never makes, are not captured.)
- A writer thread appends them to a log segment (`log-00000001.jsonl`, ...), one JSON line per
  change `{"key": {"PK": {"S": ...}, "SK": {"S": ...}}, "item": {...attributes...} | null}`,
  written as soon as they arrive (one write per batch: a transaction's lines land together; no
  fsync: a crash of the process loses nothing written, a power cut may take the last seconds).
- Compaction never touches the emulator: the writer first moves to a new segment (changes made
  meanwhile go there), then a child process folds the snapshot and the closed segments into a new
  `snapshot.jsonl` (its first line names the last segment it holds) and deletes those segments.
  A child process, not a thread: folding hundreds of MB in Python would hold the GIL for long
  slices and every request thread would queue behind it. It runs when the log outgrows half the
  snapshot and 8 MB (or `LOCAL_STATE_COMPACT_BYTES`, when set).
- A restart loads the snapshot and replays the segments after it straight into moto's table
  (moto's own put_item checks an item's size once per attribute added, 5 ms for a document: far
  too slow for hundreds of thousands of items); a line cut short by a crash is ignored.
- A stop writes what is queued and closes the segment: a stop costs the same at any size. A
  compaction under way is abandoned (its temporary file is removed on the next start).
- State saved by earlier versions (`.local/table.json`, one JSON document) is read once and
  written as the first snapshot; the old file is renamed `table.json.converted`.
"""
from __future__ import annotations

import base64
import gc
import json
import os
import queue
import subprocess
import sys
import threading
from pathlib import Path
from typing import Any, Callable

from infra.devstack.local_state_files import (  # noqa: F401 - FORMAT and fold: the format's names, for callers of this module
    FORMAT,
    SNAPSHOT,
    change_line,
    changes,
    directory_lock,
    fold,
    fsync_directory,
    read_header,
    segment_path,
    segments,
    snapshot_through,
)

_ROOT = Path(__file__).resolve().parents[2]  # where `python -m infra.devstack.local_state_files` runs the fold
CHECK_INTERVAL_S = 5.0
COMPACT_MIN_BYTES = 8 * 1024 * 1024


# --- moto -----------------------------------------------------------------------------------------

_DynamoType: Any = None  # moto's classes, imported when first needed (the fold's child never does)
_Item: Any = None
_LimitedSizeDict: Any = None


def _moto_classes() -> None:
    global _DynamoType, _Item, _LimitedSizeDict
    from moto.dynamodb.models.dynamo_type import DynamoType, Item, LimitedSizeDict

    _DynamoType, _Item, _LimitedSizeDict = DynamoType, Item, LimitedSizeDict


def moto_table(table_name: str) -> Any:
    """The embedded moto's table of that name (whichever account and region holds it)."""
    from moto.dynamodb.models import dynamodb_backends

    for account in list(dynamodb_backends.keys()):
        for backend in list(dict.values(dynamodb_backends[account])):
            table = backend.tables.get(table_name)
            if table is not None:
                return table
    raise LookupError(f"no table {table_name!r} in the embedded moto")


def _json_safe(value: Any) -> Any:
    return base64.b64encode(value).decode("ascii") if isinstance(value, bytes) else value


def _untyped(value: Any) -> dict[str, Any]:
    """A moto DynamoType as DynamoDB JSON ({"S": ...}), nested values included."""
    kind, inner = value.type, value.value
    if kind == "M":
        inner = {name: _untyped(nested) for name, nested in inner.items()}
    elif kind == "L":
        inner = [_untyped(nested) if hasattr(nested, "type") else nested for nested in inner]
    elif isinstance(inner, list):  # SS, NS, BS
        inner = [_json_safe(member) for member in inner]
    else:
        inner = _json_safe(inner)
    return {kind: inner}


def _typed(value: dict[str, Any], _new: Any = object.__new__) -> Any:
    """DynamoDB JSON as moto's DynamoType, built without its constructor's checks."""
    for kind in value:  # the one type
        typed = _new(_DynamoType)
        typed.type = kind
        inner = value[kind]
        if kind == "M":
            inner = {name: _typed(nested) for name, nested in inner.items()}
        elif kind == "L":
            inner = [_typed(nested) for nested in inner]
        typed.value = inner
        return typed
    raise ValueError("an attribute value without a type")


def _item(hash_value: Any, range_value: Any, attributes: dict[str, Any]) -> Any:
    """A moto Item without Item(): moto's LimitedSizeDict adds up the item's size again for every
    attribute set (quadratic); the item was checked when first written. Its key objects are the
    table's dictionary keys, as moto's put_item makes them."""
    item = object.__new__(_Item)  # nor is it tracked in Item.instances_tracked
    item.hash_key, item.range_key = hash_value, range_value
    attrs = dict.__new__(_LimitedSizeDict)
    dict.update(attrs, {name: _typed(value) for name, value in attributes.items()})
    item.attrs = attrs
    return item


def _place(table: Any, key: dict[str, Any], attributes: dict[str, Any] | None) -> None:
    """Puts (or with None deletes) an item straight into moto's table."""
    hash_value = _typed(key[table.hash_key_attr])
    if table.range_key_attr is None:
        if attributes is None:
            table.items.pop(hash_value, None)
        else:
            table.items[hash_value] = _item(hash_value, None, attributes)
        return
    range_value = _typed(key[table.range_key_attr])
    if attributes is None:
        partition = table.items.get(hash_value)
        if partition is not None:
            partition.pop(range_value, None)
            if not partition:
                del table.items[hash_value]
    else:
        table.items[hash_value][range_value] = _item(hash_value, range_value, attributes)


# --- capture --------------------------------------------------------------------------------------

_sinks: dict[str, "LocalState"] = {}  # table name (and ARN) -> its persistence
_thread = threading.local()           # inside a transaction: its writes are recorded at its end
_installed = False


def install() -> None:
    """Wraps moto's backend writes (after infra/devstack/moto_speedups.install(), whose transaction calls
    self.put_item/update_item/delete_item). With no persistence started, a wrapper costs one
    dictionary lookup."""
    global _installed
    if _installed:
        return
    from moto.dynamodb.exceptions import ConditionalCheckFailed
    from moto.dynamodb.models import DynamoDBBackend

    put, update, delete = DynamoDBBackend.put_item, DynamoDBBackend.update_item, DynamoDBBackend.delete_item
    transact = DynamoDBBackend.transact_write_items

    def put_item(self: Any, table_name: str, *args: Any, **kwargs: Any) -> Any:
        item = put(self, table_name, *args, **kwargs)
        _written(table_name, item, deleted=False)
        return item

    def update_item(self: Any, table_name: str, key: dict[str, Any], *args: Any, **kwargs: Any) -> Any:
        try:
            item = update(self, table_name, key, *args, **kwargs)
        except ConditionalCheckFailed:
            raise
        except Exception:  # moto may have created the item before the expression failed
            if _sinks.get(table_name) is not None:
                _record_current(self, [(table_name, key)])
            raise
        _written(table_name, item, deleted=False)
        return item

    def delete_item(self: Any, table_name: str, *args: Any, **kwargs: Any) -> Any:
        item = delete(self, table_name, *args, **kwargs)
        if item is not None:
            _written(table_name, item, deleted=True)
        return item

    def transact_write_items(self: Any, transact_items: list[dict[str, Any]]) -> Any:
        if not _sinks or getattr(_thread, "writes", None) is not None:
            return transact(self, transact_items)
        _thread.writes = 0
        try:
            return transact(self, transact_items)
        finally:
            wrote, _thread.writes = _thread.writes, None
            if wrote:  # the items as the transaction left them (written, or put back by a rollback)
                _record_current(self, _transaction_keys(transact_items))

    DynamoDBBackend.put_item = put_item  # type: ignore[method-assign]
    DynamoDBBackend.update_item = update_item  # type: ignore[method-assign]
    DynamoDBBackend.delete_item = delete_item  # type: ignore[method-assign]
    DynamoDBBackend.transact_write_items = transact_write_items  # type: ignore[method-assign]
    _installed = True


def _written(table_name: str, item: Any, *, deleted: bool) -> None:
    sink = _sinks.get(table_name)
    if sink is None:
        return
    writes = getattr(_thread, "writes", None)
    if writes is not None:  # inside a transaction: recorded when it ends
        _thread.writes = writes + 1
        return
    try:
        key = {sink.hash_key: _untyped(item.hash_key)}
        if sink.range_key is not None:
            key[sink.range_key] = _untyped(item.range_key)
        sink.record([(key, None if deleted else {name: _untyped(value) for name, value in item.attrs.items()})])
    except Exception as error:  # noqa: BLE001 - moto made the write: the caller hears so
        sink.failed(f"a change could not be recorded: {error!r}")


def _transaction_keys(transact_items: list[dict[str, Any]]) -> list[tuple[str, dict[str, Any]]]:
    """The persisted items a transaction writes (moto wrote some: the request was well formed)."""
    keys = []
    for request in transact_items:
        operation, body = next(iter(request.items()))
        sink = _sinks.get(body.get("TableName"))
        if operation == "ConditionCheck" or sink is None:
            continue
        if operation == "Put":
            names = [sink.hash_key] + ([sink.range_key] if sink.range_key else [])
            keys.append((body["TableName"], {name: body["Item"][name] for name in names}))
        else:
            keys.append((body["TableName"], body["Key"]))
    return keys


def _record_current(backend: Any, keys: list[tuple[str, dict[str, Any]]]) -> None:
    """The items' state now, recorded together (one write to the log)."""
    by_sink: dict[int, tuple[LocalState, list[tuple[dict[str, Any], dict[str, Any] | None]]]] = {}
    for table_name, key in keys:
        sink = _sinks.get(table_name)
        if sink is None:
            continue
        try:
            current = backend.get_item(table_name, key)
            canonical = {sink.hash_key: key[sink.hash_key]}
            if sink.range_key is not None:
                canonical[sink.range_key] = key[sink.range_key]
        except Exception:  # noqa: BLE001 - a malformed key: the call itself refused it
            continue
        try:
            state = None if current is None else {name: _untyped(value) for name, value in current.attrs.items()}
        except Exception as error:  # noqa: BLE001 - moto made the write: the caller hears so
            sink.failed(f"a change could not be recorded: {error!r}")
            continue
        by_sink.setdefault(id(sink), (sink, []))[1].append((canonical, state))
    for sink, recorded in by_sink.values():
        sink.record(recorded)


# --- the persistence ------------------------------------------------------------------------------

class _Control:
    def __init__(self, action: str) -> None:
        self.action = action
        self.done = threading.Event()
        self.result: Any = None


class LocalState:
    """A table's snapshot and change log under `directory`. restore() before anything writes to
    the table, then start(); stop() on the way out."""

    def __init__(self, directory: Path, table_name: str, *, legacy_snapshot: Path | None = None,
                 compact_bytes: int | None = None, check_interval_s: float = CHECK_INTERVAL_S,
                 log: Callable[[str], None] = print) -> None:
        self.directory = Path(directory)
        self.directory.mkdir(parents=True, exist_ok=True)
        self.table_name = table_name
        self.legacy_snapshot = legacy_snapshot
        if compact_bytes is None and os.environ.get("LOCAL_STATE_COMPACT_BYTES"):
            compact_bytes = int(os.environ["LOCAL_STATE_COMPACT_BYTES"])
        self.compact_bytes = compact_bytes  # None: half the snapshot, at least COMPACT_MIN_BYTES
        self.check_interval_s = check_interval_s
        self.log = log
        self.hash_key = "PK"
        self.range_key: str | None = "SK"
        self._queue: queue.SimpleQueue[Any] = queue.SimpleQueue()
        existing = [number for number, _ in segments(self.directory)]
        self._segment = max(existing + [snapshot_through(self.directory)]) + 1
        self._descriptor: int | None = None
        self._stopping = threading.Event()
        self._compacting = threading.Lock()
        self._child: subprocess.Popen[bytes] | None = None
        self._child_lock = threading.Lock()
        self._threads: list[threading.Thread] = []
        self._names: list[str] = []
        self.errors: list[str] = []

    # restore --------------------------------------------------------------------------------------

    def restore(self, *, freeze_gc: bool = False) -> int:
        """Loads the snapshot and the log after it into moto's table (created, still empty of
        anything else); returns how many items the table holds. `freeze_gc`: the loaded items
        are never garbage, so the collector stops walking them (gc.freeze())."""
        table = moto_table(self.table_name)
        self.hash_key, self.range_key = table.hash_key_attr, table.range_key_attr
        _moto_classes()
        with directory_lock(self.directory):
            (self.directory / (SNAPSHOT + ".tmp")).unlink(missing_ok=True)  # a compaction cut short
            self._convert_legacy()
            self._load(table)
        table._index_groups = None  # the speed-ups' index view (infra/devstack/moto_speedups.py), if built
        if freeze_gc:
            gc.freeze()
        return sum(len(partition) if table.range_key_attr else 1 for partition in table.items.values())

    def _load(self, table: Any) -> None:
        enabled = gc.isenabled()
        gc.disable()  # millions of new objects: the collector would walk them again and again
        try:
            through = 0
            snapshot = self.directory / SNAPSHOT
            if snapshot.exists():
                through = read_header(snapshot)["through"]
                for key, item in changes(snapshot):  # the header is no change line
                    _place(table, key, item)
            for number, path in segments(self.directory):
                if number > through:
                    for key, item in changes(path):
                        _place(table, key, item)
        finally:
            if enabled:
                gc.enable()

    def _convert_legacy(self) -> None:
        """An earlier version's save (one JSON document) becomes the first snapshot; the file is
        kept beside it, renamed, and read no more."""
        legacy = self.legacy_snapshot
        if legacy is None or not legacy.exists():
            return
        if not (self.directory / SNAPSHOT).exists():
            items = json.loads(legacy.read_text())["items"]
            temporary = self.directory / (SNAPSHOT + ".tmp")
            with temporary.open("w", encoding="utf-8") as out:
                out.write(json.dumps({"format": FORMAT, "table": self.table_name, "through": 0}) + "\n")
                for item in items:
                    key = {self.hash_key: item[self.hash_key]}
                    if self.range_key is not None:
                        key[self.range_key] = item[self.range_key]
                    out.write(change_line(key, item))
                out.flush()
                os.fsync(out.fileno())
            temporary.replace(self.directory / SNAPSHOT)
            fsync_directory(self.directory)
            self.log(f"Converted the {len(items)} items of {legacy} to {self.directory / SNAPSHOT}")
        legacy.replace(legacy.with_name(legacy.name + ".converted"))

    # running --------------------------------------------------------------------------------------

    def start(self) -> "LocalState":
        table = moto_table(self.table_name)
        self.hash_key, self.range_key = table.hash_key_attr, table.range_key_attr
        install()
        self._names = [self.table_name, table.table_arn]
        for name in self._names:
            _sinks[name] = self
        for target, name in ((self._write_loop, "state-log"), (self._compact_loop, "state-compaction")):
            thread = threading.Thread(target=target, daemon=True, name=name)
            thread.start()
            self._threads.append(thread)
        return self

    def record(self, changes: list[tuple[dict[str, Any], dict[str, Any] | None]]) -> None:
        """Called by the hooks with the changes of one write: queued, written by the writer."""
        self._queue.put(changes)

    def failed(self, message: str) -> None:
        """A change that could not be saved: said once per kind, kept in `errors`."""
        if message not in self.errors:
            self.log(f"State: {message}")
        self.errors.append(message)

    def flush(self, timeout: float = 5.0) -> bool:
        """Waits until everything recorded so far is in the log file."""
        return self._control("flush", timeout) is not None

    def compact(self) -> dict[str, Any] | None:
        """Folds the closed log into a new snapshot (in a child process); None when there was
        nothing to fold or the stack is stopping."""
        with self._compacting:
            if self._stopping.is_set():
                return None
            through = self._control("rotate", 10.0)
            if through is None:
                return None
            folded_through = snapshot_through(self.directory)
            if not any(folded_through < number <= through for number, _ in segments(self.directory)):
                return None
            command = [sys.executable, "-m", "infra.devstack.local_state_files", "fold", str(self.directory.resolve()), str(through),
                       self.table_name]
            with self._child_lock:  # stop() kills it: no fold outlives the stack
                if self._stopping.is_set():
                    return None
                self._child = child = subprocess.Popen(command, cwd=_ROOT, stdout=subprocess.PIPE,
                                                       stderr=subprocess.PIPE)
            output, error = child.communicate()
            code = child.returncode
            with self._child_lock:
                self._child = None
            if code != 0:
                if not self._stopping.is_set():
                    self.failed(f"compaction failed (the log is kept):\n{error.decode(errors='replace')[-2000:]}")
                return None
            return json.loads(output)

    def log_bytes(self) -> int:
        total = 0
        for _, path in segments(self.directory):
            try:
                total += path.stat().st_size
            except FileNotFoundError:
                pass
        return total

    def stop(self, timeout: float = 2.0) -> bool:
        """Writes what is queued, closes the log, abandons a compaction under way. True when the
        log holds every change recorded before the call."""
        self._stopping.set()
        with self._child_lock:
            if self._child is not None:
                self._child.kill()
        written = self._control("stop", timeout) is not None
        for name in self._names:
            if _sinks.get(name) is self:
                del _sinks[name]
        return written

    def _control(self, action: str, timeout: float) -> Any:
        control = _Control(action)
        self._queue.put(control)
        if not control.done.wait(timeout):
            return None
        return control.result if control.result is not None else True

    # threads --------------------------------------------------------------------------------------

    def _write_loop(self) -> None:
        while True:
            batch = [self._queue.get()]
            while True:
                try:
                    batch.append(self._queue.get_nowait())
                except queue.Empty:
                    break
            lines: list[str] = []
            for entry in batch:
                if not isinstance(entry, _Control):
                    try:
                        lines.extend([change_line(key, item) for key, item in entry])
                    except (TypeError, ValueError) as error:  # a value JSON cannot hold
                        self.failed(f"a change could not be written: {error!r}")
                    continue
                self._append(lines)
                lines = []
                if entry.action == "rotate":
                    self._close()
                    entry.result = self._segment
                    self._segment += 1
                elif entry.action == "stop":
                    self._close()
                    entry.done.set()
                    return
                entry.done.set()
            self._append(lines)

    def _append(self, lines: list[str]) -> None:
        if not lines:
            return
        if self._descriptor is None:
            self._descriptor = os.open(segment_path(self.directory, self._segment),
                                       os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o644)
        data = "".join(lines).encode("utf-8")
        try:
            while data:
                data = data[os.write(self._descriptor, data):]
        except OSError as error:  # a full disk: say so, keep the stack serving
            self.failed(f"the log could not be written: {error!r}")

    def _close(self) -> None:
        """No fsync: written, a change survives the process whatever befalls it (a power cut may
        take the last seconds); an fsync here could wait seconds behind a fold's writing."""
        if self._descriptor is not None:
            os.close(self._descriptor)
            self._descriptor = None

    def _compact_loop(self) -> None:
        while not self._stopping.wait(self.check_interval_s):
            snapshot = self.directory / SNAPSHOT
            snapshot_bytes = snapshot.stat().st_size if snapshot.exists() else 0
            threshold = self.compact_bytes or max(COMPACT_MIN_BYTES, snapshot_bytes // 2)
            if self.log_bytes() < threshold:
                continue
            try:
                result = self.compact()
            except Exception as error:  # noqa: BLE001 - the log is kept; the next check tries again
                self.log(f"State compaction failed (the log is kept): {error!r}")
                continue
            if result:
                self.log(f"State compacted: {result['items']} items, "
                         f"{result['snapshotBytes'] / 1e6:.1f} MB, in {result['seconds']} s")
