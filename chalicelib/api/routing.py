"""Declaring a route: its models (for validation and the OpenAPI document), who may call it,
and the request pipeline every route runs through:

    authenticate -> origin check -> API-key limits -> role -> rate limit -> company scope
    -> parse query and body -> Idempotency-Key -> the handler (retried when it lost a race)
    -> render

Handlers stay thin: they call one service function and return what it gives."""
from __future__ import annotations

import functools
import importlib
import re
import time
import uuid
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any, Callable, Mapping, Type, Union

from chalice import Blueprint, CustomAuthorizer, Response

from chalicelib import jsoncodec, messages
from chalicelib.api.request_input import (
    MAX_BODY_BYTES,
    check_body_size,
    parse_json,
    path_ids,
    plain_number,
    validate,
    without_company,
)
from chalicelib.auth.authenticate import authenticate
from chalicelib.auth.policy import (
    Access,
    check_access,
    check_company_scope,
    check_origin,
    check_permission,
    check_rate_limit,
)
from chalicelib.auth.principal import Principal
from chalicelib.domain.roles import ACCOUNTING, MANAGE, READ, WRITE
from chalicelib.errors import (
    ApiError,
    InternalError,
    MethodNotAllowed,
    Unauthorized,
    ValidationFailed,
)
from chalicelib.observability import logger, record_request, traced
from chalicelib.services import idempotency
from chalicelib.services.commands import Command
from chalicelib.settings import get_settings
from chalicelib.store.table import get_table
from chalicelib.store.transaction import run_with_retries

if TYPE_CHECKING:  # pydantic is imported by the first request that validates, not by a cold start
    from pydantic import BaseModel

__all__ = ["Access", "Call", "ROUTES", "RouteSpec", "endpoint", "READ", "WRITE", "MANAGE", "ACCOUNTING"]

# Every route is guarded by the REQUEST authorizer when deployed. infra/deploy/resources.json turns
# this placeholder into a REQUEST authorizer backed by the `authorizer` Lambda function.
GATEWAY_AUTHORIZER = CustomAuthorizer(
    "RequestAuthorizer", header="Authorization", ttl_seconds=0,
    authorizer_uri="arn:aws:apigateway:us-east-1:lambda:path/2015-03-31/functions/"
                   "arn:aws:lambda:us-east-1:000000000000:function:authorizer/invocations")

JSON_HEADERS = {"Content-Type": "application/json"}
FORM = "application/x-www-form-urlencoded"
_PATH_PARAMETER = re.compile(r"{(\w+)}")


# The body of a POST that takes no fields: only `{}` or nothing.
EMPTY_BODY = "chalicelib.models.base:EmptyBody"

# A model is a class, or "module:Class" imported on first use: a cold Lambda then pays only for
# the models of the routes it serves (see infra/bench/imports.py for the import-time budget).
ModelRef = Union[Type["BaseModel"], str]


@functools.lru_cache(maxsize=None)
def _import_model(reference: str) -> type[BaseModel]:
    module, name = reference.split(":")
    return getattr(importlib.import_module(module), name)


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
    # record was there already (the service sets command.already_there: success_status).
    also_answers: tuple[int, ...] = ()
    # The handler reads the expected version (If-Match or the body's `version`): set on registering.
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


ROUTES: list[RouteSpec] = []


@dataclass
class Call:
    """What a handler gets: the caller, the validated input and the command to run with."""
    spec: RouteSpec
    principal: Principal | None
    headers: Mapping[str, str]
    body: Any
    query: Any
    ids: dict[str, Any]
    command: Command | None
    response_headers: dict[str, str] = field(default_factory=dict)
    # the client's address as API Gateway (or chalice's local gateway) saw it
    source_address: str | None = None

    def expected_version(self) -> int | None:
        """Optimistic concurrency: the body's `version`, else an If-Match header."""
        version = getattr(self.body, "version", None)
        if version is not None:
            return int(version)
        raw = (self.headers.get("if-match") or "").strip().removeprefix("W/").strip('"')
        if not raw:
            return None
        # as many digits as an id at most: a version is counted from 1, and `int` refuses a text
        # of 4,301 digits or more (a 500)
        version = plain_number(raw)
        if not version:
            raise ValidationFailed.for_field("If-Match", "must be the resource's version number")
        return version

    def changes(self) -> dict[str, Any]:
        """The fields a sparse update sends, by their JSON names, without `version`."""
        sent = self.body.model_dump(by_alias=True, exclude_unset=True)
        sent.pop("version", None)
        return sent


def endpoint(blueprint: Blueprint, method: str, path: str, *, summary: str, tag: str,
             body: ModelRef | None = None, query: ModelRef | None = None,
             response: ModelRef | None = None, status: int | None = None,
             access: Access = Access.ANY, permission: str | None = None,
             idempotent: bool | None = None, string_ids: tuple[str, ...] = (),
             names_company: bool = False, produces: str | None = None,
             exports: tuple[str, ...] = (), counts: str | None = None,
             also_answers: tuple[int, ...] = (), max_body_bytes: int = MAX_BODY_BYTES,
             raw_body_types: tuple[str, ...] = ()) -> Callable[..., Any]:
    spec = RouteSpec(
        method=method, path=path, summary=summary, tag=tag,
        body=body if body is not None or method not in ("POST", "PUT", "PATCH") else EMPTY_BODY,
        query=query, response=response, status=status or (201 if method == "POST" else 200),
        access=access, permission=permission or (READ if method == "GET" else WRITE),
        idempotent=(method == "POST") if idempotent is None else idempotent, string_ids=string_ids,
        names_company=names_company, produces=produces, exports=exports, counts=counts, also_answers=also_answers,
        max_body_bytes=max_body_bytes, raw_body_types=raw_body_types)

    def register(handler: Callable[[Call], Any]) -> Callable[[Call], Any]:
        registered = replace(spec, versioned="expected_version" in handler.__code__.co_names)
        ROUTES.append(registered)

        @functools.wraps(handler)
        def view(**path_values: str) -> Response:
            return handle(registered, handler, blueprint.current_request, path_values)

        authorizer = None if registered.access is Access.PUBLIC else GATEWAY_AUTHORIZER
        blueprint.route(path, methods=[method], authorizer=authorizer, content_types=_ANY_CONTENT)(view)
        for media_type in ([produces] if produces else []) + [t for t in exports if not t.startswith("text/")]:
            _declare_binary_type(blueprint, media_type)
        return handler

    return register


def _declare_binary_type(blueprint: Blueprint, media_type: str) -> None:
    """Chalice base64-encodes a body, and the packaged API Gateway (binaryMediaTypes) decodes
    it, only for the app's `api.binary_types`: the blueprint adds the type to the app it is
    registered on (Chalice's deferred registrations are the blueprints' hook for that)."""
    def add(app: Any, _options: dict[str, Any]) -> None:
        if media_type not in app.api.binary_types:
            app.api.binary_types.append(media_type)

    blueprint._deferred_registrations.append(add)


def check_accepts(media_type: str, headers: Mapping[str, str]) -> None:
    """A binary answer needs `Accept: <media type>` first in the header: API Gateway decodes a
    base64 body only when the first Accept value is one of the API's binary types (else the
    client would get base64 text), and Chalice refuses it without one. 406 in every layer."""
    first = (headers.get("accept") or "").split(",")[0].split(";")[0].strip().lower()
    if first != media_type:
        raise ApiError(f"This route answers {media_type}: send the header Accept: {media_type}.",
                       code="NOT_ACCEPTABLE")


# Chalice would answer a Content-Type outside this list itself, with a body of its own shape;
# the pipeline decides instead (415 UNSUPPORTED_MEDIA_TYPE as JSON).
_ANY_CONTENT = ["*/*"]


def handle(spec: RouteSpec, handler: Callable[[Call], Any], request: Any,
           path_values: Mapping[str, str]) -> Response:
    started = time.perf_counter()
    headers = {name.lower(): value for name, value in (request.headers or {}).items()}
    correlation_id = _correlation_id(headers.get("x-request-id"), request)
    route = f"{spec.method} {spec.path}"
    # per-thread keys: the local stack serves several requests at once in one process
    logger.thread_safe_append_keys(correlation_id=correlation_id, route=route)
    outcome = "OK"
    try:
        with traced(f"## {route}", correlation_id=correlation_id, route=route):
            response = _run(spec, handler, request, headers, path_values)
    except ApiError as error:
        response, outcome = error_response(error, messages.language(headers)), error.code
    except Exception:  # a 500 is a bug: log it whole, reveal nothing
        logger.exception("unhandled error")
        response, outcome = error_response(InternalError(), messages.language(headers)), InternalError.code
    response.headers["X-Request-Id"] = correlation_id
    logger.info("request", extra={"status": response.status_code})
    logger.thread_safe_clear_keys()
    replayed = response.headers.get("Idempotent-Replayed") == "true"
    record_request(route, outcome, (time.perf_counter() - started) * 1000,
                   spec.counts if outcome == "OK" and not replayed else None)
    return response


_CORRELATION_ID = re.compile(r"^[A-Za-z0-9._:-]{1,128}$")


def _correlation_id(sent: str | None, request: Any) -> str:
    """The caller's X-Request-Id when it is a sane token, else API Gateway's request id."""
    if sent and _CORRELATION_ID.match(sent):
        return sent
    return (request.context or {}).get("requestId") or uuid.uuid4().hex


def error_response(error: ApiError, language: str = messages.ENGLISH) -> Response:
    return Response(body=jsoncodec.dumps(error.body(language)), status_code=error.status,
                    headers={**JSON_HEADERS, "Content-Language": language, **error.headers})


def resolve_principal(request: Any, headers: Mapping[str, str]) -> Principal:
    settings = get_settings()
    if settings.auth_at_gateway:
        principal = Principal.from_context((request.context or {}).get("authorizer") or {})
        if principal is None:
            raise Unauthorized()
        return principal
    return authenticate(headers, get_table())


def _run(spec: RouteSpec, handler: Callable[[Call], Any], request: Any, headers: dict[str, str],
         path_values: Mapping[str, str]) -> Response:
    settings = get_settings()
    table = get_table()
    principal = None if spec.access is Access.PUBLIC else resolve_principal(request, headers)
    check_origin(spec.method, spec.path, headers, principal, settings.allowed_origins)
    if principal is not None:
        check_access(spec.method, spec.access, principal)
        check_permission(principal, spec.permission)
        check_rate_limit(principal, settings, table)
    query_values = dict(request.query_params or {})
    if spec.raw_body_types:
        raw_body = _raw_body_checked(spec, request.raw_body, headers)
    else:
        raw_body = parse_json(request.raw_body, headers, spec.max_body_bytes)
    if principal is not None and not spec.names_company:
        check_company_scope(principal, query_values, raw_body)
        query_values, raw_body = without_company(query_values), without_company(raw_body)
    ids = path_ids(spec, path_values)
    query = validate(spec.query_model, query_values, "query") if spec.query else None
    body = validate(spec.body_model, {} if raw_body is None else raw_body, "body") \
        if spec.body and not spec.raw_body_types else None
    if spec.produces is not None:
        check_accepts(spec.produces, headers)

    command = None
    idempotency_request = None
    if principal is not None:
        key = idempotency.parse_key(headers.get("idempotency-key")) if spec.idempotent else None
        if key:
            path = (request.context or {}).get("path") or spec.path
            idempotency_request = idempotency.Request(
                key, idempotency.fingerprint(spec.method, path, raw_body))
        command = Command(principal, table, idempotency_request)
        command.render = lambda result, command=command: (success_status(spec, command), render_body(spec, result))
    source_address = ((request.context or {}).get("identity") or {}).get("sourceIp")
    call = Call(spec, principal, headers, body, query, ids, command, source_address=source_address)

    def attempt() -> Response:
        if idempotency_request is not None and principal is not None:
            stored = idempotency.find_answer(table, principal.company_id, idempotency_request)
            if stored is not None:
                return Response(body=stored.body, status_code=stored.status,
                                headers={**JSON_HEADERS, "Idempotent-Replayed": "true"})
        call.response_headers = {}
        if command is not None:
            command.already_there = False
        result = handler(call)
        if isinstance(result, Response):
            return result
        return Response(body=render_body(spec, result), status_code=success_status(spec, command),
                        headers={**JSON_HEADERS, **call.response_headers})

    return run_with_retries(attempt)


def _raw_body_checked(spec: RouteSpec, raw: bytes | None, headers: Mapping[str, str]) -> None:
    """A route reading its raw body: its size, and a media type it reads (none sent: JSON)."""
    check_body_size(raw, spec.max_body_bytes)
    content_type = headers.get("content-type", "").split(";")[0].strip().lower()
    if content_type and content_type not in spec.raw_body_types:
        raise ApiError("Send the body as application/json or application/x-www-form-urlencoded."
                       if FORM in spec.raw_body_types else "Send the body as application/json.",
                       code="UNSUPPORTED_MEDIA_TYPE")
    return None


def success_status(spec: RouteSpec, command: Command | None) -> int:
    """A create-or-update POST that found its record there already answers 200, not 201."""
    return 200 if command is not None and command.already_there else spec.status


def render_body(spec: RouteSpec, result: Any) -> str:
    if hasattr(result, "model_dump"):  # a pydantic model already
        return jsoncodec.dumps(result.model_dump(by_alias=True))
    if spec.response is not None:
        return jsoncodec.dumps(spec.response_model.model_validate(result).model_dump(by_alias=True))
    return jsoncodec.dumps(result)


HTTP_METHODS = ("GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS")


def add_method_fallbacks(app: Any) -> None:
    """API Gateway answers a method a resource lacks like an unknown path; registering the
    missing methods makes every layer answer 405 METHOD_NOT_ALLOWED with an Allow header."""
    public_paths = {spec.path for spec in ROUTES if spec.access is Access.PUBLIC}
    for path, methods in list(app.routes.items()):
        allowed = ", ".join(sorted(methods))
        for method in HTTP_METHODS:
            if method in methods:
                continue
            spec = RouteSpec(method=method, path=path, summary="", tag="", body=None, query=None,
                             response=None, status=405,
                             access=Access.PUBLIC if path in public_paths else Access.ANY,
                             permission=READ, idempotent=False)

            def not_allowed(call: Call, allowed: str = allowed) -> Any:
                raise MethodNotAllowed(headers={"Allow": allowed})

            def view(_spec: RouteSpec = spec, _handler: Any = not_allowed, **path_values: str) -> Response:
                return handle(_spec, _handler, app.current_request, path_values)

            authorizer = None if spec.access is Access.PUBLIC else GATEWAY_AUTHORIZER
            app.route(path, methods=[method], authorizer=authorizer, content_types=_ANY_CONTENT,
                      name=f"method_not_allowed_{method}_{path}")(view)


def page_body(field_name: str, page: Any) -> dict[str, Any]:
    """A list answer for the route's response model to validate: {<plural>: [...], total, page,
    limit, nextCursor}."""
    return {field_name: page.items, "total": page.total, "page": page.page, "limit": page.limit,
            "nextCursor": page.next_cursor}
