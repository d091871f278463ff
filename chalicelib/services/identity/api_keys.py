"""API keys: KEY_ID:SECRET, the secret shown once and stored as a SHA-256 hash."""
from __future__ import annotations

import datetime as dt
from typing import Any

from chalicelib import clock
from chalicelib.auth.secrets import new_key_id, new_key_secret, sha256_hex
from chalicelib.domain import members
from chalicelib.domain.roles import ADMIN, API_KEY_ROLES
from chalicelib.errors import Forbidden, NotFound, ValidationFailed
from chalicelib.services.commands import Command
from chalicelib.services.identity import audit
from chalicelib.store import keys
from chalicelib.store.repositories import api_keys as stored_keys
from chalicelib.store.table import Table
from chalicelib.store.transaction import Transaction

_NOT_FOUND = NotFound("API key not found.")


def normalize_expiry(expires_at: str | None) -> str | None:
    """A date means the end of that day (UTC); a timestamp is taken as given."""
    if expires_at is None:
        return None
    try:
        if len(expires_at) == 10:
            moment = dt.datetime.combine(dt.date.fromisoformat(expires_at), dt.time.max,
                                         tzinfo=dt.timezone.utc)
        else:
            moment = dt.datetime.fromisoformat(expires_at.replace("Z", "+00:00"))
            if moment.tzinfo is None:
                moment = moment.replace(tzinfo=dt.timezone.utc)
    except ValueError:
        raise ValidationFailed.for_field("expiresAt", "not a valid date or timestamp") from None
    if moment <= clock.now():
        raise ValidationFailed.for_field("expiresAt", "must be in the future")
    return clock.iso(moment)


def issue_key(table: Table, company_id: int, user_id: int, name: str,
              expires_at: str | None = None) -> tuple[dict[str, Any], str, Transaction]:
    """Builds the key item; the caller commits the returned transaction."""
    key_id, secret = new_key_id(), new_key_secret()
    now = clock.now_iso()
    item = {**keys.api_key(key_id), **keys.api_key_index(company_id, now, key_id),
            "itemType": "APIKEY", "id": key_id, "companyId": company_id,
            "userId": user_id, "name": name, "secretHash": sha256_hex(secret),
            "lastFour": secret[-4:], "createdAt": now, "keyExpiresAt": normalize_expiry(expires_at)}
    transaction = Transaction(table).put_new(item)
    return item, secret, transaction


def create_key(command: Command, name: str, expires_at: str | None) -> dict[str, Any]:
    if command.principal.role not in API_KEY_ROLES:
        raise Forbidden("Only owners and administrators can create API keys: a key acts with "
                        "their authority.", code="PERMISSION_DENIED")
    item, secret, transaction = issue_key(command.table, command.company_id,
                                          command.principal.user_id, name, expires_at)
    _audit(command, transaction, "api_key.created", item, {"expiresAt": item["keyExpiresAt"]})
    created = api_key_view(item) | {"secret": secret, "key": f"{item['id']}:{secret}"}
    # The secret is stored only as its hash: an Idempotency-Key replay names the key it created
    # but cannot show the secret again.
    return command.commit(transaction, created, replay=api_key_view(item) | {"secret": None, "key": None})


def list_keys(table: Table, company_id: int) -> list[dict[str, Any]]:
    return [api_key_view(item) for item in stored_keys.newest_first(table, company_id)]


def revoke_key(command: Command, key_id: str) -> dict[str, Any]:
    item = command.table.get(keys.api_key(key_id)) if key_id.startswith("ak_") else None
    if not item or item["companyId"] != command.company_id:
        raise _NOT_FOUND
    key_user = keys.membership(command.company_id, item["userId"])
    if not members.may_revoke_key_of(command.principal.role, command.table.get(key_user)):
        raise Forbidden(members.KEY_OF_AN_OWNER, code="PERMISSION_DENIED")
    if item.get("revokedAt"):
        return api_key_view(item)
    revoked = {**item, "revokedAt": clock.now_iso()}
    transaction = command.transaction()
    stored_keys.revoke(transaction, key_id, command.company_id, revoked["revokedAt"], _NOT_FOUND)
    if command.principal.role == ADMIN:  # the key's user made an owner meanwhile: refused all the same
        stored_keys.require_not_an_owner(transaction, command.company_id, item["userId"],
                                         Forbidden(members.KEY_OF_AN_OWNER, code="PERMISSION_DENIED"))
    _audit(command, transaction, "api_key.revoked", item, {"revokedAt": revoked["revokedAt"]})
    return command.commit(transaction, api_key_view(revoked))


def _audit(command: Command, transaction: Transaction, action: str, item: dict[str, Any],
           changes: dict[str, Any]) -> None:
    audit.record_audit(transaction, command.company_id, audit.actor_of(command.table, command.principal), action,
                 target_type="api_key", target_id=item["id"], changes={"name": item["name"], **changes})


def api_key_view(item: dict[str, Any]) -> dict[str, Any]:
    if item.get("revokedAt"):
        status = "revoked"
    elif item.get("keyExpiresAt") and item["keyExpiresAt"] <= clock.now_iso():
        status = "expired"
    else:
        status = "active"
    return {"id": item["id"], "name": item["name"], "createdAt": item["createdAt"],
            "createdByUserId": item["userId"], "expiresAt": item.get("keyExpiresAt"),
            "revokedAt": item.get("revokedAt"), "lastFour": item["lastFour"], "status": status}
