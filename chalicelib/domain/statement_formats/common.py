"""What every reader shares: amounts to the cent, money as a person reads it, the statement's
size limit, and a ParsedStatement built the same way whatever the format. Pure."""
from __future__ import annotations

from datetime import date
from decimal import Decimal, InvalidOperation

from chalicelib.domain.bank_statements import Format, ParsedStatement, StatementInvalid, StatementLine
from chalicelib.domain.money import MAX_AMOUNT
from chalicelib.messages.phrases import Phrase

MAX_LINES = 20_000
CENT = Decimal("0.01")


def cents(value: Decimal, text: str, line: int, column: str | None) -> Decimal:
    """`value` to the cent; more decimals than cents is refused, not rounded (money is not guessed),
    so is an amount past the one money limit (MAX_AMOUNT: no line or balance is ever larger, and
    quantizing a figure of more than 28 digits would fail)."""
    if not value.is_finite():
        raise StatementInvalid(Phrase("the amount {} is not a number", text), line, column)
    if abs(value) > MAX_AMOUNT:
        raise StatementInvalid(Phrase("the amount {} is past the largest amount {}",
                                      text, money(MAX_AMOUNT)), line, column)
    quantized = value.quantize(CENT)
    if quantized != value:
        raise StatementInvalid(Phrase("the amount {} has more than two decimals", text), line, column)
    return quantized


def plain_amount(text: str | None, line: int, column: str) -> Decimal:
    """An amount the format writes plainly ("-85.00"; "85,00" where a bank writes a decimal comma)."""
    written = (text or "").strip()
    if "," in written and "." not in written:
        written = written.replace(",", ".")
    try:
        value = Decimal(written)
    except InvalidOperation:
        value = Decimal("NaN")
    if not value.is_finite():
        raise StatementInvalid(Phrase("the amount {} is not a number", text or ''), line, column)
    return cents(value, written, line, column)


def iso_date(year: int, month: int, day: int, text: str, line: int, column: str | None) -> str:
    try:
        return date(year, month, day).isoformat()
    except ValueError:
        raise StatementInvalid(Phrase("the date {} is not a day of the calendar", text), line, column) from None


def compact_date(text: str | None, line: int, column: str) -> str:
    """A date written YYYYMMDD, perhaps followed by a time and a zone (OFX): the day as written,
    never moved to another zone (20260310200000[-6:CST] is 10 March where the bank is)."""
    written = (text or "").strip()
    if len(written) < 8 or not written[:8].isdigit():
        raise StatementInvalid(Phrase("the date {} is not a date written YYYYMMDD", written), line, column)
    return iso_date(int(written[:4]), int(written[4:6]), int(written[6:8]), written, line, column)


def money(value: Decimal) -> str:
    """1234.5 -> "1,234.50", as the messages write an amount."""
    return f"{value:,.2f}"


def too_many_lines(count: int) -> None:
    if count > MAX_LINES:
        raise StatementInvalid(Phrase("the statement has more than {} lines: split it into files of at most {} lines",
                                      MAX_LINES, MAX_LINES))


def statement(format: Format, lines: list[StatementLine], *, currency: str | None = None,
              account_number: str | None = None, opening_balance: Decimal | None = None,
              closing_balance: Decimal | None = None, period_start: str | None = None,
              period_end: str | None = None, id_field: str | None = None) -> ParsedStatement:
    """The parsed statement: lines in the file's order (0 amounts already left out); the period the
    file states, else its lines' first and last dates. A statement without a line is refused, so is
    one giving the bank's id (`id_field`) of a line to another (the second would be taken for the first)."""
    too_many_lines(len(lines))
    # a balance worked out from the lines (OFX's opening, a balance column's less its line) is bound too
    if opening_balance is not None and abs(opening_balance) > MAX_AMOUNT:
        raise StatementInvalid(Phrase("the opening balance {} is past the largest amount {}",
                                      money(opening_balance), money(MAX_AMOUNT)))
    if closing_balance is not None and abs(closing_balance) > MAX_AMOUNT:
        raise StatementInvalid(Phrase("the closing balance {} is past the largest amount {}",
                                      money(closing_balance), money(MAX_AMOUNT)))
    if not lines:
        raise StatementInvalid("the statement has no lines with an amount")
    seen: dict[str, int] = {}
    for line in lines:
        if line.bank_id and line.bank_id in seen:
            raise StatementInvalid(Phrase("the bank's id {} of this entry is also entry {}'s",
                                          line.bank_id, seen[line.bank_id]),
                                   line.line, id_field)
        if line.bank_id:
            seen[line.bank_id] = line.line
    dates = sorted(line.date for line in lines)
    return ParsedStatement(
        format=format, lines=tuple(lines), currency=(currency or "").strip().upper() or None,
        account_number=(account_number or "").strip() or None, opening_balance=opening_balance,
        closing_balance=closing_balance, period_start=period_start or dates[0], period_end=period_end or dates[-1])
