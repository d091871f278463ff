"""Races forced to happen: a request is held at its first commit (it has read all it decides on)
while another request runs from start to end, then let go. A test of a race then knows the race
took place, and which side got there first, instead of hoping that threads overlapped."""
from __future__ import annotations

import threading
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any, Callable

from chalicelib.store.transaction import Transaction

WAIT_S = 30


@dataclass
class Race:
    held: Any  # what the held request answered
    other: Any  # what the request that ran meanwhile answered
    lost: int  # how many of the held request's commits failed (a condition the other had broken)


def hold_at_commit(monkeypatch: Any, held: Callable[[], Any], other: Callable[[], Any]) -> Race:
    """Runs `held` until its first Transaction.commit, runs `other` whole meanwhile, then lets
    `held` commit (and run again, when it lost the race) and returns both answers."""
    original = Transaction.commit
    reached, released = threading.Event(), threading.Event()
    holder: dict[str, int] = {}
    lost = [0]

    def commit(self: Transaction, *args: Any, **kwargs: Any) -> Any:
        mine = threading.get_ident() == holder.get("thread")
        if mine and not released.is_set():
            holder["committing"] = 1
            reached.set()
            assert released.wait(WAIT_S), "the other request never finished"
        try:
            return original(self, *args, **kwargs)
        except Exception:  # LostRace (run again), or the API error the failed condition means
            if mine:
                lost[0] += 1
            raise

    def run_held() -> Any:
        holder["thread"] = threading.get_ident()
        try:
            return held()
        finally:
            reached.set()  # a request that never commits must not leave the other waiting

    monkeypatch.setattr(Transaction, "commit", commit)
    with ThreadPoolExecutor(1) as pool:
        answer = pool.submit(run_held)
        assert reached.wait(WAIT_S), "the held request never reached its commit"
        assert holder.get("committing"), f"the held request ended without committing: {answer.result()}"
        try:
            other_answer = other()
        finally:
            released.set()
        held_answer = answer.result(WAIT_S)
    monkeypatch.setattr(Transaction, "commit", original)
    return Race(held_answer, other_answer, lost[0])
