"""The "invoice" template: a Honduran fiscal invoice on letter paper. The issuer with its RTN,
the CAI block (authorization, authorized range, issue deadline), number and dates, the customer,
the lines (their titles repeat on every page), the ISV breakdown, the total in words and the
fiscal legends. Any document type prints with it; the CAI block appears when its number came
from a CAI range."""
from __future__ import annotations

from typing import Any, Mapping, cast

from chalicelib import countries
from chalicelib.pdf import content, text
from chalicelib.pdf.layout import LETTER, Column, Sheet, Table

COLUMNS = (Column("Descripción", 86), Column("Cantidad", 20, "R"), Column("Precio unitario", 28, "R"),
           Column("Descuento", 26, "R"), Column("Total", 31.9, "R"))
HEADER_RIGHT_WIDTH = 82
ROW = 4.6


def render(company: Mapping[str, Any], partner: Mapping[str, Any], document: Mapping[str, Any]) -> bytes:
    title, number = content.title(document, company, partner), content.number(document, company)
    sheet = Sheet(LETTER, title=f"{title} {number}")
    _header(sheet, company, document, title, number)
    _parties(sheet, document, partner, countries.pack_of(company).code)

    def heading() -> None:
        sheet.use(8, True)
        sheet.cell(0, 5, text.printable(f"{company.get('name', '')} - {title} No. {number} (continuación)"),
                   new_x="LMARGIN", new_y="NEXT")
        sheet.ln(1)

    with Table(sheet, COLUMNS, heading=heading) as table:
        for row in content.line_rows(document, company, partner):
            table.row(row, rule=True)
    _totals(sheet, company, partner, document)
    return sheet.render()


def _header(sheet: Sheet, company: Mapping[str, Any], document: Mapping[str, Any], title: str, number: str) -> None:
    top = sheet.get_y()
    left_width = sheet.content_width - HEADER_RIGHT_WIDTH - 4
    sheet.line_of_text(str(company.get("name", "")), size=14, bold=True, width=left_width, height=6.5)
    for row in content.company_rows(company):
        sheet.line_of_text(row, size=8.5, width=left_width, height=4.2)
    left_bottom = sheet.get_y()

    x = sheet.w - sheet.r_margin - HEADER_RIGHT_WIDTH
    sheet.set_xy(x, top)
    sheet.use(13, True)
    sheet.multi_cell(HEADER_RIGHT_WIDTH, 6.5, text.printable(title), align="C", border="LTR", new_x="LEFT", new_y="NEXT")
    sheet.use(10, True)
    sheet.cell(HEADER_RIGHT_WIDTH, 6, text.printable(f"No. {number}"), align="C", border="LR",
               new_x="LEFT", new_y="NEXT")
    sheet.use(8.5)
    dates = f"Fecha: {text.date(document.get('date'))}"
    if document.get("dueDate") and document.get("dueDate") != document.get("date"):
        dates += f"    Vence: {text.date(document.get('dueDate'))}"
    sheet.cell(HEADER_RIGHT_WIDTH, 5, dates, align="C", border="LBR", new_x="LEFT", new_y="NEXT")
    stamp = content.stamp(document)
    if stamp:
        sheet.set_text_color(180, 0, 0)
        sheet.use(10, True)
        sheet.cell(HEADER_RIGHT_WIDTH, 6, stamp, align="C", new_x="LEFT", new_y="NEXT")
        sheet.set_text_color(0, 0, 0)
    sheet.set_xy(sheet.l_margin, max(left_bottom, sheet.get_y()) + 2)

    _authority_block(sheet, company, document)
    cai_rows = content.cai_rows(document)
    if cai_rows:
        sheet.set_fill_color(245, 245, 245)
        for label, value in cai_rows:
            sheet.use(8.5, True)
            sheet.cell(42, 4.5, text.printable(f"{label}:"), fill=True)
            sheet.use(8.5)
            sheet.cell(0, 4.5, text.printable(value), fill=True, new_x="LMARGIN", new_y="NEXT")
    sheet.rule()


QR_SIZE = 26.0  # mm


def _authority_block(sheet: Sheet, company: Mapping[str, Any], document: Mapping[str, Any]) -> None:
    """An electronic document's codes and seal, and the QR code of its public consultation (El Salvador's DTE)."""
    rows = content.authority_rows(document, company)
    if not rows:
        return
    import io

    top = sheet.get_y()
    sheet.set_fill_color(245, 245, 245)
    for label, value in rows:
        sheet.use(8.5, True)
        sheet.cell(42, 5, text.printable(f"{label}:"), fill=True)
        sheet.use(8.5)
        sheet.cell(sheet.content_width - 42 - QR_SIZE - 4, 5, text.printable(value), fill=True,
                   new_x="LMARGIN", new_y="NEXT")
    qr = content.authority_qr_png(document, company)
    if qr:
        sheet.image(io.BytesIO(qr), x=sheet.w - sheet.r_margin - QR_SIZE, y=top, w=QR_SIZE, h=QR_SIZE)
    sheet.set_xy(sheet.l_margin, max(sheet.get_y(), top + QR_SIZE) + 1)


def _parties(sheet: Sheet, document: Mapping[str, Any], partner: Mapping[str, Any], country: str) -> None:
    rows = [(content.partner_label(document), partner.get("name") or ""), *content.partner_id_rows(partner, country)]
    if partner.get("address"):
        rows.append(("Dirección", partner["address"]))
    if document.get("reference"):
        rows.append(("Referencia", document["reference"]))
    for label, value in rows:
        sheet.use(9, True)
        sheet.cell(24, 4.8, text.printable(f"{label}:"))
        sheet.use(9)
        sheet.multi_cell(0, 4.8, text.printable(value), new_x="LMARGIN", new_y="NEXT")
    for label, value in countries.pack(country).hooks.exoneration_rows(document):
        sheet.use(8.5, True)
        sheet.cell(88, 4.5, text.printable(f"{label}:"))
        sheet.use(8.5)
        sheet.multi_cell(0, 4.5, text.printable(value), new_x="LMARGIN", new_y="NEXT")
    sheet.ln(3)


def _totals(sheet: Sheet, company: Mapping[str, Any], partner: Mapping[str, Any], document: Mapping[str, Any]) -> None:
    """The totals, the amount in words, the notes and the legends stay together on one page."""
    rows, total = content.totals_rows(document, company, partner)
    currency = content.currency(document, company)
    words = f"SON: {content.amount_words(document, company)}"
    notes = f"Notas: {document['notes']}" if document.get("notes") else ""
    label_width, value_width = 52.0, 34.0
    converted = content.company_currency_rows(document, company)
    height = (2 + ROW * len(rows) + 6.5 + ROW * len(converted) + 3 + _paragraph_height(sheet, words, 9, True, 4.6)
              + (2 + _paragraph_height(sheet, notes, 8.5, False, 4.2) if notes else 0)
              + (4 + 8.6 if document.get("cai") else 0))
    if sheet.will_page_break(height):
        sheet.add_page()
    sheet.ln(2)
    x = sheet.w - sheet.r_margin - label_width - value_width
    for label, amount in rows:
        sheet.set_x(x)
        sheet.use(8.5)
        sheet.cell(label_width, ROW, text.printable(label), border="B")
        sheet.cell(value_width, ROW, text.money(amount), align="R", border="B", new_x="LMARGIN", new_y="NEXT")
    sheet.set_x(x)
    sheet.use(10, True)
    sheet.cell(label_width, 6.5, text.printable(f"TOTAL A PAGAR ({currency})"), border="B")
    sheet.cell(value_width, 6.5, text.money(total), align="R", border="B", new_x="LMARGIN", new_y="NEXT")
    for label, value in converted:
        sheet.set_x(x)
        sheet.use(8.5)
        sheet.cell(label_width, ROW, text.printable(label), border="B")
        sheet.cell(value_width, ROW, text.printable(value), align="R", border="B", new_x="LMARGIN", new_y="NEXT")
    sheet.ln(3)
    sheet.line_of_text(words, size=9, bold=True, height=4.6)
    if notes:
        sheet.ln(2)
        sheet.line_of_text(notes, size=8.5, height=4.2)
    if document.get("cai"):
        sheet.ln(4)
        sheet.line_of_text(content.COPIES_LEGEND, size=8, align="C", height=4)
        sheet.line_of_text(content.FISCAL_LEGEND, size=9, bold=True, align="C", height=4.6)


def _paragraph_height(sheet: Sheet, paragraph: str, size: float, bold: bool, line_height: float) -> float:
    sheet.use(size, bold)
    lines = cast(list[str], sheet.multi_cell(0, line_height, text.printable(paragraph), dry_run=True, output="LINES"))
    return len(lines) * line_height
