"""What a partner owes us (client) or we owe it (supplier): its balance, credit limit, overdue
days and open documents. Read from the partner item (balances and open counts) and the first
page of its open-document index: the same few calls however long its history."""
from __future__ import annotations

from decimal import Decimal
from typing import Any

from chalicelib import clock
from chalicelib.domain import documents as rules
from chalicelib.errors import NotFound
from chalicelib.services import partners
from chalicelib.store import keys
from chalicelib.store.table import Table

SIDES = {"client": (keys.RECEIVABLE_SIDE, "receivableBalance", "openReceivables", ("customer", "both")),
         "supplier": (keys.PAYABLE_SIDE, "payableBalance", "openPayables", ("supplier", "both"))}
# open documents shown in full; `pendingDocumentCount` counts them all
SHOWN_DOCUMENTS = 100


def summary(table: Table, company_id: int, side_name: str, partner_id: int) -> dict[str, Any]:
    side, balance_field, count_attribute, partner_types = SIDES[side_name]
    partner = partners.get_partner(table, company_id, partner_id)
    if partner["type"] not in partner_types:
        raise NotFound(f"No {side_name} with that id.")
    open_items, _ = table.query(partition=("PK", keys.open_documents_partition(company_id, partner_id, side)),
                                limit=SHOWN_DOCUMENTS, consistent=True)
    company = table.get(keys.company(company_id)) or {}
    today = clock.today_in(company.get("country", "HN"))
    shown = open_items[:SHOWN_DOCUMENTS]
    found = table.batch_get([keys.entity(company_id, keys.DOCUMENT, int(item["documentId"])) for item in shown]) \
        if shown else {}
    documents = []
    for item in shown:
        document = found.get((keys.entity(company_id, keys.DOCUMENT, int(item["documentId"]))["PK"], keys.DOCUMENT))
        if document is None:
            continue
        documents.append({"id": int(document["id"]), "type": document["type"], "number": document.get("number"),
                          "date": document["date"], "dueDate": document["dueDate"], "total": document["total"],
                          "pending": document["pending"],
                          "overdueDays": rules.overdue_days([document["dueDate"]], today)})
    balance = Decimal(partner.get(balance_field, 0))
    limit = partner.get("credit_limit")
    return {"businessPartnerId": partner_id, "name": partner["name"], "pendingBalance": balance,
            "credit_limit": limit, "available": (Decimal(limit) - balance) if limit is not None else None,
            "credit_block_days": partner.get("credit_block_days"),
            "overdueDays": rules.overdue_days([item["dueDate"] for item in open_items[:1]], today),
            "oldestDueDate": open_items[0]["dueDate"] if open_items else None,
            "pendingDocumentCount": int(partner.get(count_attribute, 0)), "pendingDocuments": documents}
