"""Inventory adjustments: a new company's opening stock, a physical count, goods damaged or lost,
other corrections, each as of its date: a count compares with the warehouse's stock on that date
(movements dated later left out) and the change is valued at that date's average cost. One transaction each: the adjustment, its stock moves (valued at average cost:
services/inventory/stock_moves.py), one journal entry (inventory against opening balance equity, or an
adjustment gain or loss, by the determination rules) and its event."""
from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal
from typing import Any

from chalicelib import clock
from chalicelib.domain import costing
from chalicelib.domain import documents as document_rules
from chalicelib.domain.accounting import CREDIT, DEBIT, ZERO, Movement, round_money
from chalicelib.errors import DocumentTooLarge, ValidationFailed
from chalicelib.events import outbox
from chalicelib.messages.books import book_text
from chalicelib.messages.phrases import Phrase
from chalicelib.services.accounting.posting import JournalWrites, Source, load_rules
from chalicelib.services.commands import Command
from chalicelib.services.inventory import stock_records
from chalicelib.services.inventory.stock_moves import Origin, StockWrites, movements_after
from chalicelib.store import keys
from chalicelib.store.listing import Page
from chalicelib.store.table import Table
from chalicelib.store.transaction import MAX_ITEMS, Transaction

OPENING, COUNT, DAMAGE = "opening", "count", "damage"
REASON_NAMES = {OPENING: "Inventario inicial", COUNT: "Conteo físico", DAMAGE: "Mermas y daños", "other": "Otros ajustes"}
# what an increase is credited to, by reason; a decrease is always a loss
GAIN_OPERATION = {OPENING: "opening_balance_equity"}
GAIN, LOSS = "inventory_adjustment_gain", "inventory_adjustment_loss"


@dataclass
class _Totals:
    added: Decimal = ZERO  # value of the goods added
    removed: Decimal = ZERO  # cost of the goods taken away
    revaluation: Decimal = ZERO

    def movements(self, reason: str) -> list[Movement]:
        return [Movement("inventory", DEBIT, self.added), Movement(GAIN_OPERATION.get(reason, GAIN), CREDIT, self.added),
                Movement(LOSS, DEBIT, self.removed), Movement("inventory", CREDIT, self.removed),
                *document_rules.revaluation_movements(self.revaluation)]


def create_adjustment(command: Command, fields: dict[str, Any]) -> dict[str, Any]:
    transaction, adjustment = adjustment_writes(command, fields)
    return command.commit(transaction, adjustment)


def adjustment_writes(command: Command, fields: dict[str, Any], *, room: int = 1) -> tuple[Transaction, dict[str, Any]]:
    """The adjustment's one transaction, not committed (the opening-stock import adds its unit's
    marker), leaving `room` items for the caller's own writes."""
    table, company_id = command.table, command.company_id
    reason, warehouse_id = fields["reason"], fields["warehouseId"]
    company, products, positions = stock_records.load_goods(table, company_id, fields["lines"])
    stock_records.require_warehouse(table, company_id, warehouse_id, "warehouseId")
    date = fields.get("date") or clock.company_today(company)
    stock = StockWrites(company_id, bool(company.get("allowNegativeStock")), table)
    stock.know(products, positions, products)
    stock.know_later(movements_after(table, company_id, date, positions.values()))
    adjustment_id = table.next_id(keys.id_sequence(company_id, keys.INVENTORY_ADJUSTMENT))
    origin = Origin(keys.adjustment_stock_origin(adjustment_id), {"adjustmentId": adjustment_id})
    totals = _Totals()
    lines = [_adjusted_line(stock, totals, reason, warehouse_id, date, origin, index, line)
             for index, line in enumerate(fields["lines"])]
    journal = JournalWrites(company_id)
    journal.require_open(date)
    entry_id = None
    movements = [movement for movement in totals.movements(reason) if movement.amount]
    if movements:
        entry_id = int(journal.automatic_entry(
            table, load_rules(table, company_id), source=Source("inventory_adjustment", adjustment_id),
            date=date, description=book_text("inventory_adjustment", adjustment=adjustment_id, reason=REASON_NAMES[reason]),
            movements=movements)["id"])
    now = clock.now_iso()
    adjustment = {"id": adjustment_id, "warehouseId": warehouse_id, "date": date, "reason": reason,
                  "notes": fields.get("notes"), "reference": fields.get("reference"), "lines": lines,
                  "totalValue": sum((line["value"] for line in lines), ZERO), "journalEntryId": entry_id,
                  "createdAt": now}
    transaction = command.transaction()
    stock_records.put_record(transaction, company_id, keys.INVENTORY_ADJUSTMENT, adjustment)
    journal.apply(transaction)
    stock.apply(transaction)
    outbox.emit(transaction, outbox.INVENTORY_ADJUSTMENT_CREATED, company_id, "inventory_adjustment", adjustment_id,
                {"id": adjustment_id, "warehouseId": warehouse_id, "date": date, "reason": reason,
                 "totalValue": adjustment["totalValue"], "journalEntryId": entry_id})
    if len(transaction.operations) + room > MAX_ITEMS:
        raise DocumentTooLarge(Phrase("The adjustment would change more than {} records in one transaction; split its "
                                      "lines into several adjustments (a count line that matches the stock writes "
                                      "nothing).", MAX_ITEMS))
    return transaction, adjustment


def _adjusted_line(stock: StockWrites, totals: _Totals, reason: str, warehouse_id: int, date: str, origin: Origin,
                   index: int, line: dict[str, Any]) -> dict[str, Any]:
    product_id, field = int(line["productId"]), f"lines[{index}]"
    held = stock.on_hand_on(product_id, warehouse_id)  # on the adjustment's date, not today
    counted = line.get("countedQuantity")
    change = Decimal(counted) - held if counted is not None else Decimal(line["quantity"])
    if counted is None and change == 0:
        raise ValidationFailed.for_field(f"{field}.quantity", "must not be zero")
    sent = f"{field}.countedQuantity" if counted is not None else f"{field}.quantity"
    if reason == OPENING and change < 0:
        raise ValidationFailed.for_field(sent, Phrase("an opening stock only adds: {} are already on hand",
                                                      format(held, 'f')))
    if reason == DAMAGE and change > 0:
        raise ValidationFailed.for_field(sent, Phrase("damage only takes away: {} are on hand", format(held, 'f')))
    before = stock.position(product_id)
    unit_cost, value = ZERO, ZERO
    if change > 0:  # at the date's average: the cost the goods carried then
        unit_cost = _unit_cost_added(reason, line, stock.priced_on(product_id), field)
        moved = stock.receive(product_id, warehouse_id, change, round_money(change * unit_cost), date=date,
                              origin=origin, line=index, field=f"{field}.quantity", kind="adjustment")
        totals.added += moved.value
        totals.revaluation += moved.revaluation
    elif change < 0:
        moved = stock.issue_on(product_id, warehouse_id, -change, date=date, origin=origin, line=index,
                               field=f"{field}.quantity", kind="adjustment")
        unit_cost = moved.value / -change
        totals.removed += moved.value
        # taken at a past day's average, the goods can leave today's position below nothing: what
        # the position writes off is posted too, or the account parts from the stock
        totals.revaluation += moved.revaluation
    if change:
        value = stock.position(product_id).value - before.value
    return {"productId": product_id, "quantity": change, "countedQuantity": counted, "previousQuantity": held,
            "unitCost": costing.shown_cost(unit_cost), "value": value}


def _unit_cost_added(reason: str, line: dict[str, Any], position: costing.Position, field: str) -> Decimal:
    """What each unit added is worth: the cost given, else (not for an opening stock) the average."""
    if line.get("unitCost") is not None:
        return Decimal(line["unitCost"])
    if reason == OPENING:
        raise ValidationFailed.for_field(f"{field}.unitCost", "required for an opening stock")
    if position.average_cost == 0:
        raise ValidationFailed.for_field(f"{field}.unitCost", "required: the product has no average cost yet")
    return position.average_cost


def get_adjustment(table: Table, company_id: int, adjustment_id: int) -> dict[str, Any]:
    return stock_records.get_stock_record(table, company_id, keys.INVENTORY_ADJUSTMENT, adjustment_id,
                                    "Inventory adjustment")


def list_adjustments(table: Table, company_id: int, *, page: int, limit: int, cursor: str | None) -> Page:
    return stock_records.list_stock_records(table, company_id, keys.INVENTORY_ADJUSTMENT, page=page, limit=limit,
                                      cursor=cursor)
