"""Stock moves and their value. Stock only changes inside a command's transaction (`StockWrites`):
a document, an inventory adjustment or a transfer. Each change writes its movement record (the
product's kardex: quantity, unit cost and value) and the product's position (its quantity in each
warehouse, and its quantity, value and average cost across the company: domain/costing.py), so
stock always equals the sum of its movements and the stock's value the sum of theirs.

A position is read before the command values its moves and written back conditioned on what
was read (its `sequence`): two commands moving one product at once cannot both value against the
same average; the second runs again on fresh figures. Unless the company allows negative stock,
goods taken away may leave the warehouse below zero neither at the end of their date nor of any
later day (the product's movements dated later read after its position, so the same condition
keeps two back-dated commands from both passing)."""
from __future__ import annotations

from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any, Iterable

from chalicelib import clock
from chalicelib.domain import costing
from chalicelib.domain.accounting import ZERO, round_money
from chalicelib.domain.money import MAX_AMOUNT
from chalicelib.domain.records import DocumentRecord
from chalicelib.errors import ApiError, ValidationFailed
from chalicelib.messages.phrases import Phrase
from chalicelib.services import document_names
from chalicelib.store import keys
from chalicelib.store.repositories import stock
from chalicelib.store.table import Table
from chalicelib.store.transaction import Transaction


class InsufficientStock(ApiError):
    code = "INSUFFICIENT_STOCK"


@dataclass(frozen=True)
class Origin:
    """What moves the goods, as its movements name it."""
    sort_part: str  # unique per command (keys.*_stock_origin)
    fields: dict[str, Any]  # documentId/documentType/documentNumber(/NumeroControl), adjustmentId or transferId


def document_origin(document: DocumentRecord) -> Origin:
    return Origin(keys.document_stock_origin(document["id"], document["version"]),
                  {"documentId": document["id"], "documentType": document["type"], **document_names.names(document)})


# --- positions ---------------------------------------------------------------------------------------

def position_of(item: dict[str, Any] | None, product: dict[str, Any] | None = None) -> costing.Position:
    """A stored position; a product that never moved starts at its reference cost (what a
    shortage is carried at until goods arrive)."""
    if item is None:
        return costing.Position(unit_cost=Decimal((product or {}).get("cost") or 0))
    return costing.Position(Decimal(item.get("quantity", 0)), Decimal(item.get("value", 0)),
                            Decimal(item.get("unitCost", 0)))


def position_keys(company_id: int, product_ids: Iterable[int]) -> list[keys.Key]:
    return [keys.stock_position(company_id, product_id) for product_id in product_ids]


def read_positions(table: Table, company_id: int, product_ids: Iterable[int]) -> dict[int, dict[str, Any]]:
    """Stored positions by product (strongly consistent: they are about to be valued against)."""
    wanted = sorted(set(product_ids))
    found = table.batch_get(position_keys(company_id, wanted)) if wanted else {}
    return {item["productId"]: item for item in found.values()}


def cost_fields(item: dict[str, Any] | None, product: dict[str, Any]) -> dict[str, Any]:
    """What a product answers of its stock: on hand across warehouses, its value and average cost
    (until goods arrive, its reference cost: what a sale would be costed at)."""
    position = position_of(item, product)
    return {"stockQuantity": position.quantity, "stockValue": position.value,
            "averageCost": position.shown_average}


def with_costs(table: Table, company_id: int, products: list[dict[str, Any]]) -> list[dict[str, Any]]:
    positions = read_positions(table, company_id, (product["id"] for product in products))
    return [{**product, **cost_fields(positions.get(product["id"]), product)} for product in products]


def movements_after(table: Table, company_id: int, date: str, positions: Iterable[dict[str, Any]]
                    ) -> dict[int, list[dict[str, Any]]]:
    """The movements dated after `date` of the products these stored positions hold, date order:
    one Query each for the products that moved after it (strongly consistent, unlike an index of
    every product's movements), none for today."""
    return {position["productId"]: stock.movements_after(table, company_id, position["productId"], date)
        for position in positions if (position.get("lastMovementDate") or "") > date}


def quantities_on(position: dict[str, Any], later: list[dict[str, Any]]) -> dict[int, Decimal]:
    """A stored position's quantity in each warehouse at the end of a date: now less `later`."""
    held = warehouse_quantities(position)
    for movement in later:
        warehouse_id = int(movement["warehouseId"])
        held[warehouse_id] = held.get(warehouse_id, ZERO) - Decimal(movement["quantity"])
    return held


# --- a command's stock writes --------------------------------------------------------------------

def warehouse_quantities(item: dict[str, Any] | None) -> dict[int, Decimal]:
    return {int(warehouse): Decimal(quantity) for warehouse, quantity in ((item or {}).get("warehouses") or {}).items()}


@dataclass
class _Tracked:
    stored: dict[str, Any] | None
    position: costing.Position
    warehouses: dict[int, Decimal]
    last_date: str | None
    changed: bool = False


@dataclass
class StockWrites:
    """The stock changes of one command. A product's position holds its quantity in each
    warehouse too: enough stock is checked against what was read (and the movements dated after
    the command's date), and the position's write is conditioned on it being what was read.
    Positions must be known (`know`) before a product's goods are valued."""
    company_id: int
    allow_negative: bool
    # where the movements dated after a back-dated command are read (`_read_later`); without it
    # (a command that may leave stock below zero) only what `know_later` gave is known
    table: Table | None = None
    _tracked: dict[int, _Tracked] = field(default_factory=dict)
    _movements: list[dict[str, Any]] = field(default_factory=list)
    # the field an error names for a product in a warehouse: its first line in the command
    _fields: dict[tuple[int, int], str] = field(default_factory=dict)
    # the movements dated after the command's date, by product (`know_later`, `_read_later`): a
    # back-dated command reads the stock as it stood on its date and may leave no later day short
    _later: dict[int, list[dict[str, Any]]] = field(default_factory=dict)
    _names: dict[int, str] = field(default_factory=dict)  # a product's name, for a refusal

    def know(self, product_ids: Iterable[int], stored: dict[int, dict[str, Any]],
             products: dict[int, dict[str, Any]]) -> None:
        """The positions of these products as read (`stored`; `products` give a new position its
        reference cost)."""
        for product_id in product_ids:
            if products.get(product_id, {}).get("name"):
                self._names[product_id] = products[product_id]["name"]
            if product_id not in self._tracked:
                item = stored.get(product_id)
                self._tracked[product_id] = _Tracked(item, position_of(item, products.get(product_id)),
                                                     warehouse_quantities(item),
                                                     item.get("lastMovementDate") if item else None)

    def load(self, table: Table, products: dict[int, dict[str, Any]]) -> None:
        self.know(products, read_positions(table, self.company_id, products), products)

    def _of(self, product_id: int) -> _Tracked:
        if product_id not in self._tracked:  # a product read neither with its position nor its reference cost
            self.know([product_id], {}, {})
        return self._tracked[product_id]

    def position(self, product_id: int) -> costing.Position:
        return self._of(product_id).position

    def on_hand(self, product_id: int, warehouse_id: int) -> Decimal:
        return self._of(product_id).warehouses.get(warehouse_id, ZERO)

    def know_later(self, later: dict[int, list[dict[str, Any]]]) -> None:
        """The movements dated after the command's date (`movements_after`), by product."""
        self._later.update(later)

    def _later_in(self, product_id: int, warehouse_id: int) -> list[tuple[str, Decimal]]:
        """What each later day moved in the warehouse, in date order (a day's movements added up:
        the stock that counts is the day's end)."""
        days: dict[str, Decimal] = {}
        for movement in self._later.get(product_id, []):
            if int(movement["warehouseId"]) == warehouse_id:
                days[movement["date"]] = days.get(movement["date"], ZERO) + Decimal(movement["quantity"])
        return [(day, days[day]) for day in sorted(days)]

    def _read_later(self, product_id: int, date: str) -> None:
        """The product's movements dated after `date`, read once, when its position as read moved
        after it (one Query of its kardex from the day after on; none for a command dated on or
        after its last movement, as most are). Read after the position, whose write is
        conditioned on the sequence read: a movement committed since makes the command run again,
        so no later movement escapes the check."""
        tracked = self._of(product_id)
        if product_id in self._later or self.table is None or tracked.stored is None:
            return
        self._later.update(movements_after(self.table, self.company_id, date, [tracked.stored]))

    def position_on(self, product_id: int) -> costing.Position:
        """The product's position at the end of the command's date."""
        return costing.position_on(self.position(product_id), ((movement["quantity"], movement.get("value", 0))
                                                               for movement in self._later.get(product_id, [])))

    def priced_on(self, product_id: int) -> costing.Position:
        """The position whose average prices goods moved on the command's date (`costing.priced_on`)."""
        return costing.priced_on(self.position(product_id), self.position_on(product_id))

    def on_hand_on(self, product_id: int, warehouse_id: int) -> Decimal:
        """The warehouse's quantity at the end of the command's date."""
        return self.on_hand(product_id, warehouse_id) - sum((moved for _, moved in self._later_in(product_id, warehouse_id)),
                                                            ZERO)

    # movements

    def issue(self, product_id: int, warehouse_id: int, quantity: Decimal, *, date: str, origin: Origin,
              line: int, field: str, kind: str) -> costing.Change:
        """Goods leave at the average cost."""
        return self._record(product_id, warehouse_id, -quantity, costing.issue(self.position(product_id), quantity),
                            date=date, origin=origin, line=line, field=field, kind=kind)

    def issue_on(self, product_id: int, warehouse_id: int, quantity: Decimal, *, date: str, origin: Origin,
                 line: int, field: str, kind: str) -> costing.Change:
        """Goods leave on the command's date at that date's average (`costing.issue_on`)."""
        return self._record(product_id, warehouse_id, -quantity,
                            costing.issue_on(self.position(product_id), self.position_on(product_id), quantity),
                            date=date, origin=origin, line=line, field=field, kind=kind)

    def receive(self, product_id: int, warehouse_id: int, quantity: Decimal, value: Decimal, *, date: str,
                origin: Origin, line: int, field: str, kind: str) -> costing.Change:
        """Goods come in at `value`."""
        return self._record(product_id, warehouse_id, quantity,
                            costing.receive(self.position(product_id), quantity, value),
                            date=date, origin=origin, line=line, field=field, kind=kind)

    def take_out(self, product_id: int, warehouse_id: int, quantity: Decimal, value: Decimal, *, date: str,
                 origin: Origin, line: int, field: str, kind: str) -> costing.Change:
        """Goods leave at the value they came in at (a receipt undone)."""
        return self._record(product_id, warehouse_id, -quantity,
                            costing.take_out(self.position(product_id), quantity, value),
                            date=date, origin=origin, line=line, field=field, kind=kind)

    def transfer(self, product_id: int, from_warehouse: int, to_warehouse: int, quantity: Decimal, *, date: str,
                 transfer_id: int, line: int, field: str) -> None:
        """Goods change warehouse: the company holds what it held, at the same average; the two
        movements carry the goods' value out and in."""
        position = self.position(product_id)
        value = round_money(quantity * position.average_cost)
        for leg, warehouse_id, signed in ((keys.TRANSFER_OUT, from_warehouse, -quantity),
                                          (keys.TRANSFER_IN, to_warehouse, quantity)):
            origin = Origin(keys.transfer_stock_origin(transfer_id, leg), {"transferId": transfer_id})
            self._move(product_id, warehouse_id, signed, date, field)
            self._movement(product_id, warehouse_id, signed, value if signed > 0 else -value, position.shown_average,
                           date=date, origin=origin, line=line, kind="transfer")

    def _record(self, product_id: int, warehouse_id: int, signed: Decimal, change: costing.Change, *, date: str,
                origin: Origin, line: int, field: str, kind: str) -> costing.Change:
        tracked = self._of(product_id)
        if change.value > MAX_AMOUNT:
            raise ValidationFailed.for_field(field, Phrase("the goods' value may not exceed {}", MAX_AMOUNT))
        net = change.position.value - tracked.position.value
        self._move(product_id, warehouse_id, signed, date, field)
        tracked.position = change.position
        self._movement(product_id, warehouse_id, signed, net, costing.shown_cost(change.value, abs(signed)),
                       date=date, origin=origin, line=line, kind=kind, revaluation=change.revaluation)
        return change

    def _move(self, product_id: int, warehouse_id: int, signed: Decimal, date: str, field: str) -> None:
        tracked = self._of(product_id)
        held = tracked.warehouses.get(warehouse_id, ZERO)
        field = self._fields.setdefault((product_id, warehouse_id), field)
        if signed < 0 and not self.allow_negative:
            self._refuse_a_short_day(product_id, warehouse_id, signed, date, field)
        tracked.warehouses[warehouse_id] = held + signed
        tracked.last_date = max(tracked.last_date or date, date)
        tracked.changed = True

    def _refuse_a_short_day(self, product_id: int, warehouse_id: int, signed: Decimal, date: str, field: str) -> None:
        """Stock never negative at any date: goods taken away on `date` may leave neither that day's
        end nor any later day's below zero in the warehouse (`costing.first_day_below_zero`)."""
        self._read_later(product_id, date)
        short = costing.first_day_below_zero(date, self.on_hand_on(product_id, warehouse_id),
                                             self._later_in(product_id, warehouse_id), signed)
        if short is None:
            return
        day, left = short
        name = self._names.get(product_id, "")
        raise InsufficientStock(Phrase("Not enough stock of product {} ({}) in warehouse {} on {}: taking {} away on "
                                       "{} leaves {} then.",
                                       product_id, name, warehouse_id, day, format(-signed, 'f'), date, format(left, 'f')),
                                details=[{"field": field, "message": "insufficient stock"}])

    def _movement(self, product_id: int, warehouse_id: int, signed: Decimal, value: Decimal, unit_cost: Decimal, *,
                  date: str, origin: Origin, line: int, kind: str, revaluation: Decimal = ZERO) -> None:
        item = {**stock.movement_keys(self.company_id, product_id, date, origin.sort_part, line),
                "itemType": "STOCK_MOVEMENT",
                "productId": product_id, "warehouseId": warehouse_id, "quantity": signed, "date": date, "kind": kind,
                "unitCost": unit_cost, "value": value, **origin.fields}
        if revaluation:
            item["revaluation"] = revaluation
        self._movements.append(item)

    # the transaction

    @property
    def item_count(self) -> int:
        return len(self._movements) + sum(1 for tracked in self._tracked.values() if tracked.changed)

    def apply(self, transaction: Transaction) -> None:
        for movement in self._movements:
            transaction.put(movement)
        for product_id, tracked in self._tracked.items():
            if tracked.changed:
                self._update_position(transaction, product_id, tracked)

    def _update_position(self, transaction: Transaction, product_id: int, tracked: _Tracked) -> None:
        """Written whole, conditioned on the sequence read: a concurrent move of the product makes
        the command run again (no `on_fail`: a lost race)."""
        position = tracked.position
        seen = int(tracked.stored["sequence"]) if tracked.stored else None
        changes = {"itemType": "STOCK_POSITION", "productId": product_id, "quantity": position.quantity,
                   "value": position.value, "unitCost": position.unit_cost,
                   "warehouses": {str(warehouse): quantity for warehouse, quantity in sorted(tracked.warehouses.items())},
                   "lastMovementDate": tracked.last_date, "sequence": (seen or 0) + 1, "updatedAt": clock.now_iso()}
        stock.write_position(transaction, self.company_id, product_id, changes, seen)
