"""A report answered as JSON, or as CSV, XLSX or PDF when the first Accept value asks for one
(API Gateway decodes a binary body only for the first Accept value, as for the print routes)."""
from __future__ import annotations

from typing import Any, Callable, Mapping

from chalice import Response

from chalicelib.api.routing import Call
from chalicelib.domain.report_table import ReportTable
from chalicelib.exports import EXTENSIONS, REPORT_TYPES, writer


def requested_type(headers: Mapping[str, str], offered: tuple[str, ...] = REPORT_TYPES) -> str | None:
    first = (headers.get("accept") or "").split(",")[0].split(";")[0].strip().lower()
    return first if first in offered else None


def report_answer(call: Call, report: dict[str, Any], as_table: Callable[[dict[str, Any]], ReportTable]) -> Any:
    media_type = requested_type(call.headers)
    call.response_headers["Vary"] = "Accept"  # one URL, several answers: caches must key on Accept
    if media_type is None:
        return report
    from chalicelib.services.identity import accounts

    table = as_table(report)
    company = accounts.get_company(call.command.table, call.principal.company_id)
    return file_answer(writer(media_type)(table, company), media_type, table.filename, "Accept")


def file_answer(body: bytes, media_type: str, filename: str, vary: str) -> Response:
    """A file to download: a text body travels as text, the others base64-encoded."""
    text = media_type.startswith("text/")
    return Response(body=body.decode("utf-8") if text else body, status_code=200, headers={
        "Content-Type": media_type + ("; charset=utf-8" if text else ""), "Vary": vary,
        "Content-Disposition": f'attachment; filename="{filename}.{EXTENSIONS[media_type]}"'})
