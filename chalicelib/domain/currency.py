"""Foreign currency, no I/O: a document keeps its amounts in its own currency and the books carry
them in the company's, at the document's rate; money that settles it later moves at its own
rate, and the difference between the two is an exchange gain or loss."""
from __future__ import annotations

from decimal import Decimal
from typing import Any, Mapping

from chalicelib.domain.accounting import CREDIT, DEBIT, ZERO, Movement, round_money
from chalicelib.domain.costing import split


def in_base(amount: Decimal, rate: Decimal) -> Decimal:
    """An amount in the company's currency, to the cent (half up)."""
    return round_money(Decimal(amount) * Decimal(rate))


def rate_of(document: Mapping[str, Any]) -> Decimal:
    return Decimal(document.get("exchangeRate") or 1)


def base_total(document: Mapping[str, Any]) -> Decimal:
    """What the books carry for the document (documents made before currencies: its total)."""
    return Decimal(document["baseTotal"]) if document.get("baseTotal") is not None else \
        in_base(Decimal(document["total"]), rate_of(document))


def lines_in_base(document: Mapping[str, Any]) -> list[Mapping[str, Any]]:
    """The document's lines with their base and tax in the company's currency (the tax books):
    the tax is what the entry posted (the tax total at the rate) and the bases what it left,
    each shared over the lines to the cent."""
    rate = rate_of(document)
    lines = document["lines"]
    if rate == 1 or not lines:
        return lines
    tax = in_base(Decimal(document["taxTotal"]), rate)
    taxes = split(tax, [Decimal(line["tax"]) for line in lines])
    bases = split(base_total(document) - tax, [Decimal(line["subtotal"]) for line in lines])
    return [{**line, "subtotal": base, "tax": line_tax} for line, base, line_tax in zip(lines, bases, taxes, strict=True)]


def base_pending(document: Mapping[str, Any]) -> Decimal:
    if document.get("basePending") is not None:
        return Decimal(document["basePending"])
    return in_base(Decimal(document.get("pending", 0)), rate_of(document))


def relief(document: Mapping[str, Any], amount: Decimal) -> Decimal:
    """What settling `amount` (document currency) takes off the receivable or payable: at the
    document's rate, and all that is left when it settles the whole pending (so a document
    paid in parts leaves no cent behind in the books)."""
    if Decimal(amount) == Decimal(document["pending"]):
        return base_pending(document)
    return in_base(amount, rate_of(document))


def exchange_difference(money_side: str, money_base: Decimal, partner_base: Decimal) -> list[Movement]:
    """The movement that balances an entry whose money moved `money_base` on `money_side` while
    the partner's account moved `partner_base` on the other: more money in than the receivable
    carried (or less out than the payable) is a gain; the reverse a loss."""
    difference = round_money(money_base - partner_base)
    if difference == ZERO:
        return []
    other_side = CREDIT if money_side == DEBIT else DEBIT
    side = other_side if difference > 0 else money_side
    return [Movement("fx_gain" if side == CREDIT else "fx_loss", side, abs(difference))]
