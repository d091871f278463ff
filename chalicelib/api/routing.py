"""Declaring a route: its models (for validation and the OpenAPI document), who may call it,
and the request pipeline every route runs through:

    authenticate -> origin check -> API-key limits -> role -> rate limit -> company scope
    -> parse query and body -> Idempotency-Key -> the handler (retried when it lost a race)
    -> render

Handlers stay thin: they call one service function and return what it gives."""
from __future__ import annotations

import functools
import re
import time
import uuid
from dataclasses import dataclass, field
from typing import Any, Callable, Mapping, TypedDict

from chalice import Blueprint, CustomAuthorizer, Response

from chalicelib import jsoncodec, messages
from chalicelib.api.request_input import (
    check_body_size,
    parse_json,
    path_ids,
    plain_number,
    validate,
    without_company,
)
from chalicelib.api.route_spec import MAX_BODY_BYTES, ModelRef, RouteSpec
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
from chalicelib.messages.phrases import Phrase
from chalicelib.observability import logger, record_request, traced
from chalicelib.services import idempotency
from chalicelib.services.commands import Command, Existing
from chalicelib.settings import get_settings
from chalicelib.store.table import get_table
from chalicelib.store.transaction import run_with_retries

__all__ = ["Access", "Call", "ROUTES", "RouteSpec", "endpoint", "READ", "WRITE", "MANAGE", "ACCOUNTING"]

# Every route is guarded by the REQUEST authorizer when deployed. infra/deploy/resources.json turns
# this placeholder into a REQUEST authorizer backed by the `authorizer` Lambda function.
GATEWAY_AUTHORIZER = CustomAuthorizer(
    "RequestAuthorizer", header="Authorization", ttl_seconds=0,
    authorizer_uri="arn:aws:apigateway:us-east-1:lambda:path/2015-03-31/functions/"
                   "arn:aws:lambda:us-east-1:000000000000:function:authorizer/invocations")

class Guard(TypedDict):
    """Who may call a route (endpoint's `access` and `permission`), shared by a module's routes."""
    access: Access
    permission: str


# The routes only a manager signed in to the web app may call (users, webhooks).
WEB_MANAGERS: Guard = {"access": Access.WEB_SESSION, "permission": MANAGE}

JSON_HEADERS = {"Content-Type": "application/json"}
FORM = "application/x-www-form-urlencoded"


# The body of a POST that takes no fields: only `{}` or nothing.
EMPTY_BODY = "chalicelib.models.base:EmptyBody"


ROUTES: list[RouteSpec] = []


@dataclass
class Call:
    """What a handler gets: the caller, the validated input and the command to run with. A
    public route has no caller: only its handler may not ask for one (a bug, answered 500)."""
    spec: RouteSpec
    headers: Mapping[str, str]
    body: Any
    query: Any
    ids: dict[str, Any]
    caller: Principal | None = None
    caller_command: Command | None = None
    response_headers: dict[str, str] = field(default_factory=dict)
    # the client's address as API Gateway (or chalice's local gateway) saw it
    source_address: str | None = None

    @property
    def principal(self) -> Principal:
        if self.caller is None:
            raise RuntimeError(f"{self.spec.method} {self.spec.path} is public: it has no caller")
        return self.caller

    @property
    def command(self) -> Command:
        if self.caller_command is None:
            raise RuntimeError(f"{self.spec.method} {self.spec.path} is public: it runs no command")
        return self.caller_command

    def expected_version(self) -> int | None:
        """Optimistic concurrency: the body's `version`, else an If-Match header. Only a route
        declared `versioned` reads it (the OpenAPI document names If-Match for those)."""
        if not self.spec.versioned:
            raise RuntimeError(f"{self.spec.method} {self.spec.path} reads a version: declare it versioned=True")
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
        sent: dict[str, Any] = self.body.model_dump(by_alias=True, exclude_unset=True)
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
             raw_body_types: tuple[str, ...] = (), versioned: bool = False) -> Callable[..., Any]:
    spec = RouteSpec(
        method=method, path=path, summary=summary, tag=tag,
        body=body if body is not None or method not in ("POST", "PUT", "PATCH") else EMPTY_BODY,
        query=query, response=response, status=status or (201 if method == "POST" else 200),
        access=access, permission=permission or (READ if method == "GET" else WRITE),
        idempotent=(method == "POST") if idempotent is None else idempotent, string_ids=string_ids,
        names_company=names_company, produces=produces, exports=exports, counts=counts, also_answers=also_answers,
        max_body_bytes=max_body_bytes, raw_body_types=raw_body_types, versioned=versioned)

    def register(handler: Callable[[Call], Any]) -> Callable[[Call], Any]:
        ROUTES.append(spec)

        @functools.wraps(handler)
        def route_view(**path_values: str) -> Response:
            return handle(spec, handler, blueprint.current_request, path_values)

        authorizer = None if spec.access is Access.PUBLIC else GATEWAY_AUTHORIZER
        blueprint.route(path, methods=[method], authorizer=authorizer, content_types=_ANY_CONTENT)(route_view)
        return handler

    return register


def declare_binary_types(app: Any) -> None:
    """Chalice base64-encodes a body, and the packaged API Gateway (binaryMediaTypes) decodes
    it, only for the app's `api.binary_types`: every media type a route answers as bytes (a PDF,
    an XLSX) is added once the app has its routes."""
    for spec in ROUTES:
        for media_type in spec.binary_types:
            if media_type not in app.api.binary_types:
                app.api.binary_types.append(media_type)


def check_accepts(media_type: str, headers: Mapping[str, str]) -> None:
    """A binary answer needs `Accept: <media type>` first in the header: API Gateway decodes a
    base64 body only when the first Accept value is one of the API's binary types (else the
    client would get base64 text), and Chalice refuses it without one. 406 in every layer."""
    first = (headers.get("accept") or "").split(",")[0].split(";")[0].strip().lower()
    if first != media_type:
        raise ApiError(Phrase("This route answers {}: send the header Accept: {}.", media_type, media_type),
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
    raw_body: Any = None   # a route reading its raw body parses it itself
    if spec.raw_body_types:
        _check_raw_body(spec, request.raw_body, headers)
    else:
        raw_body = parse_json(request.raw_body, headers, spec.max_body_bytes)
    if principal is not None and not spec.names_company:
        check_company_scope(principal, query_values, raw_body)
        query_values, raw_body = without_company(query_values), without_company(raw_body)
    ids = path_ids(spec, path_values)
    query_model = spec.query_model
    query = validate(query_model, query_values, "query") if query_model is not None else None
    body_model = None if spec.raw_body_types else spec.body_model
    body = validate(body_model, {} if raw_body is None else raw_body, "body") if body_model is not None else None
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
        command = Command(principal, table, idempotency_request, render=functools.partial(answer, spec))
    source_address = ((request.context or {}).get("identity") or {}).get("sourceIp")
    call = Call(spec, headers, body, query, ids, caller=principal, caller_command=command,
                source_address=source_address)

    def attempt() -> Response:
        if idempotency_request is not None and principal is not None:
            stored = idempotency.find_answer(table, principal.company_id, idempotency_request)
            if stored is not None:
                return Response(body=stored.body, status_code=stored.status,
                                headers={**JSON_HEADERS, "Idempotent-Replayed": "true"})
        call.response_headers = {}
        result = handler(call)
        if isinstance(result, Response):
            return result
        status, body = answer(spec, result)
        return Response(body=body, status_code=status, headers={**JSON_HEADERS, **call.response_headers})

    return run_with_retries(attempt)


def _check_raw_body(spec: RouteSpec, raw: bytes | None, headers: Mapping[str, str]) -> None:
    """A route reading its raw body: its size, and a media type it reads (none sent: JSON)."""
    check_body_size(raw, spec.max_body_bytes)
    content_type = headers.get("content-type", "").split(";")[0].strip().lower()
    if content_type and content_type not in spec.raw_body_types:
        raise ApiError("Send the body as application/json or application/x-www-form-urlencoded."
                       if FORM in spec.raw_body_types else "Send the body as application/json.",
                       code="UNSUPPORTED_MEDIA_TYPE")


def answer(spec: RouteSpec, result: Any) -> tuple[int, str]:
    """The status and JSON body a handler's result answers. A create-or-update POST whose
    service says the record was there already (Existing) answers 200, not 201."""
    if isinstance(result, Existing):
        return 200, render_body(spec, result.value)
    return spec.status, render_body(spec, result)


def render_body(spec: RouteSpec, result: Any) -> str:
    if hasattr(result, "model_dump"):  # a pydantic model already
        return jsoncodec.dumps(result.model_dump(by_alias=True))
    model = spec.response_model
    if model is not None:
        return jsoncodec.dumps(model.model_validate(result).model_dump(by_alias=True))
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

            def refusal(_spec: RouteSpec = spec, _handler: Any = not_allowed, **path_values: str) -> Response:
                return handle(_spec, _handler, app.current_request, path_values)

            authorizer = None if spec.access is Access.PUBLIC else GATEWAY_AUTHORIZER
            app.route(path, methods=[method], authorizer=authorizer, content_types=_ANY_CONTENT,
                      name=f"method_not_allowed_{method}_{path}")(refusal)


def page_body(field_name: str, page: Any) -> dict[str, Any]:
    """A list answer for the route's response model to validate: {<plural>: [...], total, page,
    limit, nextCursor}."""
    return {field_name: page.items, "total": page.total, "page": page.page, "limit": page.limit,
            "nextCursor": page.next_cursor}
