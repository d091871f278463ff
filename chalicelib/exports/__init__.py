"""A report's table written as CSV, XLSX or PDF: the media types a report route answers besides
JSON, chosen by the first value of the request's Accept header."""
from __future__ import annotations

from typing import Any, Callable

from chalicelib.domain.report_table import ReportTable

CSV = "text/csv"
XLSX = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
PDF = "application/pdf"
REPORT_TYPES = (CSV, XLSX, PDF)
EXTENSIONS = {CSV: "csv", XLSX: "xlsx", PDF: "pdf"}


def writer(media_type: str) -> Callable[[ReportTable, dict[str, Any]], bytes]:
    """The writer of a media type, imported on first use (XlsxWriter and fpdf2 stay out of a
    cold start)."""
    if media_type == CSV:
        from chalicelib.exports.csv_writer import write
    elif media_type == XLSX:
        from chalicelib.exports.xlsx_writer import write
    else:
        from chalicelib.exports.pdf_writer import write
    return write
