"""Products and services. A product code is unique inside its company (case-insensitive)."""
from __future__ import annotations

from dataclasses import replace
from typing import Any

from chalicelib import countries
from chalicelib.domain import taxes
from chalicelib.errors import Conflict
from chalicelib.events import outbox
from chalicelib.messages.phrases import Phrase
from chalicelib.services import records
from chalicelib.services.commands import Command
from chalicelib.services.identity import accounts
from chalicelib.services.inventory import stock_moves
from chalicelib.store import keys
from chalicelib.store.listing import Page
from chalicelib.store.repositories import records as record_store
from chalicelib.store.table import Table
from chalicelib.store.transaction import Transaction


def _event_data(item: dict[str, Any]) -> dict[str, Any]:
    return {"id": item["id"], "code": item["code"], "name": item["name"], "type": item["type"],
            "unitPrice": item["unitPrice"], "taxRate": item["taxRate"], "isActive": item["isActive"]}


PRODUCT = records.RecordKind(
    kind=keys.PRODUCT, resource_type="product", label="Product",
    created_event=outbox.PRODUCT_CREATED, updated_event=outbox.PRODUCT_UPDATED,
    event_data=_event_data, search_fields=("code", "name"))


def product_code_key(company_id: int, code: str) -> keys.Key:
    return keys.unique_value(company_id, "PRODUCT_CODE", code.casefold())


def _reserve_code(transaction: Transaction, company_id: int, item: dict[str, Any],
                  before: dict[str, Any] | None) -> None:
    if before is not None and before["code"].casefold() == item["code"].casefold():
        return
    taken = Conflict(Phrase("Another product already uses the code {}.", repr(item['code'])), code="DUPLICATE_CODE",
                     details=[{"field": "code", "message": "already used by another product"}])
    stamp = {"importJob": item["importJob"]} if before is None and item.get("importJob") is not None else {}
    transaction.put_new({**product_code_key(company_id, item["code"]), "productId": item["id"], **stamp}, on_fail=taken)
    if before is not None:
        transaction.delete(product_code_key(company_id, before["code"]))


def get_product(table: Table, company_id: int, product_id: int) -> dict[str, Any]:
    """The product with its stock across the warehouses and its average cost: one BatchGetItem."""
    product, position = _with_position(table, company_id, product_id)
    return {**product, **stock_moves.cost_fields(position, product)}


def _with_position(table: Table, company_id: int, product_id: int) -> tuple[dict[str, Any], dict[str, Any] | None]:
    product_key, position_key = keys.entity(company_id, keys.PRODUCT, product_id), keys.stock_position(company_id, product_id)
    found = table.batch_get([product_key, position_key])
    product = found.get(keys.pair(product_key))
    if product is None:
        raise PRODUCT.not_found()
    return product, found.get(keys.pair(position_key))


def list_products(table: Table, company_id: int, page: int, limit: int, cursor: str | None,
                  query: str | None = None) -> Page:
    listed = records.list_records(table, company_id, PRODUCT, page=page, limit=limit, cursor=cursor, query=query)
    return replace(listed, items=stock_moves.with_costs(table, company_id, listed.items))


def create_product(command: Command, fields: dict[str, Any]) -> dict[str, Any]:
    fields = new_product_fields(fields, accounts.company_country(command.table, command.company_id))
    return records.create_record(command, PRODUCT, fields, _reserve_code,
                                 view=lambda item: {**item, **stock_moves.cost_fields(None, item)})


def new_product_fields(fields: dict[str, Any], country: str) -> dict[str, Any]:
    """A new product's fields with their defaults (stocked when a product, the country's general
    rate); ValidationFailed naming `taxRate` for a rate the country does not have."""
    if fields.get("trackInventory") is None:
        fields = {**fields, "trackInventory": fields.get("type", "product") == "product"}
    if fields.get("taxRate") is None:
        fields = {**fields, "taxRate": countries.pack(country).default_rate}
    taxes.check_rate_for_country(country, fields["taxRate"], "taxRate")
    return fields


def code_reservation(company_id: int, code: str) -> str:
    """The sort key of a code's reservation: codes are one whatever their case."""
    return record_store.reservation_name(product_code_key(company_id, code))


def code_holders(table: Table, company_id: int) -> dict[str, dict[str, Any]]:
    """Every reserved product code of the company, by code_reservation (one Query)."""
    return record_store.reservations_like(table, product_code_key(company_id, "x"))


def add_product_batch(transaction: Transaction, company_id: int, items: list[dict[str, Any]]) -> None:
    """Many new products in one transaction (an import), each written as create_product writes it,
    the company's count added once and no events."""
    for item in items:
        records.add_new_record(transaction, company_id, PRODUCT, item, _reserve_code, batch=True)
    records.count_records(transaction, company_id, PRODUCT, len(items))


def add_product_update(transaction: Transaction, company_id: int, current: dict[str, Any],
                       changes: dict[str, Any]) -> dict[str, Any] | None:
    """An import's update of one product, written as update_product writes it (no event)."""
    return records.add_record_update(transaction, company_id, PRODUCT, current, changes, _reserve_code)


def update_product(command: Command, product_id: int, changes: dict[str, Any],
                   expected_version: int | None) -> dict[str, Any]:
    if changes.get("taxRate") is not None:
        taxes.check_rate_for_country(accounts.company_country(command.table, command.company_id), changes["taxRate"], "taxRate")
    current, position = _with_position(command.table, command.company_id, product_id)  # one call
    updated = records.update_record(command, PRODUCT, product_id, changes, expected_version, _reserve_code, current)
    return {**updated, **stock_moves.cost_fields(position, updated)}
