from __future__ import annotations

from dataclasses import dataclass
from typing import Any

SESSION = "session"
API_KEY = "api_key"
# Work the service does on its own for a company: the hourly run, a payment gateway's
# notification. No user; never accepted from an authorizer context.
SYSTEM_USER_ID = 0


@dataclass(frozen=True)
class Principal:
    """Who is calling and for which company. The company scope comes only from here."""
    kind: str
    company_id: int
    user_id: int
    role: str
    key_id: str | None = None
    session_hash: str | None = None

    @classmethod
    def acting_for(cls, company_id: int, actor: str) -> "Principal":
        """The service itself at work for one company, `actor` saying what (e.g. "scheduler")."""
        return cls(kind=actor, company_id=company_id, user_id=SYSTEM_USER_ID, role=actor)

    @property
    def is_web_session(self) -> bool:
        return self.kind == SESSION

    def to_context(self) -> dict[str, Any]:
        """Authorizer context: flat strings and numbers only (API Gateway's rule)."""
        context: dict[str, Any] = {"kind": self.kind, "companyId": self.company_id,
                                   "userId": self.user_id, "role": self.role}
        if self.key_id:
            context["keyId"] = self.key_id
        if self.session_hash:
            context["sessionHash"] = self.session_hash
        return context

    @classmethod
    def from_context(cls, context: dict[str, Any]) -> "Principal | None":
        try:
            kind = str(context["kind"])
            if kind not in (SESSION, API_KEY):
                return None
            return cls(kind=kind, company_id=int(context["companyId"]), user_id=int(context["userId"]),
                       role=str(context["role"]), key_id=context.get("keyId") or None,
                       session_hash=context.get("sessionHash") or None)
        except (KeyError, TypeError, ValueError):
            return None
