"""The one error vocabulary of the API: every non-2xx answer is an ApiError rendered as
JSON {"message", "code", "details"?}."""
from __future__ import annotations

from typing import Any


class ApiError(Exception):
    status = 400
    code = "BAD_REQUEST"
    message = "The request could not be processed."

    def __init__(self, message: str | None = None, *, code: str | None = None,
                 status: int | None = None, details: list[dict[str, Any]] | None = None,
                 headers: dict[str, str] | None = None) -> None:
        self.message = message or type(self).message
        self.code = code or type(self).code
        self.status = status or type(self).status
        self.details = details
        self.headers = headers or {}
        super().__init__(self.message)

    # (validation kind, its context) of each detail pydantic found, for the detail's translation
    issues: list[tuple[str, dict[str, Any]] | None] | None = None

    def body(self, language: str = "en") -> dict[str, Any]:
        """The JSON answer, in the caller's language (chalicelib/messages)."""
        body: dict[str, Any] = {"message": self.message, "code": self.code}
        if self.details:
            body["details"] = self.details
        if language == "en":
            return body
        from chalicelib.messages import localized_body

        return localized_body(body, language, self.issues)


class ValidationFailed(ApiError):
    status = 400
    code = "VALIDATION_ERROR"
    message = "The request is invalid."

    @classmethod
    def for_field(cls, field: str, message: str) -> "ValidationFailed":
        return cls(f"{field}: {message}", details=[{"field": field, "message": message}])


class MalformedJson(ApiError):
    status = 400
    code = "MALFORMED_JSON"
    message = "The request body is not valid JSON."


class DocumentTooLarge(ApiError):
    status = 400
    code = "DOCUMENT_TOO_LARGE"
    message = "The operation would change more than 100 records in one transaction."


class Unauthorized(ApiError):
    status = 401
    code = "AUTHENTICATION_REQUIRED"
    message = "Authentication required: send the accessToken cookie or an API key."


class Forbidden(ApiError):
    status = 403
    code = "PERMISSION_DENIED"
    message = "You do not have permission to do this."


class NotFound(ApiError):
    status = 404
    code = "NOT_FOUND"
    message = "Resource not found."


class MethodNotAllowed(ApiError):
    status = 405
    code = "METHOD_NOT_ALLOWED"
    message = "Method not allowed on this path."


class Conflict(ApiError):
    status = 409
    code = "CONFLICT"
    message = "The resource changed; reload it and retry."


class IdempotencyKeyReused(ApiError):
    status = 422
    code = "IDEMPOTENCY_KEY_REUSED"
    message = "This Idempotency-Key was already used with a different request."


class RateLimited(ApiError):
    status = 429
    code = "RATE_LIMIT_EXCEEDED"
    message = "Too many requests for this API key; retry later."


class InternalError(ApiError):
    status = 500
    code = "INTERNAL_ERROR"
    message = "An internal error occurred."


class ServiceUnavailable(ApiError):
    status = 503
    code = "SERVICE_UNAVAILABLE"
    message = "The service is busy; retry shortly."


class VersionConflict(Conflict):
    code = "VERSION_CONFLICT"
    message = "The resource was changed by someone else; reload it and send the current version."
