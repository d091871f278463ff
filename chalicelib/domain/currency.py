"""Foreign currency, no I/O: a document keeps its amounts in its own currency and the books carry
them in the company's, at the document's rate; money that settles it later moves at its own
rate, and the difference between the two is an exchange gain or loss. A rate sent with an
operation stays near the company's recorded one unless the sender keeps the books, and no
conversion carries an amount past the one money limit."""
from __future__ import annotations

from decimal import Decimal
from typing import Any, Mapping

from chalicelib.domain.accounting import CREDIT, DEBIT, ZERO, Movement
from chalicelib.domain.money import MAX_AMOUNT, Money
from chalicelib.errors import ValidationFailed
from chalicelib.messages.phrases import Phrase

# how far (in percent of the company's recorded rate) a rate sent by someone without the
# accounting permission may stray: a bank's rate of the day, not a different price
DEFAULT_TOLERANCE_PERCENT = Decimal("5")
HUNDRED = Decimal("100")


def money_of(record: Mapping[str, Any], attribute: str, own: str) -> Money:
    """`attribute` of a stored document (or of what settles it) in the document's currency: records
    keep a Decimal beside a currency attribute, and one stored before currencies is in the company's
    `own` (it was booked one to one). Absent, it is nothing."""
    value = record.get(attribute)
    return document_money(record, Decimal(value) if value is not None else ZERO, own)


def document_money(document: Mapping[str, Any], amount: Decimal, own: str) -> Money:
    """`amount` in `document`'s currency (the company's `own` for one stored before currencies)."""
    return Money(Decimal(amount), document.get("currency") or own)


def in_base(amount: Money, rate: Decimal, own: str) -> Money:
    """`amount` in the company's currency `own`, to the cent (half up): `Money.at`, the only way
    between two currencies."""
    return amount.at(Decimal(rate), own)


def converted(amount: Money, rate: Decimal, own: str, field: str) -> Money:
    """`in_base`, refused (naming `field`, the rate that set it) when the amount in the company's
    currency would pass the money limit (the books never carry what no money field may), or when
    an amount of money comes to nothing (USD 0.01 at 0.05: an entry of 0.00 moves no account), or
    when an amount already in the company's currency carries a rate other than 1 (a draft in dollars
    whose company has since taken dollars as its own)."""
    if amount.currency == own and Decimal(rate) != 1:
        raise ValidationFailed.for_field(field, Phrase("must be 1 (or left out) for the company's own currency {}",
                                                       own))
    base = in_base(amount, rate, own)
    if base.amount > MAX_AMOUNT:
        raise ValidationFailed.for_field(field, Phrase("at this rate the amount in the company's currency ({}) would "
                                                       "exceed {}", base.amount, MAX_AMOUNT))
    if base.amount == ZERO and amount.amount != ZERO:
        raise ValidationFailed.for_field(field, Phrase("at this rate {} comes to 0.00 in the company's currency",
                                                       amount.amount))
    return base


def tolerance_percent(company: Mapping[str, Any]) -> Decimal:
    value = company.get("exchangeRateTolerancePercent")
    return DEFAULT_TOLERANCE_PERCENT if value is None else Decimal(value)


def accepted_range(recorded: Decimal, tolerance: Decimal) -> tuple[Decimal, Decimal]:
    """The rates within `tolerance` percent of the recorded one, both ends included."""
    share = Decimal(recorded) * Decimal(tolerance) / HUNDRED
    return Decimal(recorded) - share, Decimal(recorded) + share


def check_sent_rate(sent: Decimal, recorded: Decimal | None, tolerance: Decimal, *, keeps_books: bool,
                    currency: str, date: str, field: str) -> None:
    """A rate sent with an operation is within `tolerance` percent of the company's `recorded`
    rate of `currency` for `date`; only one who keeps the books (the accounting permission) may
    send another, or one where none is recorded."""
    if keeps_books:
        return
    if recorded is None:
        problem = (Phrase("no exchange rate of {} is recorded on or before {}: only a user with the accounting "
                          "permission may send one (or record it with POST /exchange-rates)", currency, date))
    else:
        low, high = accepted_range(recorded, tolerance)
        if low <= Decimal(sent) <= high:
            return
        problem = (Phrase("must be between {} and {}: within {} percent of the company's rate {} of {} on {}; only a "
                          "user with the accounting permission may send another",
                          _plain(low), _plain(high), _plain(tolerance), _plain(recorded), currency, date))
    raise ValidationFailed(Phrase("{}: {}", field, problem), code="EXCHANGE_RATE_OUT_OF_RANGE",
                           details=[{"field": field, "message": problem}])


def _plain(value: Decimal) -> str:
    """24.50 x 5 % = 23.2750 reads 23.275; 25.00 reads 25."""
    return f"{Decimal(value).normalize():f}"


def rate_of(document: Mapping[str, Any]) -> Decimal:
    return Decimal(document.get("exchangeRate") or 1)


def base_total(document: Mapping[str, Any], own: str) -> Money:
    """What the books carry for the document, in the company's currency `own` (documents made
    before currencies: its total)."""
    if document.get("baseTotal") is not None:
        return Money(Decimal(document["baseTotal"]), own)
    return in_base(money_of(document, "total", own), rate_of(document), own)


def lines_in_base(document: Mapping[str, Any], own: str) -> list[Mapping[str, Any]]:
    """The document's lines with their base and tax in the company's currency `own` (the tax
    books): the tax is what the entry posted (the tax total at the rate) and the bases what it
    left, each shared over the lines to the cent."""
    rate = rate_of(document)
    lines: list[Mapping[str, Any]] = document["lines"]
    if rate == 1 or not lines:
        return lines
    tax = in_base(money_of(document, "taxTotal", own), rate, own)
    taxes = tax.split([Decimal(line["tax"]) for line in lines])
    bases = (base_total(document, own) - tax).split([Decimal(line["subtotal"]) for line in lines])
    return [{**line, "subtotal": base.amount, "tax": line_tax.amount}
            for line, base, line_tax in zip(lines, bases, taxes, strict=True)]


def base_pending(document: Mapping[str, Any], own: str) -> Money:
    """What is pending of the document, in the company's currency `own`."""
    if document.get("basePending") is not None:
        return Money(Decimal(document["basePending"]), own)
    return in_base(money_of(document, "pending", own), rate_of(document), own)


def relief(document: Mapping[str, Any], amount: Money, own: str) -> Money:
    """What settling `amount` (the document's currency) takes off the receivable or payable, in
    the company's currency `own`: at the document's rate, and all that is left when it settles
    the whole pending (so a document paid in parts leaves no cent behind in the books)."""
    if amount == money_of(document, "pending", own):
        return base_pending(document, own)
    return in_base(amount, rate_of(document), own)


def exchange_difference(money_side: str, money_base: Money, partner_base: Money) -> list[Movement]:
    """The movement that balances an entry whose money moved `money_base` on `money_side` while
    the partner's account moved `partner_base` on the other, both in the company's currency: more
    money in than the receivable carried (or less out than the payable) is a gain; the reverse a
    loss."""
    difference = (money_base - partner_base).rounded()
    if not difference:
        return []
    other_side = CREDIT if money_side == DEBIT else DEBIT
    side = other_side if difference.amount > 0 else money_side
    return [Movement("fx_gain" if side == CREDIT else "fx_loss", side, abs(difference).amount)]


def as_booked(document: Mapping[str, Any], own: str) -> dict[str, Any]:
    """The document as the tax books carry it: its lines and total in the company's currency `own`
    (`lines_in_base`, `base_total`), no rate left to apply (a book correction is stored so)."""
    booked = {name: value for name, value in document.items() if name not in ("exchangeRate", "baseTotal")}
    booked["total"] = base_total(document, own).amount
    if document.get("lines") is not None:
        booked["lines"] = lines_in_base(document, own)
    return booked
