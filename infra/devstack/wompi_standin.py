"""A stand-in for Wompi (issue 43), run by the local stack and the tests. SKELETON: the wompi
helper fills it in (its documented endpoints, the sandbox's rules, the faults)."""
from __future__ import annotations

from http.server import ThreadingHTTPServer

from infra.devstack import standin_server
from infra.devstack.standin_server import Reply, StandInRequest


class StandInWompi:
    def __init__(self) -> None:
        self.reset_faults()

    def reset_faults(self) -> None:
        self.faults: dict[str, object] = {}

    def handle(self, request: StandInRequest) -> Reply:
        return Reply.of_json(404, {"message": "not built yet"})


def serve(standin: StandInWompi, port: int = 0) -> tuple[ThreadingHTTPServer, str]:
    return standin_server.serve(standin.handle, "wompi-standin", port)
