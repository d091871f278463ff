"""What a request brings, checked before a handler runs: the JSON body, the ids in the path and
the query and body validated by the route's models, refusals in the API's error format."""
from __future__ import annotations

from typing import TYPE_CHECKING, Any, Mapping

from chalicelib import jsoncodec
from chalicelib.api.route_spec import MAX_BODY_BYTES, RouteSpec
from chalicelib.auth.policy import COMPANY_FIELDS
from chalicelib.errors import ApiError, MalformedJson, NotFound, ValidationFailed
from chalicelib.messages.phrases import Phrase

if TYPE_CHECKING:
    from pydantic import BaseModel


def without_company(values: Any) -> Any:
    """A company id equal to the caller's own is tolerated and dropped (it says nothing new)."""
    if not isinstance(values, dict):
        return values
    return {name: value for name, value in values.items() if name not in COMPANY_FIELDS}


def check_body_size(raw: bytes | None, limit: int = MAX_BODY_BYTES) -> None:
    if raw and len(raw) > limit:
        raise ApiError(Phrase("The request body is larger than {} KB.", limit // 1024), code="REQUEST_TOO_LARGE")


def parse_json(raw: bytes | None, headers: Mapping[str, str], limit: int = MAX_BODY_BYTES) -> Any:
    check_body_size(raw, limit)
    if not raw or not raw.strip():
        return None
    content_type = headers.get("content-type", "application/json").split(";")[0].strip().lower()
    if content_type and not (content_type == "application/json" or content_type.endswith("+json")):
        raise ApiError("Send the body as application/json.", code="UNSUPPORTED_MEDIA_TYPE")
    try:
        return jsoncodec.loads(raw)
    except (ValueError, UnicodeDecodeError, RecursionError):
        raise MalformedJson() from None


def plain_number(raw: str, max_digits: int | None = 12) -> int | None:
    """The number a text of ASCII digits 0-9 writes, else None. `str.isdigit` alone would take
    other scripts' digits and superscripts ("١", "０", "²"), which `int` reads as another number
    (one) or refuses (a 500)."""
    if not (raw.isascii() and raw.isdigit()) or (max_digits is not None and len(raw) > max_digits):
        return None
    return int(raw)


def path_ids(spec: RouteSpec, values: Mapping[str, str]) -> dict[str, Any]:
    """Numeric ids in paths; anything else cannot name a resource, so it is a 404."""
    ids: dict[str, Any] = {}
    for name in spec.path_parameters:
        raw = values.get(name, "")
        if name in spec.string_ids:
            ids[name] = raw
            continue
        number = plain_number(raw)
        if not number:  # None, or 0: no id
            raise NotFound()
        ids[name] = number
    return ids


def validate(model: type[BaseModel], data: Any, location: str) -> Any:
    if not isinstance(data, dict):
        raise ValidationFailed(Phrase("The {} must be a JSON object.", location),
                               details=[{"field": location, "message": "must be a JSON object"}])
    from pydantic import ValidationError

    from chalicelib.models.base import issue_field, issue_message

    try:
        return model.model_validate(data)
    except ValidationError as error:
        found = error.errors(include_url=False)
        details = [{"field": issue_field(issue["loc"]) or location, "message": issue_message(dict(issue))} for issue in found]
        first = details[0]
        failure = ValidationFailed(Phrase("{}: {}", first['field'], first['message']), details=details)
        failure.issues = [(issue["type"], issue.get("ctx") or {}) for issue in found]
        raise failure from None
