"""One webhook delivery attempt over HTTP(S), standard library only (DESIGN.md section 5).

`post()` validates the URL (`check_url`), resolves the host once and refuses it if ANY address is
blocked (`resolve_and_check`), then connects to a vetted address itself: there is no second DNS
lookup, so a DNS answer that changes between the check and the connect (rebinding) cannot reach
a private address. The Host header, TLS SNI and certificate verification still use the host name.
Redirects are never followed, proxies from the environment are ignored, the whole attempt
(connect, TLS, send, response headers, body) is bounded by one deadline and at most 64 KB of
the response body is read. Every failure is reported in the result, never raised.
"""
from __future__ import annotations

import http.client
import io
import ipaddress
import socket
import ssl
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from chalicelib.domain.webhook_urls import AddressNotAllowed, IPAddress, ParsedUrl, blocked_address, check_url
from chalicelib.errors import ValidationFailed

DEFAULT_TIMEOUT_SECONDS = 10.0
MAX_RESPONSE_BYTES = 64 * 1024
EXCERPT_CHARS = 1024
# Framing and routing headers the connection sets itself; callers' values are ignored.
_OWN_HEADERS = frozenset({"host", "content-length", "transfer-encoding", "connection"})

Resolver = Callable[..., Any]


class BlockedAddress(Exception):
    """A resolved (or literal) address that must not be contacted."""

    def __init__(self, reason: str, address: str | None = None) -> None:
        self.reason = reason
        self.address = address
        super().__init__(f"blocked address: {reason}")


class UnresolvableHost(Exception):
    """The host name has no address (DNS failure or an empty answer)."""

    def __init__(self, host: str, detail: str = "") -> None:
        self.host = host
        super().__init__(f"dns lookup failed: {host}" + (f" ({detail})" if detail else ""))


@dataclass(frozen=True)
class DeliveryResult:
    status: int | None             # HTTP status received, None when no response arrived
    duration_ms: int               # wall time of the whole attempt, validation and DNS included
    error: str | None              # None when a response (any status) arrived
    response_excerpt: str | None   # first EXCERPT_CHARS of the body, UTF-8 with replacement; None if no response

    @property
    def ok(self) -> bool:
        """Success per the spec: any 2xx response."""
        return self.error is None and self.status is not None and 200 <= self.status < 300


def resolve_and_check(host: str, port: int, allow_insecure: bool,
                      resolver: Resolver = socket.getaddrinfo) -> list[IPAddress]:
    """Every address of `host` (a literal IP is taken as is, without calling `resolver`), in the
    resolver's order without duplicates. Raises `BlockedAddress` when ANY of them is blocked
    (loopback allowed with `allow_insecure`) and `UnresolvableHost` when there is none.
    `resolver` is called as `resolver(host, port, family=AF_UNSPEC, type=SOCK_STREAM)` and returns
    getaddrinfo tuples (family, type, proto, canonname, sockaddr)."""
    literal = _literal(host)
    if literal is not None:
        addresses = [literal]
    else:
        try:
            answers = resolver(host, port, family=socket.AF_UNSPEC, type=socket.SOCK_STREAM)
        except (OSError, UnicodeError) as exc:
            raise UnresolvableHost(host, str(exc)) from None
        addresses = []
        for answer in answers:
            try:
                ip = ipaddress.ip_address(answer[4][0])
            except (ValueError, IndexError, TypeError):
                raise BlockedAddress("unrecognized address", repr(answer)) from None
            if ip not in addresses:
                addresses.append(ip)
    if not addresses:
        raise UnresolvableHost(host, "no addresses")
    for ip in addresses:
        reason = blocked_address(ip, allow_loopback=allow_insecure)
        if reason:
            raise BlockedAddress(reason, str(ip))
    return addresses


def _literal(host: str) -> IPAddress | None:
    try:
        return ipaddress.ip_address(host.strip("[]"))
    except ValueError:
        return None


def post(url: str, body: bytes, headers: dict[str, str], *, timeout: float = DEFAULT_TIMEOUT_SECONDS,
         allow_insecure: bool, resolver: Resolver = socket.getaddrinfo) -> DeliveryResult:
    """POST `body` to `url` once. Never raises: any failure becomes `error`:
    "invalid url: <reason>", "blocked address: <reason>", "dns lookup failed: <host> (...)",
    "timeout", "connection refused", "connection reset", "tls error: <detail>",
    "invalid response: <detail>", "invalid request: <detail>", "connection error: <detail>".
    Host, Content-Length, Transfer-Encoding and Connection in `headers` are ignored (set here)."""
    started = time.monotonic()
    deadline = started + timeout
    status: int | None = None
    excerpt: str | None = None
    error: str | None = None
    try:
        target = check_url(url, allow_insecure)
        addresses = resolve_and_check(target.host, target.port, allow_insecure, resolver)
        status, excerpt = _send(target, addresses, body, headers, deadline)
    except AddressNotAllowed as exc:
        error = f"blocked address: {exc.reason}"
    except ValidationFailed as exc:
        error = "invalid url: " + (exc.details[0]["message"] if exc.details else exc.message)
    except (BlockedAddress, UnresolvableHost) as exc:
        error = str(exc)
    except Exception as exc:  # the contract: never raise
        error = _describe(exc)
    return DeliveryResult(status=status, duration_ms=int((time.monotonic() - started) * 1000),
                          error=error, response_excerpt=excerpt)


def _describe(exc: BaseException) -> str:
    if isinstance(exc, (TimeoutError, _DeadlinePassed)):
        return "timeout"
    if isinstance(exc, ConnectionRefusedError):
        return "connection refused"
    if isinstance(exc, (ConnectionResetError, ConnectionAbortedError, BrokenPipeError,
                        http.client.RemoteDisconnected)):
        return "connection reset"
    if isinstance(exc, ssl.SSLCertVerificationError):
        return f"tls error: certificate verification failed ({exc.verify_message})"
    if isinstance(exc, ssl.SSLError):
        return f"tls error: {exc.reason or exc}"
    if isinstance(exc, http.client.HTTPException):
        return f"invalid response: {type(exc).__name__}"
    if isinstance(exc, OSError):
        return f"connection error: {exc.strerror or exc}"
    if isinstance(exc, ValueError):  # e.g. a header value with a line break
        return f"invalid request: {exc}"
    return f"unexpected error: {type(exc).__name__}"


def _send(target: ParsedUrl, addresses: list[IPAddress], body: bytes, headers: dict[str, str],
          deadline: float) -> tuple[int, str]:
    if not isinstance(body, (bytes, bytearray)):
        raise ValueError("the body must be bytes")
    connection = _connect(target, addresses, deadline)
    response: http.client.HTTPResponse | None = None
    try:
        connection.putrequest("POST", target.target, skip_host=True, skip_accept_encoding=True)
        connection.putheader("Host", target.host_header)
        connection.putheader("Content-Length", str(len(body)))
        connection.putheader("Connection", "close")
        for name, value in headers.items():
            if name.lower() not in _OWN_HEADERS:
                connection.putheader(name, value)
        connection.endheaders(body)
        response = connection.getresponse()
        status = response.status
        try:
            data = response.read(MAX_RESPONSE_BYTES)
        except (OSError, http.client.HTTPException, _DeadlinePassed):
            data = b""  # the status arrived; a body that stalls or breaks does not change it
        return status, data.decode("utf-8", "replace")[:EXCERPT_CHARS]
    finally:
        if response is not None:
            response.close()
        connection.close()


def _connect(target: ParsedUrl, addresses: list[IPAddress], deadline: float) -> _PinnedConnection:
    """A connected (and for https, TLS-verified) connection to the first vetted address that
    answers, tried in order within the deadline."""
    last: BaseException | None = None
    for ip in addresses:
        cls = _PinnedHTTPSConnection if target.scheme == "https" else _PinnedConnection
        connection = cls(target.host, target.port, ip=ip, deadline=deadline)
        try:
            connection.connect()
            return connection
        except (TimeoutError, _DeadlinePassed):
            connection.close()
            raise
        except ssl.SSLError:
            connection.close()
            raise  # a certificate problem is the receiver's, not the address's
        except OSError as exc:
            connection.close()
            last = exc
    assert last is not None
    raise last


class _DeadlinePassed(Exception):
    pass


def _remaining(deadline: float) -> float:
    remaining = deadline - time.monotonic()
    if remaining <= 0:
        raise _DeadlinePassed()
    return remaining


class _PinnedConnection(http.client.HTTPConnection):
    """HTTPConnection to `host` that connects to the vetted `ip` (never resolves `host`) and
    bounds every socket operation by `deadline`."""

    def __init__(self, host: str, port: int, *, ip: IPAddress, deadline: float) -> None:
        super().__init__(host, port, timeout=_remaining(deadline))
        self.ip = ip
        self.deadline = deadline
        self.response_class = _deadline_response(deadline)

    def connect(self) -> None:
        family = socket.AF_INET6 if self.ip.version == 6 else socket.AF_INET
        sock = socket.socket(family, socket.SOCK_STREAM)
        try:
            sock.settimeout(_remaining(self.deadline))
            sock.connect((str(self.ip), self.port))
            sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        except BaseException:
            sock.close()
            raise
        self.sock = sock

    def send(self, data: Any) -> None:
        if self.sock is not None:
            self.sock.settimeout(_remaining(self.deadline))
        super().send(data)


def _tls_context() -> ssl.SSLContext:
    """System trust store, certificate and host name verification (tests trust their own CA)."""
    return ssl.create_default_context()


class _PinnedHTTPSConnection(_PinnedConnection):
    default_port = 443

    def connect(self) -> None:
        super().connect()
        context = _tls_context()
        self.sock.settimeout(_remaining(self.deadline))
        self.sock = context.wrap_socket(self.sock, server_hostname=self.host)


class _DeadlineReader(io.RawIOBase):
    """The response stream: each receive gets only the time left before the deadline, so a
    receiver that trickles bytes cannot stretch the attempt. It reads through the socket's own
    raw file object, which keeps the socket open until the response is closed (as makefile does
    for http.client, which closes the connection's reference once the response owns it)."""

    def __init__(self, sock: socket.socket, deadline: float) -> None:
        self._sock = sock
        self._raw = sock.makefile("rb", buffering=0)
        self._deadline = deadline

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: Any) -> int | None:
        self._sock.settimeout(_remaining(self._deadline))
        return self._raw.readinto(buffer)

    def close(self) -> None:
        if not self.closed:
            self._raw.close()
        super().close()


def _deadline_response(deadline: float) -> type[http.client.HTTPResponse]:
    class DeadlineResponse(http.client.HTTPResponse):
        def __init__(self, sock: socket.socket, *args: Any, **kwargs: Any) -> None:
            super().__init__(sock, *args, **kwargs)
            self.fp.close()
            self.fp = io.BufferedReader(_DeadlineReader(sock, deadline))

    return DeadlineResponse
