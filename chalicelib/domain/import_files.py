"""Reading an imported file into rows: CSV (UTF-8 with or without BOM, UTF-16 with BOM, or the
Windows-1252 Excel saves in Spanish; ',' ';' or tab) or XLSX (its first sheet), told apart by the
content, not the name. The first non-blank line holds the headings (normally line 1); each heading is
matched to a column by its API name, Spanish heading or an alias, ignoring case, accents, spaces,
underscores and hyphens, after the caller's `mapping` ({file heading: column name}; "" or None: ignore
that heading). An unknown heading is refused (a file is not half-read in silence), so is a heading
given twice, and a required column missing. Each row keeps the file's line (a quoted cell with line
breaks: the line its record starts on); blank lines are skipped. Pure: no AWS. Its reading of the
text and the sheet (decode_text, sniff_delimiter, text_records, workbook_records, record_problem) is
also a bank statement's (domain/statement_formats/tabular.py)."""
from __future__ import annotations

import csv
import io
import re
import unicodedata
import zipfile
from datetime import date, datetime, time
from decimal import Decimal
from typing import Any, Iterable, Iterator, Sequence

from chalicelib.domain.import_rows import Column, Row, RowError
from chalicelib.messages.phrases import Phrase

MAX_ROWS = 20_000  # rows of data, the heading not counted
# what reading a file may cost, whatever it holds (a 4 MB XLSX can expand to gigabytes):
MAX_WORKBOOK_BYTES = 64 * 1024 * 1024  # a workbook's parts, uncompressed (20,000 full rows take ~10 MB)
BLANK_ROWS_MARGIN = 1_000  # a sheet's rows read, blank ones counted: MAX_ROWS + the heading + this margin
MAX_CELLS = 200            # cells of a row (a heading or a value): past them, one problem for the row
MAX_CELL_CHARS = 32_767    # Excel's own limit on a cell's text
MAX_ERRORS = 1_000         # problems collected while reading (a job keeps this many anyway)
DELIMITERS = (",", ";", "\t")

# what the first bytes say a file is
_ZIP = b"PK\x03\x04"
_OLE = b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1"  # Excel 97-2003 (.xls), or any workbook saved with a password
_BOMS = ((b"\xef\xbb\xbf", "utf-8-sig"), (b"\xff\xfe\x00\x00", "utf-32"), (b"\x00\x00\xfe\xff", "utf-32"),
         (b"\xff\xfe", "utf-16"), (b"\xfe\xff", "utf-16"))
_UTF8_SEQUENCE = re.compile(rb"[\xc2-\xf4][\x80-\xbf]+")


class ImportFileInvalid(Exception):
    """The file is not a CSV or XLSX table at all: nothing of it can be read."""

    def __init__(self, error: RowError):
        super().__init__(error.message)
        self.error = error


def read_rows(file_name: str, content: bytes, columns: tuple[Column, ...],
              mapping: dict[str, str | None] | None = None) -> tuple[list[Row], list[RowError]]:
    """The file's rows (column name -> trimmed text, blank cells absent) and every problem found in
    its headings, encoding or cells; `ImportFileInvalid` when it is not a CSV or XLSX file."""
    if content.startswith(_ZIP):
        records, errors = _xlsx_records(content)
    else:
        refuse_non_text(content)
        records, errors = _csv_records(content)
    if errors:
        return [], errors
    return _rows(records, columns, mapping or {})


def heading_key(text: str) -> str:
    """A heading as compared: "Razón Social", "razon_social" and "RAZON-SOCIAL" are one."""
    plain = "".join(char for char in unicodedata.normalize("NFKD", text) if not unicodedata.combining(char))
    return re.sub(r"[\s_\-]+", "", plain).casefold()


# ---- what kind of file it is

def refuse_non_text(content: bytes) -> None:
    if content.startswith(b"%PDF"):
        raise ImportFileInvalid(RowError(0, None, "the file is a PDF, not a table: save the data as CSV UTF-8 or XLSX"))
    if content.startswith(_OLE):
        raise ImportFileInvalid(RowError(
            0, None, "the file is an Excel 97-2003 workbook (.xls) or a workbook protected with a password: save it "
                     "as XLSX without a password, or as CSV UTF-8"))
    if b"\x00" in content[:4096] and not any(content.startswith(bom) for bom, _ in _BOMS):
        raise ImportFileInvalid(RowError(0, None, "the file is neither text nor an XLSX workbook: save it as CSV "
                                                  "UTF-8 or XLSX"))
    if content.lstrip()[:1] == b"<":
        raise ImportFileInvalid(RowError(0, None, "the file is a web page or XML, not a table: save it as CSV UTF-8 "
                                                  "or XLSX"))


# ---- CSV

def decode_text(content: bytes) -> tuple[str, list[RowError]]:
    """The text and, when some bytes are not text in the file's encoding, the lines holding them.
    Not UTF-8 and nothing in it written as UTF-8: Windows-1252, which Excel saves in Spanish."""
    for bom, encoding in _BOMS:
        if content.startswith(bom):
            try:
                return content.decode(encoding), []
            except UnicodeDecodeError:
                return "", [RowError(0, None, "the file starts as UTF-16 or UTF-32 text but is cut or damaged: save "
                                              "it again as CSV UTF-8")]
    try:
        return content.decode("utf-8"), []
    except UnicodeDecodeError:
        pass
    encoding = "utf-8" if _UTF8_SEQUENCE.search(content) else "cp1252"
    errors = []
    for number, line in enumerate(content.split(b"\n"), start=1):
        try:
            line.decode(encoding)
        except UnicodeDecodeError:
            if encoding == "utf-8":
                errors.append(RowError(number, None, "the line has bytes that are not UTF-8 text: save the file as CSV "
                                                     "UTF-8"))
            else:
                errors.append(RowError(number, None, "the line has bytes that are not text: save the file as CSV "
                                                     "UTF-8"))
    return ("", errors) if errors else (content.decode(encoding), [])


def sniff_delimiter(heading: str) -> str:
    """The separator the heading line uses most, outside quotes; ',' when it has none (one column).
    A tie goes to ';' (Excel in Spanish: "Nombre;Dirección, ciudad"), then tab."""
    outside = re.sub(r'"[^"]*"', "", heading)
    counts = {delimiter: outside.count(delimiter) for delimiter in DELIMITERS}
    best = max((";", "\t", ","), key=lambda delimiter: counts[delimiter])
    return best if counts[best] else ","


def _csv_records(content: bytes) -> tuple[Iterator[tuple[int, list[str]]], list[RowError]]:
    text, errors = decode_text(content)
    if errors:
        return iter(()), errors
    first = next((line for line in io.StringIO(text, newline="") if line.strip()), "")
    return text_records(text, sniff_delimiter(first)), []


def text_records(text: str, delimiter: str) -> Iterator[tuple[int, list[str]]]:
    reader = csv.reader(io.StringIO(text, newline=""), delimiter=delimiter, strict=True)
    start = 1
    while True:
        try:
            record = next(reader)
        except StopIteration:
            return
        except csv.Error as error:
            # the reader's own limit on a field (131,072 characters) is past MAX_CELL_CHARS: a cell too long
            yield start, (_TooLong() if "field larger than field limit" in str(error) else _Unreadable())
            return
        yield start, record
        start = reader.line_num + 1


class _Unreadable(list[Any]):
    """A CSV record the reader could not finish: a quote opened and never closed, or text after one."""


class _TooLong(_Unreadable):
    """A CSV record holding a cell past the reader's field limit (far past MAX_CELL_CHARS)."""


class _TooManyLines(_Unreadable):
    """A sheet going on past the rows read, blank ones counted."""


class _TooManyRows(_Unreadable):
    """A sheet going on past the rows read with text in them."""


# ---- XLSX

def _xlsx_records(content: bytes) -> tuple[Iterator[tuple[int, list[str]]], list[RowError]]:
    return iter(workbook_records(content)), []


def workbook_records(content: bytes, as_text: bool = True, leading_rows: int = 0) -> list[tuple[int, list[Any]]]:
    """The first sheet's rows, numbered from 1, each cell as the text a person sees (`as_text`) or
    as openpyxl reads it (a number, a datetime, a text or None); read within the limits above, the
    `leading_rows` before the heading (a bank statement's header block) on top of them.
    `ImportFileInvalid` when the content is not a readable workbook."""
    if not content.startswith(_ZIP):
        raise ImportFileInvalid(RowError(0, None, "the file is not an XLSX workbook: save it as XLSX, or as CSV "
                                                  "UTF-8"))
    try:
        with zipfile.ZipFile(io.BytesIO(content)) as archive:
            is_workbook = "xl/workbook.xml" in archive.namelist()
            # the sizes the parts declare bound what reading them yields (zipfile stops there)
            expanded = sum(info.file_size for info in archive.infolist())
    except Exception:  # noqa: BLE001  (a damaged archive fails in zipfile in many ways: a version it does not know)
        is_workbook, expanded = False, 0
    if not is_workbook:
        raise ImportFileInvalid(RowError(0, None, "the file is a ZIP archive, not an XLSX workbook: save it as CSV "
                                                  "UTF-8 or XLSX"))
    if expanded > MAX_WORKBOOK_BYTES:
        raise ImportFileInvalid(RowError(0, None, Phrase("the XLSX workbook expands to more than {} MB: keep only the "
                                                         "sheet to import, or save it as CSV UTF-8",
                                                         MAX_WORKBOOK_BYTES // (1024 * 1024))))
    import openpyxl  # only when a workbook comes: it stays out of a cold start

    try:
        book = openpyxl.load_workbook(io.BytesIO(content), read_only=True, data_only=True)
        sheet = book.worksheets[0]
        sheet.reset_dimensions()  # the sheet's stated size is not trusted: every row written is read
        rows = [(number, values if isinstance(values, _TooManyLines) else
                 [cell_text(value) if as_text else value for value in values])
                for number, values in _limited(enumerate(sheet.iter_rows(values_only=True), start=1),
                                               max(leading_rows, 0))]
    except Exception:  # noqa: BLE001  (a damaged workbook fails in openpyxl in many ways)
        raise ImportFileInvalid(RowError(0, None, "the XLSX workbook cannot be read (it is damaged): save it again as "
                                                  "XLSX or CSV UTF-8")) from None
    return rows


def _limited(numbered: Iterable[tuple[int, Sequence[Any]]],
             leading_rows: int = 0) -> Iterator[tuple[int, Sequence[Any]]]:
    """The sheet's rows up to one past the limit of non-blank ones (the leading rows and the heading
    on top): enough for a reader to tell a file is too long; a row past that is the marker of a
    sheet too long (never a silent end: a reader counting otherwise refuses it, never takes a part).
    Blank rows count too, past a margin (a sheet may hold a million empty, formatted rows): a sheet
    longer than that is refused as too long, not read to its end."""
    seen = 0
    for number, values in numbered:
        if number > leading_rows + MAX_ROWS + 1 + BLANK_ROWS_MARGIN:
            yield number, _TooManyLines()
            return
        if any(value is not None and str(value).strip() for value in values):
            seen += 1
            if seen > leading_rows + MAX_ROWS + 2:
                yield number, _TooManyRows()
                return
        yield number, values


def cell_text(value: object) -> str:
    """A cell as the text a person sees: a date as YYYY-MM-DD, a number without float artifacts or an
    exponent (0.1+0.2 -> "0.3", 10.0 -> "10", 1e20 -> "100000000000000000000")."""
    if value is None:
        return ""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, datetime):
        return value.date().isoformat() if value.time() == time() else value.isoformat(timespec="seconds")
    if isinstance(value, (date, time)):
        return value.isoformat()
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        # a spreadsheet keeps 15 significant digits: more is the binary float's noise
        return format(Decimal(format(value, ".15g")), "f")
    return str(value).strip()


# ---- headings and rows

def _rows(records: Iterator[tuple[int, list[str]]], columns: tuple[Column, ...],
          mapping: dict[str, str | None]) -> tuple[list[Row], list[RowError]]:
    heading_line, headings = next(((line, cells) for line, cells in records if _has_text(cells)), (0, []))
    if isinstance(headings, _Unreadable) or not headings:
        return [], [_unreadable(heading_line, headings) if isinstance(headings, _Unreadable) else
                    RowError(1, None, "the file has no heading line: line 1 names the columns")]
    if _too_wide(headings):
        return [], [_wide(heading_line)]
    places, errors = _places(heading_line, headings, columns, mapping)
    missing_required = {column.name for column in columns if column.required and column.name not in places.values()}
    rows: list[Row] = []
    for line, cells in records:
        if isinstance(cells, _Unreadable):
            errors.append(_unreadable(line, cells))
            break
        if not _has_text(cells):
            continue
        if len(rows) == MAX_ROWS:
            errors.append(RowError(0, None, Phrase("the file has more than {} rows: split it into files of at most {}",
                                                   MAX_ROWS, MAX_ROWS)))
            break
        rows.append(Row(line, _values(line, cells, headings, places, errors)))
        if len(errors) < MAX_ERRORS:
            errors.extend(RowError(line, column.name, "required: the cell is blank") for column in columns
                          if column.required and column.name not in rows[-1].values
                          and column.name not in missing_required)
    return rows, errors[:MAX_ERRORS] + [error for error in errors[MAX_ERRORS:] if error.row == 0]


def _values(line: int, cells: list[str], headings: list[str], places: dict[int, str],
            errors: list[RowError]) -> dict[str, str]:
    """A row's values by column; its problems added to `errors` (one for a row too wide, one for its
    cells without a heading) while they are fewer than MAX_ERRORS."""
    if _too_wide(cells):
        errors.append(_wide(line))
        return {}
    values, unnamed = {}, []
    for index, cell in enumerate(cells):
        text = cell.strip()
        if not text:
            continue
        if len(text) > MAX_CELL_CHARS:
            if len(errors) < MAX_ERRORS:
                errors.append(RowError(line, places.get(index),
                        Phrase("the cell in column {} has more than {} characters", index + 1, MAX_CELL_CHARS)))
        elif index in places:
            values[places[index]] = text
        elif index >= len(headings) or not headings[index].strip():
            unnamed.append(index + 1)
    if unnamed and len(errors) < MAX_ERRORS:
        errors.append(RowError(line, None, Phrase("a value in column {} has no heading: name the column in the heading "
                                                  "line or leave its cells blank", unnamed[0])))
    return values


def _too_wide(cells: list[str]) -> bool:
    return any(cell.strip() for cell in cells[MAX_CELLS:])


def _wide(line: int) -> RowError:
    return RowError(line, None, Phrase("the line has values past column {}: a table has at most {} columns",
                                       MAX_CELLS, MAX_CELLS))


def _places(line: int, headings: list[str], columns: tuple[Column, ...],
            mapping: dict[str, str | None]) -> tuple[dict[int, str], list[RowError]]:
    """Each heading's position -> the column it fills, and the problems of the heading line."""
    by_key: dict[str, Column] = {}
    for known in columns:
        for name in (known.name, known.spanish, *known.aliases):
            by_key.setdefault(heading_key(name), known)
    mapped = {heading_key(heading): target for heading, target in mapping.items()}
    places: dict[int, str] = {}
    seen: dict[str, str] = {}   # a heading's key -> the heading as written
    taken: dict[str, str] = {}  # a column's name -> the heading that fills it
    errors: list[RowError] = []
    for index, heading in enumerate(headings):
        heading = heading.strip()
        key = heading_key(heading)
        if not key:
            continue
        if key in seen:
            errors.append(RowError(line, heading, Phrase("the heading {} is written twice", heading)))
            continue
        seen[key] = heading
        if key in mapped:
            target = mapped[key]
            if not target:
                continue  # mapped to nothing: the caller chose to leave it out
            column = by_key.get(heading_key(target))
            if column is None:
                errors.append(RowError(line, heading, Phrase("the mapping gives {} to {}, which is not a column of "
                                                             "this import: {}", heading, target, _names(columns))))
                continue
        else:
            column = by_key.get(key)
            if column is None:
                errors.append(RowError(line, heading, Phrase("unknown column {}: the columns are {} (map it to one, or "
                                                             "to nothing to leave it out)", heading, _names(columns))))
                continue
        if column.name in taken:
            errors.append(RowError(line, column.name, Phrase("{} and {} both fill the column {}: keep one",
                                                             taken[column.name], heading, column.name)))
            continue
        taken[column.name] = heading
        places[index] = column.name
    errors.extend(RowError(line, column.name, Phrase("the required column {} ({}) is missing",
                                                     column.name, column.spanish))
                  for column in columns if column.required and column.name not in taken)
    return places, errors


def _names(columns: tuple[Column, ...]) -> str:
    return ", ".join(column.name for column in columns)


def record_problem(line: int, cells: list[Any]) -> RowError | None:
    """What makes a record of `text_records`/`workbook_records` unreadable (a quote not closed, a
    cell too long, a sheet too long), else None."""
    return _unreadable(line, cells) if isinstance(cells, _Unreadable) else None


def _has_text(cells: list[str]) -> bool:
    return isinstance(cells, _Unreadable) or any(cell.strip() for cell in cells)


def _unreadable(line: int, cells: _Unreadable) -> RowError:
    if isinstance(cells, _TooLong):
        return RowError(line, None, Phrase("a cell on this line has more than {} characters", MAX_CELL_CHARS))
    if isinstance(cells, _TooManyRows):
        return RowError(0, None, Phrase("the file has more than {} rows: split it into files of at most {}",
                                        MAX_ROWS, MAX_ROWS))
    if isinstance(cells, _TooManyLines):
        return RowError(0, None, Phrase("the sheet has more than {} rows, blank ones counted: delete the rows below "
                                        "the data, or split it into files of at most {} rows",
                                        MAX_ROWS + 1 + BLANK_ROWS_MARGIN, MAX_ROWS))
    return RowError(line, None, "a quote opened on this line is not closed, or text follows a closing quote: write "
                                "a quote inside a quoted cell as two quotes")
