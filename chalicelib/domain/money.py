"""Money, no I/O: an amount with its currency (issue 45). Amounts of one currency add, subtract
and compare; two currencies never meet except through a rate (`Money.at`), so lempiras are never
added to dollars by mistake: that raises `CurrencyMismatch`. Rounding is half-up to cents, the
rounding of every amount the books carry; `split` shares an amount in proportion to weights in
cents that add up to it exactly.

The one money limit is here too: the largest amount any money field, line or document total may
carry, and any amount converted to the company's currency (domain/currency.converted): 12 integer
digits and cents (14 significant digits), well inside DynamoDB's 38-digit numbers and read back
unchanged by a JSON client that parses numbers as doubles (15 significant digits)."""
from __future__ import annotations

from dataclasses import dataclass
from decimal import ROUND_DOWN, ROUND_HALF_UP, Decimal
from typing import Sequence

MAX_AMOUNT = Decimal("999999999999.99")
ZERO = Decimal("0.00")
CENT = Decimal("0.01")


def round_money(amount: Decimal) -> Decimal:
    """Half-up to cents, the rounding of every amount the books carry."""
    return Decimal(amount).quantize(CENT, rounding=ROUND_HALF_UP)


def split(amount: Decimal, weights: Sequence[Decimal]) -> list[Decimal]:
    """`amount` shared in proportion to `weights`, in cents that add up to it exactly (largest
    remainders). Equal shares when the weights add up to nothing."""
    amount = round_money(amount)
    if not weights:
        return []
    total = sum((Decimal(w) for w in weights), ZERO)
    if total == 0:
        weights, total = [Decimal(1)] * len(weights), Decimal(len(weights))
    exact = [amount * Decimal(w) / total for w in weights]
    shares = [e.quantize(CENT, rounding=ROUND_DOWN) for e in exact]
    left = int((amount - sum(shares, ZERO)) / CENT)
    order = sorted(range(len(shares)), key=lambda i: exact[i] - shares[i], reverse=left > 0)
    step = CENT if left > 0 else -CENT
    for i in order[:abs(left)]:
        shares[i] += step
    return shares


class CurrencyMismatch(ValueError):
    """Two currencies met without a rate: a bug in the caller, never the user's input."""


@dataclass(frozen=True, slots=True)
class Money:
    amount: Decimal
    currency: str

    def __post_init__(self) -> None:
        if isinstance(self.amount, float) or not isinstance(self.amount, (Decimal, int)):
            raise TypeError(f"money is an exact amount, not {type(self.amount).__name__}")
        if not (len(self.currency) == 3 and self.currency.isalpha() and self.currency.isupper()):
            raise ValueError(f"{self.currency!r} is not an ISO 4217 currency code")
        object.__setattr__(self, "amount", Decimal(self.amount))

    @classmethod
    def zero(cls, currency: str) -> Money:
        return cls(ZERO, currency)

    def _same(self, other: Money) -> Money:
        if not isinstance(other, Money):
            raise TypeError(f"money meets money, not {type(other).__name__}")
        if other.currency != self.currency:
            raise CurrencyMismatch(f"{self.currency} and {other.currency} meet only through a rate")
        return other

    def __add__(self, other: Money) -> Money:
        return Money(self.amount + self._same(other).amount, self.currency)

    def __sub__(self, other: Money) -> Money:
        return Money(self.amount - self._same(other).amount, self.currency)

    def __neg__(self) -> Money:
        return Money(-self.amount, self.currency)

    def __abs__(self) -> Money:
        return Money(abs(self.amount), self.currency)

    def __mul__(self, factor: Decimal | int) -> Money:
        """A quantity or share of this money (not rounded: `rounded()` when the books take it)."""
        if isinstance(factor, (Money, float)) or not isinstance(factor, (Decimal, int)):
            raise TypeError(f"money is multiplied by an exact number, not {type(factor).__name__}")
        return Money(self.amount * factor, self.currency)

    __rmul__ = __mul__

    def __lt__(self, other: Money) -> bool:
        return self.amount < self._same(other).amount

    def __le__(self, other: Money) -> bool:
        return self.amount <= self._same(other).amount

    def __gt__(self, other: Money) -> bool:
        return self.amount > self._same(other).amount

    def __ge__(self, other: Money) -> bool:
        return self.amount >= self._same(other).amount

    def __bool__(self) -> bool:
        return self.amount != 0

    def rounded(self) -> Money:
        return Money(round_money(self.amount), self.currency)

    def at(self, rate: Decimal, currency: str) -> Money:
        """This money in `currency` at `rate` (units of `currency` per unit of this one), to the cent."""
        if isinstance(rate, float):
            raise TypeError("a rate is an exact number, not a float")
        if currency == self.currency and Decimal(rate) != 1:
            raise CurrencyMismatch(f"{self.currency} converts to itself at 1, not {rate}")
        return Money(round_money(self.amount * Decimal(rate)), currency)

    def split(self, weights: Sequence[Decimal]) -> list[Money]:
        """This money shared in proportion to `weights`, in cents that add up to it (`split`)."""
        return [Money(share, self.currency) for share in split(self.amount, weights)]


def total(amounts: Sequence[Money], currency: str) -> Money:
    """The sum of `amounts`, all in `currency` (zero in it when there are none)."""
    whole = Money.zero(currency)
    for amount in amounts:
        whole += amount
    return whole
