"""What a card gateway keeps of a payment (issue 43): a rate on the amount and a fixed part, each
provider's as the company's contract sets them, and the sales tax the provider invoices on its
fee (ISV in Honduras, IVA in El Salvador) where it does. No I/O.

    fee  = round(amount x percent / 100 + fixed, 2)    half up, to the cent
    tax  = round(fee x taxRate, 2)
    net  = amount - fee - tax                           what the payout brings to the bank

A sale of 1,150.00 at 3.5 % + 5.00 with ISV 15 %: fee 40.25 + 5.00 = 45.25, tax 6.7875 -> 6.79,
net 1,150.00 - 52.04 = 1,097.96."""
from __future__ import annotations

from dataclasses import dataclass
from decimal import ROUND_HALF_UP, Decimal

CENT = Decimal("0.01")
ZERO = Decimal("0.00")


@dataclass(frozen=True)
class FeeTerms:
    percent: Decimal = ZERO  # 3.5 means 3.5 %
    fixed: Decimal = ZERO
    tax_rate: Decimal = ZERO  # a fraction: 0.15

    @property
    def charges(self) -> bool:
        return self.percent > 0 or self.fixed > 0


@dataclass(frozen=True)
class Fee:
    fee: Decimal
    tax: Decimal

    @property
    def total(self) -> Decimal:
        return self.fee + self.tax


def fee_for(amount: Decimal, terms: FeeTerms) -> Fee:
    fee = (amount * terms.percent / 100 + terms.fixed).quantize(CENT, rounding=ROUND_HALF_UP)
    fee = min(fee, amount)  # a provider never keeps more than the payment
    tax = (fee * terms.tax_rate).quantize(CENT, rounding=ROUND_HALF_UP)
    return Fee(fee, min(tax, amount - fee))


def net_of_fee(amount: Decimal, terms: FeeTerms) -> Decimal:
    return amount - fee_for(amount, terms).total
