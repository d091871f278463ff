"""Request rules that follow authentication: the origin check (spec rule 9), the limits of an
API key (rules 6-8), company scope (rule 2), roles and the per-key rate limit."""
from __future__ import annotations

import math
from enum import Enum
from typing import Any, Mapping
from urllib.parse import urlsplit

from chalicelib import clock
from chalicelib.auth.principal import API_KEY, Principal
from chalicelib.domain.roles import may
from chalicelib.errors import Forbidden, RateLimited
from chalicelib.messages.phrases import Phrase
from chalicelib.settings import Settings
from chalicelib.store import keys
from chalicelib.store.table import Table

MUTATING_METHODS = frozenset({"POST", "PUT", "PATCH", "DELETE"})
INBOUND_CALLBACK_PREFIX = "/webhooks/"
COMPANY_FIELDS = ("companyId", "company_id")


class Access(Enum):
    """Who may call a route, beyond being authenticated."""
    ANY = "any"                        # web session or API key
    WEB_SESSION = "web_session"        # web app only: WEB_SESSION_REQUIRED for API keys
    KEY_MANAGEMENT = "key_management"  # web app only: API_KEY_MANAGEMENT_FORBIDDEN for API keys
    PUBLIC = "public"                  # the login itself: no principal yet


def origin_of(url: str) -> str | None:
    parts = urlsplit(url.strip())
    if not parts.scheme or not parts.netloc:
        return None
    return f"{parts.scheme.lower()}://{parts.netloc.lower()}"


def is_inbound_callback(path: str) -> bool:
    return path.startswith(INBOUND_CALLBACK_PREFIX)


def check_origin(method: str, path: str, headers: Mapping[str, str], principal: Principal | None,
                 allowed_origins: tuple[str, ...]) -> None:
    if method not in MUTATING_METHODS or is_inbound_callback(path):
        return
    origin, referer = headers.get("origin"), headers.get("referer")
    if not origin and not referer:
        if principal is not None and principal.kind == API_KEY:
            return
        raise Forbidden("A mutating request needs an Origin or Referer header (or an API key).",
                        code="CSRF_NO_ORIGIN")
    candidate = origin_of(origin) if origin else origin_of(referer or "")
    allowed = {o.lower() for o in allowed_origins}
    if candidate is None or candidate not in allowed:
        raise Forbidden("The request's Origin is not allowed.", code="CSRF_ORIGIN")


def check_access(method: str, access: Access, principal: Principal) -> None:
    if principal.kind != API_KEY:
        return
    if method == "DELETE":
        raise Forbidden("DELETE is not available with an API key; use the web app, or the cancel "
                        "and reverse operations.", code="API_KEY_DELETE_FORBIDDEN")
    if access is Access.KEY_MANAGEMENT:
        raise Forbidden("API keys cannot be managed with an API key; use the web app.",
                        code="API_KEY_MANAGEMENT_FORBIDDEN")
    if access is Access.WEB_SESSION:
        raise Forbidden("This operation is only available in the web app.", code="WEB_SESSION_REQUIRED")


def check_permission(principal: Principal, permission: str) -> None:
    if not may(principal.role, permission):
        raise Forbidden(Phrase("Your role ({}) may not do this.", principal.role), code="PERMISSION_DENIED")


def check_company_scope(principal: Principal, query: Mapping[str, str],
                        body: Any) -> None:
    """A company id in the query string or body must be the caller's own (spec rule 2)."""
    claimed = [query.get(name) for name in COMPANY_FIELDS]
    if isinstance(body, dict):
        claimed += [body.get(name) for name in COMPANY_FIELDS]
    for value in claimed:
        if value is not None and str(value) != str(principal.company_id):
            raise Forbidden("The request names another company than the one of your credentials.",
                            code="COMPANY_MISMATCH")


def check_rate_limit(principal: Principal, settings: Settings, table: Table) -> None:
    """Fixed window per API key: one atomic ADD on a counter item that expires with its window."""
    if not settings.rate_limit_enabled or principal.kind != API_KEY or not principal.key_id:
        return
    window = settings.rate_limit_window_seconds
    now = clock.epoch_seconds()
    window_start = now - now % window
    count = table.add(keys.rate_window(principal.company_id, principal.key_id, window_start),
                      "requests", expires_at=window_start + window + 60)
    if count > settings.rate_limit_requests:
        retry_after = max(1, math.ceil(window_start + window - now))
        raise RateLimited(headers={"Retry-After": str(retry_after)},
                          details=[{"field": "limit",
                                    "message": Phrase("{} requests per {} s", settings.rate_limit_requests, window)}])
