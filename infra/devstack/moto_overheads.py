"""What moto and botocore rebuild, alike, for every test and every call, kept instead.

What a test pays before its first request: the suite starts a new moto mock and a new table for
each test (nothing of one test's AWS is another's), about 150 ms on a busy machine, of which moto
and botocore spend most rebuilding what is the same every time. Kept for the process instead:

1. boto3's default session: moto replaces it at every mock start (so that a client made inside a
   mock never holds credentials read from a real account outside it); a new session then builds
   its components again before its first client (~40 ms). The tests' credentials are moto's fake
   ones inside and outside the mocks, so the session is kept (moto's own `reset_boto3_session`
   setting).
2. moto's URL callbacks: each start builds ~1,300 `responses` callbacks, one per URL pattern of
   every emulated service and HTTP method, all alike; they are built once and registered again.
3. The table as the template makes it (`table_as_made`): created through the API the first time,
   then a copy of that empty table is put in the new mock's backend, dated now.
The mock still starts empty each time (every backend reset), and a test's table is its own.

What every call pays on top of its work:
4. moto lists its handler's methods (`inspect.getmembers` of the class, some 200) to find the
   operation's: once per class instead.
5. moto turns each botocore request into a werkzeug Request through werkzeug's EnvironBuilder (a
   tenth of a DynamoDB call's time); a DynamoDB request (a JSON body posted to the endpoint's root)
   gets the WSGI environ the builder writes, written directly.
6. moto makes each answer's request id of 52 characters drawn one by one from its seedable random
   generator; no test reads them: 52 characters of the system's random source instead."""
from __future__ import annotations

import copy
from collections.abc import Callable
from typing import Any

_installed = False
_tables: dict[tuple[str, str, str], Any] = {}  # (account, region, name) -> the empty table as made


def install() -> None:
    global _installed
    if _installed:
        return
    from moto.core import models
    from moto.core.config import default_user_config

    default_user_config.setdefault("core", {})["reset_boto3_session"] = False
    enable_patching, callbacks = models.MockAWS._enable_patching, []

    def enable_patching_again(self: Any, reset: bool = True) -> None:
        if not callbacks:
            enable_patching(self, reset)
            callbacks.extend(models.responses_mock.registered())
            return
        models.botocore_stubber.enabled = True
        if reset:
            self.reset()
        models.responses_mock.start()
        for callback in callbacks:
            models.responses_mock.add(callback)

    models.MockAWS._enable_patching = enable_patching_again  # type: ignore[method-assign]
    _keep_method_names()
    _dynamodb_requests_built_directly()
    _cheap_request_ids()
    _installed = True


def _keep_method_names() -> None:
    from moto.core import responses

    listed: dict[object, list[str]] = {}
    method_names_from_class = responses.method_names_from_class

    def method_names_once(clazz: object) -> list[str]:
        if clazz not in listed:
            listed[clazz] = method_names_from_class(clazz)
        return listed[clazz]

    responses.method_names_from_class = method_names_once


def _dynamodb_requests_built_directly() -> None:
    import io
    import sys
    from urllib.parse import urlsplit

    from moto.core import request

    from_primitives = request.Request.from_primitives.__func__  # type: ignore[attr-defined]

    def built(cls: Any, method: str, url: str, headers: Any, body: Any = None) -> Any:
        parts = urlsplit(url)
        if not (parts.hostname or "").startswith("dynamodb.") or parts.path not in ("", "/") or parts.query \
                or not isinstance(body, (bytes, type(None))):
            return from_primitives(cls, method, url, headers, body)
        data = body or b""
        port = parts.port or (443 if parts.scheme == "https" else 80)
        environ: dict[str, Any] = {
            "REQUEST_METHOD": method, "SCRIPT_NAME": "", "PATH_INFO": "/", "QUERY_STRING": "",
            "RAW_URI": "/", "REQUEST_URI": "/", "SERVER_NAME": parts.hostname, "SERVER_PORT": str(port),
            "SERVER_PROTOCOL": "HTTP/1.1", "HTTP_HOST": parts.netloc, "wsgi.version": (1, 0),
            "wsgi.url_scheme": parts.scheme, "wsgi.input": io.BytesIO(data), "wsgi.errors": sys.stderr,
            "wsgi.multithread": False, "wsgi.multiprocess": False, "wsgi.run_once": False}
        for key, value in headers.items():
            name = key.upper().replace("-", "_")
            value = value.decode("utf-8") if isinstance(value, bytes) else value
            if name == "TRANSFER_ENCODING":
                continue
            environ[name if name in ("CONTENT_TYPE", "CONTENT_LENGTH") else f"HTTP_{name}"] = value
        environ["CONTENT_LENGTH"] = str(len(data))
        environ[request.PRESERVED_HEADER_NAMES_ENVIRON_KEY] = {
            request.environ_key_for_header(key): key for key in headers
            if request.should_preserve_original_header_name(key)}
        return cls(environ)

    request.Request.from_primitives = classmethod(built)  # type: ignore[method-assign, assignment]


def _cheap_request_ids() -> None:
    import secrets

    from moto.core import responses

    def request_id(headerdict: dict[str, Any] | None = None) -> str:
        request_id = secrets.token_hex(26).upper()
        if isinstance(headerdict, dict):
            headerdict["x-amzn-requestid"] = request_id
        return request_id

    responses.gen_amzn_requestid_long = request_id


def table_as_made(table_name: str, create: Callable[[], None], region: str) -> None:
    """Inside a mock with no such table: the table `create()` makes (the same `create` each time in
    a process), made by it the first time and copied from that first one, still empty, afterwards."""
    from moto.core import DEFAULT_ACCOUNT_ID
    from moto.core.utils import utcnow
    from moto.dynamodb.models import dynamodb_backends

    key = (DEFAULT_ACCOUNT_ID, region, table_name)
    backend = dynamodb_backends[DEFAULT_ACCOUNT_ID][region]
    if key not in _tables:
        create()
        _tables[key] = copy.deepcopy(backend.tables[table_name])
    table = backend.tables[table_name] = copy.deepcopy(_tables[key])
    # made now, as DescribeTable and the stream's label say
    table.created_at = utcnow()
    if table.latest_stream_label:
        table.latest_stream_label = table.created_at.isoformat()
    if table.stream_shard is not None:
        table.stream_shard.created_on = table.created_at


def list_moto_modules_once() -> None:
    """For moto's server (the local stack): it finds a request's service by host among moto's own
    packages, which it lists from the disk (a listdir and some 110 stats) twice per request."""
    from moto import backends

    modules = tuple(backends.list_of_moto_modules())
    backends.list_of_moto_modules = lambda: modules  # type: ignore[assignment]
