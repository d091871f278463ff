"""What a route declares: its method and path, its models (for validation and the OpenAPI
document), who may call it and how its answer is shaped. Plain data: the pipeline
(api/routing.py) and the request checks (api/request_input.py) both read it."""
from __future__ import annotations

import functools
import importlib
import re
from dataclasses import dataclass
from typing import TYPE_CHECKING, Type, Union, cast

from chalicelib.auth.policy import Access

if TYPE_CHECKING:  # pydantic is imported by the first request that validates, not by a cold start
    from pydantic import BaseModel

_PATH_PARAMETER = re.compile(r"{(\w+)}")

# The largest body read: well above any request's need (a chart of accounts, a statement), and it
# bounds the memory and time one request may take before anything is checked. (Bodies above 6 MB
# never reach the function: Lambda's invocation limit, answered 5xx by API Gateway.) A route that
# takes a file (POST /imports) states its own, larger limit (RouteSpec.max_body_bytes).
MAX_BODY_BYTES = 1024 * 1024

# A model is a class, or "module:Class" imported on first use: a cold Lambda then pays only for
# the models of the routes it serves (see infra/bench/imports.py for the import-time budget).
ModelRef = Union[Type["BaseModel"], str]


@functools.lru_cache(maxsize=None)
def _import_model(reference: str) -> type[BaseModel]:
    module, name = reference.split(":")
    return cast("type[BaseModel]", getattr(importlib.import_module(module), name))


def resolve_model(reference: ModelRef | None) -> type[BaseModel] | None:
    return _import_model(reference) if isinstance(reference, str) else reference


@dataclass(frozen=True)
class RouteSpec:
    method: str
    path: str
    summary: str
    tag: str
    body: ModelRef | None
    query: ModelRef | None
    response: ModelRef | None
    status: int
    access: Access
    permission: str
    idempotent: bool
    string_ids: tuple[str, ...] = ()
    # The body names a company on purpose (switch-company): no COMPANY_MISMATCH check.
    names_company: bool = False
    # A binary media type the route answers instead of JSON (a PDF): its handler returns a
    # Response with those bytes; errors stay JSON.
    produces: str | None = None
    # Media types the route also answers, besides JSON, when the first Accept value asks for one
    # (a report as CSV, XLSX or PDF: api/exports.py).
    exports: tuple[str, ...] = ()
    # The business metric a success of this route counts (DocumentsCreated, ...); not a replay.
    counts: str | None = None
    # Other success statuses, with the same body: a create-or-update POST answers 200 when the
    # service says the record was there already (services/commands.py: Existing).
    also_answers: tuple[int, ...] = ()
    # The handler reads the expected version (If-Match or the body's `version`): the route says
    # so on declaring it (the OpenAPI document then names If-Match).
    versioned: bool = False
    # The largest body taken (413 REQUEST_TOO_LARGE above it): 1 MB, more for a route taking a file.
    max_body_bytes: int = MAX_BODY_BYTES
    # The media types a route reads from the raw body itself (a provider's notification, signed
    # over its exact bytes, maybe a form): the pipeline checks the size and the type, not JSON.
    raw_body_types: tuple[str, ...] = ()

    @property
    def body_model(self) -> type[BaseModel] | None:
        return resolve_model(self.body)

    @property
    def query_model(self) -> type[BaseModel] | None:
        return resolve_model(self.query)

    @property
    def response_model(self) -> type[BaseModel] | None:
        return resolve_model(self.response)

    @property
    def path_parameters(self) -> list[str]:
        return _PATH_PARAMETER.findall(self.path)

    @property
    def binary_types(self) -> list[str]:
        """The media types API Gateway must pass as bytes for this route (a PDF, an XLSX)."""
        return ([self.produces] if self.produces else []) + [t for t in self.exports if not t.startswith("text/")]
