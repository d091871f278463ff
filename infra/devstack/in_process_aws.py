"""The local stack's own AWS calls answered by its emulator in this process, without the socket.

The stack serves moto on a port for whoever is outside (the console's presigned uploads, a reader's
`aws --endpoint-url`), and its own clients (the app's queues, mail and files; the pollers reading
the queues and the table's stream) used to reach that same port over HTTP: a connection, a thread
of the threading server and werkzeug's parsing per call, about a third of the stack's CPU under
the README's walkthrough. Here botocore builds, signs and parses each call as ever; only the
sending is replaced, at botocore's documented `before-send` event (where moto's own in-process
mock answers too): the prepared request becomes a WSGI environ for the very app the port serves
(`EmulatedAws`: the emulator's lock, the pollers woken by messages sent), and its answer the
response botocore parses. The item calls of DynamoDB have a shorter way still
(infra/devstack/direct_dynamodb.py)."""
from __future__ import annotations

from collections.abc import Callable
from typing import Any
from urllib.parse import urlsplit

from botocore.awsrequest import AWSPreparedRequest, AWSResponse, HeadersDict
from werkzeug.test import EnvironBuilder


class _RawBody:
    """What botocore reads an answer's body from (urllib3's response, here whole in memory)."""

    def __init__(self, body: bytes) -> None:
        self._body = body

    def stream(self, **_: Any) -> Any:
        if self._body:
            yield self._body

    def read(self, *_: Any, **__: Any) -> bytes:
        body, self._body = self._body, b""
        return body


def answered_by(app: Callable[..., Any]) -> Callable[..., AWSResponse]:
    """A `before-send` handler answering each request with the WSGI `app`."""

    def answer(request: AWSPreparedRequest, **_: Any) -> AWSResponse:
        url = urlsplit(request.url)
        body = request.body
        if body is not None and not isinstance(body, bytes | str):
            body = body.read()
        environ = EnvironBuilder(method=request.method, base_url=f"{url.scheme}://{url.netloc}", path=url.path,
                                 query_string=url.query, headers=[(name, value.decode() if isinstance(value, bytes) else value)
                                          for name, value in request.headers.items()],
                                 data=body).get_environ()
        started: dict[str, Any] = {}

        def start_response(status: str, headers: list[tuple[str, str]], *_: Any) -> None:
            started.update(status=int(status.split(" ", 1)[0]), headers=headers)

        content = b"".join(app(environ, start_response))
        return AWSResponse(request.url, started["status"], HeadersDict(started["headers"]), _RawBody(content))
    return answer


def without_the_wire(app: Callable[..., Any]) -> Callable[[Any], Any]:
    """For `serve_in_process`: the botocore client, its sending answered by `app` in this process."""

    def serve(client: Any) -> Any:
        client.meta.events.register_first(f"before-send.{client.meta.service_model.service_id.hyphenize()}",
                                          answered_by(app))
        return client
    return serve
