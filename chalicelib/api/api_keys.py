"""API key management: web app only (API_KEY_MANAGEMENT_FORBIDDEN with an API key)."""
from __future__ import annotations

from typing import Any

from chalice import Blueprint

from chalicelib.api.routing import MANAGE, Access, Call, endpoint
from chalicelib.services.identity import api_keys

blueprint = Blueprint(__name__)
M = "chalicelib.models.auth:"
TAG = "Settings: API keys"


@endpoint(blueprint, "GET", "/settings/api-keys", summary="List the company's API keys", tag=TAG,
          response=M + "ApiKeyList", access=Access.KEY_MANAGEMENT, permission=MANAGE)
def list_keys(call: Call) -> Any:
    found = api_keys.list_keys(call.command.table, call.principal.company_id)
    return {"api_keys": found, "total": len(found)}


@endpoint(blueprint, "POST", "/settings/api-keys", summary="Create an API key (secret shown once)",
          tag=TAG, body=M + "ApiKeyCreate", response=M + "ApiKeyCreated", access=Access.KEY_MANAGEMENT,
          permission=MANAGE)
def create_key(call: Call) -> Any:
    created = api_keys.create_key(call.command, call.body.name, call.body.expires_at)
    return created


@endpoint(blueprint, "POST", "/settings/api-keys/{id}/revoke", summary="Revoke an API key", tag=TAG,
          response=M + "ApiKey", status=200, access=Access.KEY_MANAGEMENT, permission=MANAGE,
          string_ids=("id",))
def revoke_key(call: Call) -> Any:
    return api_keys.revoke_key(call.command, call.ids["id"])
