"""One webhook delivery attempt against real local HTTP(S) servers on 127.0.0.1, no AWS: status and
exact bytes received, no redirects, one deadline, refusal of blocked addresses before any
connection, and connection to the vetted address only (no second DNS lookup)."""
from __future__ import annotations

import datetime
import ipaddress
import socket
import ssl
import threading
import time
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest

from chalicelib.services.integrations import webhook_http
from chalicelib.services.integrations.webhook_http import (
    EXCERPT_CHARS,
    BlockedAddress,
    DeliveryResult,
    UnresolvableHost,
    post,
    resolve_and_check,
)

BODY = b'{"event":"document.created","companyId":1,"data":{"total":100.10,"n":"\xc3\xb1"}}'
HEADERS = {
    "Content-Type": "application/json",
    "User-Agent": "Service-Webhooks/1.0",
    "X-Service-Event": "document.created",
    "X-Service-Delivery-Id": "dlv_123",
    "X-Service-Signature": "sha256=" + "ab" * 32,
}


def answers(*addresses: str, port: int = 443):
    """getaddrinfo-shaped answers."""
    out = []
    for address in addresses:
        if ":" in address:
            out.append((socket.AF_INET6, socket.SOCK_STREAM, 6, "", (address, port, 0, 0)))
        else:
            out.append((socket.AF_INET, socket.SOCK_STREAM, 6, "", (address, port)))
    return out


class FakeResolver:
    def __init__(self, table: dict[str, list[str]]) -> None:
        self.table = table
        self.calls: list[tuple[str, int]] = []

    def __call__(self, host, port, *args, **kwargs):
        self.calls.append((host, port))
        if host not in self.table:
            raise socket.gaierror(socket.EAI_NONAME, "Name or service not known")
        return answers(*self.table[host], port=port)


# --- resolve_and_check ------------------------------------------------------------------------

def test_resolved_public_addresses_are_returned_in_order_without_duplicates():
    resolver = FakeResolver({"hooks.example.com": ["93.184.216.34", "2606:2800:220:1::1", "93.184.216.34"]})
    found = resolve_and_check("hooks.example.com", 443, False, resolver)
    assert [str(a) for a in found] == ["93.184.216.34", "2606:2800:220:1::1"]
    assert resolver.calls == [("hooks.example.com", 443)]


@pytest.mark.parametrize("addresses, reason", [
    (["10.0.0.5"], "private"),
    (["93.184.216.34", "10.0.0.5"], "private"),          # ANY blocked address refuses the host
    (["169.254.169.254"], "metadata"),
    (["127.0.0.1"], "loopback"),
    (["::1"], "loopback"),
    (["::ffff:127.0.0.1"], "loopback"),
    (["fd00::1"], "unique-local"),
    (["0.0.0.0"], "unspecified"),
])
def test_a_name_that_resolves_to_a_blocked_address_is_refused(addresses, reason):
    with pytest.raises(BlockedAddress) as raised:
        resolve_and_check("hooks.example.com", 443, False, FakeResolver({"hooks.example.com": addresses}))
    assert reason in raised.value.reason
    assert str(raised.value).startswith("blocked address: ")
    assert ipaddress.ip_address(raised.value.address) in [ipaddress.ip_address(a) for a in addresses]


def test_dns_rebinding_to_a_private_address_is_refused_at_send_time():
    """The URL was accepted at registration (a public name); now its DNS answer is private."""
    resolver = FakeResolver({"hooks.example.com": ["93.184.216.34"]})
    assert resolve_and_check("hooks.example.com", 443, False, resolver)
    resolver.table["hooks.example.com"] = ["192.168.1.20"]
    with pytest.raises(BlockedAddress, match="private"):
        resolve_and_check("hooks.example.com", 443, False, resolver)
    result = post("https://hooks.example.com/x", BODY, HEADERS, allow_insecure=False, resolver=resolver)
    assert result.error == "blocked address: private" and result.status is None and not result.ok


def test_allow_insecure_allows_a_loopback_answer_but_nothing_else():
    resolver = FakeResolver({"receiver.test": ["127.0.0.1"], "evil.test": ["127.0.0.1", "10.0.0.1"]})
    assert [str(a) for a in resolve_and_check("receiver.test", 80, True, resolver)] == ["127.0.0.1"]
    with pytest.raises(BlockedAddress, match="private"):
        resolve_and_check("evil.test", 80, True, resolver)


def test_a_literal_address_is_judged_without_the_resolver():
    resolver = FakeResolver({})
    assert [str(a) for a in resolve_and_check("93.184.216.34", 443, False, resolver)] == ["93.184.216.34"]
    assert [str(a) for a in resolve_and_check("::1", 443, True, resolver)] == ["::1"]
    with pytest.raises(BlockedAddress, match="loopback"):
        resolve_and_check("127.0.0.1", 443, False, resolver)
    assert resolver.calls == []


def test_an_unknown_name_or_an_empty_answer_is_unresolvable():
    with pytest.raises(UnresolvableHost, match="dns lookup failed: nowhere.test"):
        resolve_and_check("nowhere.test", 443, False, FakeResolver({}))
    with pytest.raises(UnresolvableHost):
        resolve_and_check("empty.test", 443, False, FakeResolver({"empty.test": []}))


# --- a local receiver ---------------------------------------------------------------------------

@dataclass
class Received:
    method: str
    path: str
    headers: list[tuple[str, str]]
    body: bytes

    def header(self, name: str) -> str | None:
        values = [v for k, v in self.headers if k.lower() == name.lower()]
        assert len(values) <= 1, f"{name} sent {len(values)} times"
        return values[0] if values else None


class Receiver:
    """A ThreadingHTTPServer on 127.0.0.1 (optionally TLS) that records every request."""

    def __init__(self, tls: ssl.SSLContext | None = None) -> None:
        self.received: list[Received] = []
        self.server_names: list[str | None] = []
        receiver = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *args):
                pass

            def _record(self):
                length = int(self.headers.get("Content-Length") or 0)
                body = self.rfile.read(length)
                receiver.received.append(Received(self.command, self.path, list(self.headers.items()), body))

            def _answer(self, status: int, body: bytes = b"", headers: dict[str, str] | None = None):
                self.send_response(status)
                for name, value in (headers or {}).items():
                    self.send_header(name, value)
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

            def do_GET(self):
                self._record()
                self._answer(200, b"redirect target")

            def do_POST(self):
                self._record()
                route = self.path.split("?")[0]
                try:
                    if route == "/ok":
                        self._answer(200, b"thanks \xe2\x9c\x93")
                    elif route == "/created":
                        self._answer(201)
                    elif route == "/error":
                        self._answer(500, b"boom")
                    elif route == "/redirect":
                        self._answer(302, b"", {"Location": f"http://127.0.0.1:{receiver.port}/target"})
                    elif route == "/slow":
                        time.sleep(1.5)
                        self._answer(200, b"late")
                    elif route == "/trickle-headers":
                        self.wfile.write(b"HTTP/1.1 200 OK\r\n")
                        for i in range(30):
                            self.wfile.write(f"X-Trickle-{i}: x\r\n".encode())
                            self.wfile.flush()
                            time.sleep(0.1)
                    elif route == "/trickle-body":
                        self.wfile.write(b"HTTP/1.1 200 OK\r\nContent-Length: 100000\r\n\r\n")
                        for _ in range(30):
                            self.wfile.write(b"x" * 10)
                            self.wfile.flush()
                            time.sleep(0.1)
                    elif route == "/big":
                        self._answer(200, b"a" * 500_000)
                    elif route == "/garbage":
                        self.wfile.write(b"not http at all\r\n\r\n")
                    else:
                        self._answer(404)
                except OSError:
                    pass  # the client gave up (timeouts, 64 KB cap)

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.server.daemon_threads = True
        if tls is not None:
            tls.sni_callback = lambda sock, name, ctx: self.server_names.append(name)
            self.server.socket = tls.wrap_socket(self.server.socket, server_side=True)
        self.port = self.server.server_address[1]
        self.thread = threading.Thread(target=self.server.serve_forever, kwargs={"poll_interval": 0.05},
                                       daemon=True)
        self.thread.start()

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()


@pytest.fixture
def receiver():
    server = Receiver()
    yield server
    server.close()


def local(receiver: Receiver, path: str) -> str:
    return f"http://127.0.0.1:{receiver.port}{path}"


# --- post() ----------------------------------------------------------------------------------

def test_a_2xx_answer_is_returned_with_the_exact_bytes_and_headers_received(receiver):
    result = post(local(receiver, "/ok?x=1"), BODY, HEADERS, allow_insecure=True)
    assert result == DeliveryResult(status=200, duration_ms=result.duration_ms, error=None,
                                    response_excerpt="thanks \u2713")
    assert result.ok and 0 <= result.duration_ms < 5000
    [request] = receiver.received
    assert request.method == "POST" and request.path == "/ok?x=1"
    assert request.body == BODY
    for name, value in HEADERS.items():
        assert request.header(name) == value
    assert request.header("Host") == f"127.0.0.1:{receiver.port}"
    assert request.header("Content-Length") == str(len(BODY))
    assert request.header("Transfer-Encoding") is None


def test_other_2xx_statuses_are_success_and_an_empty_body_is_an_empty_excerpt(receiver):
    result = post(local(receiver, "/created"), b"{}", HEADERS, allow_insecure=True)
    assert (result.status, result.error, result.response_excerpt, result.ok) == (201, None, "", True)


def test_a_5xx_answer_is_a_result_not_an_error(receiver):
    result = post(local(receiver, "/error"), BODY, HEADERS, allow_insecure=True)
    assert (result.status, result.error, result.response_excerpt, result.ok) == (500, None, "boom", False)


def test_a_redirect_is_not_followed(receiver):
    result = post(local(receiver, "/redirect"), BODY, HEADERS, allow_insecure=True)
    assert result.status == 302 and result.error is None and not result.ok
    assert [r.path for r in receiver.received] == ["/redirect"]


def test_the_caller_cannot_override_host_or_framing_headers(receiver):
    headers = dict(HEADERS, Host="evil.example", **{"Content-Length": "1", "Transfer-Encoding": "chunked"})
    result = post(local(receiver, "/ok"), BODY, headers, allow_insecure=True)
    assert result.status == 200
    [request] = receiver.received
    assert request.header("Host") == f"127.0.0.1:{receiver.port}" and request.body == BODY
    assert request.header("Transfer-Encoding") is None


def test_a_header_with_a_line_break_is_an_error_not_an_injection(receiver):
    result = post(local(receiver, "/ok"), BODY, dict(HEADERS, **{"X-Service-Event": "a\r\nX-Evil: 1"}),
                  allow_insecure=True)
    assert result.status is None and result.error.startswith("invalid request")


def test_a_slow_receiver_times_out_after_the_timeout(receiver):
    result = post(local(receiver, "/slow"), BODY, HEADERS, timeout=0.5, allow_insecure=True)
    assert result.error == "timeout" and result.status is None and result.response_excerpt is None
    assert 450 <= result.duration_ms < 1200


def test_trickled_headers_cannot_stretch_the_deadline(receiver):
    """Every byte arrives well within a socket timeout; only the overall deadline stops it."""
    result = post(local(receiver, "/trickle-headers"), BODY, HEADERS, timeout=0.5, allow_insecure=True)
    assert result.error == "timeout" and result.status is None
    assert 450 <= result.duration_ms < 1200


def test_a_trickled_body_keeps_the_status_and_stops_at_the_deadline(receiver):
    result = post(local(receiver, "/trickle-body"), BODY, HEADERS, timeout=0.5, allow_insecure=True)
    assert result.status == 200 and result.error is None and result.ok
    assert 450 <= result.duration_ms < 1200


def test_a_large_answer_is_cut_to_an_excerpt(receiver):
    result = post(local(receiver, "/big"), BODY, HEADERS, allow_insecure=True)
    assert result.status == 200 and result.response_excerpt == "a" * EXCERPT_CHARS


def test_a_response_that_is_not_http_is_an_error(receiver):
    result = post(local(receiver, "/garbage"), BODY, HEADERS, allow_insecure=True)
    assert result.status is None and result.error.startswith("invalid response")


def test_a_closed_port_is_connection_refused():
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    result = post(f"http://127.0.0.1:{port}/", BODY, HEADERS, timeout=2, allow_insecure=True)
    assert result.error == "connection refused" and result.status is None and not result.ok


def test_without_allow_insecure_the_local_receiver_is_never_contacted(receiver):
    http_result = post(local(receiver, "/ok"), BODY, HEADERS, allow_insecure=False)
    assert http_result.error == "invalid url: must use https" and http_result.status is None
    https_result = post(f"https://127.0.0.1:{receiver.port}/ok", BODY, HEADERS, allow_insecure=False)
    assert https_result.error == "blocked address: loopback"
    resolver = FakeResolver({"receiver.test": ["127.0.0.1"]})
    named = post(f"https://receiver.test:{receiver.port}/ok", BODY, HEADERS, allow_insecure=False, resolver=resolver)
    assert named.error == "blocked address: loopback"
    for form in ("2130706433", "0177.0.0.1", "0x7f.0.0.1", "127.1", "[::ffff:127.0.0.1]"):
        result = post(f"https://{form}:{receiver.port}/ok", BODY, HEADERS, allow_insecure=False)
        assert "loopback" in result.error
    assert receiver.received == []


def test_invalid_urls_and_unknown_names_are_errors_not_exceptions():
    assert post("https://user:pw@hooks.example.com/", BODY, HEADERS, allow_insecure=False).error == \
        "invalid url: must not contain a user name or password"
    assert post(None, BODY, HEADERS, allow_insecure=False).error.startswith("invalid url")  # type: ignore[arg-type]
    unknown = post("https://nowhere.test/", BODY, HEADERS, allow_insecure=False, resolver=FakeResolver({}))
    assert unknown.error.startswith("dns lookup failed: nowhere.test") and unknown.status is None


def test_post_connects_to_the_vetted_address_and_keeps_the_host_name(receiver, monkeypatch):
    """receiver.test resolves once to 127.0.0.1; later answers (a rebinding to 10.0.0.1) and the
    system resolver are never consulted."""
    calls = []

    def rebinding(host, port, *args, **kwargs):
        calls.append(host)
        return answers("127.0.0.1" if len(calls) == 1 else "10.0.0.1", port=port)

    def no_dns(*args, **kwargs):
        raise AssertionError("a second DNS lookup happened")

    monkeypatch.setattr(socket, "getaddrinfo", no_dns)
    result = post(f"http://receiver.test:{receiver.port}/ok", BODY, HEADERS, allow_insecure=True, resolver=rebinding)
    assert result.status == 200 and result.error is None
    assert calls == ["receiver.test"]
    [request] = receiver.received
    assert request.header("Host") == f"receiver.test:{receiver.port}" and request.body == BODY


def test_the_next_vetted_address_is_tried_when_one_refuses(receiver):
    with socket.socket(socket.AF_INET6) as sock:
        try:
            sock.bind(("::1", 0))
        except OSError:
            pytest.skip("no IPv6 loopback")
        closed_port = sock.getsockname()[1]
    assert closed_port  # ::1 on some port nobody listens on; the receiver listens on 127.0.0.1
    resolver = FakeResolver({"receiver.test": ["::1", "127.0.0.1"]})
    result = post(f"http://receiver.test:{receiver.port}/ok", BODY, HEADERS, allow_insecure=True, resolver=resolver)
    assert result.status == 200 and len(receiver.received) == 1


# --- TLS --------------------------------------------------------------------------------------

@pytest.fixture
def tls_receiver(tmp_path, monkeypatch):
    """An HTTPS receiver whose certificate (for receiver.test) is signed by a throwaway CA that
    post() trusts in place of the system store."""
    x509 = pytest.importorskip("cryptography.x509")
    from cryptography.hazmat.primitives import hashes, serialization
    from cryptography.hazmat.primitives.asymmetric import ec
    from cryptography.x509.oid import NameOID

    now = datetime.datetime.now(datetime.timezone.utc)

    def name(common: str):
        return x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, common)])

    ca_key = ec.generate_private_key(ec.SECP256R1())
    ca_cert = (x509.CertificateBuilder().subject_name(name("test CA")).issuer_name(name("test CA"))
               .public_key(ca_key.public_key()).serial_number(x509.random_serial_number())
               .not_valid_before(now - datetime.timedelta(days=1)).not_valid_after(now + datetime.timedelta(days=1))
               .add_extension(x509.BasicConstraints(ca=True, path_length=None), critical=True)
               .add_extension(x509.KeyUsage(digital_signature=True, content_commitment=False, key_encipherment=False,
                                            data_encipherment=False, key_agreement=False, key_cert_sign=True,
                                            crl_sign=True, encipher_only=False, decipher_only=False), critical=True)
               .add_extension(x509.SubjectKeyIdentifier.from_public_key(ca_key.public_key()), critical=False)
               .sign(ca_key, hashes.SHA256()))
    key = ec.generate_private_key(ec.SECP256R1())
    cert = (x509.CertificateBuilder().subject_name(name("receiver.test")).issuer_name(ca_cert.subject)
            .public_key(key.public_key()).serial_number(x509.random_serial_number())
            .not_valid_before(now - datetime.timedelta(days=1)).not_valid_after(now + datetime.timedelta(days=1))
            .add_extension(x509.SubjectAlternativeName([x509.DNSName("receiver.test")]), critical=False)
            .add_extension(x509.ExtendedKeyUsage([x509.oid.ExtendedKeyUsageOID.SERVER_AUTH]), critical=False)
            .add_extension(x509.AuthorityKeyIdentifier.from_issuer_public_key(ca_key.public_key()), critical=False)
            .sign(ca_key, hashes.SHA256()))
    (tmp_path / "cert.pem").write_bytes(cert.public_bytes(serialization.Encoding.PEM))
    (tmp_path / "key.pem").write_bytes(key.private_bytes(serialization.Encoding.PEM,
                                                         serialization.PrivateFormat.PKCS8,
                                                         serialization.NoEncryption()))
    ca_pem = ca_cert.public_bytes(serialization.Encoding.PEM).decode()

    server_context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    server_context.load_cert_chain(tmp_path / "cert.pem", tmp_path / "key.pem")
    server = Receiver(tls=server_context)
    original = webhook_http._tls_context

    def trusting_test_ca() -> ssl.SSLContext:
        context = original()
        context.load_verify_locations(cadata=ca_pem)
        return context

    monkeypatch.setattr(webhook_http, "_tls_context", trusting_test_ca)
    yield server
    server.close()


def test_https_verifies_the_certificate_against_the_host_name_and_sends_sni(tls_receiver):
    resolver = FakeResolver({"receiver.test": ["127.0.0.1"]})
    result = post(f"https://receiver.test:{tls_receiver.port}/ok", BODY, HEADERS, allow_insecure=True,
                  resolver=resolver)
    assert result.status == 200 and result.error is None, result
    assert tls_receiver.server_names == ["receiver.test"]
    [request] = tls_receiver.received
    assert request.header("Host") == f"receiver.test:{tls_receiver.port}" and request.body == BODY


def test_https_refuses_a_certificate_for_another_name(tls_receiver):
    resolver = FakeResolver({"other.test": ["127.0.0.1"]})
    result = post(f"https://other.test:{tls_receiver.port}/ok", BODY, HEADERS, allow_insecure=True, resolver=resolver)
    assert result.status is None and result.error.startswith("tls error: certificate verification failed")
    assert tls_receiver.received == []


def test_https_refuses_a_certificate_from_an_untrusted_ca(tls_receiver, monkeypatch):
    monkeypatch.setattr(webhook_http, "_tls_context", ssl.create_default_context)
    resolver = FakeResolver({"receiver.test": ["127.0.0.1"]})
    result = post(f"https://receiver.test:{tls_receiver.port}/ok", BODY, HEADERS, allow_insecure=True,
                  resolver=resolver)
    assert result.error.startswith("tls error: certificate verification failed")
    assert tls_receiver.received == []


def test_https_to_a_plain_http_server_is_a_tls_error(receiver):
    result = post(f"https://127.0.0.1:{receiver.port}/ok", BODY, HEADERS, timeout=2, allow_insecure=True)
    assert result.status is None and result.error.startswith(("tls error", "connection reset"))
