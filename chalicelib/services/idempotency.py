"""Idempotency-Key (DESIGN 8): the first answer is stored in the command's own transaction and
replayed for the same key and body; another body with the same key is refused. Scoped per
company, kept 24 hours."""
from __future__ import annotations

import hashlib
import json
import re
from dataclasses import dataclass
from typing import Any

from chalicelib import clock
from chalicelib.errors import IdempotencyKeyReused, ValidationFailed
from chalicelib.store import keys
from chalicelib.store.repositories.idempotency import remember_answer
from chalicelib.store.table import Table
from chalicelib.store.transaction import Transaction

RETENTION_SECONDS = 24 * 3600
KEY_PATTERN = r"^[!-~]{1,255}$"  # visible ASCII: what a header carries unchanged through every proxy
_KEY_PATTERN = re.compile(KEY_PATTERN)


@dataclass(frozen=True)
class Request:
    key: str
    fingerprint: str


@dataclass(frozen=True)
class StoredAnswer:
    status: int
    body: str


def parse_key(raw: str | None) -> str | None:
    if raw is None:
        return None
    if not _KEY_PATTERN.match(raw):
        raise ValidationFailed.for_field("Idempotency-Key", "1 to 255 visible ASCII characters")
    return raw


def fingerprint(method: str, path: str, body: Any) -> str:
    canonical = json.dumps([method, path, body], sort_keys=True, separators=(",", ":"), default=str)
    return hashlib.sha256(canonical.encode()).hexdigest()


def find_answer(table: Table, company_id: int, request: Request) -> StoredAnswer | None:
    record = table.get(keys.idempotency(company_id, request.key))
    if not record or int(record.get("expiresAt", 0)) <= clock.epoch_seconds():
        return None
    if record["fingerprint"] != request.fingerprint:
        raise IdempotencyKeyReused()
    return StoredAnswer(status=int(record["status"]), body=record["body"])


def record_answer(transaction: Transaction, company_id: int, request: Request, status: int, body: str) -> None:
    now = clock.epoch_seconds()
    item = {**keys.idempotency(company_id, request.key), "fingerprint": request.fingerprint,
            "status": status, "body": body, "createdAt": clock.now_iso(),
            "expiresAt": now + RETENTION_SECONDS}
    remember_answer(transaction, item, now)
