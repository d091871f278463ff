"""Stock valued at weighted average cost (NIIF para PYMES, section 13), no I/O.

A product's `Position` is what the company holds of it across its warehouses: the quantity, the
value the books carry for it (cents, equal to its share of the inventory account) and the last
known unit cost. Each movement changes it in the order it is recorded (a perpetual, moving
average):

- a receipt adds its quantity and its value: the average becomes value / quantity;
- an issue takes the average at that moment: cost = quantity x value / quantity, rounded to
  cents, and the last units take exactly what value is left (no cent stays behind);
- goods that leave at a given value (a receipt undone) take that value out.

The value always agrees with the quantity: nothing on hand carries no value, goods on hand never
carry a negative value, and a shortage (negative stock, when the company allows it) is carried at
the last known cost. A movement that would break that writes the difference off to cost of sales
(its `revaluation`): when goods that were sold short arrive at another cost, or when a receipt
undone takes out more than what is left is worth."""
from __future__ import annotations

from dataclasses import dataclass
from decimal import ROUND_HALF_UP, Decimal
from typing import Iterable, Sequence

from chalicelib.domain.accounting import ZERO, round_money

UNIT_COST_PLACES = Decimal("0.000001")
SHOWN_COST_PLACES = Decimal("0.0001")


def unit_cost_of(value: Decimal, quantity: Decimal) -> Decimal:
    """A unit cost as kept (six decimals): value / quantity."""
    return (Decimal(value) / Decimal(quantity)).quantize(UNIT_COST_PLACES, rounding=ROUND_HALF_UP)


def shown_cost(value: Decimal, quantity: Decimal = Decimal(1)) -> Decimal:
    """A unit cost as answered (four decimals), from the value and quantity themselves (rounded
    once)."""
    shown = (Decimal(value) / Decimal(quantity)).quantize(SHOWN_COST_PLACES, rounding=ROUND_HALF_UP)
    return shown if shown else Decimal("0.0000")  # never -0.0000


@dataclass(frozen=True)
class Position:
    quantity: Decimal = ZERO
    value: Decimal = ZERO
    unit_cost: Decimal = ZERO  # the last known average: what a shortage is carried at

    @property
    def average_cost(self) -> Decimal:
        return unit_cost_of(self.value, self.quantity) if self.quantity > 0 else self.unit_cost

    @property
    def shown_average(self) -> Decimal:
        return shown_cost(self.value, self.quantity) if self.quantity > 0 else shown_cost(self.unit_cost)


@dataclass(frozen=True)
class Change:
    """One movement's effect. `value` is what the movement carries, always >= 0: the cost of what
    left, or the value of what came in. `revaluation` is the stock value written off to cost of
    sales (positive: inventory down, cost of sales up; negative: the other way)."""
    position: Position
    value: Decimal
    revaluation: Decimal = ZERO


def issue(position: Position, quantity: Decimal) -> Change:
    """Goods leave at the average: a sale, a purchase return, a loss."""
    quantity = Decimal(quantity)
    on_hand, value = position.quantity, position.value
    if on_hand > 0 and quantity >= on_hand:  # the last units take what is left; a shortage the average
        cost = value + round_money((quantity - on_hand) * position.average_cost)
    elif on_hand > 0:
        cost = round_money(quantity * value / on_hand)
    else:
        cost = round_money(quantity * position.unit_cost)
    unit_cost = position.average_cost
    return _settled(Position(on_hand - quantity, value - cost, unit_cost), cost, ZERO)


def receive(position: Position, quantity: Decimal, value: Decimal) -> Change:
    """Goods come in at `value` (a purchase with its landed costs, an adjustment at a unit cost,
    goods returned at the cost they left at). Units that were sold short take this receipt's
    cost: the difference to what they were carried at is written off to cost of sales."""
    quantity, value = Decimal(quantity), Decimal(value)
    on_hand, held = position.quantity, position.value
    revaluation = ZERO
    if on_hand < 0:
        covered = min(quantity, -on_hand)
        true_cost = value if covered == quantity else round_money(value * covered / quantity)
        carried = -held if covered == -on_hand else round_money(-held * covered / -on_hand)
        revaluation = true_cost - carried
    after = Position(on_hand + quantity, held + value - revaluation, unit_cost_of(value, quantity))
    if after.quantity > 0:
        after = Position(after.quantity, after.value, unit_cost_of(after.value, after.quantity))
    return _settled(after, value, revaluation)


def take_out(position: Position, quantity: Decimal, value: Decimal) -> Change:
    """Goods leave at the value they came in at: a receipt undone (a purchase unconfirmed, an
    import or a sales credit note cancelled)."""
    quantity, value = Decimal(quantity), Decimal(value)
    after = Position(position.quantity - quantity, position.value - value, position.average_cost)
    if after.quantity > 0:
        after = Position(after.quantity, after.value, unit_cost_of(after.value, after.quantity)
                         if after.value > 0 else position.average_cost)
    return _settled(after, value, ZERO)


def position_on(now: Position, later: Iterable[tuple[Decimal, Decimal]]) -> Position:
    """What a position was at the end of a date: what it is now less the movements dated after it
    (each a signed quantity and value change). The last known cost stays what a shortage is
    carried at."""
    quantity, value = now.quantity, now.value
    for moved, worth in later:
        quantity, value = quantity - Decimal(moved), value - Decimal(worth)
    return Position(quantity, value, now.unit_cost)


def priced_on(now: Position, then: Position) -> Position:
    """The position whose average prices goods moved on a past date: that day's (`then`) when it
    held goods with a value; else today's (documents recorded out of date order can leave a past
    day with nothing on hand, or with a value below nothing)."""
    return then if then.quantity > 0 and then.value > 0 else now


def issue_on(now: Position, then: Position, quantity: Decimal) -> Change:
    """Goods leave on a past date (`then`: the position at its end) at that date's average, as
    `issue` would have taken them then; the position now gives up that value. Movements dated
    later keep the cost they were recorded at: they are already in the books, perhaps in a closed
    month. With nothing dated later (or a day that cannot price them: `priced_on`) it is `issue`
    itself."""
    if priced_on(now, then) == now:
        return issue(now, quantity)
    return take_out(now, quantity, issue(then, quantity).value)


def first_day_below_zero(date: str, on_date: Decimal, later: Sequence[tuple[str, Decimal]], change: Decimal
                         ) -> tuple[str, Decimal] | None:
    """Where stock would stand below zero if `change` (signed) moved it on `date`: the first day
    from `date` on whose end would, and what would stand then; None when every day stays at zero
    or above. `on_date` is the quantity at the end of `date` (the change left out), `later` what
    each later day moved (signed, in date order): a change on a date moves every later day's
    figure by as much, so the stock never negative at any date is this being None for every
    movement that takes goods away. Goods that come in never make a day worse."""
    change = Decimal(change)
    if change >= 0:
        return None
    running = Decimal(on_date)
    for day, moved in ((date, ZERO), *later):
        running += Decimal(moved)
        if running + change < 0:
            return day, running + change
    return None


def _settled(after: Position, value: Decimal, revaluation: Decimal) -> Change:
    """Keeps the value in agreement with the quantity, writing any difference off."""
    target = after.value
    if after.quantity == 0:
        target = ZERO
    elif after.quantity > 0 and after.value < 0:
        target = ZERO
    elif after.quantity < 0 and after.value > 0:
        target = round_money(after.quantity * after.unit_cost)
    if target != after.value:
        revaluation += after.value - target
        after = Position(after.quantity, target, after.unit_cost)
    return Change(after, value, revaluation)
