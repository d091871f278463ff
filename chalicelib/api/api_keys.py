"""API key management: web app only (API_KEY_MANAGEMENT_FORBIDDEN with an API key)."""
from __future__ import annotations

from chalice import Blueprint

from chalicelib.api.routing import MANAGE, Access, Call, endpoint
from chalicelib.models.auth import ApiKey, ApiKeyCreate, ApiKeyCreated, ApiKeyList
from chalicelib.services import api_keys

blueprint = Blueprint(__name__)
TAG = "Settings: API keys"


@endpoint(blueprint, "GET", "/settings/api-keys", summary="List the company's API keys", tag=TAG,
          response=ApiKeyList, access=Access.KEY_MANAGEMENT, permission=MANAGE)
def list_keys(call: Call) -> ApiKeyList:
    found = api_keys.list_keys(call.command.table, call.principal.company_id)
    return ApiKeyList(api_keys=[ApiKey.model_validate(item) for item in found], total=len(found))


@endpoint(blueprint, "POST", "/settings/api-keys", summary="Create an API key (secret shown once)",
          tag=TAG, body=ApiKeyCreate, response=ApiKeyCreated, access=Access.KEY_MANAGEMENT,
          permission=MANAGE)
def create_key(call: Call) -> ApiKeyCreated:
    created = api_keys.create_key(call.command, call.body.name, call.body.expires_at)
    return ApiKeyCreated.model_validate(created)


@endpoint(blueprint, "POST", "/settings/api-keys/{id}/revoke", summary="Revoke an API key", tag=TAG,
          response=ApiKey, status=200, access=Access.KEY_MANAGEMENT, permission=MANAGE,
          string_ids=("id",))
def revoke_key(call: Call) -> ApiKey:
    return ApiKey.model_validate(api_keys.revoke_key(call.command, call.ids["id"]))
