"""The HTTP side every stand-in of an outside service shares (the card gateways'; issue 43): a
threaded server whose requests go to one `handle(request) -> Reply` of the stand-in, so each
stand-in is plain Python that tests can also call directly."""
from __future__ import annotations

import json
import threading
import urllib.parse
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any, Callable


@dataclass(frozen=True)
class StandInRequest:
    method: str
    path: str
    query: dict[str, str]
    headers: dict[str, str]  # lowercase names
    body: bytes

    def json(self) -> Any:
        return json.loads(self.body or b"null")

    def form(self) -> dict[str, str]:
        return dict(urllib.parse.parse_qsl(self.body.decode("utf-8", "replace"), keep_blank_values=True))


@dataclass(frozen=True)
class Reply:
    status: int
    body: bytes = b""
    headers: dict[str, str] = field(default_factory=dict)

    @classmethod
    def of_json(cls, status: int, payload: Any) -> "Reply":
        return cls(status, json.dumps(payload).encode(), {"Content-Type": "application/json"})

    @classmethod
    def of_html(cls, status: int, page: str) -> "Reply":
        return cls(status, page.encode(), {"Content-Type": "text/html; charset=utf-8"})

    @classmethod
    def redirect(cls, location: str) -> "Reply":
        return cls(303, b"", {"Location": location})


Handler = Callable[[StandInRequest], Reply]


def make_server(handle: Handler, port: int = 0, host: str = "127.0.0.1") -> ThreadingHTTPServer:
    class _Requests(BaseHTTPRequestHandler):
        def _answer(self) -> None:
            parsed = urllib.parse.urlsplit(self.path)
            length = int(self.headers.get("Content-Length") or 0)
            request = StandInRequest(self.command, parsed.path, dict(urllib.parse.parse_qsl(parsed.query)),
                                     {name.lower(): value for name, value in self.headers.items()},
                                     self.rfile.read(length) if length else b"")
            reply = handle(request)
            self.send_response(reply.status)
            for name, value in reply.headers.items():
                self.send_header(name, value)
            self.send_header("Content-Length", str(len(reply.body)))
            self.end_headers()
            self.wfile.write(reply.body)

        do_GET = do_POST = do_PUT = do_DELETE = _answer

        def log_message(self, *args: Any) -> None:  # quiet: tests and the local stack log their own
            return

    server = _QuietServer((host, port), _Requests)
    server.daemon_threads = True
    return server


class _QuietServer(ThreadingHTTPServer):
    def handle_error(self, request: Any, client_address: Any) -> None:
        """A client that gave up (the service's timeout while a fault made the stand-in slow) is
        expected here, not an error to print."""
        import sys

        if not isinstance(sys.exc_info()[1], (BrokenPipeError, ConnectionResetError)):
            super().handle_error(request, client_address)


def serve(handle: Handler, name: str, port: int = 0) -> tuple[ThreadingHTTPServer, str]:
    """Starts a stand-in on a thread; returns the server and its base URL."""
    server = make_server(handle, port)
    threading.Thread(target=server.serve_forever, daemon=True, name=name).start()
    return server, f"http://127.0.0.1:{server.server_address[1]}"


@dataclass(frozen=True)
class Payout:
    """What a card gateway's stand-in pays out to the merchant's bank (`settle`): what it holds, net
    of its fee."""
    amount: Any
    date: Any
    reference: str
    transaction_ids: tuple[str, ...]
    currency: str | None = None


@dataclass(frozen=True)
class Delivery:
    """A notification a stand-in sends to the service: tests post it themselves (through the
    in-process API, to duplicate, reorder or tamper with it); the local stack posts it (`deliver`)."""
    url: str
    body: bytes
    headers: dict[str, str]

    def send(self, timeout: float = 10.0) -> None:
        """As a provider posts it: a service it cannot reach is left for the status call (or the
        provider's retry) to tell."""
        if not self.url:
            return
        try:
            self.deliver(timeout)
        except OSError:
            pass

    def deliver(self, timeout: float = 10.0) -> int:
        import urllib.error
        import urllib.request

        request = urllib.request.Request(self.url, data=self.body, headers=self.headers, method="POST")
        try:
            with urllib.request.urlopen(request, timeout=timeout) as response:  # noqa: S310 (the local API)
                return response.status
        except urllib.error.HTTPError as error:
            return error.code


def page(provider: str, title: str, content: str) -> str:
    """A stand-in's own page (its payment form, its answers), in Spanish as the providers' are."""
    import html

    return ('<!doctype html><html lang="es"><head><meta charset="utf-8">'
            '<meta name="viewport" content="width=device-width, initial-scale=1">'
            f'<title>{html.escape(title)} · {provider}</title><style>*{{box-sizing:border-box}}body{{font-family:'
            'sans-serif;max-width:28rem;margin:2rem auto;padding:0 1rem}label{display:block;margin:.6rem 0 .2rem}'
            'input{width:100%;padding:.5rem}button{margin-top:1rem;padding:.6rem 1.4rem}</style></head><body>'
            f'<p><b>{provider}</b> · simulado para pruebas</p><h1>{html.escape(title)}</h1>{content}</body></html>')
