"""GET /openapi.json: the OpenAPI 3.1 document, generated from the declared routes' models, so
every route is documented by being declared."""
from __future__ import annotations

from decimal import Decimal
from functools import lru_cache
from typing import TYPE_CHECKING, Any

from chalice import Blueprint

from chalicelib.api.routing import ROUTES, Access, Call, RouteSpec, endpoint

if TYPE_CHECKING:
    from pydantic import BaseModel

blueprint = Blueprint(__name__)

_ERROR_SCHEMA = {
    "type": "object", "required": ["message", "code"],
    "properties": {
        "message": {"type": "string"}, "code": {"type": "string"},
        "details": {"type": "array", "items": {
            "type": "object", "properties": {"field": {"type": "string"}, "message": {"type": "string"}}}},
    },
}
_ERRORS = {"400": "Validation failed (VALIDATION_ERROR, MALFORMED_JSON, ...)",
           "401": "Not authenticated", "403": "Not allowed (CSRF_*, WEB_SESSION_REQUIRED, ...)",
           "404": "Not found",
           "409": "Collides with another record or request (a taken code, an overlap, a stale version)",
           "422": "Idempotency-Key reused with another body", "429": "Rate limit exceeded",
           "500": "Internal error"}


@endpoint(blueprint, "GET", "/openapi.json", summary="This OpenAPI 3.1 document", tag="Meta")
def openapi_document(call: Call) -> dict[str, Any]:
    return build_document()


@lru_cache(maxsize=1)
def build_document() -> dict[str, Any]:
    # only this route needs the schema machinery: keep cold starts lean
    from pydantic.json_schema import models_json_schema

    inputs: list[tuple[type[BaseModel], Any]] = []
    for spec in ROUTES:
        if spec.body is not None:
            inputs.append((spec.body_model, "validation"))
        if spec.response is not None:
            inputs.append((spec.response_model, "serialization"))
    refs, definitions = models_json_schema(list(dict.fromkeys(inputs)),
                                           ref_template="#/components/schemas/{model}",
                                           schema_generator=_schema_generator())
    schemas = {**definitions.get("$defs", {}), "Error": _ERROR_SCHEMA}
    paths: dict[str, dict[str, Any]] = {}
    for spec in ROUTES:
        paths.setdefault(spec.path, {})[spec.method.lower()] = _operation(spec, refs)
    return {
        "openapi": "3.1.0",
        "info": {"title": "Business administration API (Honduras, El Salvador)", "version": "1.0.0"},
        "servers": [{"url": "/"}],
        "components": {"schemas": schemas, "securitySchemes": {
            "session": {"type": "apiKey", "in": "cookie", "name": "accessToken"},
            "bearerKey": {"type": "http", "scheme": "bearer", "bearerFormat": "KEY_ID:SECRET"},
            "headerKey": {"type": "apiKey", "in": "header", "name": "X-API-Key"}}},
        "security": [{"session": []}, {"bearerKey": []}, {"headerKey": []}],
        "paths": paths,
    }


def _schema_generator() -> Any:
    from pydantic.json_schema import GenerateJsonSchema
    from pydantic_core import core_schema

    class ApiJsonSchema(GenerateJsonSchema):
        def decimal_schema(self, schema: Any) -> Any:
            """Money and rates travel as JSON numbers (jsoncodec), in both directions."""
            bounds = {name: schema[name] for name in ("multiple_of", "le", "ge", "lt", "gt") if name in schema}
            return self.float_schema(core_schema.float_schema(**bounds))

        def encode_default(self, dft: Any) -> Any:
            return dft if isinstance(dft, Decimal) else super().encode_default(dft)

        def default_schema(self, schema: Any) -> Any:
            """A sparse-update field defaults to "not sent", which is not a value: a null default
            on a field that refuses null is left out of the document."""
            json_schema = super().default_schema(schema)
            if json_schema.get("default", ...) is None and not _accepts_null(json_schema):
                json_schema.pop("default")
            return json_schema

    return ApiJsonSchema


def _accepts_null(json_schema: dict[str, Any]) -> bool:
    kinds = json_schema.get("type")
    if kinds == "null" or (isinstance(kinds, list) and "null" in kinds):
        return True
    return any(_accepts_null(option) for option in json_schema.get("anyOf", []) + json_schema.get("oneOf", []))


def _operation(spec: RouteSpec, refs: dict[Any, Any]) -> dict[str, Any]:
    operation: dict[str, Any] = {"summary": spec.summary, "tags": [spec.tag],
                                 "operationId": f"{spec.method.lower()}{spec.path}".replace("/", "_")
                                 .replace("{", "").replace("}", "").replace("-", "_").replace(".", "_")}
    parameters = [{"name": name, "in": "path", "required": True,
                   "schema": {"type": "string"} if name in spec.string_ids else {"type": "integer"}}
                  for name in spec.path_parameters]
    if spec.query is not None:
        properties = spec.query_model.model_json_schema()["properties"]
        for name, field in spec.query_model.model_fields.items():
            alias = field.alias or name
            parameters.append({"name": alias, "in": "query", "required": field.is_required(),
                               "schema": properties[alias]})
    if spec.idempotent:
        parameters.append({"name": "Idempotency-Key", "in": "header", "required": False,
                           "schema": {"type": "string", "maxLength": 255}})
    if parameters:
        operation["parameters"] = parameters
    if spec.body is not None and spec.body_model.model_fields:
        operation["requestBody"] = {"required": True, "content": {
            "application/json": {"schema": refs[(spec.body_model, "validation")]}}}
    success: dict[str, Any] = {"description": "Success"}
    if spec.produces is not None:
        success["content"] = {spec.produces: {"schema": {"type": "string", "contentMediaType": spec.produces}}}
    elif spec.response is not None:
        success["content"] = {"application/json": {"schema": refs[(spec.response_model, "serialization")]}}
    errors = {**_ERRORS, "406": f"The request's first Accept value is not {spec.produces}"} if spec.produces else _ERRORS
    operation["responses"] = {str(spec.status): success, **{
        status: {"description": text, "content": {"application/json": {
            "schema": {"$ref": "#/components/schemas/Error"}}}} for status, text in errors.items()}}
    if spec.access is Access.PUBLIC:
        operation["security"] = []
    elif spec.access is not Access.ANY:
        operation["security"] = [{"session": []}]
        operation["description"] = "Web session only: an API key gets 403."
    return operation
