"""Company roles and what each may do."""
from __future__ import annotations

OWNER, ADMIN, ACCOUNTANT, SELLER, VIEWER = "owner", "admin", "accountant", "seller", "viewer"
ROLES = (OWNER, ADMIN, ACCOUNTANT, SELLER, VIEWER)

READ, WRITE, MANAGE = "read", "write", "manage"

_GRANTS = {
    OWNER: {READ, WRITE, MANAGE},
    ADMIN: {READ, WRITE, MANAGE},
    ACCOUNTANT: {READ, WRITE},
    SELLER: {READ, WRITE},
    VIEWER: {READ},
}

# An API key acts for its user only while that user is an owner or administrator.
API_KEY_ROLES = (OWNER, ADMIN)


def may(role: str, permission: str) -> bool:
    return permission in _GRANTS.get(role, set())
