"""The JSON schemas of the OpenAPI document, shaped for the client generators that read it
(openapi-python-client, openapi-typescript) and for binary-float validators (jsonschema, ajv):

- a request's schema has no `default` (the service applies it; generators would make the field
  required): the description says it; a response's every field is required (always sent);
- decimal places are `x-decimal-places` plus a sentence, not `multipleOf` (0.01 is no binary
  float: 19.99 is no multiple of it for a float validator);
- a response's dates and timestamps say `format` (date, date-time), by the fields' names;
- a model's rules between fields (`oneOf`, `anyOf`) and a number's allowed values (`enum`) sit
  inside `allOf`, where a generator leaves the properties and their types alone; every schema's
  title is its own name (no two classes alike)."""
from __future__ import annotations

import re
from decimal import Decimal
from typing import Any

from chalicelib import jsoncodec
from chalicelib.error_codes import ERROR_CODES

SCHEMAS = "#/components/schemas/"

ERROR_DETAIL_SCHEMA = {"type": "object", "description": "One field's (or rule's) complaint",
                       "properties": {"field": {"type": "string"}, "message": {"type": "string"},
                                      "row": {"type": "integer", "description": "an imported file's line (the "
                                              "heading is line 1; 0: the file as a whole)"},
                                      "column": {"type": ["string", "null"], "description": "an imported file's "
                                                 "column (the template's field name); null for the whole line"}}}


def error_schema(codes: list[str] | None = None, description: str | None = None) -> dict[str, Any]:
    """The error shape; for one status, with the codes it carries. Each is whole (no allOf of a
    shared one): a generator makes one class per schema and one `ErrorDetail` for all."""
    code: dict[str, Any] = {"type": "string"}
    if codes is not None:
        code["enum"] = codes
    schema: dict[str, Any] = {
        "type": "object", "required": ["message", "code"],
        "properties": {"message": {"type": "string"}, "code": code,
                       "details": {"type": "array", "items": {"$ref": f"{SCHEMAS}ErrorDetail"}}}}
    if description:
        schema["description"] = description
    return schema


def error_schemas() -> dict[str, Any]:
    """Error, ErrorDetail and Error<status>: the codes each status carries (chalicelib.error_codes)."""
    by_status: dict[int, list[str]] = {}
    for code, (status, _meaning) in ERROR_CODES.items():
        by_status.setdefault(status, []).append(code)
    return {"Error": error_schema(), "ErrorDetail": ERROR_DETAIL_SCHEMA, **{
        f"Error{status}": error_schema(codes, "\n".join(f"- `{code}`: {ERROR_CODES[code][1]}" for code in codes))
        for status, codes in sorted(by_status.items())}}


# A response's string fields by name: `date`, `…Date` and `deadline` hold YYYY-MM-DD, `…At` a
# UTC timestamp (chalicelib.clock.iso).
_DATE_NAME = re.compile(r"^(date|deadline)$|Date$")
_TIMESTAMP_NAME = re.compile(r"At$")


def schema_generator() -> Any:
    from pydantic.json_schema import GenerateJsonSchema
    from pydantic_core import core_schema

    class ApiJsonSchema(GenerateJsonSchema):
        def decimal_schema(self, schema: Any) -> Any:
            """Money and rates travel as JSON numbers (jsoncodec), in both directions."""
            bounds = {name: schema[name] for name in ("le", "ge", "lt", "gt") if name in schema}
            json_schema = self.float_schema(core_schema.float_schema(**bounds))
            if "decimal_places" in schema:
                json_schema["x-decimal-places"] = schema["decimal_places"]
            return json_schema

        def encode_default(self, dft: Any) -> Any:
            return dft if isinstance(dft, Decimal) else super().encode_default(dft)

        def default_schema(self, schema: Any) -> Any:
            json_schema = super().default_schema(schema)
            default = json_schema.pop("default", None)
            if self.mode == "validation":
                # described, not declared: openapi-typescript makes a field with a default required
                if default is not None:
                    json_schema["x-default"] = default
            elif default is not None or _accepts_null(json_schema):
                # a sparse update's "not sent" is no value of a field that refuses null
                json_schema["default"] = default
            return json_schema

        def field_title_should_be_set(self, schema: Any) -> bool:
            return False  # "Unitprice": the name says it better, and a generator names classes by titles

        def field_is_required(self, field: Any, total: bool) -> bool:
            if self.mode == "serialization":  # a response carries every field (render_body)
                return field.get("serialization_exclude_if") is None
            return super().field_is_required(field, total)

        def model_fields_schema(self, schema: Any) -> Any:
            json_schema = super().model_fields_schema(schema)
            if self.mode == "serialization":
                for name, field_schema in self.resolve_ref_schema(json_schema).get("properties", {}).items():
                    _add_time_format(name, field_schema)
            return json_schema

    return ApiJsonSchema


def _accepts_null(json_schema: dict[str, Any]) -> bool:
    kinds = json_schema.get("type")
    if kinds == "null" or (isinstance(kinds, list) and "null" in kinds):
        return True
    return any(_accepts_null(option) for option in json_schema.get("anyOf", []) + json_schema.get("oneOf", []))


def _add_time_format(name: str, field_schema: dict[str, Any]) -> None:
    time_format = "date" if _DATE_NAME.search(name) else "date-time" if _TIMESTAMP_NAME.search(name) else None
    if time_format is None:
        return
    for option in [field_schema, *field_schema.get("anyOf", [])]:
        if option.get("type") == "string" and "format" not in option:
            option["format"] = time_format


def shape_for_generators(schemas: dict[str, Any], refs: dict[Any, Any]) -> dict[str, Any]:
    """The definitions renamed where pydantic qualified a name with its module (two models
    named alike), each titled with its name, rules between fields inside `allOf`, and the
    extensions (`x-default`, `x-decimal-places`) said in words. `refs` is updated in place."""
    renamed = {name: _readable_name(name) for name in schemas}
    if len(set(renamed.values())) != len(renamed):
        raise ValueError(f"two schemas would share a name: {sorted(renamed)}")
    shaped = {renamed[name]: _renamed_refs(schema, renamed) for name, schema in schemas.items()}
    for key, ref in refs.items():
        refs[key] = _renamed_refs(ref, renamed)
    for name, schema in shaped.items():
        schema["title"] = name
        rules = [{kind: schema.pop(kind)} for kind in ("oneOf", "anyOf") if kind in schema and "properties" in schema]
        if rules:
            schema["allOf"] = rules + schema.get("allOf", [])
        _shape_node(schema)
    return shaped


def _readable_name(name: str) -> str:
    """chalicelib__models__stock__Transfer -> StockTransfer; Partner-Input -> PartnerInput."""
    parts = name.split("__")
    qualified = parts[-2].title().replace("_", "") + parts[-1] if len(parts) > 1 else name
    return qualified.replace("-", "")


def _renamed_refs(node: Any, renamed: dict[str, str]) -> Any:
    if isinstance(node, dict):
        ref = node.get("$ref")
        if isinstance(ref, str) and ref.startswith(SCHEMAS):
            return {**node, "$ref": SCHEMAS + renamed.get(ref[len(SCHEMAS):], ref[len(SCHEMAS):])}
        return {key: _renamed_refs(value, renamed) for key, value in node.items()}
    if isinstance(node, list):
        return [_renamed_refs(item, renamed) for item in node]
    return node


def _shape_node(node: Any) -> None:
    """A number enum moves into `allOf` (openapi-python-client makes enums of strings and integers
    only; there it reads a float); extensions are said in words."""
    if isinstance(node, list):
        for item in node:
            _shape_node(item)
    if not isinstance(node, dict):
        return
    if node.get("type") == "number" and "enum" in node:
        node["allOf"] = [{"enum": node.pop("enum")}, *node.get("allOf", [])]
    said = []
    if "x-decimal-places" in node:
        places = node["x-decimal-places"]
        said.append(f"At most {places} decimal places" + (" (cents)." if places == 2 else "."))
    if "x-default" in node:
        said.append(f"Default: {jsoncodec.dumps(node.pop('x-default'))}.")
    if said:
        described = node.get("description", "")
        node["description"] = " ".join(([described + ("" if described.endswith(".") else ".")] if described else [])
                                       + said)
    for key, value in node.items():
        if key not in ("enum", "const", "default", "examples"):
            _shape_node(value)
