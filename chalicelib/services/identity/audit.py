"""The company's audit log: who changed users, invitations, passwords and API keys. Each entry is
written in the changing command's own transaction, so a change and its record commit together."""
from __future__ import annotations

import uuid
from typing import Any

from chalicelib import clock
from chalicelib.auth.principal import Principal
from chalicelib.store import keys
from chalicelib.store.listing import Page
from chalicelib.store.repositories.users import audit_entries_newest_first
from chalicelib.store.table import Table
from chalicelib.store.transaction import Transaction

# what an entry shows; keys, hashes and the like stay out
_VIEW_FIELDS = ("id", "occurredAt", "actorUserId", "actorEmail", "action", "targetType", "targetId",
                "targetEmail", "changes")


def actor_of(table: Table, principal: Principal) -> dict[str, Any]:
    """The caller as an entry names them: the e-mail is copied, so the entry stays readable
    after the user leaves the company."""
    user = table.get(keys.user(principal.user_id)) or {}
    return {"userId": principal.user_id, "email": user.get("email")}


def record_audit(transaction: Transaction, company_id: int, actor: dict[str, Any], action: str, *,
           target_type: str, target_id: Any, target_email: str | None = None,
           changes: dict[str, Any] | None = None) -> None:
    """`changes` names the changed fields with their new (or from/to) values: never a secret."""
    occurred_at, entry_id = clock.now_iso(), uuid.uuid4().hex
    transaction.put_new({**keys.audit_entry(company_id, occurred_at, entry_id), "itemType": "AUDIT",
                         "id": entry_id, "occurredAt": occurred_at, "actorUserId": int(actor["userId"]),
                         "actorEmail": actor.get("email"), "action": action, "targetType": target_type,
                         "targetId": str(target_id), "targetEmail": target_email, "changes": changes or None})
    transaction.increment(keys.entity_count(company_id, keys.AUDIT), "total")


def list_audit_entries(table: Table, company_id: int, page: int, limit: int, cursor: str | None) -> Page:
    """Newest first; `total` from the count kept with the entries."""
    counter = table.get(keys.entity_count(company_id, keys.AUDIT)) or {}
    listed = audit_entries_newest_first(table, company_id, page, limit, cursor, int(counter.get("total", 0)))
    return Page(items=[{name: item.get(name) for name in _VIEW_FIELDS} for item in listed.items],
                total=listed.total, page=listed.page, limit=listed.limit, next_cursor=listed.next_cursor)
