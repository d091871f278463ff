"""What the hypothesis state machines share: after every step hypothesis checks all of a machine's
invariants, one after another, and several of them read the same thing (a product, a trial
balance) to check it against something else. Within one such check nothing is written
(invariants only read), so a GET asked again there is answered with what it answered: each read
is made once per step, every invariant still checks it."""
from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from hypothesis.stateful import RuleBasedStateMachine

from tests.support import ApiClient, Reply


class CheckReads(ApiClient):
    """The machine's API client: the same app, and while its invariants are checked a GET (path,
    credentials, headers) asked a second time answers the first answer. Outside a check, and for
    any other method, every request reaches the app."""

    def __init__(self, api: ApiClient) -> None:
        self.http = api.http
        self._answers: dict[str, Reply] | None = None

    def request(self, method: str, path: str, **kwargs: Any) -> Reply:
        if self._answers is None or method != "GET":
            self._answers = None if self._answers is None else {}  # (a write while checking: read again)
            return super().request(method, path, **kwargs)
        asked = repr((path, sorted(kwargs.items())))
        if asked not in self._answers:
            self._answers[asked] = super().request(method, path, **kwargs)
        return self._answers[asked]

    @contextmanager
    def checking(self) -> Iterator[None]:
        self._answers = {}
        try:
            yield
        finally:
            self._answers = None


class ReadsOncePerCheck(RuleBasedStateMachine):
    """A state machine whose invariants read through `self.reads` (a CheckReads): one check
    after a step is one pass of reads."""

    reads: CheckReads

    def check_invariants(self, *args: Any, **kwargs: Any) -> None:
        with self.reads.checking():
            super().check_invariants(*args, **kwargs)
