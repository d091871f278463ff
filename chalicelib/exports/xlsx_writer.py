"""XLSX through XlsxWriter: the title rows, then a table whose amount columns are numbers with a
#,##0.00 format (a spreadsheet's numbers are binary floats: exact to the cent for any amount the
service accepts), headings and totals in bold, sub-accounts indented."""
from __future__ import annotations

import io
from typing import Any

from chalicelib.domain.report_table import ReportTable


def write(table: ReportTable, company: dict[str, Any]) -> bytes:
    import xlsxwriter

    out = io.BytesIO()
    # text is text: a partner named "=HYPERLINK(...)" or "http://..." is not a formula or a link
    book = xlsxwriter.Workbook(out, {"in_memory": True, "strings_to_formulas": False, "strings_to_urls": False,
                                     "strings_to_numbers": False})
    sheet = book.add_worksheet(table.title[:31])
    bold = book.add_format({"bold": True})
    money = book.add_format({"num_format": "#,##0.00"})
    bold_money = book.add_format({"num_format": "#,##0.00", "bold": True})
    indents = {}
    sheet.write_string(0, 0, str(company.get("name") or ""), bold)
    sheet.write_string(1, 0, table.title, bold)
    sheet.write_string(2, 0, table.subtitle)
    first = 4
    for index, column in enumerate(table.columns):
        sheet.write_string(first, index, column.title, bold)
        sheet.set_column(index, index, 14 if column.kind == "amount" else 36 if index else 12)
    for offset, row in enumerate(table.rows, start=first + 1):
        for index, (column, value) in enumerate(zip(table.columns, row.cells, strict=True)):
            if value is None:
                continue
            if column.kind == "amount":
                sheet.write_number(offset, index, float(value), bold_money if row.emphasis else money)
            elif index == 1 and row.level:
                key = (row.level, row.emphasis)
                if key not in indents:
                    indents[key] = book.add_format({"indent": row.level, "bold": row.emphasis})
                sheet.write_string(offset, index, str(value), indents[key])
            else:
                sheet.write_string(offset, index, str(value), bold if row.emphasis else None)
    book.close()
    return out.getvalue()
