"""What the three opening kinds (opening-balances, open-items, opening-stock) share: the changeover
date they need, a row's amounts and dates read into RowErrors, the command their writes go through
(the job's user, with the accounting permission the kinds demand), the split of a plan into units
that each fit one transaction and their landing."""
from __future__ import annotations

from dataclasses import dataclass
from datetime import date
from decimal import Decimal, InvalidOperation
from typing import Any, Callable, Iterator, Sequence, TypeVar

from chalicelib.auth.principal import SYSTEM_USER_ID, Principal
from chalicelib.domain.accounting import round_money
from chalicelib.domain.import_rows import Row, RowError
from chalicelib.domain.roles import ACCOUNTANT
from chalicelib.messages.phrases import Phrase
from chalicelib.services.accounting import posting
from chalicelib.services.commands import Command
from chalicelib.services.imports.kinds import ImportContext, refused_rows

T = TypeVar("T")
IMPORT_PRINCIPAL = "import"


def command_for(context: ImportContext) -> Command:
    principal = Principal(kind=IMPORT_PRINCIPAL, company_id=context.company_id,
                          user_id=context.user_id if context.user_id is not None else SYSTEM_USER_ID, role=ACCOUNTANT)
    return Command(principal, context.table)


def changeover(context: ImportContext, errors: list[RowError]) -> str | None:
    """The changeover date as the books write dates; a file-level error when the job has none."""
    if context.date is None:
        errors.append(RowError(0, None, "the changeover date (date) is required for this kind"))
        return None
    return context.date.isoformat()


def refuse_closed_changeover(context: ImportContext, changeover: str | None, errors: list[RowError]) -> None:
    """A changeover date the books' locks refuse (a closed period, a closed year): every write of
    the kind would be refused, so the file is, naming the date (posting.closed_dates: the rule the
    writes check)."""
    if changeover is None:
        return
    why = posting.closed_dates(context.table, context.company_id, [changeover]).get(changeover)
    if why == posting.IN_CLOSED_PERIOD:
        errors.append(RowError(0, "date", Phrase("the changeover date {} falls in a closed accounting period or fiscal "
                                                 "year", changeover)))
    elif why == posting.IN_CLOSED_YEAR:
        errors.append(RowError(0, "date", Phrase("the changeover date {} falls on or before the last day of a closed "
                                                 "fiscal year", changeover)))


def _cell(row: Row, column: str, errors: list[RowError], required: bool) -> str | None:
    """A cell's text; None when blank (an error added when it is `required`)."""
    text = row.values.get(column)
    if text is None and required:
        errors.append(RowError(row.line, column, "required"))
    return text


def number(row: Row, column: str, errors: list[RowError], *, required: bool = False) -> Decimal | None:
    """A quantity, a unit cost or a rate (any decimals; thousands separators "," tolerated); None
    when blank or wrong (the error added)."""
    text = _cell(row, column, errors, required)
    if text is None:
        return None
    try:
        value = Decimal(text.replace(",", ""))
    except InvalidOperation:
        value = None
    if value is None or not value.is_finite():
        errors.append(RowError(row.line, column, Phrase("is not a number: {}", text)))
        return None
    return value


def money(row: Row, column: str, errors: list[RowError], *, required: bool = False) -> Decimal | None:
    """A cell's amount in cents: a number with at most two decimals."""
    value = number(row, column, errors, required=required)
    if value is not None and value != round_money(value):
        errors.append(RowError(row.line, column, Phrase("has more than two decimals: {}", row.values[column])))
        return None
    return value


def day(row: Row, column: str, errors: list[RowError], *, required: bool = False) -> str | None:
    """A date as YYYY-MM-DD (the API's form) or DD/MM/YYYY (how people in Honduras and El Salvador write it)."""
    text = _cell(row, column, errors, required)
    if text is None:
        return None
    try:
        if "/" in text:
            day_part, month_part, year_part = text.split("/")
            return date(int(year_part), int(month_part), int(day_part)).isoformat()
        return date.fromisoformat(text[:10]).isoformat()
    except ValueError:
        errors.append(RowError(row.line, column, Phrase("is not a date (YYYY-MM-DD or DD/MM/YYYY): {}", text)))
        return None


@dataclass(frozen=True)
class OpeningUnit:
    """What one transaction writes: an entry's or an adjustment's lines."""
    unit: str                       # the name context.mark_done records
    lines: list[dict[str, Any]]
    rows: tuple[int, ...]           # the file's lines of its lines


U = TypeVar("U", bound=OpeningUnit)


def land_openings(context: ImportContext, units: Sequence[U], write: Callable[[U], None]) -> dict[str, int]:
    """Writes each unit not done yet (`write`: its transaction with context.mark_done, committed; a
    rule's refusal names the unit's rows) and counts the units ("created") and their lines this job
    landed, those of an earlier run of it included."""
    counts = {"created": 0, "lines": 0}
    for unit in units:
        if not context.is_done(unit.unit):
            with refused_rows(unit.rows):
                write(unit)
        counts["created"] += 1
        counts["lines"] += len(unit.lines)
        context.progress(counts["lines"])
    return counts


def chunks(items: Sequence[T], size: int) -> Iterator[tuple[int, Sequence[T]]]:
    """`items` in pieces of at most `size`, numbered from 1: a unit each, the same pieces on a run again."""
    for start in range(0, len(items), size):
        yield start // size + 1, items[start:start + size]
