"""The "ticket" template: the same fiscal content as the invoice, compact, for an 80 mm roll
printer. The page is as long as the ticket: it is drawn once on a long page to measure it, then
on a page of that length (a ticket beyond the longest page a PDF viewer accepts continues on
further pages of that length)."""
from __future__ import annotations

from typing import Any, Mapping

from chalicelib import countries
from chalicelib.pdf import content, text
from chalicelib.pdf.layout import Sheet

ROLL_WIDTH = 80.0
MARGIN = 4.0
# PDF viewers accept pages up to 200 inches; a longer ticket takes several such pages.
LONGEST_PAGE = 5000.0
LINE = 3.6


def render(company: Mapping[str, Any], partner: Mapping[str, Any], document: Mapping[str, Any]) -> bytes:
    measured = _draw(LONGEST_PAGE, company, partner, document)
    if measured.page_no() > 1:
        return measured.render()
    return _draw(measured.get_y() + MARGIN, company, partner, document).render()


def _draw(length: float, company: Mapping[str, Any], partner: Mapping[str, Any],
          document: Mapping[str, Any]) -> Sheet:
    title, number = content.title(document, company, partner), content.number(document, company)
    sheet = Sheet((ROLL_WIDTH, length), title=f"{title} {number}", margin=MARGIN, page_numbers=False)
    width = sheet.content_width

    def centered(value: str, size: float = 7.5, bold: bool = False) -> None:
        sheet.line_of_text(value, size=size, bold=bold, align="C", height=size * 0.46)

    def both_ends(left: str, right: str, size: float = 7.5, bold: bool = False) -> None:
        sheet.use(size, bold)
        right_width = sheet.get_string_width(text.printable(right)) + 2 * sheet.c_margin
        sheet.cell(width - right_width, size * 0.46, text.printable(left))
        sheet.cell(right_width, size * 0.46, text.printable(right), align="R", new_x="LMARGIN", new_y="NEXT")

    centered(str(company.get("name", "")), 10, True)
    for row in content.company_rows(company):
        centered(row)
    sheet.ln(1.5)
    centered(title, 9, True)
    centered(f"No. {number}", 8, True)
    centered(f"Fecha: {text.date(document.get('date'))}")
    stamp = content.stamp(document)
    if stamp:
        centered(stamp, 8, True)
    for label, value in content.cai_rows(document):
        centered(f"{label}: {value}", 6.5)
    for label, value in content.authority_rows(document, company):  # an electronic document's codes and seal
        centered(f"{label}: {value}", 6.5)
    sheet.rule(1)
    sheet.line_of_text(f"{content.partner_label(document)}: {partner.get('name') or ''}", size=7.5, height=LINE)
    sheet.line_of_text(f"{countries.pack_of(company).tax_id_label}: {partner.get('taxId') or ''}", size=7.5, height=LINE)
    for label, value in countries.pack_of(company).hooks.exoneration_rows(document, short=True, blanks=False):
        sheet.line_of_text(f"{label}: {value}", size=7, height=3.3)
    sheet.rule(1)
    for description, quantity, price, discount, line_total in content.lines(document, company, partner):
        sheet.line_of_text(description, size=7.5, height=LINE)
        detail = f"  {text.quantity(quantity)} x {text.price(price)}"
        if discount:
            detail += f"  desc. {text.money(discount)}"
        both_ends(detail, text.money(line_total))
    sheet.rule(1)
    rows, total = content.totals_rows(document, company, partner)
    for label, amount in rows:
        both_ends(label, text.money(amount))
    both_ends(f"TOTAL ({content.currency(document, company)})", text.money(total), 9.5, True)
    sheet.ln(1.5)
    sheet.line_of_text(f"SON: {content.amount_words(document, company)}", size=7, bold=True, height=3.3)
    if document.get("cai"):
        sheet.ln(1.5)
        centered(content.COPIES_LEGEND, 6.5)
        centered(content.FISCAL_LEGEND, 7, True)
    return sheet
