"""One company's items out of a table and back in: how a company is restored from a point-in-time
copy of the table (docs/operations.md#restore) without touching any other company.

Which items are a company's: `belongs_to` (chalicelib/store/company_items.py, shared with the
company archive of POST /exports/company). Users themselves (and their e-mail index), sessions,
failed-login windows and the global id counters are shared or transient: neither exported nor replaced.

Items travel in DynamoDB's typed form (`{"S": ...}`, `{"N": ...}`), so every attribute comes back
exactly as it was. Importing replaces: the company's items that the dump does not hold are
deleted, every item of the dump is written, but for those whose time to live has passed and for
outbox events the live table no longer holds (written anew they would send past webhooks again).
It is not one transaction: run it while the company does not write (its keys revoked, or out of
hours), and run it again if it stops halfway; the result is the same."""
from __future__ import annotations

import time
from typing import Any

from chalicelib.store.company_items import belongs_to
from infra.ops.table_io import scan_items, write_batches

__all__ = ["belongs_to", "export_company", "import_company"]


def export_company(client: Any, table_name: str, company_id: int) -> dict[str, Any]:
    """The company's items (a whole scan of the table: an operator's command, not a request's)."""
    items = [item for item in scan_items(client, table_name) if belongs_to(item, company_id)]
    items.sort(key=lambda item: (item["PK"]["S"], item["SK"]["S"]))
    return {"format": "business-api/company-dump/1", "table": table_name, "companyId": company_id, "items": items}


def import_company(client: Any, table_name: str, dump: dict[str, Any], company_id: int) -> dict[str, int]:
    """Makes the company's items in the table exactly the dump's. `company_id` must repeat the
    dump's, so that a dump is never imported over another company by mistake."""
    if dump.get("format") != "business-api/company-dump/1":
        raise ValueError("not a company dump (format business-api/company-dump/1)")
    if int(dump["companyId"]) != company_id:
        raise ValueError(f"the dump holds company {dump['companyId']}, not {company_id}")
    items = dump["items"]
    if not all(belongs_to(item, company_id) for item in items):
        raise ValueError("the dump holds items of another company")
    live = {(item["PK"]["S"], item["SK"]["S"]) for item in scan_items(client, table_name) if belongs_to(item, company_id)}
    now = int(time.time())
    kept, expired, unsent = [], 0, 0
    for item in items:
        if "expiresAt" in item and int(item["expiresAt"]["N"]) <= now:
            expired += 1  # DynamoDB's TTL has removed it since: a session, an idempotency record, ...
        elif item.get("itemType", {}).get("S") == "EVENT" and (item["PK"]["S"], item["SK"]["S"]) not in live:
            # written anew it would be an INSERT on the stream: the fan-out would send a webhook of the
            # past again. Its deliveries were recorded when it happened; the event is not needed.
            unsent += 1
        else:
            kept.append(item)
    wanted = {(item["PK"]["S"], item["SK"]["S"]) for item in items}
    stale = [{"PK": {"S": pk}, "SK": {"S": sk}} for pk, sk in sorted(live - wanted)]
    requests = [{"DeleteRequest": {"Key": key}} for key in stale] + [{"PutRequest": {"Item": item}} for item in kept]
    write_batches(client, table_name, requests)
    return {"deleted": len(stale), "written": len(kept), "skippedExpired": expired, "skippedEvents": unsent}
