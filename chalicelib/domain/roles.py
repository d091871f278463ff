"""Company roles and what each may do."""
from __future__ import annotations

OWNER, ADMIN, ACCOUNTANT, SELLER, VIEWER = "owner", "admin", "accountant", "seller", "viewer"
ROLES = (OWNER, ADMIN, ACCOUNTANT, SELLER, VIEWER)

# ACCOUNTING: the books themselves (chart, manual entries, periods, determination rules), which
# sellers use through documents and payments but do not change directly.
READ, WRITE, MANAGE, ACCOUNTING = "read", "write", "manage", "accounting"

_GRANTS = {
    OWNER: {READ, WRITE, MANAGE, ACCOUNTING},
    ADMIN: {READ, WRITE, MANAGE, ACCOUNTING},
    ACCOUNTANT: {READ, WRITE, ACCOUNTING},
    SELLER: {READ, WRITE},
    VIEWER: {READ},
}

# An API key acts for its user only while that user is an owner or administrator.
API_KEY_ROLES = (OWNER, ADMIN)


def may(role: str, permission: str) -> bool:
    return permission in _GRANTS.get(role, set())
