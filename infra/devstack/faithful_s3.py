"""moto's S3 as S3 treats a presigned URL (issue 44's attachments): moto takes any presigned PUT or GET
whatever its signature, expiry or the headers sent; S3 recomputes the SigV4 signature over the
request as it came (method, path, query, the signed headers' values as sent) and refuses a mismatch
(403 SignatureDoesNotMatch: another Content-Type or Content-Length than the URL signed) or an expired
link (403 AccessDenied). The secret is the one this process signs with (AWS_SECRET_ACCESS_KEY: the
tests' and the local stack's fixed credentials). Installed by tests/conftest.py and infra/devstack/local.py."""
from __future__ import annotations

import datetime
import hashlib
import hmac
import os
from typing import Any, Mapping
from urllib.parse import parse_qsl, quote, unquote, urlsplit

_installed = False
ALGORITHM = "AWS4-HMAC-SHA256"


def _encoded(text: str) -> str:
    return quote(text, safe="-_.~")


def _header(headers: Mapping[str, str], name: str, url_host: str) -> str:
    value = next((str(v) for k, v in headers.items() if k.lower() == name), None)
    if value is None and name == "host":  # a client adds Host on the wire (not in a mocked request)
        value = url_host
    return " ".join((value or "").split())


def refusal(method: str, url: str, headers: Mapping[str, str], secret: str,
            now: datetime.datetime | None = None) -> tuple[str, str] | None:
    """(S3's error code, its message) refusing a presigned request, or None: not presigned by
    SigV4 query (an SDK call with an Authorization header is moto's business), or as signed."""
    parts = urlsplit(url)
    query = parse_qsl(parts.query, keep_blank_values=True)
    params = dict(query)
    if params.get("X-Amz-Algorithm") != ALGORITHM or "X-Amz-Signature" not in params:
        return None
    signed_at = datetime.datetime.strptime(params["X-Amz-Date"], "%Y%m%dT%H%M%SZ").replace(tzinfo=datetime.timezone.utc)
    now = now or datetime.datetime.now(datetime.timezone.utc)
    if now > signed_at + datetime.timedelta(seconds=int(params.get("X-Amz-Expires", "0"))):
        return "AccessDenied", "Request has expired"
    signed_headers = params["X-Amz-SignedHeaders"].split(";")
    canonical = "\n".join([
        method.upper(),
        quote(unquote(parts.path), safe="/-_.~"),
        "&".join(f"{_encoded(k)}={_encoded(v)}" for k, v in sorted(query) if k != "X-Amz-Signature"),
        "".join(f"{name}:{_header(headers, name, parts.netloc)}\n" for name in signed_headers),
        ";".join(signed_headers),
        "UNSIGNED-PAYLOAD"])
    _key_id, day, region, service, terminal = params["X-Amz-Credential"].split("/")
    scope = "/".join((day, region, service, terminal))
    to_sign = "\n".join([ALGORITHM, params["X-Amz-Date"], scope, hashlib.sha256(canonical.encode()).hexdigest()])
    key = f"AWS4{secret}".encode()
    for part in (day, region, service, terminal):
        key = hmac.new(key, part.encode(), hashlib.sha256).digest()
    expected = hmac.new(key, to_sign.encode(), hashlib.sha256).hexdigest()
    if not hmac.compare_digest(expected, params["X-Amz-Signature"]):
        return "SignatureDoesNotMatch", ("The request signature we calculated does not match the signature you "
                                         "provided. Check your key and signing method.")
    return None


def install() -> None:
    """Wraps moto's S3 object handler (decorator and server mode alike)."""
    global _installed
    if _installed:
        return
    from xml.sax.saxutils import escape

    from moto.s3.responses import S3Response

    original = S3Response._key_response

    def key_response(self: Any, request: Any, full_url: str) -> Any:
        if "Authorization" not in request.headers and request.method in ("GET", "PUT", "HEAD"):
            refused = refusal(request.method, full_url, request.headers, os.environ.get("AWS_SECRET_ACCESS_KEY", ""))
            if refused is not None:  # S3's answer: 403 with its error document
                code, message = refused
                return 403, {"Content-Type": "application/xml"}, (
                    f"<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<Error><Code>{code}</Code>"
                    f"<Message>{escape(message)}</Message></Error>")
        return original(self, request, full_url)

    S3Response._key_response = key_response
    _installed = True
