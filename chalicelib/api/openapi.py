"""GET /openapi.json: the OpenAPI 3.1 document, generated from the declared routes' models, so
every route is documented by being declared."""
from __future__ import annotations

import re
from functools import lru_cache
from typing import TYPE_CHECKING, Any

from chalice import Blueprint

from chalicelib import countries
from chalicelib.api.openapi_schemas import error_schemas, schema_generator, shape_for_generators
from chalicelib.api.openapi_tags import TAG_DESCRIPTIONS
from chalicelib.api.routing import ROUTES, Access, Call, RouteSpec, endpoint
from chalicelib.services.idempotency import KEY_PATTERN as IDEMPOTENCY_KEY_PATTERN

if TYPE_CHECKING:
    from pydantic import BaseModel

blueprint = Blueprint(__name__)

_STATUS_TEXT = {400: "The request breaks a rule of the input or of the record's state", 401: "Not authenticated",
                403: "Not allowed", 404: "Not found (or another company's)",
                406: "The first Accept value is not the route's media type",
                409: "Collides with another record or request (a taken code, an overlap, a stale version)",
                413: "The body is larger than 1 MB", 415: "The body is not JSON",
                422: "Idempotency-Key reused with another request",
                429: "A limit was reached (Retry-After says when to retry)", 500: "Internal error",
                502: "A service the API depends on refused the request", 503: "Unavailable for now: retry later"}


INFO_DESCRIPTION = (
    "Money is a JSON number with at most 2 decimal places (`x-decimal-places` says each field's; exchange rates and "
    "average costs have more). A binary float holds few of them exactly (0.1 + 0.2 != 0.3): read them as decimals. "
    "Python: `json.loads(text, parse_float=decimal.Decimal)`, or httpx's `response.json(parse_float=Decimal)`. "
    "JavaScript: a decimal library fed the number's source text, e.g. lossless-json's "
    "`parse(text, null, (digits) => new Decimal(digits))` with decimal.js. README.md, \"Reading money exactly\". "
    "Large catalogues (El Salvador's economic activities, CAT-019) are patterns here: the service checks the code "
    "against the catalogue and answers 400 naming the field.")


def _error_statuses(spec: RouteSpec) -> list[int]:
    """The error statuses a route can answer: every route validates and can fail; the rest follow
    from what it takes and does."""
    statuses = {400, 401, 403, 404, 429, 500, 502, 503}
    if spec.method != "GET":
        statuses.add(409)
    if spec.body is not None:
        statuses.update((413, 415))
    if spec.idempotent:
        statuses.add(422)
    if spec.produces is not None:
        statuses.add(406)
    return sorted(statuses)


# Public, so that a client generator can be pointed at the URL: the document is built from the
# declared routes and models alone (no company's data, no secret; the same for every caller)
@endpoint(blueprint, "GET", "/openapi.json", summary="This OpenAPI 3.1 document (public: no key needed)", tag="Meta",
          access=Access.PUBLIC)
def openapi_document(call: Call) -> dict[str, Any]:
    return build_document()


@lru_cache(maxsize=1)
def build_document() -> dict[str, Any]:
    # only this route needs the schema machinery: keep cold starts lean
    from pydantic.json_schema import models_json_schema

    inputs: list[tuple[type[BaseModel], Any]] = []
    for spec in ROUTES:
        body_model, response_model = spec.body_model, spec.response_model
        if body_model is not None:
            inputs.append((body_model, "validation"))
        if response_model is not None:
            inputs.append((response_model, "serialization"))
    refs, definitions = models_json_schema(list(dict.fromkeys(inputs)),
                                           ref_template="#/components/schemas/{model}",
                                           schema_generator=schema_generator())
    refs = dict(refs)
    schemas = {**shape_for_generators(definitions.get("$defs", {}), refs), **error_schemas()}
    paths: dict[str, dict[str, Any]] = {}
    for spec in ROUTES:
        paths.setdefault(spec.path, {})[spec.method.lower()] = _operation(spec, refs)
    return {
        "openapi": "3.1.0",
        "info": {"title": "Business administration API (Honduras, El Salvador)", "version": "1.0.0",
                 "description": INFO_DESCRIPTION},
        "servers": [{"url": "/"}],
        "tags": [{"name": tag, "description": TAG_DESCRIPTIONS[tag]}
                 for tag in dict.fromkeys(spec.tag for spec in ROUTES)],
        "components": {"schemas": schemas, "securitySchemes": {
            "session": {"type": "apiKey", "in": "cookie", "name": "accessToken"},
            "bearerKey": {"type": "http", "scheme": "bearer", "bearerFormat": "KEY_ID:SECRET"},
            "headerKey": {"type": "apiKey", "in": "header", "name": "X-API-Key"}}},
        "security": [{"session": []}, {"bearerKey": []}, {"headerKey": []}],
        "paths": paths,
    }


def _operation_id(spec: RouteSpec) -> str:
    return (f"{spec.method.lower()}{spec.path}".replace("/", "_").replace("{", "").replace("}", "")
            .replace("-", "_").replace(".", "_"))


def _links(spec: RouteSpec) -> dict[str, Any]:
    """What a created record's id opens (OpenAPI links): every operation on the path below the
    collection it was created in. Clients, and the fuzzer's stateful phase, follow them."""
    if (spec.method != "POST" or spec.status != 201 or spec.access is not Access.ANY
            or "id" not in getattr(spec.response_model, "model_fields", {})):
        return {}  # (a company created from a session is not the one its routes act on)
    links = {}
    for target in ROUTES:
        rest = target.path[len(spec.path):]
        if not target.path.startswith(spec.path + "/{") or target.access is not Access.ANY:
            continue
        created = rest[2:rest.index("}")]
        parameters = {name: f"$request.path.{name}" for name in spec.path_parameters}
        if created in parameters or not set(target.path_parameters) <= {*parameters, created}:
            continue
        links[_operation_id(target)] = {"operationId": _operation_id(target),
                                        "parameters": {**parameters, created: "$response.body#/id"}}
    return links


def _query_schema(schema: dict[str, Any]) -> dict[str, Any]:
    """A query parameter is left out, never null (a query string has no null): without the null
    option, generators make it a plain optional value, not a union with None."""
    schema = {key: value for key, value in schema.items() if key != "title" and (key, value) != ("default", None)}
    options = [option for option in schema.get("anyOf", []) if option != {"type": "null"}]
    if len(options) == 1:
        del schema["anyOf"]
        schema = {**options[0], **schema}
    return schema


def _operation(spec: RouteSpec, refs: dict[Any, Any]) -> dict[str, Any]:
    operation: dict[str, Any] = {"summary": spec.summary, "tags": [spec.tag], "operationId": _operation_id(spec)}
    parameters = [{"name": name, "in": "path", "required": True,
                   "schema": {"type": "string"} if name in spec.string_ids else {"type": "integer"}}
                  for name in spec.path_parameters]
    query_model = spec.query_model
    if query_model is not None:
        properties = query_model.model_json_schema()["properties"]
        for name, field in query_model.model_fields.items():
            alias = field.alias or name
            parameters.append({"name": alias, "in": "query", "required": field.is_required(),
                               "schema": _query_schema(properties[alias])})
    if spec.versioned:
        parameters.append({"name": "If-Match", "in": "header", "required": False,
                           "description": "the version read (or the body's `version`): 409 VERSION_CONFLICT when "
                                          "the record changed since",
                           "schema": {"type": "string", "pattern": r'^\s*(W/)?"?[0-9]{1,12}"?\s*$'}})
    parameters.append({"name": "Accept-Language", "in": "header", "required": False,
                       "description": "`es` answers errors' messages and field details in Spanish; English otherwise",
                       "schema": {"type": "string", "examples": ["es", f"es-{countries.DEFAULT}", "en"]}})
    if spec.idempotent:
        parameters.append({"name": "Idempotency-Key", "in": "header", "required": False,
                           "schema": {"type": "string", "pattern": IDEMPOTENCY_KEY_PATTERN}})
    if spec.exports:
        parameters.append({"name": "Accept", "in": "header", "required": False,
                           "description": f"JSON unless the first value is one of {', '.join(spec.exports)}",
                           "schema": {"type": "string", "examples": ["application/json", *spec.exports]}})
    if spec.produces is not None:
        parameters.append({"name": "Accept", "in": "header", "required": True,
                           "description": "the first value must be the route's media type",
                           "schema": {"type": "string", "pattern": f"^ *{re.escape(spec.produces)} *(;[^,]*)?(,.*)?$"}})
    if parameters:
        operation["parameters"] = parameters
    body_model = spec.body_model
    if body_model is not None and (body_model.model_fields or body_model.model_config.get("extra") == "allow"):
        # no body at all reads as {} (routing.handle): a body of optional fields may be left out
        required = any(field.is_required() for field in body_model.model_fields.values())
        operation["requestBody"] = {"required": required, "content": {
            media_type: {"schema": refs[(body_model, "validation")]}
            for media_type in spec.raw_body_types or ("application/json",)}}
    success: dict[str, Any] = {"description": "Success"}
    if spec.produces is not None:
        success["content"] = {spec.produces: {"schema": {"type": "string", "contentMediaType": spec.produces}}}
    elif spec.response is not None:
        success["content"] = {"application/json": {"schema": refs[(spec.response_model, "serialization")]}, **{
            media_type: {"schema": {"type": "string", "contentMediaType": media_type}} for media_type in spec.exports}}
    links = _links(spec)
    if links:
        success["links"] = links
    operation["responses"] = {str(spec.status): success, **{str(status): success for status in spec.also_answers}, **{
        str(status): {"description": _STATUS_TEXT[status], "content": {"application/json": {
            "schema": {"$ref": f"#/components/schemas/Error{status}"}}}} for status in _error_statuses(spec)}}
    if spec.access is Access.PUBLIC:
        operation["security"] = []
    elif spec.access is not Access.ANY:
        operation["security"] = [{"session": []}]
        operation["description"] = "Web session only: an API key gets 403."
    return operation
