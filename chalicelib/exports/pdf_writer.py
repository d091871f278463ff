"""PDF through the printing layer (chalicelib.pdf.layout): the company header, the report's
title and period, then its table (titles repeated on every page)."""
from __future__ import annotations

from typing import Any

from chalicelib.domain.report_table import ReportTable


def write(table: ReportTable, company: dict[str, Any]) -> bytes:
    from chalicelib.pdf import text
    from chalicelib.pdf.layout import LETTER, Column, Sheet, Table

    sheet = Sheet(LETTER, title=table.title)
    sheet.line_of_text(str(company.get("name") or ""), size=13, bold=True, height=6)
    if company.get("taxId"):
        label = {"HN": "RTN", "SV": "NIT"}.get(str(company.get("country")), "RTN/NIT")
        sheet.line_of_text(f"{label}: {company['taxId']}", size=8.5, height=4.2)
    sheet.ln(2)
    sheet.line_of_text(table.title, size=12, bold=True, align="C", height=6)
    sheet.line_of_text(table.subtitle, size=9, align="C", height=4.5)
    sheet.ln(2)
    amounts = sum(column.kind == "amount" for column in table.columns)
    amount_width = 32.0
    text_widths = [22.0, sheet.content_width - 22.0 - amounts * amount_width]
    widths, texts = [], iter(text_widths)
    for column in table.columns:
        widths.append(amount_width if column.kind == "amount" else next(texts, 30.0))
    columns = [Column(c.title, w, "R" if c.kind == "amount" else "L") for c, w in zip(table.columns, widths, strict=True)]
    with Table(sheet, columns, wrap=(1,)) as rows:
        for row in table.rows:
            cells = []
            for index, (column, value) in enumerate(zip(table.columns, row.cells, strict=True)):
                if value is None:
                    cells.append("")
                elif column.kind == "amount":
                    cells.append(text.money(value))
                else:
                    cells.append(("   " * row.level if index == 1 else "") + str(value))
            rows.row(cells, bold=row.emphasis, rule=row.emphasis)
    return sheet.render()
