"""The local stack, in one process: an embedded moto (DynamoDB with its stream, SQS, SES,
EventBridge) behind the faithful DynamoDB layer (infra/devstack/faithful_dynamodb.py), the resources of infra/deploy/resources.json, the
API on http://127.0.0.1:8000 behind the same gateway emulation the tests use, pollers that
play the AWS event sources, a stand-in for El Salvador's tax authority on :8002
(infra/devstack/dte_authority.py; not started when DTE_AUTHORITY_URL names another), and the card
gateways' on :8003 (PixelPay) and :8004 (Wompi) (not started when PIXELPAY_URL / WOMPI_API_URL name others). State survives a
restart under .local/ (`--fresh` wipes it): the table as a snapshot and a log of its changes
(infra/devstack/local_state.py). DEVSTACK_NOW=2027-06-15 starts its clock on another day
(infra/devstack/shifted_clock.py). A fresh state starts with a demo user owning two companies, the Honduran
one and El Salvador's (infra/devstack/sv_demo.py); .local/credentials.json holds their API keys.

    python -m infra.devstack.local [--fresh] [--port 8000] [--moto-port 8001] [--dte-authority-port 8002]
                          [--pixelpay-port 8003] [--wompi-port 8004]
                          [--state-dir .local]
"""
from __future__ import annotations

import argparse
import base64
import json
import logging
import os
import secrets
import shutil
import signal
import sys
import threading
import time
import warnings
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
TABLE_NAME = "business-api-local"
QUEUE_PREFIX = "local"
DEMO_EMAIL = "demo@example.com"
DEMO_COMPANY = "Demo Company S. de R.L."
# a message becomes receivable: sent, or its visibility timeout changed (a retry's back-off)
_SQS_SENDS = ("SendMessage", "SendMessageBatch", "ChangeMessageVisibility", "ChangeMessageVisibilityBatch")


class EmulatedAws:
    """moto's WSGI app as the stack serves it: DynamoDB calls through the faithful layer
    (concurrent, transactions in flight conflict as DynamoDB's do), every other service's call
    whole under the emulator's lock (moto is not thread-safe); and the pollers woken by messages
    sent and by the table's stream records (wherever the write came from)."""

    def __init__(self, app: Any) -> None:
        from infra.devstack.pollers import Wakeups, wake_on_stream_records

        self.app = app
        self.wakeups = Wakeups()
        wake_on_stream_records(self.wakeups)

    def __call__(self, environ: dict[str, Any], start_response: Any) -> list[bytes]:
        from infra.devstack.faithful_dynamodb import emulator_lock

        target = environ.get("HTTP_X_AMZ_TARGET", "")
        if target.startswith("DynamoDB_"):
            body = self._serve(environ, start_response)
        else:
            with emulator_lock:
                body = self._serve(environ, start_response)
        if target.startswith("AmazonSQS.") and target.endswith(_SQS_SENDS):
            self.wakeups.notify("sqs")
        return [body]

    def _serve(self, environ: dict[str, Any], start_response: Any) -> bytes:
        result = self.app(environ, start_response)
        try:
            return b"".join(result)
        finally:
            if hasattr(result, "close"):
                result.close()


def start_moto(port: int) -> tuple[Any, EmulatedAws]:
    from moto.moto_server.werkzeug_app import DomainDispatcherApplication, MotoRequestHandler, create_backend_app

    from infra.devstack import faithful_dynamodb, faithful_s3, moto_overheads, moto_speedups
    moto_speedups.install()
    faithful_dynamodb.install()
    faithful_s3.install()
    moto_overheads.list_moto_modules_once()
    from werkzeug.serving import make_server

    logging.getLogger("werkzeug").setLevel(logging.WARNING)  # one line per moto call is noise
    app = EmulatedAws(DomainDispatcherApplication(create_backend_app))
    server = make_server("127.0.0.1", port, app, threaded=True, request_handler=MotoRequestHandler)
    threading.Thread(target=server.serve_forever, daemon=True, name="moto").start()
    return server, app


def configure_environment(port: int, moto_port: int) -> None:
    defaults = {
        "AWS_ACCESS_KEY_ID": "local", "AWS_SECRET_ACCESS_KEY": "local", "AWS_DEFAULT_REGION": "us-east-1",
        "AWS_REGION": "us-east-1", "TABLE_NAME": TABLE_NAME, "STAGE": "local",
        "ALLOW_INSECURE_WEBHOOKS": "1", "WEBHOOK_BACKOFF_BASE_S": "1",
        "ALLOWED_ORIGINS": f"http://localhost:{port},http://127.0.0.1:{port}",
        # invitation e-mails go to moto's SES: their links are printed to this stack's output
        "APP_BASE_URL": f"http://127.0.0.1:{port}", "LOG_INVITATION_LINKS": "1",
        # embedded metrics are for CloudWatch: here they would only crowd the output
        "METRICS_ENABLED": "0",
    }
    for name, value in defaults.items():
        os.environ.setdefault(name, value)
    os.environ["AWS_ENDPOINT_URL"] = f"http://127.0.0.1:{moto_port}"
    os.environ.pop("AUTH_AT_GATEWAY", None)  # the local stack always authenticates itself


def local_secrets_key(state: Path) -> str:
    """The local stack's master key for sealed secrets (a KMS key when deployed), kept with its
    state so that what it sealed opens after a restart."""
    path = state / "secrets.key"
    if not path.exists():
        path.write_text(base64.b64encode(os.urandom(32)).decode("ascii"))
        path.chmod(0o600)
    return path.read_text().strip()


# --- state ----------------------------------------------------------------------------------------

def migrate_once(record: Path, restored: int, persistence: Any) -> None:
    """Brings state saved by an earlier version of the code up to date (infra/ops/migrations.py), each
    migration once per state: each scans the whole table through moto, whose Scan sorts the table
    again for every page (about 50 s in all for 17 MB, hours at 100,000 documents). A table
    restored empty is written by this code and needs none. `python -m infra.ops.admin migrate` runs
    them all again."""
    from chalicelib.store.table import get_table
    from infra.ops.migrations import MIGRATIONS

    migrations = [migration for _, migration in MIGRATIONS]
    applied = set(json.loads(record.read_text())) if record.exists() else set()
    for migration in migrations:
        if restored and migration.__name__ not in applied:
            migration(get_table())
    persistence.flush()  # their changes in the log before they are recorded as done
    record.write_text(json.dumps(sorted(applied | {migration.__name__ for migration in migrations}), indent=2))


def seed_demo(base_url: str) -> dict[str, Any]:
    from chalicelib.services.identity import accounts, api_keys
    from chalicelib.store.table import get_table

    table = get_table()
    password = secrets.token_urlsafe(12)
    user = accounts.find_user_by_email(table, DEMO_EMAIL)
    if user is None:
        user = accounts.create_user(table, DEMO_EMAIL, password, name="Demo Owner")
    else:  # the credentials file was lost but the data was not: give the user a new password
        from chalicelib.auth.secrets import hash_password
        from chalicelib.store import keys
        from chalicelib.store.transaction import Transaction
        Transaction(table).update(keys.user(user["id"]), "SET passwordHash = :h",
                                  values={":h": hash_password(password)}).commit()
    company = accounts.create_company(table, user["id"], {"name": DEMO_COMPANY, "country": "HN",
                                                          "taxId": "08019999000001"})
    import_default_chart(company["id"])
    item, secret, transaction = api_keys.issue_key(table, company["id"], user["id"], "Local demo key")
    transaction.commit()
    return {"baseUrl": base_url, "companyId": company["id"], "apiKey": f"{item['id']}:{secret}",
            "email": DEMO_EMAIL, "password": password}


def seed_sv_demo(app: Any, email: str, authority: Any) -> dict[str, Any] | None:
    """El Salvador's demo company (infra/devstack/sv_demo.py), owned by the demo user, registered at the
    stand-in authority this stack runs, or at the one DTE_AUTHORITY_URL names when it takes
    registrations as the stand-in does."""
    from chalicelib.services.identity import accounts
    from chalicelib.store.table import get_table
    from infra.devstack import sv_demo
    from infra.devstack.dte_authority import register_taxpayer

    user = accounts.find_user_by_email(get_table(), email)
    if user is None:
        return None
    url = os.environ["DTE_AUTHORITY_URL"]

    def register(nit: str, password: str, public_key: str) -> None:
        if authority is not None:
            authority.register(nit, password, public_key)
            return
        try:
            register_taxpayer(url, nit, password, public_key)
        except Exception as error:  # noqa: BLE001 - the real authority registers at its portal
            print(f"The El Salvador demo company could not be registered at {url} ({error!r}): register "
                  f"NIT {nit} there to issue its DTEs.", flush=True)

    return sv_demo.seed(app, int(user["id"]), register)


def start_card_gateways(pixelpay_port: int, wompi_port: int, base_url: str) -> dict[str, Any]:
    """PixelPay and Wompi played by their stand-ins (issue 43), unless PIXELPAY_URL / WOMPI_API_URL
    name others; they post their notifications to this stack's API."""
    from infra.devstack import pixelpay_standin, wompi_standin

    os.environ.setdefault("API_BASE_URL", base_url)
    started: dict[str, Any] = {}
    if not os.environ.get("PIXELPAY_URL"):
        standin = pixelpay_standin.StandInPixelPay()
        _, url = pixelpay_standin.serve(standin, pixelpay_port)
        os.environ.update({"PIXELPAY_URL": url, "PIXELPAY_SANDBOX_URL": url})
        started["pixelpay"] = {"name": "PixelPay", "standin": standin, "url": url}
    if not os.environ.get("WOMPI_API_URL"):
        standin = wompi_standin.StandInWompi()
        _, url = wompi_standin.serve(standin, wompi_port)
        os.environ.update({"WOMPI_API_URL": url, "WOMPI_ID_URL": url})
        started["wompi"] = {"name": "Wompi", "standin": standin, "url": url}
    return started


def seed_card_gateways(app: Any, credentials: dict[str, Any], started: dict[str, Any]) -> None:
    """The Honduran demo collects through PixelPay (its public sandbox keys), El Salvador's through
    Wompi (an app the stand-in registers, its keys kept in the credentials file: the stand-in
    forgets them when the stack stops). Once per state; the stand-ins learn the keys at each start."""
    from infra.devstack import gateway_demo

    wompi_keys = credentials.get("sv", {}).get("wompi") or {"keyId": "demo-app-" + secrets.token_hex(4),
                                                            "secret": secrets.token_urlsafe(24)}
    if "wompi" in started:
        started["wompi"]["standin"].register(wompi_keys["keyId"], wompi_keys["secret"])
    if "pixelpay" not in credentials:
        credentials["pixelpay"] = gateway_demo.seed(app, credentials["apiKey"], "pixelpay",
                                                    gateway_demo.PIXELPAY_SANDBOX)
    if credentials.get("sv") and "wompiGateway" not in credentials["sv"]:
        credentials["sv"]["wompi"] = wompi_keys
        credentials["sv"]["wompiGateway"] = gateway_demo.seed(app, credentials["sv"]["apiKey"], "wompi", wompi_keys)


def import_default_chart(company_id: int) -> None:
    """The demo company starts with the standard Honduran chart and its determination rules."""
    from chalicelib.services.accounting.default_chart import import_default_chart as import_chart
    from chalicelib.store.table import get_table

    _, rules = import_chart(get_table(), company_id)
    rules.commit()


# --- HTTP -----------------------------------------------------------------------------------------

def make_handler(gateway: Any) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"
        # The head and the body go out in two writes: with Nagle's algorithm the body waited for the
        # client's delayed ACK of the head, 40 ms per answer on a kept-alive connection (a browser's)
        disable_nagle_algorithm = True

        def _serve(self) -> None:
            length = int(self.headers.get("Content-Length") or 0)
            body = self.rfile.read(length) if length else b""
            headers = {name.lower(): value for name, value in self.headers.items()}
            response = gateway.handle(self.command, self.path, headers, body)
            payload = response.get("body") or b""
            if isinstance(payload, str):
                payload = base64.b64decode(payload) if response.get("isBase64Encoded") else payload.encode()
            self.send_response(response["statusCode"])
            for name, value in (response.get("headers") or {}).items():
                if name.lower() != "content-length":
                    self.send_header(name, value)
            for name, values in (response.get("multiValueHeaders") or {}).items():
                for value in values:
                    self.send_header(name, value)
            self.send_header("Content-Length", str(len(payload)))
            self.end_headers()
            self.wfile.write(payload)

        def __getattr__(self, name: str) -> Any:
            # every method (TRACE, QUERY, ...) reaches the gateway emulation, which answers an
            # unknown one as API Gateway does, in JSON
            if name.startswith("do_"):
                return self._serve
            raise AttributeError(name)

        def log_message(self, format: str, *args: Any) -> None:
            sys.stderr.write(f"{self.address_string()} {format % args}\n")

    return Handler


class LocalHttpServer(ThreadingHTTPServer):
    # the default backlog of 5 resets a burst of simultaneous clients before they are accepted
    request_queue_size = 128


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--fresh", action="store_true", help="wipe the saved state first")
    parser.add_argument("--port", type=int, default=int(os.environ.get("PORT", 8000)))
    parser.add_argument("--moto-port", type=int, default=int(os.environ.get("MOTO_PORT", 8001)))
    parser.add_argument("--dte-authority-port", type=int, default=int(os.environ.get("DTE_AUTHORITY_PORT", 8002)))
    parser.add_argument("--pixelpay-port", type=int, default=int(os.environ.get("PIXELPAY_PORT", 8003)))
    parser.add_argument("--wompi-port", type=int, default=int(os.environ.get("WOMPI_PORT", 8004)))
    parser.add_argument("--state-dir", default=str(ROOT / ".local"))
    parser.add_argument("--table-in-memory", action="store_true",
                        help="the table's items in memory (infra/devstack/memory_dynamodb.py), not in moto: no "
                             "stream (no webhook is fanned out), nothing saved; for the test suite's short-lived "
                             "stacks whose journeys need neither")
    args = parser.parse_args(argv)

    state = Path(args.state_dir)
    if args.fresh and state.exists():
        shutil.rmtree(state)
    state.mkdir(parents=True, exist_ok=True)
    base_url = f"http://127.0.0.1:{args.port}"

    _, moto_app = start_moto(args.moto_port)
    configure_environment(args.port, args.moto_port)
    # invitation links, printed, also go to a file: the README's walkthrough reads the token there
    os.environ.setdefault("INVITATION_LINKS_FILE", str(state / "invitations.txt"))
    os.environ.setdefault("LOCAL_SECRETS_KEY", local_secrets_key(state))
    sys.path.insert(0, str(ROOT))
    from infra.devstack import shifted_clock

    # before anything reads the time: the seed, the stand-in authority, the app
    shifted_to = shifted_clock.install(os.environ.get(shifted_clock.VARIABLE))
    authority_server = authority = None
    if not os.environ.get("DTE_AUTHORITY_URL"):
        from infra.devstack.dte_authority import StandInAuthority, serve

        authority = StandInAuthority(state / "dte-authority.json")
        authority_server, authority_url = serve(authority, args.dte_authority_port)
        os.environ["DTE_AUTHORITY_URL"] = authority_url
    card_gateways = start_card_gateways(args.pixelpay_port, args.wompi_port, base_url)
    warnings.filterwarnings("ignore", message=".*CustomAuthorizer.*")

    from chalicelib.settings import get_settings, reset_settings
    from chalicelib.store.table import make_client, serve_in_process
    from infra.deploy.resources import (
        create_attachments_bucket,
        create_bucket,
        create_queues,
        create_table,
        verify_mail_sender,
    )
    from infra.devstack.direct_dynamodb import DirectDynamoDB
    from infra.devstack.gateway import LocalApiGateway
    from infra.devstack.in_process_aws import without_the_wire
    from infra.devstack.pollers import Pollers

    # this process's own AWS calls to its moto without the socket (infra/devstack/in_process_aws.py), and
    # the app's item calls more directly still (its tables, streams and persistence alike)
    wireless = without_the_wire(moto_app)
    for service in ("sqs", "s3", "ses", "dynamodbstreams", "kms"):
        serve_in_process(service, wireless)
    from infra.devstack.memory_dynamodb import MemoryDynamoDB

    engine = MemoryDynamoDB if args.table_in_memory else DirectDynamoDB
    serve_in_process("dynamodb", lambda client: engine(
        wireless(client), after_write=lambda _operation: moto_app.wakeups.notify("dynamodb")))
    table_name = os.environ["TABLE_NAME"]
    dynamodb = make_client("dynamodb")
    create_table(dynamodb, table_name)
    queues = create_queues(make_client("sqs"), QUEUE_PREFIX)
    os.environ.setdefault("WEBHOOK_QUEUE_URL", queues["WebhookDeliveriesQueue"])
    # imports and exports run on their queue, as deployed (the pollers play it); files in a local bucket
    os.environ.setdefault("IMPORT_QUEUE_URL", queues["ImportJobsQueue"])
    os.environ.setdefault("FILES_BUCKET", f"{QUEUE_PREFIX}-files".lower())
    create_bucket(make_client("s3"), os.environ["FILES_BUCKET"])
    # attachments (issue 44): the browser PUTs and GETs presigned URLs of this stack's moto
    # (AWS_ENDPOINT_URL), which answers CORS from the bucket's rules for the console's origins
    os.environ.setdefault("ATTACHMENTS_BUCKET", f"{QUEUE_PREFIX}-attachments".lower())
    create_attachments_bucket(make_client("s3"), os.environ["ATTACHMENTS_BUCKET"],
                              os.environ["ALLOWED_ORIGINS"].split(","))
    reset_settings()  # read before the queue existed (make_client)
    verify_mail_sender(make_client("ses"), get_settings().mail_from)
    # the table's snapshot and change log (infra/devstack/local_state.py); .local/table.json is an older save
    from infra.devstack.local_state import LocalState

    persistence = LocalState(state / "table", table_name, legacy_snapshot=state / "table.json")
    restored = persistence.restore(freeze_gc=True)
    persistence.start()  # from here every change to the table is logged
    migrate_once(state / "migrations.json", restored, persistence)

    from app import app

    credentials_path = state / "credentials.json"
    if credentials_path.exists():
        credentials = {**json.loads(credentials_path.read_text()), "baseUrl": base_url}
    else:
        credentials = seed_demo(base_url)
    if "sv" not in credentials:  # a fresh state, or one saved before the El Salvador demo existed
        salvadoran = seed_sv_demo(app, credentials["email"], authority)
        if salvadoran is not None:
            credentials["sv"] = salvadoran
    seed_card_gateways(app, credentials, card_gateways)
    credentials_path.write_text(json.dumps(credentials, indent=2))
    (state / "stack.json").write_text(json.dumps({"tableName": table_name, "baseUrl": base_url,
                                                  "endpointUrl": os.environ["AWS_ENDPOINT_URL"]}, indent=2))

    stream_arn = dynamodb.describe_table(TableName=table_name)["Table"].get("LatestStreamArn")
    override = os.environ.get("LOCAL_SCHEDULE_SECONDS")
    pollers = Pollers(app, dynamodb_streams=make_client("dynamodbstreams"), sqs=make_client("sqs"),
                      table_stream_arn=stream_arn,
                      schedule_override_seconds=float(override) if override else None,
                      wakeups=moto_app.wakeups).start()

    http = LocalHttpServer(("127.0.0.1", args.port), make_handler(LocalApiGateway(app)))
    http.daemon_threads = True
    threading.Thread(target=http.serve_forever, daemon=True, name="api").start()

    stop = threading.Event()
    for signum in (signal.SIGINT, signal.SIGTERM):
        signal.signal(signum, lambda *_: stop.set())

    print(f"Local stack ready: API {base_url}, moto {os.environ['AWS_ENDPOINT_URL']} "
          f"({restored} items restored from {state})", flush=True)
    print(f"Credentials ({credentials_path}):\n{json.dumps(credentials, indent=2)}", flush=True)
    print(f"Console: {base_url}/app/ (log in with the e-mail and password above)", flush=True)
    if shifted_to is not None:
        print(f"Clock: {shifted_clock.VARIABLE} started it at {shifted_to.isoformat()} (moving on from there)",
              flush=True)
    print(f"El Salvador's tax authority: {os.environ['DTE_AUTHORITY_URL']}"
          + (" (the stand-in)" if authority_server else ""), flush=True)
    for standin in card_gateways.values():
        print(f"{standin['name']}: {standin['url']} (the stand-in, test mode)", flush=True)
    print(f"Try: curl -sS -i {base_url}/companies -H 'Authorization: Bearer {credentials['apiKey']}'", flush=True)
    if credentials.get("sv"):
        print(f"El Salvador's demo company: curl -sS -i {base_url}/companies "
              f"-H 'Authorization: Bearer {credentials['sv']['apiKey']}'", flush=True)
    while not stop.wait(0.5):  # in steps: a wait without a timeout once sat through a SIGTERM
        pass  # (most likely one another thread took: only the main thread runs the handler)

    # a stop costs the same at any size: no more API requests, the pollers get a second to finish
    # what they run, the log's tail is written (no snapshot) and the process exits (see below)
    print("Stopping...", flush=True)
    stopping = [threading.Thread(target=halt, daemon=True) for halt in (http.shutdown, pollers.stop)]
    for thread in stopping:
        thread.start()
    deadline = time.monotonic() + 1.0
    for thread in stopping:
        thread.join(timeout=max(0.0, deadline - time.monotonic()))
    saved = persistence.stop()
    print(f"State saved under {persistence.directory}." if saved else "The state's log could not be flushed.",
          flush=True)
    return 0


if __name__ == "__main__":
    code = main()
    # everything is saved: exit without freeing the emulator's objects one by one (seconds for
    # hundreds of thousands of items) nor waiting for the servers' threads
    sys.stdout.flush()
    sys.stderr.flush()
    os._exit(code)
