"""The one error vocabulary of the API: every non-2xx answer is an ApiError rendered as
JSON {"message", "code", "details"?}. An error names its code only: its HTTP status is the
code's in the one table (chalicelib/error_codes.py), read where the error becomes a response."""
from __future__ import annotations

from typing import Any, Self

from chalicelib.error_codes import ERROR_CODES
from chalicelib.messages.phrases import Phrase


class ApiError(Exception):
    code = "BAD_REQUEST"
    message = "The request could not be processed."

    def __init__(self, message: str | None = None, *, code: str | None = None,
                 details: list[dict[str, Any]] | None = None,
                 headers: dict[str, str] | None = None) -> None:
        self.message = message or type(self).message
        self.code = code or type(self).code
        self.details = details
        self.headers = headers or {}
        super().__init__(self.message)

    @property
    def status(self) -> int:
        return ERROR_CODES[self.code][0]

    @property
    def server_side(self) -> bool:
        """The service failed (or a dependency did), not the request: worth sending again."""
        return self.status >= 500

    # (validation kind, its context) of each detail pydantic found, for the detail's translation
    issues: list[tuple[str, dict[str, Any]] | None] | None = None

    def body(self, language: str = "en") -> dict[str, Any]:
        """The JSON answer, in the caller's language, its fields named as a person knows them
        (chalicelib/messages)."""
        body: dict[str, Any] = {"message": self.message, "code": self.code}
        if self.details:
            body["details"] = self.details
        from chalicelib.messages import localized_body

        return localized_body(body, language, self.issues)


class ValidationFailed(ApiError):
    code = "VALIDATION_ERROR"
    message = "The request is invalid."

    @classmethod
    def for_field(cls, field: str, message: str, *, code: str | None = None) -> Self:
        # "<field>: <problem>": the field is named as a person knows it when the answer is written
        return cls(Phrase("{}: {}", field, message), code=code, details=[{"field": field, "message": message}])


class MalformedJson(ApiError):
    code = "MALFORMED_JSON"
    message = "The request body is not valid JSON."


class DocumentTooLarge(ApiError):
    code = "DOCUMENT_TOO_LARGE"
    message = "The operation would change more than 100 records in one transaction."


class Unauthorized(ApiError):
    code = "AUTHENTICATION_REQUIRED"
    message = "Authentication required: log in or send an API key."


class Forbidden(ApiError):
    code = "PERMISSION_DENIED"
    message = "You do not have permission to do this."


class NotFound(ApiError):
    code = "NOT_FOUND"
    message = "Resource not found."


class MethodNotAllowed(ApiError):
    code = "METHOD_NOT_ALLOWED"
    message = "Method not allowed on this path."


class Conflict(ApiError):
    code = "CONFLICT"
    message = "The resource changed; reload it and retry."


class IdempotencyKeyReused(ApiError):
    code = "IDEMPOTENCY_KEY_REUSED"
    message = "This Idempotency-Key was already used with a different request."


class RateLimited(ApiError):
    code = "RATE_LIMIT_EXCEEDED"
    message = "Too many requests for this API key; retry later."


class InternalError(ApiError):
    code = "INTERNAL_ERROR"
    message = "An internal error occurred."


class ServiceUnavailable(ApiError):
    code = "SERVICE_UNAVAILABLE"
    message = "The service is busy; retry shortly."


class VersionConflict(Conflict):
    code = "VERSION_CONFLICT"
    message = "The resource was changed by someone else; reload it and send the current version."
