"""Payment conditions (cash, or credit with days that set documents' due dates) and payment
methods (how money moves: cash, or through a bank account). A company has a handful of each:
they live in small partitions read whole."""
from __future__ import annotations

from typing import Any

from chalicelib.errors import ApiError, ValidationFailed
from chalicelib.services import records
from chalicelib.services.commands import Command
from chalicelib.store import keys
from chalicelib.store.listing import Page
from chalicelib.store.repositories import payments as payment_store
from chalicelib.store.table import Table
from chalicelib.store.transaction import Transaction


class InUse(ApiError):
    code = "RECORD_IN_USE"


# --- payment conditions --------------------------------------------------------------------------

def condition_key(company_id: int, condition_id: int) -> keys.Key:
    return keys.small_record(company_id, keys.PAYMENT_CONDITION, condition_id)


def list_conditions(table: Table, company_id: int, page: int, limit: int) -> Page:
    return records.small_page(records.small_records(table, company_id, keys.PAYMENT_CONDITION), page, limit)


def get_condition(table: Table, company_id: int, condition_id: int) -> dict[str, Any]:
    return records.get_small_record(table, company_id, keys.PAYMENT_CONDITION, condition_id, "Payment condition")


def _check_condition(fields: dict[str, Any]) -> dict[str, Any]:
    """`creditDays` belongs to credit conditions only (at least 1 there, 0 for cash)."""
    if fields["type"] == "credit":
        if not fields.get("creditDays"):
            raise ValidationFailed.for_field("creditDays", "a credit condition needs at least 1 credit day")
        return fields
    if fields.get("creditDays"):
        raise ValidationFailed.for_field("creditDays", "a cash condition has no credit days")
    return {**fields, "creditDays": 0}


def create_condition(command: Command, fields: dict[str, Any]) -> dict[str, Any]:
    return records.create_small_record(command, keys.PAYMENT_CONDITION, {**_check_condition(fields), "referenceCount": 0})


def update_condition(command: Command, condition_id: int, changes: dict[str, Any],
                     expected_version: int | None) -> dict[str, Any]:
    current = get_condition(command.table, command.company_id, condition_id)
    merged = {**current, **changes}
    if changes.get("type") == "cash" and "creditDays" not in changes:
        merged["creditDays"] = 0  # becoming cash drops the credit days
    merged = _check_condition(merged)
    changes = {**changes, "creditDays": merged["creditDays"]}
    return records.update_item(command, condition_key(command.company_id, condition_id), current, changes,
                               expected_version)


def delete_condition(command: Command, condition_id: int) -> dict[str, Any]:
    """Web app only; a condition business partners use stays (documents keep their due dates)."""
    current = get_condition(command.table, command.company_id, condition_id)
    in_use = InUse("Business partners use this payment condition; give them another one first.")
    if int(current.get("referenceCount", 0)):
        raise in_use
    transaction = command.transaction()
    payment_store.delete_unused_condition(transaction, condition_key(command.company_id, condition_id), in_use)
    return command.commit(transaction, {"id": condition_id, "deleted": True})


def reference_condition(transaction: Transaction, company_id: int, condition_id: int, delta: int) -> None:
    """A partner starts (+1) or stops (-1) using a condition, in the partner's transaction."""
    payment_store.reference_condition(transaction, condition_key(company_id, condition_id), delta,
                                      ValidationFailed.for_field("paymentConditionId", "no such payment condition"))


def due_days(table: Table, company_id: int, condition_id: int) -> int:
    """The credit days a condition gives documents (0 for cash)."""
    try:
        condition = get_condition(table, company_id, condition_id)
    except ApiError:
        raise ValidationFailed.for_field("paymentConditionId", "no such payment condition") from None
    return int(condition.get("creditDays") or 0) if condition["type"] == "credit" else 0


# --- payment methods -----------------------------------------------------------------------------

def method_key(company_id: int, method_id: int) -> keys.Key:
    return keys.small_record(company_id, keys.PAYMENT_METHOD, method_id)


def list_methods(table: Table, company_id: int, page: int, limit: int) -> Page:
    return records.small_page(records.small_records(table, company_id, keys.PAYMENT_METHOD), page, limit)


def get_method(table: Table, company_id: int, method_id: int) -> dict[str, Any]:
    return records.get_small_record(table, company_id, keys.PAYMENT_METHOD, method_id, "Payment method")


def _require_bank_account(transaction: Transaction, company_id: int, item: dict[str, Any]) -> None:
    records.require_reference(transaction, company_id, keys.BANK_ACCOUNT, item, "bankAccountId", "bank account")


def create_method(command: Command, fields: dict[str, Any]) -> dict[str, Any]:
    return records.create_small_record(command, keys.PAYMENT_METHOD, fields,
                                       lambda transaction, item: _require_bank_account(transaction,
                                                                                       command.company_id, item))


def update_method(command: Command, method_id: int, changes: dict[str, Any],
                  expected_version: int | None) -> dict[str, Any]:
    current = get_method(command.table, command.company_id, method_id)
    return records.update_item(command, method_key(command.company_id, method_id), current, changes,
                               expected_version,
                               lambda transaction, item: _require_bank_account(transaction, command.company_id, item)
                               if changes.get("bankAccountId") is not None else None)


def delete_method(command: Command, method_id: int) -> dict[str, Any]:
    """Web app only."""
    current = get_method(command.table, command.company_id, method_id)
    transaction = command.transaction()
    payment_store.delete_method(transaction, method_key(command.company_id, method_id), current["version"])
    return command.commit(transaction, {"id": method_id, "deleted": True})
