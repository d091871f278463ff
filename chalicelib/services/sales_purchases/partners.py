"""Business partners (customers and suppliers). A partner's tax id is checked by its country's pack
(a foreign partner's is kept as typed) and is unique in the company: a customer that is also a
supplier is one partner of type "both"."""
from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from decimal import Decimal
from typing import Any

from chalicelib import countries
from chalicelib.domain import search as search_rules
from chalicelib.domain.records import PartnerRecord
from chalicelib.errors import Conflict
from chalicelib.events import outbox
from chalicelib.messages.phrases import Phrase
from chalicelib.services import records
from chalicelib.services.commands import Command
from chalicelib.services.identity import accounts
from chalicelib.services.payments import payment_setup
from chalicelib.store import keys
from chalicelib.store.listing import Page
from chalicelib.store.repositories import partners as partner_store
from chalicelib.store.repositories import records as record_store
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


def _partner_effects(transaction: Transaction, company_id: int, item: dict[str, Any],
                     before: dict[str, Any] | None) -> None:
    _reference_payment_condition(transaction, company_id, item, before)
    _reserve_tax_id(transaction, company_id, item, before)


def tax_id_key(company_id: int, tax_id: str) -> keys.Key:
    """The reservation of a tax id, by its letters and digits alone: "0801-1999-123456" and
    "08011999123456" are one id, whatever country wrote it."""
    # an id of no Latin letters or digits (a partner abroad) is its own key, never one shared empty one
    plain = "".join(search_rules.words(tax_id)) or tax_id.strip().casefold()
    return keys.unique_value(company_id, "PARTNER_TAX_ID", plain)


def tax_id_reservation(company_id: int, tax_id: str, partner_id: int, import_job: int | None = None) -> dict[str, Any]:
    """`import_job`: the import that created the partner (a run again knows its own by it)."""
    return {**tax_id_key(company_id, tax_id), "partnerId": partner_id,
            **({"importJob": import_job} if import_job is not None else {})}


def tax_id_holders(table: Table, company_id: int) -> dict[str, dict[str, Any]]:
    """Every reserved tax id of the company, by its reservation's sort key (one Query: an import
    checks thousands of rows against them)."""
    return record_store.reservations_like(table, tax_id_key(company_id, "x"))


def stored_tax_id(typed: str, country: str) -> str:
    """A tax id as its country's pack keeps it (a partner abroad: as typed); ValidationFailed
    naming `taxId` when it is none of that country's forms."""
    if country in countries.CODES:
        return countries.pack(country).hooks.normalized_tax_id(typed, "taxId")
    return typed.strip()


def _tax_id_taken(tax_id: str, owner: int | None) -> Conflict:
    """`owner`: the partner that has it (None: one that took it meanwhile)."""
    details = [{"field": "taxId", "message": "already used by another business partner"}]
    if owner is None:
        return Conflict(Phrase("Another business partner already has the tax id {}: a customer that is also a supplier "
                               "is one partner of type both.", tax_id), code="DUPLICATE_TAX_ID", details=details)
    return Conflict(Phrase("Business partner {} already has the tax id {}: a customer that is also a supplier is one "
                           "partner of type both.", owner, tax_id), code="DUPLICATE_TAX_ID", details=details)


def _reserve_tax_id(transaction: Transaction, company_id: int, item: dict[str, Any],
                    before: dict[str, Any] | None) -> None:
    old, new = (before or {}).get("taxId"), item.get("taxId")
    if old and new and tax_id_key(company_id, old) == tax_id_key(company_id, new):
        return
    if new:
        transaction.put_new(tax_id_reservation(company_id, new, item["id"], item.get("importJob") if before is None else None),
                            on_fail=_tax_id_taken(new, None))
    if old:
        # only its own: a partner from before its reservation may share the id with the one holding it
        held = transaction.table.get(tax_id_key(company_id, old))
        if held is not None and held["partnerId"] == item["id"]:
            partner_store.release_tax_id(transaction, tax_id_key(company_id, old), item["id"])


def _checked_tax_id(table: Table, company_id: int, fields: dict[str, Any],
                    current: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """The fields with the tax id as its country's pack keeps it (a partner abroad: as typed),
    refused when it is none of that country's forms or another partner has it."""
    typed = fields.get("taxId")
    if not typed:
        if "taxId" not in fields and fields.get("country") and (current or {}).get("taxId"):
            stored_tax_id(str((current or {})["taxId"]), fields["country"])  # moved abroad or home: its id must fit there
        return fields
    country = fields.get("country") or (current or {}).get("country") or accounts.company_country(table, company_id)
    tax_id = stored_tax_id(typed, country)
    holder = table.get(tax_id_key(company_id, tax_id))
    if holder is not None and holder["partnerId"] != (current or {}).get("id"):
        raise _tax_id_taken(tax_id, holder["partnerId"])
    return {**fields, "taxId": tax_id}


def get_partner(table: Table, company_id: int, partner_id: int) -> PartnerRecord:
    partner = partner_store.partner(table, company_id, partner_id)
    if partner is None:
        raise PARTNER.not_found()
    return partner


def list_partners(table: Table, company_id: int, page: int, limit: int, cursor: str | None,
                  query: str | None = None) -> Page:
    return records.list_records(table, company_id, PARTNER, page=page, limit=limit, cursor=cursor, query=query)


def create_partner(command: Command, fields: dict[str, Any]) -> dict[str, Any]:
    fields = _checked_tax_id(command.table, command.company_id, fields)
    return records.create_record(command, PARTNER, fields, _partner_effects)


def update_partner(command: Command, partner_id: int, changes: dict[str, Any],
                   expected_version: int | None) -> dict[str, Any]:
    current = get_partner(command.table, command.company_id, partner_id)
    changes = _checked_tax_id(command.table, command.company_id, changes, current)
    return records.update_record(command, PARTNER, partner_id, changes, expected_version,
                                 _partner_effects, current=current)


def new_partner_items(table: Table, company_id: int, many_fields: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Partners with fresh ids, as create_partner stores them (fields already checked)."""
    return records.new_record_items(table, company_id, PARTNER, many_fields)


def add_partner_batch(transaction: Transaction, company_id: int, items: list[dict[str, Any]]) -> None:
    """Many new partners in one transaction (an import), each written as create_partner writes it
    (item, tax id reservation, search terms), with the company's count and each payment
    condition's references added once for all (a transaction writes an item once) and no events."""
    conditions: Counter[int] = Counter()
    for item in items:
        records.add_new_record(transaction, company_id, PARTNER, item, _reserve_tax_id, batch=True)
        if item.get("paymentConditionId") is not None:
            conditions[int(item["paymentConditionId"])] += 1
    records.count_records(transaction, company_id, PARTNER, len(items))
    for condition_id, uses in sorted(conditions.items()):
        payment_setup.reference_condition(transaction, company_id, condition_id, uses)


def add_partner_update(transaction: Transaction, company_id: int, current: Mapping[str, Any],
                       changes: dict[str, Any]) -> dict[str, Any] | None:
    """An import's update of one partner, written as update_partner writes it (no event); None
    when the row changes nothing."""
    return records.add_record_update(transaction, company_id, PARTNER, dict(current), changes, _partner_effects)
