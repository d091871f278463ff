"""Shared fixtures: a moto-backed table built from infra/deploy/resources.json, the Chalice test
client behind the local API Gateway emulation, and companies with their credentials."""
from __future__ import annotations

import json
import os
import warnings
from contextlib import contextmanager
from pathlib import Path

import boto3
import pytest
from moto import mock_aws

os.environ.update({
    "AWS_ACCESS_KEY_ID": "testing", "AWS_SECRET_ACCESS_KEY": "testing", "AWS_SESSION_TOKEN": "testing",
    "AWS_DEFAULT_REGION": "us-east-1", "AWS_REGION": "us-east-1", "TABLE_NAME": "test-business-api",
    "FILES_BUCKET": "test-business-api-files", "ATTACHMENTS_BUCKET": "test-business-api-attachments",
    # the master key secrets are sealed with in the tests (a KMS key when deployed)
    "LOCAL_SECRETS_KEY": "dGVzdHMtb25seS1zZWNyZXRzLWtleS0zMi1ieXRlcyE=",
})
for name in ("AWS_ENDPOINT_URL", "AUTH_AT_GATEWAY", "RATE_LIMIT_ENABLED", "ALLOWED_ORIGINS"):
    os.environ.pop(name, None)

from chalicelib.settings import reset_settings  # noqa: E402
from chalicelib.store import transaction  # noqa: E402
from chalicelib.store.attachments import reset_attachment_objects  # noqa: E402
from chalicelib.store.files import reset_files  # noqa: E402
from chalicelib.store.table import get_table, reset_table  # noqa: E402
from infra.deploy.resources import create_attachments_bucket, create_bucket  # noqa: E402
from infra.devstack import faithful_dynamodb, faithful_s3, memory_dynamodb, moto_speedups  # noqa: E402
from tests.support import ApiClient, CompanyFixture, make_company  # noqa: E402

warnings.filterwarnings("ignore", message=".*CustomAuthorizer.*")
pytest_plugins = ("tests.dynamodb_local",)  # --dynamodb=local: the table on DynamoDB Local


# About how long one test of each slow file takes (seconds, from a `--durations=0` run of the
# whole suite: tests/expected_seconds.json, rebuilt by `python -m infra.bench.suite_order <log>`):
# the slowest are run first, so that under `-n auto --dist worksteal` no worker is left alone with
# a long test at the end (a worker gets a contiguous half of the list and an idle one steals from
# the tail of another's). Whole files keep their tests together and in order (module fixtures, the
# browser tests' shared demo company); every other test counts 0 and keeps its place.
EXPECTED_SECONDS: dict[str, int] = json.loads((Path(__file__).parent / "expected_seconds.json").read_text())


def expected_seconds(nodeid: str) -> int:
    return EXPECTED_SECONDS.get(nodeid.split("::")[0], 0)


def pytest_collection_modifyitems(items):
    for item in items:
        if "tests/browser/" in item.path.as_posix():
            item.add_marker(pytest.mark.browser)
    items.sort(key=lambda item: -expected_seconds(item.nodeid))  # (stable: ties keep their order)


def _faithful_moto() -> None:
    """DynamoDB calls go through the faithful layer (transactions in flight conflict, faults and
    index lag can be injected: infra/devstack/faithful_dynamodb.py); other services' calls are serialized."""
    from moto.core.botocore_stubber import BotocoreStubber

    BotocoreStubber.process_request = faithful_dynamodb.serialize_other_services(BotocoreStubber.process_request)
    faithful_dynamodb.install()
    faithful_s3.install()  # presigned URLs refused as S3 does: another signed header, expired


moto_speedups.install()  # (and moto_overheads)
_faithful_moto()


# Whether the DynamoDB clients made now answer from memory (infra/devstack/memory_dynamodb.py):
# set by `table_engine` for the test (or the module's table) it serves, off otherwise.
_in_memory = {"on": False}


def _engine_client(client):
    from infra.devstack.direct_dynamodb import DirectDynamoDB
    from infra.devstack.memory_dynamodb import MemoryDynamoDB

    return MemoryDynamoDB(client) if _in_memory["on"] else DirectDynamoDB(client)


def pytest_configure(config):
    """Off DynamoDB Local, the store's DynamoDB client answers its item calls in this process: from
    memory for a test where the emulator adds nothing, else from moto's handler (infra/devstack/
    direct_dynamodb.py); on DynamoDB Local every call goes through botocore."""
    from chalicelib.store.table import serve_in_process
    from tests.dynamodb_local import on_dynamodb_local

    serve_in_process("dynamodb", None if on_dynamodb_local(config) else _engine_client)


def _compiled_catalogues() -> None:
    """The gettext catalogues as `make` compiles them (make messages), for a pytest run without make."""
    from babel.messages.mofile import write_mo
    from babel.messages.pofile import read_po

    from chalicelib.messages.catalogues import LOCALES
    for source in LOCALES.glob("*/LC_MESSAGES/*.po"):
        compiled = source.with_suffix(".mo")
        if not compiled.exists() or compiled.stat().st_mtime < source.stat().st_mtime:
            with source.open("rb") as po, compiled.open("wb") as mo:
                write_mo(mo, read_po(po))


_compiled_catalogues()


@pytest.fixture(scope="session", autouse=True)
def dte_authority_server():
    """El Salvador's tax authority, played by the stand-in (infra/devstack/dte_authority.py) on a port of
    this worker's own: the service's transmitter speaks HTTP to it."""
    from infra.devstack.dte_authority import StandInAuthority, serve

    authority = StandInAuthority()
    server, url = serve(authority)
    os.environ.update({"DTE_AUTHORITY_URL": url, "DTE_AUTHORITY_BACKOFF_S": "0", "DTE_AUTHORITY_TIMEOUT_S": "5"})
    yield authority
    server.shutdown()


@pytest.fixture
def dte_authority(dte_authority_server):
    """The stand-in, answering normally again after the test whatever faults it set."""
    dte_authority_server.reset_faults()
    yield dte_authority_server
    dte_authority_server.reset_faults()


@pytest.fixture(scope="session", autouse=True)
def gateway_standin_servers():
    """PixelPay and Wompi, played by their stand-ins (infra/devstack/pixelpay_standin.py,
    wompi_standin.py) on ports of this worker's own: the adapters speak HTTP to them."""
    from infra.devstack import pixelpay_standin, wompi_standin

    pixelpay, wompi = pixelpay_standin.StandInPixelPay(), wompi_standin.StandInWompi()
    pixelpay_server, pixelpay_url = pixelpay_standin.serve(pixelpay)
    wompi_server, wompi_url = wompi_standin.serve(wompi)
    os.environ.update({"PIXELPAY_URL": pixelpay_url, "PIXELPAY_SANDBOX_URL": pixelpay_url,
                       "WOMPI_API_URL": wompi_url, "WOMPI_ID_URL": wompi_url, "GATEWAY_TIMEOUT_S": "2",
                       "API_BASE_URL": "https://api.example.test"})
    yield pixelpay, wompi
    pixelpay_server.shutdown()
    wompi_server.shutdown()


def _answering_normally(standin):
    standin.reset_faults()
    yield standin
    standin.reset_faults()


@pytest.fixture
def pixelpay(gateway_standin_servers):
    """The PixelPay stand-in, answering normally again after the test whatever faults it set."""
    yield from _answering_normally(gateway_standin_servers[0])


@pytest.fixture
def wompi(gateway_standin_servers):
    """The Wompi stand-in, answering normally again after the test whatever faults it set."""
    yield from _answering_normally(gateway_standin_servers[1])


@pytest.fixture
def later(monkeypatch):
    """Moves the clock (the service's and the stand-in authority's) this many hours past now: the
    hourly runs of El Salvador's DTEs (retries, contingency, lots) as time passes."""
    import datetime as dt

    from chalicelib import clock

    start = clock.now()

    def move(hours: float) -> None:
        moment = start + dt.timedelta(hours=hours)
        monkeypatch.setattr(clock, "now", lambda: moment)
    return move


def _faults_unreachable(*_, **__):
    pytest.fail("this test injects faults or index lag, which reach only moto: mark it "
                "`emulator` (its table is then moto's, not the in-memory engine's)")


@contextmanager
def table_engine(node: pytest.Item | pytest.Module, monkeypatch: pytest.MonkeyPatch, *, on_dynamodb_local: bool):
    """The in-memory engine for the DynamoDB clients made inside, unless the test (or module) needs the
    emulator or the table is DynamoDB Local's (tests/dynamodb_local.serves_from_memory)."""
    from tests.dynamodb_local import serves_from_memory

    _in_memory["on"] = not on_dynamodb_local and serves_from_memory(node)
    if _in_memory["on"]:
        for hook in ("inject", "configure", "control_time"):  # (`behaving` goes through `configure`)
            monkeypatch.setattr(faithful_dynamodb, hook, _faults_unreachable)
    try:
        yield
    finally:
        _in_memory["on"] = False


@pytest.fixture
def aws(request, monkeypatch, dynamodb_table):
    reset_settings()
    reset_table()
    reset_files()
    reset_attachment_objects()
    faithful_dynamodb.reset()
    memory_dynamodb.reset()
    transaction.forget_contention()  # counters of an earlier test's table, same names
    with table_engine(request.node, monkeypatch, on_dynamodb_local=dynamodb_table.endpoint is not None), \
            mock_aws():
        dynamodb_table.create()
        yield
    faithful_dynamodb.reset()
    memory_dynamodb.reset()
    reset_settings()
    reset_table()
    reset_files()
    reset_attachment_objects()


@pytest.fixture
def files_bucket(aws):
    """The files bucket (uploaded imports, company exports), for the tests that need it: an S3 client
    costs ~40 ms to make, too much for every test of the suite."""
    create_bucket(boto3.client("s3"), os.environ["FILES_BUCKET"])


@pytest.fixture
def attachments_bucket(aws):
    """The attachments bucket (issue 44), as the template makes it, for the tests that need it."""
    create_attachments_bucket(boto3.client("s3"), os.environ["ATTACHMENTS_BUCKET"], ["http://127.0.0.1:8000"])


@pytest.fixture
def table(aws):
    return get_table()


@pytest.fixture
def api(aws):
    from app import app
    return ApiClient(app)


@pytest.fixture
def company_a(table) -> CompanyFixture:
    return make_company(table, "Alpha S. de R.L.", "owner@alpha.hn")


@pytest.fixture
def company_b(table) -> CompanyFixture:
    return make_company(table, "Beta S.A.", "owner@beta.hn")


@pytest.fixture
def settings_env(monkeypatch):
    """Set environment variables for one test and re-read the settings."""
    def apply(**values: str) -> None:
        for name, value in values.items():
            monkeypatch.setenv(name, value)
        reset_settings()
    yield apply
    reset_settings()


@pytest.fixture
def ses(aws):
    """moto's SES with the configured sender verified; its captured messages."""
    from moto.core import DEFAULT_ACCOUNT_ID
    from moto.ses.models import ses_backends

    from chalicelib.events import mail
    from chalicelib.settings import get_settings
    from infra.deploy.resources import verify_mail_sender

    mail.reset_mailer()
    region = os.environ["AWS_REGION"]
    verify_mail_sender(boto3.client("ses", region_name=region), get_settings().mail_from)
    yield ses_backends[DEFAULT_ACCOUNT_ID][region].sent_messages
    mail.reset_mailer()
