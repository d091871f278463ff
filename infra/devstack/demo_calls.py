"""The demo companies are seeded through the API itself (in process, as a client would send it),
so a demo holds only what the API accepts."""
from __future__ import annotations

import json
from typing import Any, Callable

Call = Callable[..., Any]


def api_caller(app: Any, api_key: str, seeding: str) -> Call:
    """`call(method, path, body=None)` with the company's API key; anything but 2xx stops the seed."""
    from infra.devstack.gateway import LocalApiGateway

    gateway = LocalApiGateway(app)

    def call(method: str, path: str, body: Any = None) -> Any:
        answer = gateway.handle(method, path, {"authorization": f"Bearer {api_key}",
                                               "content-type": "application/json"},
                                json.dumps(body or {}).encode() if method != "GET" else b"")
        if not 200 <= answer["statusCode"] < 300:
            raise RuntimeError(f"seeding {seeding}: {method} {path} answered {answer['statusCode']} "
                               f"{answer.get('body')}")
        return json.loads(answer["body"])

    return call
