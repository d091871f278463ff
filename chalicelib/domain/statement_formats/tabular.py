"""A bank's CSV or XLSX download read with the account's ColumnMapping. The file's text and sheet
are read as domain/import_files.py reads any imported table (encodings, delimiter, a workbook's
limits); this module reads the statement in it: `skip_rows` rows (a bank's account header block)
before the heading row, columns named by heading text, dates in the mapping's format, amounts
signed or as debit (money out) and credit, written 1.234,56 or 1,234.56, (85.00) or 85.00- as
negatives, 85.00 DR (money out) or CR, a currency sign or code before or after the figure (a
letter inside it, an exponent, is refused: never dropped). Blank lines are skipped, so are rows without an amount
(a continuation line, a dated "Saldo anterior") and those without a date after the last dated one
(a summary row: "Saldo final"); a row without a date amid the lines is refused. With a balance column, the balances must follow from the amounts,
line by line, in the file's order or (a bank listing newest first) the reverse: the opening
balance is the earliest line's balance less its amount, the closing one the latest line's."""
from __future__ import annotations

import re
from datetime import date, datetime
from decimal import Decimal
from itertools import pairwise
from typing import Any, Iterable

from chalicelib.domain import import_files
from chalicelib.domain.bank_statements import ColumnMapping, Format, ParsedStatement, StatementInvalid, StatementLine
from chalicelib.domain.import_files import ImportFileInvalid, heading_key
from chalicelib.domain.statement_formats.common import MAX_LINES, cents, iso_date, money, statement, too_many_lines
from chalicelib.messages.phrases import Phrase

_DATE_PART = re.compile(r"YYYY|YY|DD|MM")
# what may stand before or after the figure, never inside it: a currency's sign or code (L, Lps., $,
# US$, HNL), a debit or credit mark (85.00 DR: money out; CR: money in), a sign, parentheses
_LETTER = r"[^\W\d_]"
_FIGURE = re.compile(r"^(?P<before>\D*?)(?P<figure>\d(?:.*\d)?)(?P<after>\D*)$", re.DOTALL)
_AROUND = re.compile(
    rf"\s*(?:(?P<currency>US\$|[$€£¥₡]|(?i:lps|l)\.?(?!{_LETTER})|[A-Z]{{3}}(?!{_LETTER}))"
    rf"|(?P<mark>(?i:dr|cr|db|d|c)(?!{_LETTER}))|(?P<sign>[+-])|(?P<open>\()|(?P<close>\)))\s*")
_DEBIT_MARKS = ("DR", "DB", "D")


def parse_csv(content: bytes, mapping: ColumnMapping) -> ParsedStatement:
    try:
        import_files.refuse_non_text(content)
        text = _text(content, mapping.encoding)
    except ImportFileInvalid as refused:
        raise _invalid(refused) from None
    physical = text.splitlines()[mapping.skip_rows:]
    heading = next((line for line in physical if line.strip()), "")
    delimiter = mapping.delimiter or import_files.sniff_delimiter(heading)
    return _statement("csv", import_files.text_records(text, delimiter), mapping)


def parse_xlsx(content: bytes, mapping: ColumnMapping) -> ParsedStatement:
    _check_mapping(mapping)
    try:  # the header block skipped is read on top of the sheet's limit: the lines are what is limited
        records = import_files.workbook_records(content, as_text=False, leading_rows=mapping.skip_rows)
    except ImportFileInvalid as refused:
        raise _invalid(refused) from None
    return _statement("xlsx", iter(records), mapping)


def _invalid(refused: ImportFileInvalid) -> StatementInvalid:
    return StatementInvalid(refused.error.message, refused.error.row, refused.error.column)


def _text(content: bytes, encoding: str | None) -> str:
    if not encoding:
        text, errors = import_files.decode_text(content)
        if errors:
            raise ImportFileInvalid(errors[0])
        return text
    try:
        return content.decode("utf-8-sig" if encoding.lower().replace("_", "-") in ("utf-8", "utf8") else encoding)
    except LookupError:
        raise StatementInvalid(Phrase("unknown encoding {}", encoding), 0, "encoding") from None
    except UnicodeDecodeError as error:
        line = content[:error.start].count(b"\n") + 1
        raise StatementInvalid(Phrase("the line has bytes that are not {} text", encoding), line, "encoding") from None


# ---- the table

class _Columns:
    """Where each mapped column sits in the heading row."""

    def __init__(self, mapping: ColumnMapping, line: int, headings: list[str]):
        self.line = line
        keys: dict[str, list[int]] = {}
        for index, heading in enumerate(headings):
            keys.setdefault(heading_key(heading), []).append(index)
        self.places: dict[str, tuple[int, str]] = {}
        for name in (mapping.date_column, mapping.description_column, mapping.amount_column, mapping.debit_column,
                     mapping.credit_column, mapping.reference_column, mapping.balance_column):
            if name is None:
                continue
            found = keys.get(heading_key(name), [])
            if not found:
                raise StatementInvalid(Phrase("the column {} is not in the heading row", name), line, name)
            heading = headings[found[0]].strip()
            if len(found) > 1:  # which of them is meant cannot be told (another heading repeated is no matter)
                raise StatementInvalid(Phrase("the heading {} is written twice", heading), line, heading)
            self.places[name] = (found[0], heading)

    def cell(self, cells: list[Any], name: str | None) -> tuple[object, str | None]:
        """A row's value under a mapped column (None: blank) and that column's heading."""
        if name is None:
            return None, None
        index, heading = self.places[name]
        value = cells[index] if index < len(cells) else None
        if isinstance(value, str):
            value = value.strip() or None
        return value, heading


def _statement(format: Format, records: Iterable[tuple[int, list[Any]]], mapping: ColumnMapping) -> ParsedStatement:
    _check_mapping(mapping)
    rows_left = iter(records)
    for _ in range(mapping.skip_rows):
        line, cells = next(rows_left, (0, None))
        if cells is None:
            break
        _readable(line, cells)
    line, headings = next(((line, cells) for line, cells in rows_left if _readable(line, cells)), (0, None))
    if headings is None:
        raise StatementInvalid(Phrase("the file has no heading row after the {} rows skipped", mapping.skip_rows), 0,
                               "skipRows")
    columns = _Columns(mapping, line, [_text_of(cell) for cell in headings])
    lines: list[StatementLine] = []
    waiting: tuple[int, str | None] | None = None  # a row without a date but with an amount: a summary, if nothing follows
    rows = 0
    for line, cells in rows_left:
        if not _readable(line, cells):
            continue
        rows += 1
        too_many_lines(rows)
        when, date_heading = columns.cell(cells, mapping.date_column)
        amount = _amount(columns, cells, mapping, line)
        if when is None:
            if amount is not None and waiting is None:
                waiting = (line, date_heading)
            continue
        if waiting is not None:
            raise StatementInvalid("the date is blank", *waiting)
        if amount is None or amount == 0:  # no money: "Saldo anterior" on the first day, a 0.00 line
            continue
        description, _ = columns.cell(cells, mapping.description_column)
        reference, _ = columns.cell(cells, mapping.reference_column)
        balance, balance_heading = columns.cell(cells, mapping.balance_column)
        lines.append(StatementLine(
            line=line, date=_date(when, mapping.date_format, line, date_heading), amount=amount,
            description=_text_of(description), reference=_text_of(reference) or None,
            balance=None if balance is None else _number(balance, mapping, line, balance_heading)))
    opening, closing = _balances(lines, columns.places.get(mapping.balance_column or "", (0, None))[1])
    return statement(format, lines, opening_balance=opening, closing_balance=closing)


def _check_mapping(mapping: ColumnMapping) -> None:
    if not mapping.amount_column and not (mapping.debit_column and mapping.credit_column):
        raise StatementInvalid("the mapping names neither an amount column nor both a debit and a credit column", 0,
                               "amountColumn")
    if mapping.skip_rows < 0 or mapping.skip_rows > MAX_LINES:
        raise StatementInvalid(Phrase("the rows to skip must be between 0 and {}", MAX_LINES), 0, "skipRows")
    if mapping.decimal_separator not in (".", ","):
        raise StatementInvalid("the decimal separator is a point or a comma", 0, "decimalSeparator")
    if mapping.thousands_separator == mapping.decimal_separator:
        raise StatementInvalid("the thousands separator must differ from the decimal separator", 0,
                               "thousandsSeparator")
    _date_pattern(mapping.date_format)


def _readable(line: int, cells: list[Any]) -> bool:
    """Whether the record holds text; an unreadable one (a quote never closed) is refused."""
    problem = import_files.record_problem(line, cells)
    if problem is not None:
        raise StatementInvalid(problem.message, problem.row, problem.column)
    return any(_text_of(cell) for cell in cells)


def _text_of(value: object) -> str:
    if value is None:
        return ""
    if isinstance(value, float | int | Decimal | date):
        return import_files.cell_text(value)  # the text a person sees in the sheet
    return str(value).strip()


# ---- dates

def _date_pattern(date_format: str) -> re.Pattern[str]:
    parts = _DATE_PART.findall(date_format or "")
    if sorted(part[:2] for part in parts) != ["DD", "MM", "YY"]:
        raise StatementInvalid(Phrase("the date format {} is not made of DD, MM and YYYY or YY (e.g. DD/MM/YYYY)",
                                      date_format),
                               0, "dateFormat")
    pattern, position = "", 0
    for match in _DATE_PART.finditer(date_format):
        pattern += re.escape(date_format[position:match.start()])
        part = match.group()
        pattern += {"YYYY": r"(?P<YYYY>\d{4})", "YY": r"(?P<YY>\d{2})", "DD": r"(?P<DD>\d{1,2})",
                    "MM": r"(?P<MM>\d{1,2})"}[part]
        position = match.end()
    pattern += re.escape(date_format[position:])
    return re.compile(rf"^{pattern}(?:[ T].*)?$")


_ISO = re.compile(r"^(\d{4})-(\d{2})-(\d{2})(?:[ T].*)?$")


def _date(value: object, date_format: str, line: int, column: str | None) -> str:
    """The day in a cell: a workbook's own date, else the text in the mapping's format (a time
    after it is left out); an XLSX date cell reads as written whatever the format."""
    if isinstance(value, datetime):
        return value.date().isoformat()
    if isinstance(value, date):
        return value.isoformat()
    text = _text_of(value)
    match = _date_pattern(date_format).match(text)
    if match:
        parts = match.groupdict()
        year = int(parts["YYYY"]) if parts.get("YYYY") else 2000 + int(parts["YY"])
        return iso_date(year, int(parts["MM"]), int(parts["DD"]), text, line, column)
    iso = _ISO.match(text) if not isinstance(value, str) else None
    if iso:
        return iso_date(int(iso[1]), int(iso[2]), int(iso[3]), text, line, column)
    raise StatementInvalid(Phrase("the date {} is not a date written {}", text, date_format), line, column)


# ---- amounts

def _amount(columns: _Columns, cells: list[Any], mapping: ColumnMapping, line: int) -> Decimal | None:
    """The line's signed amount (positive: money in), None when its cells are blank."""
    if mapping.amount_column:
        value, heading = columns.cell(cells, mapping.amount_column)
        return None if value is None else _number(value, mapping, line, heading)
    debit, debit_heading = columns.cell(cells, mapping.debit_column)
    credit, credit_heading = columns.cell(cells, mapping.credit_column)
    if debit is None and credit is None:
        return None
    out = Decimal(0) if debit is None else abs(_number(debit, mapping, line, debit_heading, "debit"))
    into = Decimal(0) if credit is None else _number(credit, mapping, line, credit_heading, "credit")
    return into - out


def _number(value: object, mapping: ColumnMapping, line: int, column: str | None,
            side: str | None = None) -> Decimal:
    """A cell's amount: a workbook's number as it is; a text written with the mapping's separators,
    a currency's sign or code and a DR or CR mark only around the figure (DR: money out). In a debit
    or credit column (`side`) a mark saying the other is refused: which one is meant cannot be told."""
    if isinstance(value, bool):
        raise StatementInvalid(Phrase("the amount {} is not a number", value), line, column)
    if isinstance(value, int | float | Decimal):
        return cents(Decimal(_text_of(value)), _text_of(value), line, column)
    text = _text_of(value)
    separator = (mapping.thousands_separator or "").strip()  # a space between thousands is gone with the spaces
    example = f"1{separator}234{mapping.decimal_separator}56"
    written = _written(text)
    if written is None:
        raise StatementInvalid(Phrase("the amount {} is not a number written {}", text, example), line, column)
    negative, mark, figure = written
    whole, _, fraction = figure.partition(mapping.decimal_separator)
    thousands = re.escape(separator)
    grouped = rf"\d{{1,3}}(?:{thousands}\d{{3}})+" if thousands else r"\d+"
    if not re.fullmatch(rf"(?:\d+|{grouped})", whole) or (fraction and not fraction.isdigit()) or (
            mapping.decimal_separator in figure and not fraction):
        raise StatementInvalid(Phrase("the amount {} is not a number written {}", text, example), line, column)
    if mark is not None and side is not None and (mark in _DEBIT_MARKS) != (side == "debit"):
        if side == "debit":
            raise StatementInvalid(Phrase("the amount {} is marked {}, money in, in the debit column",
                                          text, mark), line, column)
        raise StatementInvalid(Phrase("the amount {} is marked {}, money out, in the credit column",
                                      text, mark), line, column)
    number = Decimal(f"{whole.replace(separator, '') if separator else whole}.{fraction or '0'}")
    return cents(-number if negative or mark in _DEBIT_MARKS else number, text, line, column)


def _written(text: str) -> tuple[bool, str | None, str] | None:
    """(negative, its DR/CR mark upper-cased, the figure without spaces) of an amount's text; None when
    what stands around the figure is not a currency, a mark, a sign or parentheses (or too many)."""
    layout = _FIGURE.match(text)
    if layout is None:
        return None
    tokens: dict[str, list[str]] = {"currency": [], "mark": [], "sign": [], "open": [], "close": []}
    for part, allowed in ((layout["before"], ("currency", "mark", "sign", "open")),
                          (layout["after"], ("currency", "mark", "sign", "close"))):
        position, part = 0, part.strip()
        while position < len(part):
            found = _AROUND.match(part, position)
            if found is None or found.lastgroup not in allowed:
                return None
            tokens[found.lastgroup].append(found[found.lastgroup])
            position = found.end()
    signs = tokens["sign"]
    if len(tokens["currency"]) > 1 or len(tokens["mark"]) > 1 or len(signs) > 1 or "+" in layout["after"] or (
            len(tokens["open"]) != len(tokens["close"])):
        return None
    negative = signs == ["-"] or bool(tokens["open"])
    mark = tokens["mark"][0].upper() if tokens["mark"] else None
    if mark is not None and (negative or signs):  # "-85.00 CR": which one is meant cannot be told
        return None
    return negative, mark, re.sub(r"\s", "", layout["figure"])


# ---- balances

def _balances(lines: list[StatementLine], column: str | None) -> tuple[Decimal | None, Decimal | None]:
    balances = [line.balance for line in lines]
    if column is None or not lines or None in balances:
        return None, None
    known = [(line, balance) for line, balance in zip(lines, balances, strict=True) if balance is not None]
    forward = _break(known)
    if forward is None:
        return known[0][1] - known[0][0].amount, known[-1][1]
    if _break(known[::-1]) is None:  # newest first: the earliest line is the last one
        return known[-1][1] - known[-1][0].amount, known[0][1]
    (_, previous_balance), (line, balance) = forward
    raise StatementInvalid(Phrase("the balance {} is not the previous line's balance {} plus this line's amount {}",
                                  money(balance), money(previous_balance), money(line.amount)), line.line, column)


Balanced = tuple[StatementLine, Decimal]


def _break(lines: list[Balanced]) -> tuple[Balanced, Balanced] | None:
    """The first line (with its balance) whose balance does not follow from the one before it, with that one."""
    for previous, line in pairwise(lines):
        if previous[1] + line[0].amount != line[1]:
            return previous, line
    return None
