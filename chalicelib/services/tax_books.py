"""The Honduran sales and purchase books of a period: one Query of the period's documents (the
date index, so a month reads only that month) and one BatchGet of their partners."""
from __future__ import annotations

from datetime import date, timedelta
from typing import Any

from chalicelib.domain import tax_books
from chalicelib.domain.report_table import Column, ReportTable, amount
from chalicelib.errors import ApiError, ValidationFailed
from chalicelib.services import accounts
from chalicelib.store import keys
from chalicelib.store.listing import GSI1
from chalicelib.store.table import Table

MAX_BOOK_DAYS = 366  # one answer of a bounded size (a Lambda answers at most 6 MB)
BOOKS = {"sales": ("Libro de ventas", tax_books.SALES_BOOK_TYPES),
         "purchases": ("Libro de compras", tax_books.PURCHASE_BOOK_TYPES)}


def book(table: Table, company_id: int, which: str, start_date: str, end_date: str) -> dict[str, Any]:
    if start_date > end_date:
        raise ValidationFailed.for_field("startDate", "must not be after endDate")
    if date.fromisoformat(end_date) - date.fromisoformat(start_date) > timedelta(days=MAX_BOOK_DAYS):
        raise ValidationFailed.for_field("endDate", f"a book spans at most {MAX_BOOK_DAYS} days (books are monthly)")
    company = accounts.get_company(table, company_id)
    if company.get("country", "HN") != "HN":
        raise ApiError("The ISV books are Honduras' (the company's country is not HN).",
                       code="REPORT_NOT_FOR_COUNTRY", status=400)
    _, types = BOOKS[which]
    documents = [item for item in table.query_all(
        partition=("GSI1PK", keys.collection_partition(company_id, keys.DOCUMENT)), index=GSI1,
        sort_range=("GSI1SK", start_date, f"{end_date}#~"))
        if item["type"] in types and item["status"] in tax_books.BOOK_STATUSES]
    documents.sort(key=lambda item: (item["date"], item.get("number") or "", int(item["id"])))
    partner_ids = sorted({int(item["businessPartnerId"]) for item in documents})
    partners: dict[int, dict[str, Any]] = {}
    for start in range(0, len(partner_ids), 100):  # BatchGetItem takes 100 keys
        found = table.batch_get([keys.entity(company_id, keys.PARTNER, partner_id)
                                 for partner_id in partner_ids[start:start + 100]])
        partners.update({int(item["id"]): item for item in found.values()})
    rows = [tax_books.book_row(item, partners.get(int(item["businessPartnerId"]))) for item in documents]
    return {"startDate": start_date, "endDate": end_date, "rows": rows, "totals": tax_books.book_totals(rows)}


def book_table(title: str):
    def as_table(report: dict[str, Any]) -> ReportTable:
        start, end = report["startDate"], report["endDate"]
        table = ReportTable(title, f"Del {start} al {end}", (
            Column("Fecha", weight=14), Column("Tipo", weight=17), Column("Número", weight=25), Column("CAI", weight=29),
            Column("RTN", weight=21), Column("Nombre", weight=31), Column("Estado", weight=14), Column("Exento", "amount"), Column("Exonerado", "amount"),
            Column("Gravado 15%", "amount"), Column("Gravado 18%", "amount"), Column("ISV 15%", "amount"),
            Column("ISV 18%", "amount"), Column("Total", "amount")),
            filename=f"{title.lower().replace(' ', '-')}-{start}-{end}")
        for row in report["rows"]:
            table.add(row["date"], row["typeName"], row["number"] or "", row["cai"] or "", row["partnerTaxId"] or "",
                      row["partnerName"], "ANULADO" if row["status"] == "cancelled" else "",
                      *(amount(row[name]) for name in tax_books.AMOUNTS))
        table.add("", "", "", "", "", "Totales", "", *(amount(report["totals"][name]) for name in tax_books.AMOUNTS),
                  emphasis=True)
        return table
    return as_table
