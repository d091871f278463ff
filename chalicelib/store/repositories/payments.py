"""Payments and what they settle, as the payment commands write them: a document's pending amounts
and advances moved on the version read, a payment replaced on its version, the payment methods
and conditions a payment or a partner relies on; a document's payments and the company's
documents that owe, read."""
from __future__ import annotations

from decimal import Decimal
from typing import Any, cast

from chalicelib.domain.records import PaymentRecord
from chalicelib.errors import ApiError
from chalicelib.store import keys
from chalicelib.store.listing import GSI1
from chalicelib.store.table import Table
from chalicelib.store.transaction import Transaction

_VERSION = {"#version": "version"}


def payment(table: Table, company_id: int, document_id: int, payment_id: int) -> PaymentRecord | None:
    """The stored payment, as its record (the store reads each field at its declared type)."""
    return cast("PaymentRecord | None", table.get(keys.document_payment(company_id, document_id, payment_id)))


def new_record(company_id: int, document_id: int, payment_id: int, *, status: str, amount: Decimal,
               date: str) -> PaymentRecord:
    """What a new payment's record starts with: its identity, the key it is written under (in its
    document's partition) and its item type."""
    key = keys.document_payment(company_id, document_id, payment_id)
    return {"PK": key["PK"], "SK": key["SK"], "itemType": "PAYMENT", "id": payment_id, "documentId": document_id,
            "status": status, "amount": amount, "paymentDate": date}


def of_document(table: Table, company_id: int, document_id: int) -> list[dict[str, Any]]:
    """The document's payments, by id (they live in its partition)."""
    return table.query_all(partition=("PK", keys.document(company_id, document_id)["PK"]),
                           sort_prefix=("SK", keys.DOCUMENT_PAYMENT_PREFIX), consistent=True)


def open_documents(table: Table, company_id: int, side: str) -> list[dict[str, Any]]:
    """The index items of the company's documents that owe on one side (keys.RECEIVABLE_SIDE or
    PAYABLE_SIDE), every partner's."""
    return table.query_all(partition=("GSI1PK", keys.open_documents_of_company(company_id, side)), index=GSI1)


def take_pending(transaction: Transaction, company_id: int, document_id: int, seen_version: int, *,
                 amount: Decimal, base_pending: Decimal, paid: bool) -> None:
    """The document's `pending` down by `amount`, its `basePending` (the company's currency) set to
    `base_pending`, and, for the document paid, its `paidTotal` up by `amount`: on the version read."""
    expression = "ADD pending :minus, #version :one" + (", paidTotal :amount" if paid else "") + \
        " SET basePending = :base"
    values: dict[str, Any] = {":minus": -amount, ":one": 1, ":seen": seen_version, ":base": base_pending}
    if paid:
        values[":amount"] = amount
    transaction.update(keys.document(company_id, document_id), expression, condition="#version = :seen",
                       names=dict(_VERSION), values=values)


def add_to_advances(transaction: Transaction, company_id: int, document_id: int, seen_version: int,
                    attribute: str, amount: Decimal) -> None:
    """A quote's or order's advances received or applied (`attribute`) moved by `amount`, on the
    version read: what was available stays true."""
    transaction.update(keys.document(company_id, document_id), "ADD #attribute :amount, #version :one",
                       condition="#version = :seen", names={"#attribute": attribute, **_VERSION},
                       values={":amount": amount, ":one": 1, ":seen": seen_version})


def replace(transaction: Transaction, payment: PaymentRecord, seen_version: int, *,
            while_status: str | None = None) -> None:
    """The payment written as it now is, on the version read (and, with `while_status`, still in
    that status)."""
    if while_status is None:
        transaction.put(payment, condition="#v = :v", names={"#v": "version"}, values={":v": seen_version})
    else:
        transaction.put(payment, condition="#v = :v AND #s = :pending", names={"#v": "version", "#s": "status"},
                        values={":v": seen_version, ":pending": while_status})


def require_method_active(transaction: Transaction, key: keys.Key, on_fail: ApiError) -> None:
    """The payment method is still active."""
    transaction.check(key, "isActive = :yes", values={":yes": True}, on_fail=on_fail)


def require_condition_type(transaction: Transaction, key: keys.Key, condition_type: str) -> None:
    """The payment condition is still of the type read (cash or credit): a change meanwhile runs
    the command again."""
    transaction.check(key, "#type = :type", names={"#type": "type"}, values={":type": condition_type})


def delete_unused_condition(transaction: Transaction, key: keys.Key, on_fail: ApiError) -> None:
    """The payment condition deleted while no business partner uses it."""
    transaction.delete(key, condition="attribute_not_exists(referenceCount) OR referenceCount = :zero",
                       values={":zero": 0}, on_fail=on_fail)


def reference_condition(transaction: Transaction, key: keys.Key, delta: int, on_missing: ApiError) -> None:
    """One business partner more (+1) or less (-1) uses the payment condition, which must exist."""
    transaction.update(key, "ADD referenceCount :delta", condition="attribute_exists(PK)", values={":delta": delta},
                       on_fail=on_missing)


def delete_method(transaction: Transaction, key: keys.Key, seen_version: int) -> None:
    """The payment method deleted, on the version read."""
    transaction.delete(key, condition="#v = :v", names={"#v": "version"}, values={":v": seen_version})
