"""Transfers of goods between two warehouses of the company: both movements in one transaction,
no journal entry (the company holds what it held, at the same average cost)."""
from __future__ import annotations

from decimal import Decimal
from typing import Any

from chalicelib import clock
from chalicelib.domain.accounting import ZERO
from chalicelib.errors import DocumentTooLarge, ValidationFailed
from chalicelib.events import outbox
from chalicelib.messages.phrases import Phrase
from chalicelib.services.accounting.posting import JournalWrites
from chalicelib.services.commands import Command
from chalicelib.services.inventory import stock_records
from chalicelib.services.inventory.stock_moves import StockWrites
from chalicelib.store import keys
from chalicelib.store.listing import Page
from chalicelib.store.table import Table
from chalicelib.store.transaction import MAX_ITEMS


def create_transfer(command: Command, fields: dict[str, Any]) -> dict[str, Any]:
    table, company_id = command.table, command.company_id
    source, destination = fields["fromWarehouseId"], fields["toWarehouseId"]
    if source == destination:
        raise ValidationFailed.for_field("toWarehouseId", "must differ from the source warehouse")
    company, products, positions = stock_records.load_goods(table, company_id, fields["lines"])
    stock_records.require_warehouse(table, company_id, source, "fromWarehouseId")
    stock_records.require_warehouse(table, company_id, destination, "toWarehouseId")
    date = fields.get("date") or clock.company_today(company)
    stock = StockWrites(company_id, bool(company.get("allowNegativeStock")), table)
    stock.know(products, positions, products)
    transfer_id = table.next_id(keys.id_sequence(company_id, keys.INVENTORY_TRANSFER))
    lines: list[dict[str, Any]] = []
    moved = ZERO
    for index, line in enumerate(fields["lines"]):
        product_id, quantity = int(line["productId"]), Decimal(line["quantity"])
        stock.transfer(product_id, source, destination, quantity, date=date, transfer_id=transfer_id, line=index,
                       field=f"lines[{index}].quantity")
        moved += quantity
        lines.append({"productId": product_id, "quantity": quantity,
                      "unitCost": stock.position(product_id).shown_average})
    transfer = {"id": transfer_id, "fromWarehouseId": source, "toWarehouseId": destination, "date": date,
                "notes": fields.get("notes"), "reference": fields.get("reference"), "lines": lines,
                "createdAt": clock.now_iso()}
    transaction = command.transaction()
    stock_records.put_record(transaction, company_id, keys.INVENTORY_TRANSFER, transfer)
    journal = JournalWrites(company_id)
    journal.require_open(date)  # stock belongs to the books' dates even when no entry is posted
    journal.apply(transaction)
    stock.apply(transaction)
    outbox.emit(transaction, outbox.INVENTORY_TRANSFER_CREATED, company_id, "inventory_transfer", transfer_id,
                {"id": transfer_id, "fromWarehouseId": source, "toWarehouseId": destination, "date": date,
                 "quantity": moved})
    if len(transaction.operations) + 1 > MAX_ITEMS:
        raise DocumentTooLarge(Phrase("The transfer would change more than {} records in one transaction; split its "
                                      "lines into several transfers.", MAX_ITEMS))
    return command.commit(transaction, transfer)


def get_transfer(table: Table, company_id: int, transfer_id: int) -> dict[str, Any]:
    return stock_records.get_stock_record(table, company_id, keys.INVENTORY_TRANSFER, transfer_id, "Inventory transfer")


def list_transfers(table: Table, company_id: int, *, page: int, limit: int, cursor: str | None) -> Page:
    return stock_records.list_stock_records(table, company_id, keys.INVENTORY_TRANSFER, page=page, limit=limit,
                                      cursor=cursor)
