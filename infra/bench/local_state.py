"""The local stack's persistence (infra/devstack/local_state.py) at 100,000 documents.

A state is made as a user's would be: a fresh stack's own (its demo company, credentials, the
migrations recorded), then a snapshot written straight to disk as the stack writes it, with each
document as five items shaped as the service stores them (the document with its three lines, its
journal entry, three ledger postings; about 4.7 KB together). Then:

1. Restore: the snapshot loaded into the embedded moto (in a fresh interpreter): time, memory.
2. Compaction under reads: that moto served over HTTP as the stack serves it (infra/devstack/local.py's
   start_moto), a log written through it (`changed_documents` documents again, BatchWriteItem),
   then one compaction while a thread reads single documents (GetItem over HTTP) back to back:
   latency percentiles and the longest call during the compaction and in the seconds before.
3. The real stack (`python -m infra.devstack.local` in a subprocess) on that state: time to ready, then
   SIGTERM-to-exit right after a write, then (restarted, the write found) SIGTERM-to-exit while
   a compaction runs (forced with LOCAL_STATE_COMPACT_BYTES=1); a last restart finds everything.
4. For comparison, the save this replaced, at `legacy_documents` (4,000: about the 17 MB that
   stalled): the whole table scanned through moto and written as one JSON document, with the same
   reading thread."""
from __future__ import annotations

import json
import os
import resource
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

from infra.bench.common import ROOT

TABLE = "business-api-local"
COMPANY = 1


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def _s(value: str) -> dict[str, str]:
    return {"S": value}


def _n(value: Any) -> dict[str, str]:
    return {"N": str(value)}


def document_items(document_id: int, day: str, partner_id: int) -> list[dict[str, Any]]:
    """One confirmed sales invoice as the service stores it: the document (three lines), its
    journal entry and the entry's three postings."""
    number = f"001-001-01-{document_id:08d}"
    sort = f"{day}#{document_id:012d}"
    stamp = _s(f"{day}T15:00:00.000Z")
    lines = [{"M": {"productId": _n(2 + n), "description": _s(f"Servicio de instalaci\u00f3n {n}"),
                    "quantity": _n(n + 1), "unitPrice": _n(100 - 10 * n), "discount": _n("0.00"),
                    "taxRate": _n("0.15"), "taxTreatment": _s("taxed"), "subtotal": _n("100.00"),
                    "tax": _n("15.00"), "total": _n("115.00")}} for n in range(3)]
    document = {
        "PK": _s(f"C#{COMPANY}#DOC#{document_id}"), "SK": _s("DOC"), "itemType": _s("DOC"), "id": _n(document_id),
        "type": _s("01"), "status": _s("confirmed"), "businessPartnerId": _n(partner_id), "date": _s(day),
        "dueDate": _s(day), "branchId": _n(1), "warehouseId": _n(1), "currency": _s("HNL"), "exchangeRate": _n(1),
        "baseTotal": _n("345.00"), "lines": {"L": lines}, "subtotal": _n("300.00"), "taxTotal": _n("45.00"),
        "total": _n("345.00"), "taxBases": {"M": {"0.15": _n("300.00")}}, "paidTotal": _n("0.00"),
        "pending": _n("345.00"), "number": _s(number),
        "cai": {"M": {"cai": _s("35A4E1-6C8E5B-2F49A3-0C6F26-2C3E5A-0A"), "rangeId": _n(1),
                      "emissionPoint": _s("001"), "rangeStart": _s("001-001-01-00000001"),
                      "rangeEnd": _s("001-001-01-01000000"), "deadline": _s("2099-12-31")}},
        "version": _n(1), "createdAt": stamp, "updatedAt": stamp, "confirmedAt": stamp,
        "journalEntryId": _n(document_id), "stockMoves": {"L": []}, "basePending": _n("345.00"),
        "GSI1PK": _s(f"C#{COMPANY}#DOC"), "GSI1SK": _s(sort), "GSI2PK": _s(f"C#{COMPANY}#BPDOC#{partner_id}"),
        "GSI2SK": _s(sort)}
    postings = [(5, "345.00", "0.00"), (11, "0.00", "300.00"), (10, "0.00", "45.00")]
    entry = {
        "PK": _s(f"C#{COMPANY}#JE#{document_id}"), "SK": _s("JE"), "GSI1PK": _s(f"C#{COMPANY}#JE"), "GSI1SK": _s(sort),
        "itemType": _s("JE"), "id": _n(document_id), "date": _s(day), "description": _s(f"Factura {number}"),
        "status": _s("posted"), "entryType": _s("automatic"),
        "lines": {"L": [{"M": {"chartOfAccountId": _n(account), "debit": _n(debit), "credit": _n(credit),
                               "lineDescription": {"NULL": True}}} for account, debit, credit in postings]},
        "totalDebit": _n("345.00"), "totalCredit": _n("345.00"),
        "source": {"M": {"type": _s("document"), "id": _n(document_id), "documentType": _s("01")}},
        "version": _n(1), "createdAt": stamp, "updatedAt": stamp, "postedAt": stamp}
    return [document, entry] + [
        {"PK": _s(f"C#{COMPANY}#ACCT#{account}"), "SK": _s(f"P#{day}#{document_id:012d}#{line:03d}"),
         "itemType": _s("POSTING"), "accountId": _n(account), "date": _s(day), "journalEntryId": _n(document_id),
         "line": _n(line), "entryType": _s("automatic"), "description": _s(f"Factura {number}"),
         "debit": _n(debit), "credit": _n(credit)}
        for line, (account, debit, credit) in enumerate(postings)]


def _day(document_id: int) -> str:
    import datetime

    return (datetime.date(2025, 1, 1) + datetime.timedelta(days=document_id % 365)).isoformat()


def write_state(directory: Path, documents: int) -> dict[str, Any]:
    """A snapshot as the stack writes it, holding `documents` documents' items."""
    from infra.devstack.local_state import FORMAT, SNAPSHOT, change_line

    started = time.perf_counter()
    directory.mkdir(parents=True, exist_ok=True)
    items = 0
    with (directory / SNAPSHOT).open("w", encoding="utf-8") as out:
        out.write(json.dumps({"format": FORMAT, "table": TABLE, "through": 0}) + "\n")
        for document_id in range(1, documents + 1):
            for item in document_items(document_id, _day(document_id), 1 + document_id % 500):
                out.write(change_line({"PK": item["PK"], "SK": item["SK"]}, item))
                items += 1
    return {"documents": documents, "items": items, "snapshotMB": round((directory / SNAPSHOT).stat().st_size / 1e6, 1),
            "writeS": round(time.perf_counter() - started, 1)}


def _rss_mb() -> float:
    return round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, 0)


def _percentiles(samples: list[float]) -> dict[str, Any]:
    if not samples:
        return {"calls": 0}
    ordered = sorted(samples)
    return {"calls": len(ordered), "p50Ms": round(statistics.median(ordered) * 1000, 2),
            "p99Ms": round(ordered[min(len(ordered) - 1, int(len(ordered) * 0.99))] * 1000, 2),
            "maxMs": round(ordered[-1] * 1000, 2)}


class _Reader:
    """A thread reading single documents over HTTP back to back: (started, seconds) per call."""

    def __init__(self, client: Any, documents: int) -> None:
        self.client, self.documents = client, documents
        self.calls: list[tuple[float, float]] = []
        self.stop = threading.Event()
        self.thread = threading.Thread(target=self._run, daemon=True)

    def _run(self) -> None:
        n = 0
        while not self.stop.is_set():
            n = (n * 7919 + 1) % self.documents
            started = time.perf_counter()
            answer = self.client.get_item(TableName=TABLE, Key={"PK": _s(f"C#{COMPANY}#DOC#{n + 1}"), "SK": _s("DOC")})
            self.calls.append((started, time.perf_counter() - started))
            assert "Item" in answer

    def between(self, start: float, end: float) -> list[float]:
        """The calls that ran at some point of [start, end]."""
        return [seconds for started, seconds in self.calls if started < end and started + seconds > start]


def _moto_over_http() -> tuple[Any, Any, int]:
    """This process's moto served over HTTP as the stack serves it, with the stack's table."""
    import boto3

    os.environ.update({"AWS_ACCESS_KEY_ID": "bench", "AWS_SECRET_ACCESS_KEY": "bench", "AWS_DEFAULT_REGION": "us-east-1"})
    from infra.deploy.resources import create_table
    from infra.devstack.local import start_moto

    port = _free_port()
    server, _ = start_moto(port)
    client = boto3.client("dynamodb", endpoint_url=f"http://127.0.0.1:{port}", region_name="us-east-1")
    create_table(client, TABLE)
    return server, client, port


def _reads_during(port: int, documents: int, work: Any, quiet_s: float = 4.0) -> dict[str, Any]:
    """GetItem latency of a reading thread over `quiet_s` before `work()` and while it runs."""
    import boto3

    reader = _Reader(boto3.client("dynamodb", endpoint_url=f"http://127.0.0.1:{port}", region_name="us-east-1"),
                     documents)
    reader.thread.start()
    time.sleep(1)
    quiet_start = time.perf_counter()
    time.sleep(quiet_s)
    work_start = time.perf_counter()
    result = work()
    work_end = time.perf_counter()
    reader.stop.set()
    reader.thread.join()
    return {"result": result, "wallS": round(work_end - work_start, 2),
            "getItemBefore": _percentiles(reader.between(quiet_start, work_start)),
            "getItemDuring": _percentiles(reader.between(work_start, work_end))}


def in_process(directory: str | Path, documents: int, changed_documents: int) -> dict[str, Any]:
    """Restore into this process's moto, then a compaction while a thread reads over HTTP."""
    from infra.devstack.local_state import LocalState
    from infra.ops.table_io import write_batches

    server, client, port = _moto_over_http()
    state = LocalState(Path(directory), TABLE, log=lambda _: None, check_interval_s=3600)
    before = _rss_mb()
    started = time.perf_counter()
    items = state.restore(freeze_gc=True)
    restore_s = time.perf_counter() - started
    figures: dict[str, Any] = {"restore": {"items": items, "seconds": round(restore_s, 1),
                                           "itemsPerSecond": round(items / restore_s),
                                           "rssGrowthMB": _rss_mb() - before}}
    state.start()
    try:
        # a log to fold: `changed_documents` documents written again through moto (BatchWriteItem)
        requests = [{"PutRequest": {"Item": {**item, "version": _n(2)}}}
                    for document_id in range(1, changed_documents + 1)
                    for item in document_items(document_id, _day(document_id), 1 + document_id % 500)]
        started = time.perf_counter()
        write_batches(client, TABLE, requests)
        assert state.flush(30)
        figures["log"] = {"changes": len(requests), "bytes": state.log_bytes(),
                          "batchWriteItemsPerSecond": round(len(requests) / (time.perf_counter() - started))}
        measured = _reads_during(port, documents, state.compact)
        figures["compaction"] = {**(measured.pop("result") or {}), **measured}
    finally:
        state.stop()
        server.shutdown()
    return figures


def legacy_save(documents: int) -> dict[str, Any]:
    """The save this persistence replaced, for comparison: the whole table scanned through moto
    (each page under the emulator's lock) and written as one JSON document."""
    from infra.devstack.local_state import LocalState
    from infra.ops.table_io import scan_items

    server, client, port = _moto_over_http()
    with tempfile.TemporaryDirectory(prefix="bench-legacy-") as scratch:
        write_state(Path(scratch), documents)
        LocalState(Path(scratch), TABLE, log=lambda _: None).restore(freeze_gc=True)

        def save() -> int:
            items = list(scan_items(client, TABLE))
            (Path(scratch) / "table.json").write_text(json.dumps({"table": TABLE, "items": items}))
            return len(items)

        measured = _reads_during(port, documents, save)
    server.shutdown()
    return {"documents": documents, "items": measured.pop("result"), **measured}


class _Stack:
    def __init__(self, state_dir: Path, env: dict[str, str] | None = None) -> None:
        self.port, self.moto_port = _free_port(), _free_port()
        self.state_dir = state_dir
        environment = {**{k: v for k, v in os.environ.items() if not k.startswith("AWS_") and k != "TABLE_NAME"},
                       **(env or {})}
        self.log_path = state_dir.parent / f"stack-{self.port}.log"
        self.log = self.log_path.open("w")
        self.started = time.perf_counter()
        self.process = subprocess.Popen(
            [sys.executable, "-m", "infra.devstack.local", "--port", str(self.port), "--moto-port", str(self.moto_port),
             "--dte-authority-port", str(_free_port()), "--pixelpay-port", str(_free_port()),
             "--wompi-port", str(_free_port()), "--state-dir", str(state_dir)],
            cwd=ROOT, env=environment, stdout=self.log, stderr=subprocess.STDOUT)

    def wait_ready(self, timeout: float = 600) -> float:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError("the stack exited:\n" + self.log_path.read_text()[-3000:])
            if "Local stack ready" in self.log_path.read_text():
                return round(time.perf_counter() - self.started, 1)
            time.sleep(0.1)
        raise RuntimeError("the stack did not start:\n" + self.log_path.read_text()[-3000:])

    def client(self) -> Any:
        import boto3

        return boto3.client("dynamodb", endpoint_url=f"http://127.0.0.1:{self.moto_port}", region_name="us-east-1",
                            aws_access_key_id="local", aws_secret_access_key="local")

    def terminate(self) -> float:
        started = time.perf_counter()
        self.process.send_signal(signal.SIGTERM)
        try:
            code = self.process.wait(timeout=60)
        except subprocess.TimeoutExpired:
            self.process.kill()
            raise RuntimeError("the stack did not stop within 60 s") from None
        elapsed = round(time.perf_counter() - started, 2)
        if code != 0:
            raise RuntimeError(f"the stack exited with {code}:\n" + self.log_path.read_text()[-3000:])
        return elapsed


def real_stack(state_dir: Path, documents: int) -> dict[str, Any]:
    figures: dict[str, Any] = {}
    marker = {"PK": _s("BENCH#SIGTERM"), "SK": _s("MARK")}
    stack = _Stack(state_dir)
    try:
        figures["readyS"] = stack.wait_ready()
        stack.client().put_item(TableName=TABLE, Item={**marker, "written": _s("just before the SIGTERM")})
    finally:
        figures["sigtermToExitIdleS"] = stack.terminate()

    # again, with a compaction forced (a threshold of one byte): SIGTERM while it runs
    stack = _Stack(state_dir, env={"LOCAL_STATE_COMPACT_BYTES": "1"})
    try:
        figures["readyAgainS"] = stack.wait_ready()
        found = stack.client().get_item(TableName=TABLE, Key=marker).get("Item")
        figures["itemWrittenJustBeforeSigtermFound"] = found is not None
        temporary = state_dir / "table" / "snapshot.jsonl.tmp"
        deadline = time.monotonic() + 60
        while not temporary.exists() and time.monotonic() < deadline:
            time.sleep(0.02)
        figures["compactionRunningAtSigterm"] = temporary.exists()
    finally:
        figures["sigtermToExitDuringCompactionS"] = stack.terminate()
    stack = _Stack(state_dir)
    try:
        stack.wait_ready()
        client = stack.client()
        figures["allFoundAfterTheCompactionWasKilled"] = all(
            "Item" in client.get_item(TableName=TABLE, Key=key) for key in (
                marker, {"PK": _s(f"C#{COMPANY}#DOC#{documents}"), "SK": _s("DOC")}))
    finally:
        stack.terminate()
    return figures


def local_state_figures(documents: int = 100_000, changed_documents: int = 1_000,
                        legacy_documents: int = 4_000) -> dict[str, Any]:
    with tempfile.TemporaryDirectory(prefix="bench-local-state-") as scratch:
        state_dir = Path(scratch) / "state"
        state_dir.mkdir()
        # a stack's own state first (its demo company, credentials, migrations done), then the documents
        stack = _Stack(state_dir)
        try:
            empty = {"readyS": stack.wait_ready()}
        finally:
            empty["sigtermToExitS"] = stack.terminate()
        figures: dict[str, Any] = {"emptyStack": empty, "state": write_state(state_dir / "table", documents)}
        figures.update(_in_subprocess("in_process", state_dir / "table", documents, changed_documents))
        figures["stack"] = real_stack(state_dir, documents)
    figures["legacySave"] = _in_subprocess("legacy_save", legacy_documents)
    return figures


def _in_subprocess(function: str, *args: Any) -> dict[str, Any]:
    """A part run in a fresh interpreter: its memory figure is its own, and the bench's process
    does not keep a moto of hundreds of thousands of items."""
    code = (f"import json, sys; from infra.bench.local_state import {function}; "
            f"print(json.dumps({function}(*json.loads(sys.argv[1]))))")
    arguments = json.dumps([str(arg) if isinstance(arg, Path) else arg for arg in args])
    done = subprocess.run([sys.executable, "-c", code, arguments], cwd=ROOT, capture_output=True, text=True)
    if done.returncode != 0:
        raise RuntimeError(done.stderr[-3000:])
    return json.loads(done.stdout.strip().splitlines()[-1])
