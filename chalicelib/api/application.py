"""The Chalice app class. Chalice keeps the current request on the app object; a Lambda
container serves one request at a time, but the local stack and the tests serve several
threads at once, so the request (and the Lambda context) are kept per thread."""
from __future__ import annotations

import threading
from typing import Any

from chalice import Chalice


class ThreadSafeChalice(Chalice):
    _per_thread = threading.local()

    @property
    def current_request(self) -> Any:
        return getattr(self._per_thread, "request", None)

    @current_request.setter
    def current_request(self, value: Any) -> None:
        self._per_thread.request = value

    @property
    def lambda_context(self) -> Any:
        return getattr(self._per_thread, "context", None)

    @lambda_context.setter
    def lambda_context(self, value: Any) -> None:
        self._per_thread.context = value
