"""A bank statement as read from a file, whatever its format (domain/statement_formats/ reads
them): its lines, each signed (positive is money in), and the balances the file states. Pure:
no storage, no clock.

Invariants a parsed statement keeps:
- lines are in the file's order; `line` is where the line sits in the file (a CSV/XLSX row, heading
  rows counted; an OFX/CAMT/MT940 entry's ordinal from 1), so a refusal names it;
- amounts are Decimal with at most 2 decimals, never 0 ... (a 0 line is skipped by the parser);
- where the file states both balances, opening + sum(lines) == closing (check_balances)."""
from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal
from typing import Literal

from chalicelib.messages.phrases import Phrase

Format = Literal["csv", "xlsx", "ofx", "camt053", "mt940"]
FORMATS: tuple[Format, ...] = ("csv", "xlsx", "ofx", "camt053", "mt940")


@dataclass(frozen=True)
class StatementLine:
    line: int
    date: str                      # YYYY-MM-DD (the booking date)
    amount: Decimal                # signed: positive is money in
    description: str
    reference: str | None = None
    bank_id: str | None = None     # the bank's own id for the line: OFX FITID, CAMT AcctSvcrRef/NtryRef
    balance: Decimal | None = None  # the running balance after this line, where the file gives one


@dataclass(frozen=True)
class ParsedStatement:
    format: Format
    lines: tuple[StatementLine, ...]
    currency: str | None = None
    account_number: str | None = None
    opening_balance: Decimal | None = None
    closing_balance: Decimal | None = None
    period_start: str | None = None   # the file's own period, else the first line's date
    period_end: str | None = None


@dataclass(frozen=True)
class ColumnMapping:
    """How a CSV/XLSX download reads (PUT /bank-accounts/{id}/statement-mapping). Columns are named
    by their heading text (compared case-, accent- and space-blind)."""
    date_column: str
    description_column: str
    date_format: str = "DD/MM/YYYY"
    amount_column: str | None = None          # signed; else debit and credit
    debit_column: str | None = None           # money out, positive in the file
    credit_column: str | None = None          # money in
    reference_column: str | None = None
    balance_column: str | None = None
    encoding: str | None = None               # None: detected (BOMs, UTF-8, else cp1252)
    delimiter: str | None = None              # None: detected
    skip_rows: int = 0                        # rows before the heading row
    decimal_separator: str = "."
    thousands_separator: str = ","


class StatementInvalid(Exception):
    """The file cannot be read as a statement: `line` (0 for the file as a whole) and `column`
    (None, a heading or the format's field name) say where. `message` is English and a phrase of
    messages/es.py."""

    def __init__(self, message: str, line: int = 0, column: str | None = None) -> None:
        super().__init__(message)
        self.message, self.line, self.column = message, line, column


# The longest text a line keeps of each field (a bank's narrative runs to a few hundred characters,
# its ids and references to a few dozen); a file with a longer one is refused naming it, before
# anything of the file is stored.
MAX_DESCRIPTION = 1000
MAX_REFERENCE = 200
MAX_BANK_ID = 200


def check_text_lengths(line: StatementLine, columns: dict[str, str]) -> None:
    """StatementInvalid naming the line and the column (`columns`: a field's column in the file,
    by the field's name) of the first text of `line` past its limit."""
    if len(line.description or "") > MAX_DESCRIPTION:
        raise StatementInvalid(Phrase("the description has more than {} characters", MAX_DESCRIPTION), line.line,
                               columns.get("description", "description"))
    if len(line.reference or "") > MAX_REFERENCE:
        raise StatementInvalid(Phrase("the reference has more than {} characters", MAX_REFERENCE), line.line,
                               columns.get("reference", "reference"))
    if len(line.bank_id or "") > MAX_BANK_ID:
        raise StatementInvalid(Phrase("the bank's id has more than {} characters", MAX_BANK_ID), line.line,
                               columns.get("bank_id", "bankId"))


def line_identity(line: StatementLine, occurrence: int) -> tuple[str, ...]:
    """What makes a line the same line in another file: the bank's own id where the format has
    one, else its date, amount, reference, running balance and which occurrence of that same
    (date, amount, reference, balance) it is on the day (two identical coffees stay two lines).
    store/keys/statements.py makes the key of it."""
    if line.bank_id:
        return ("ID", line.bank_id)
    return ("L", *_same_line(line), str(occurrence))


def _same_line(line: StatementLine) -> tuple[str, str, str, str]:
    return (line.date, f"{line.amount:.2f}", (line.reference or "").strip().lower(),
            "" if line.balance is None else f"{line.balance:.2f}")


def identities(lines: tuple[StatementLine, ...] | list[StatementLine]) -> list[tuple[str, ...]]:
    """Each line's identity, occurrences counted in the file's order."""
    seen: dict[tuple[str, str, str, str], int] = {}
    result = []
    for line in lines:
        same = _same_line(line)
        seen[same] = seen.get(same, 0) + 1
        result.append(line_identity(line, seen[same]))
    return result


# issue 42: imports. The dates a mapping may name (ColumnMapping.date_format; the formats' readers
# read each): day, month and year in the orders the region's banks write them
DATE_FORMATS = ("DD/MM/YYYY", "DD-MM-YYYY", "DD.MM.YYYY", "DD/MM/YY", "MM/DD/YYYY", "YYYY-MM-DD", "YYYY/MM/DD",
                "YYYYMMDD")
