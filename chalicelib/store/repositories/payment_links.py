"""Payment links: what each counts as paid, and a company's links (services/integrations)."""
from __future__ import annotations

from decimal import Decimal
from typing import Any

from chalicelib.store import keys
from chalicelib.store.listing import GSI1
from chalicelib.store.table import Table
from chalicelib.store.transaction import Transaction


def count_payment(transaction: Transaction, link_id: str, seen_version: int, paid_total: Decimal, status: str,
                  payment_id: int) -> None:
    """The link's new paid total and status, on the version read (two payments through it add up)."""
    transaction.update(keys.payment_link(link_id),
                       "SET paidTotal = :paid, #status = :status, lastPaymentId = :payment, #version = :next",
                       condition="#version = :seen", names={"#status": "status", "#version": "version"},
                       values={":paid": paid_total, ":status": status, ":payment": payment_id,
                               ":next": seen_version + 1, ":seen": seen_version})


def give_back(transaction: Transaction, link_id: str, amount: Decimal, status: str) -> None:
    """`amount` off the link's paid total by an atomic ADD, its version moved, in `status`."""
    transaction.update(keys.payment_link(link_id), "ADD paidTotal :minus, #version :one SET #status = :active",
                       condition="attribute_exists(PK)", names={"#status": "status", "#version": "version"},
                       values={":minus": -amount, ":one": 1, ":active": status})


def of_document_newest_first(table: Table, company_id: int, document_id: int) -> list[dict[str, Any]]:
    """The document's links (the company's links by creation, filtered: a document has a handful)."""
    return table.query_all(partition=("GSI1PK", keys.payment_links_partition(company_id)), index=GSI1,
                           filters={"documentId": document_id}, forward=False)
