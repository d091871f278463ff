"""The "journal-entry" template: one entry on letter paper with its number, date, state and
description, its lines (account code and name, line description, debit, credit; titles repeated
on every page), the totals and signature lines."""
from __future__ import annotations

from decimal import Decimal
from typing import Any, Mapping

from chalicelib import countries
from chalicelib.pdf import text
from chalicelib.pdf.layout import LETTER, Column, Sheet, Table

COLUMNS = (Column("Código", 22), Column("Cuenta", 58), Column("Descripción", 51.9), Column("Débito", 30, "R"),
           Column("Crédito", 30, "R"))
STATUSES = {"posted": "Contabilizado", "draft": "Borrador", "reversed": "Reversado"}
TYPES = {"automatic": "Automático", "manual": "Manual", "reversal": "Reversión"}
SIGNATURES = ("Elaborado por", "Revisado por", "Autorizado por")


def render(company: Mapping[str, Any], entry: Mapping[str, Any], accounts: Mapping[int, Mapping[str, Any]]) -> bytes:
    """`accounts`: the entry's chart accounts by id (a missing one prints its id)."""
    title = f"ASIENTO CONTABLE No. {entry['id']}"
    sheet = Sheet(LETTER, title=title)
    sheet.line_of_text(str(company.get("name", "")), size=13, bold=True, height=6)
    if company.get("taxId"):
        sheet.line_of_text(f"{countries.pack_of(company).tax_id_label}: {company['taxId']}", size=8.5, height=4.2)
    sheet.ln(2)
    sheet.line_of_text(title, size=12, bold=True, align="C", height=6)
    sheet.ln(1)
    for label, value in _facts(entry):
        sheet.use(8.5, True)
        sheet.cell(30, 4.6, text.printable(f"{label}:"))
        sheet.use(8.5)
        sheet.multi_cell(0, 4.6, text.printable(value), new_x="LMARGIN", new_y="NEXT")
    sheet.ln(3)

    def heading() -> None:
        sheet.use(8, True)
        sheet.cell(0, 5, text.printable(f"{company.get('name', '')} - {title} (continuación)"),
                   new_x="LMARGIN", new_y="NEXT")
        sheet.ln(1)

    with Table(sheet, COLUMNS, wrap=(1, 2), heading=heading) as table:
        for line in entry["lines"]:
            account = accounts.get(int(line["chartOfAccountId"])) or {}
            table.row([str(account.get("code") or f"#{int(line['chartOfAccountId'])}"), str(account.get("name") or ""),
                       str(line.get("lineDescription") or ""), _amount(line["debit"]), _amount(line["credit"])],
                      rule=True)
        table.row(["", "", "Totales", text.money(entry["totalDebit"]), text.money(entry["totalCredit"])], bold=True)
    _signatures(sheet)
    return sheet.render()


def _facts(entry: Mapping[str, Any]) -> list[tuple[str, str]]:
    facts = [("Fecha", text.date(entry.get("date"))),
             ("Estado", STATUSES.get(entry.get("status", ""), str(entry.get("status", "")))),
             ("Tipo", TYPES.get(entry.get("entryType", ""), str(entry.get("entryType", ""))))]
    if entry.get("reference"):
        facts.append(("Referencia", str(entry["reference"])))
    if entry.get("reversalOf"):
        facts.append(("Reversa el asiento", str(int(entry["reversalOf"]))))
    facts.append(("Descripción", str(entry.get("description") or "")))
    return facts


def _amount(value: Any) -> str:
    return text.money(value) if Decimal(value) else ""


def _signatures(sheet: Sheet) -> None:
    if sheet.will_page_break(30):
        sheet.add_page()
    sheet.ln(20)
    width = sheet.content_width / len(SIGNATURES)
    y = sheet.get_y()
    sheet.use(8.5)
    for index, label in enumerate(SIGNATURES):
        x = sheet.l_margin + index * width
        sheet.line(x + 6, y, x + width - 6, y)
        sheet.set_xy(x, y + 1)
        sheet.cell(width, 4.6, label, align="C")
