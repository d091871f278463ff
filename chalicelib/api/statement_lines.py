"""Bank statements (issue 42): see services/statements/."""
from __future__ import annotations

from chalice import Blueprint

blueprint = Blueprint(__name__)
TAG = "Bank statements"  # noqa: F841 (the routes land with the issue)
