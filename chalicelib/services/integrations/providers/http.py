"""JSON (or form) over HTTPS to a payment provider, standard library only: one deadline per call,
no redirects followed, proxies from the environment ignored, at most 1 MB read. A provider that
does not answer in time, cannot be reached or answers 5xx/408 raises ProviderUnavailable
(nothing decided: try again); any other answer is returned with its status for the adapter to
read in the provider's terms."""
from __future__ import annotations

import http.client
import socket
import urllib.error
import urllib.parse
import urllib.request
from dataclasses import dataclass
from typing import Any, Mapping

from chalicelib import jsoncodec
from chalicelib.services.integrations.providers.interface import ProviderUnavailable
from chalicelib.settings import get_settings

MAX_ANSWER_BYTES = 1024 * 1024


@dataclass(frozen=True)
class Answer:
    status: int
    body: Any  # the parsed JSON, or None when the body was not JSON
    text: str


class _NoRedirects(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args: Any, **kwargs: Any) -> None:  # a 3xx is answered as it is
        return None


_OPENER = urllib.request.build_opener(urllib.request.ProxyHandler({}), _NoRedirects())


def call(method: str, url: str, *, json_body: Any = None, form: Mapping[str, str] | None = None,
         headers: Mapping[str, str] | None = None, timeout: float | None = None) -> Answer:
    data, sent = None, {"Accept": "application/json", **(headers or {})}
    if json_body is not None:
        data, sent["Content-Type"] = jsoncodec.dumps(json_body).encode(), "application/json"
    elif form is not None:
        data, sent["Content-Type"] = urllib.parse.urlencode(form).encode(), "application/x-www-form-urlencoded"
    request = urllib.request.Request(url, data=data, headers=sent, method=method)
    deadline = get_settings().gateway_timeout_seconds if timeout is None else timeout
    try:
        with _OPENER.open(request, timeout=deadline) as response:  # noqa: S310 (a configured provider URL)
            status, raw = response.status, response.read(MAX_ANSWER_BYTES)
    except urllib.error.HTTPError as error:
        status, raw = error.code, error.read(MAX_ANSWER_BYTES)
    except (urllib.error.URLError, http.client.HTTPException, socket.timeout, OSError) as error:
        raise ProviderUnavailable(f"{method} {url}: {error}") from None
    if status >= 500 or status == 408:
        raise ProviderUnavailable(f"{method} {url}: HTTP {status}")
    text = raw.decode("utf-8", "replace")
    try:
        body = jsoncodec.loads(text) if text.strip() else None  # numbers as Decimal, never float
    except ValueError:
        body = None
    return Answer(status, body, text)
