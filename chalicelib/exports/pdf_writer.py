"""PDF through the printing layer (chalicelib.pdf.layout): the company header, the report's
title and period, then its table (titles repeated on every page)."""
from __future__ import annotations

from typing import Any

from chalicelib import countries
from chalicelib.domain.report_table import ReportTable


def write(table: ReportTable, company: dict[str, Any]) -> bytes:
    from chalicelib.pdf import text
    from chalicelib.pdf.layout import LANDSCAPE_LETTER, LETTER, Column, Sheet, Table

    amounts = sum(column.kind == "amount" for column in table.columns)
    wide = amounts > 3  # a tax book: landscape, smaller type
    sheet = Sheet(LANDSCAPE_LETTER, title=table.title, margin=8) if wide else Sheet(LETTER, title=table.title)
    sheet.line_of_text(str(company.get("name") or ""), size=13, bold=True, height=6)
    if company.get("taxId"):
        label = countries.pack(company["country"]).tax_id_label if company.get("country") in countries.CODES \
            else "RTN/NIT"
        sheet.line_of_text(f"{label}: {company['taxId']}", size=8.5, height=4.2)
    sheet.ln(2)
    sheet.line_of_text(table.title, size=12, bold=True, align="C", height=6)
    sheet.line_of_text(table.subtitle, size=9, align="C", height=4.5)
    sheet.ln(2)
    amount_width = 16.0 if wide else 32.0
    text_width = sheet.content_width - amounts * amount_width
    weights = sum(column.weight for column in table.columns if column.kind == "text")
    columns = [Column(c.title, amount_width, "R") if c.kind == "amount" else Column(c.title, text_width * c.weight / weights)
               for c in table.columns]
    texts = [index for index, column in enumerate(table.columns) if column.kind == "text"]
    with Table(sheet, columns, size=6.5 if wide else 8, wrap=texts) as rows:
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
