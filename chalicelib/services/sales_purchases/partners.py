"""Business partners (customers and suppliers)."""
from __future__ import annotations

from decimal import Decimal
from typing import Any

from chalicelib.domain.records import PartnerRecord
from chalicelib.events import outbox
from chalicelib.services import records
from chalicelib.services.commands import Command
from chalicelib.services.payments import payment_setup
from chalicelib.store import keys
from chalicelib.store.listing import Page
from chalicelib.store.table import Table
from chalicelib.store.transaction import Transaction


def _event_data(item: dict[str, Any]) -> dict[str, Any]:
    return {"id": item["id"], "name": item["name"], "type": item["type"],
            "taxId": item.get("taxId"), "email": item.get("email"),
            "isActive": item["isActive"], "credit_limit": item.get("credit_limit"),
            "credit_block_days": item.get("credit_block_days")}


PARTNER = records.RecordKind(
    kind=keys.PARTNER, resource_type="business_partner", label="Business partner",
    created_event=outbox.BUSINESS_PARTNER_CREATED, updated_event=outbox.BUSINESS_PARTNER_UPDATED,
    event_data=_event_data,
    initial_values=lambda: {"receivableBalance": Decimal("0.00"), "payableBalance": Decimal("0.00")},
    search_fields=("name", "taxId", "email"))


def _reference_payment_condition(transaction: Transaction, company_id: int, item: dict[str, Any],
                                 before: dict[str, Any] | None) -> None:
    """The partner's condition counts its users (a used condition is not deleted)."""
    condition_id = item.get("paymentConditionId")
    previous = before.get("paymentConditionId") if before else None
    if condition_id == previous:
        return
    if condition_id is not None:
        payment_setup.reference_condition(transaction, company_id, int(condition_id), 1)
    if previous is not None:
        payment_setup.reference_condition(transaction, company_id, int(previous), -1)


def get_partner(table: Table, company_id: int, partner_id: int) -> PartnerRecord:
    return records.get_record(table, company_id, PARTNER, partner_id)


def list_partners(table: Table, company_id: int, page: int, limit: int, cursor: str | None,
                  query: str | None = None) -> Page:
    return records.list_records(table, company_id, PARTNER, page=page, limit=limit, cursor=cursor, query=query)


def create_partner(command: Command, fields: dict[str, Any]) -> dict[str, Any]:
    return records.create_record(command, PARTNER, fields, _reference_payment_condition)


def update_partner(command: Command, partner_id: int, changes: dict[str, Any],
                   expected_version: int | None) -> dict[str, Any]:
    return records.update_record(command, PARTNER, partner_id, changes, expected_version,
                                 _reference_payment_condition)
