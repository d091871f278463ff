"""CSV: a header row, then the rows; amounts as plain decimals with their cents ("1650.00"),
which every spreadsheet reads as numbers; UTF-8 with a byte-order mark so that Excel reads the
accents."""
from __future__ import annotations

import csv
import io
from decimal import Decimal
from typing import Any

from chalicelib.domain.report_table import ReportTable

FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def write(table: ReportTable, company: dict[str, Any]) -> bytes:
    out = io.StringIO()
    rows = csv.writer(out, lineterminator="\r\n")
    rows.writerow([column.title for column in table.columns])
    for row in table.rows:
        rows.writerow([_cell(value) for value in row.cells])
    return ("\ufeff" + out.getvalue()).encode("utf-8")


def _cell(value: Any) -> str:
    if value is None:
        return ""
    if isinstance(value, Decimal):
        return format(value.quantize(Decimal("0.01")), "f")
    return as_text(str(value))


def as_text(text: str) -> str:
    """A text cell a spreadsheet shows as text: a name like "=HYPERLINK(...)" would be a formula,
    quoted it stays text (every CSV this service writes passes its text cells here)."""
    return "'" + text if text[:1] in FORMULA_STARTS else text
