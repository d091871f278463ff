"""A document's goods: which lines move stock, what the goods are worth when they move (at average
cost, services/inventory/stock_moves.py) and when a reversal moves them back, and the automatic entry's
movements that carry that value to the books."""
from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal
from typing import Any

from chalicelib.domain import currency, taxes
from chalicelib.domain import documents as document_rules
from chalicelib.domain.accounting import ZERO, dimensions_of, round_money
from chalicelib.domain.documents import NONE
from chalicelib.domain.records import DocumentChanges, DocumentRecord
from chalicelib.errors import ValidationFailed
from chalicelib.services.inventory import stock_moves
from chalicelib.services.inventory.stock_moves import StockWrites, document_origin
from chalicelib.services.sales_purchases.document_content import Context


def stock_lines(context: Context, document: DocumentRecord) -> list[dict[str, Any]]:
    """The goods confirmation moves (line, product, warehouse, signed quantity). Valued when they
    move (`move_goods`), they are kept on the document (`stockMoves`) so a reversal undoes
    exactly them, at their value, whatever happens to the products later."""
    if context.kind.stock == NONE:
        return []
    moves = []
    for index, line in enumerate(document["lines"]):
        product_id = line.get("productId")
        product = context.products.get(product_id) if product_id is not None else None
        if product is None or product.get("type", "product") != "product" or not product.get("trackInventory", True):
            continue
        if document.get("warehouseId") is None:
            raise ValidationFailed.for_field("warehouseId", "required: the document moves stock and the company "
                                                            "has no default warehouse")
        moves.append({"line": index, "productId": product["id"], "warehouseId": document["warehouseId"],
                      "quantity": Decimal(line["quantity"]) * context.kind.stock})
    return moves


@dataclass(frozen=True)
class GoodsValue:
    value: Decimal  # what the goods moved are worth: their cost out, or their value in
    revaluation: Decimal  # stock value written off to cost of sales (domain/costing.py)


def move_goods(stock: StockWrites, context: Context, document: DocumentRecord, moves: list[dict[str, Any]]) -> GoodsValue:
    """Moves and values the goods of a confirmation, line by line: what leaves at the average
    cost; what a purchase brings at its line amount (an import's also with its share of the
    landed costs); what a sales credit note brings back at the cost it left at on its invoice.
    Each move keeps its value (`cost`) for a reversal."""
    kind = context.kind
    incoming = _incoming_values(context, document, moves) if kind.stock == document_rules.IN else {}
    origin = document_origin(document)
    value = revaluation = ZERO
    for move in moves:
        quantity, line = abs(Decimal(move["quantity"])), move["line"]
        where = {"date": document["date"], "origin": origin, "line": line, "field": f"lines[{line}].quantity",
                 "kind": "confirmation"}
        if kind.stock == document_rules.OUT:
            change = stock.issue(move["productId"], move["warehouseId"], quantity, **where)
        else:
            change = stock.receive(move["productId"], move["warehouseId"], quantity,
                                        incoming[line], **where)
        # what the goods moved at, and what of it was written off (goods that came in to cover a
        # shortage): a reversal moves the stock's value back by the difference
        move["cost"], move["revaluation"] = change.value, change.revaluation
        value += change.value
        revaluation += change.revaluation
    return GoodsValue(value, revaluation)


def _incoming_values(context: Context, document: DocumentRecord, moves: list[dict[str, Any]]) -> dict[int, Decimal]:
    """What each line's goods come in at, by line."""
    lines = document["lines"]
    if context.kind.sales:  # goods returned: at the cost they left at
        left = _costs_out(context.source if context.source is not None else {})
        return {move["line"]: _returned_value(abs(Decimal(move["quantity"])), left.get(move["productId"]),
                                              context_average(context, move["productId"])) for move in moves}
    # stock is valued in the company's currency: a purchase in another comes in at its rate, the
    # stocked lines together converted once and shared to the cent (the entry's figure exactly)
    rate, own = currency.rate_of(document), context.own_currency
    subtotals = [Decimal(lines[move["line"]]["subtotal"]) for move in moves]
    in_books = currency.in_base(currency.document_money(document, sum(subtotals, ZERO), own), rate, own)
    values = {move["line"]: share.amount for move, share in zip(moves, in_books.split(subtotals), strict=True)}
    if context.kind.code == document_rules.IMPORT and moves:
        stocked = {move["line"] for move in moves}
        others = sum((Decimal(line["subtotal"]) for i, line in enumerate(lines) if i not in stocked), ZERO)
        landed = currency.in_base(currency.document_money(document, others, own), rate, own)
        weights = [values[move["line"]] for move in moves]
        if sum(weights, ZERO) == 0:
            weights = [abs(Decimal(move["quantity"])) for move in moves]
        for move, share in zip(moves, landed.split(weights), strict=True):
            values[move["line"]] += share.amount
    return values


def _costs_out(source: DocumentChanges) -> dict[int, tuple[Decimal, Decimal]]:
    """(quantity, cost) of each product that left on a sales invoice."""
    left: dict[int, tuple[Decimal, Decimal]] = {}
    for move in source.get("stockMoves") or []:
        quantity, cost = left.get(move["productId"], (ZERO, ZERO))
        left[move["productId"]] = (quantity + abs(Decimal(move["quantity"])), cost + Decimal(move.get("cost", 0)))
    return {product_id: out for product_id, out in left.items() if out[0]}


def _returned_value(quantity: Decimal, left: tuple[Decimal, Decimal] | None, average: Decimal) -> Decimal:
    """Goods returned at their share of what they left at, multiplied before it is divided: 3 of 6
    units that left at 186.95 come back at 3 x 186.95 / 6 = 93.475 -> 93.48 (a unit cost first,
    31.158333..., would make 93.474999... -> 93.47)."""
    if left is None:
        return round_money(quantity * average)
    sold, cost = left
    return round_money(quantity * cost / sold)


def context_average(context: Context, product_id: int) -> Decimal:
    return stock_moves.position_of(context.positions.get(product_id), context.products.get(product_id)).average_cost


def entry_movements(context: Context, document: DocumentRecord, moves: list[dict[str, Any]],
                     goods: GoodsValue) -> list[Any]:
    """The movements of the document's automatic entry, its goods valued."""
    if not context.kind.posts:
        return []
    stocked = {move["line"] for move in moves}
    stocked_subtotal = sum((Decimal(line["subtotal"]) for i, line in enumerate(document["lines"]) if i in stocked), ZERO)
    # the books in the company's currency: the total and tax at the document's rate, the stocked
    # goods as they came in; the other lines take what is left, rounding difference included
    rate, own = currency.rate_of(document), context.own_currency
    total = currency.base_total(document, own)
    tax = currency.in_base(currency.money_of(document, "taxTotal", own), rate, own)
    stocked_base = currency.in_base(currency.document_money(document, stocked_subtotal, own), rate, own)
    return document_rules.entry_movements(
        context.kind, total=total.amount, tax=tax.amount, stocked_subtotal=stocked_base.amount,
        other_subtotal=(total - tax - stocked_base).amount,
        stock_value=goods.value, revaluation=goods.revaluation, moves_stock=bool(moves),
        export=all(taxes.treatment_of(line) == taxes.EXPORT for line in document["lines"]),
        lines=[document_rules.LineShare(Decimal(line["subtotal"]), taxes.treatment_of(line),
                                        dimensions_of(line.get("dimensions")), index in stocked)
               for index, line in enumerate(document["lines"])])


def goods_back(stock: StockWrites, document: DocumentRecord, moves: list[dict[str, Any]], date: str) -> Decimal:
    """Each move undone at the value it moved the stock by: goods that came in leave at their value
    less what was written off when they came (they covered a shortage), goods that left come back
    at their cost. Returns the revaluation of this undoing (domain/costing.py)."""
    origin = document_origin(document)
    revaluation = ZERO
    for move in moves:
        quantity, line = Decimal(move["quantity"]), move["line"]
        where = {"date": date, "origin": origin, "line": line, "field": f"lines[{line}].quantity", "kind": "reversal"}
        undo = stock.take_out if quantity > 0 else stock.receive
        value = Decimal(move.get("cost", 0)) - Decimal(move.get("revaluation", 0))
        change = undo(move["productId"], move["warehouseId"], abs(quantity), value, **where)
        revaluation += change.revaluation
    return revaluation
