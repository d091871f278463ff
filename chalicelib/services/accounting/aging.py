"""Aged receivables and payables at a date, from each partner's own ledger (the movements up to
the date, so payments made later are still open): one Query of the partners, one Query per
partner of its ledger up to the date, and BatchGets of the documents left open."""
from __future__ import annotations

from decimal import Decimal
from typing import Any, Callable

from chalicelib.domain import aging
from chalicelib.domain.accounting import ZERO
from chalicelib.domain.report_table import Column, ReportTable, amount
from chalicelib.services.identity import accounts
from chalicelib.store import keys
from chalicelib.store.repositories import ledger as ledgers
from chalicelib.store.repositories import partners as partner_store
from chalicelib.store.table import Table

SIDES = {"receivables": (keys.RECEIVABLE_SIDE, ("customer", "both"), "Antigüedad de saldos por cobrar"),
         "payables": (keys.PAYABLE_SIDE, ("supplier", "both"), "Antigüedad de saldos por pagar")}
BUCKET_TITLES = ("Corriente", "1-30 días", "31-60 días", "61-90 días", "Más de 90 días")


def aged_balances(table: Table, company_id: int, which: str, date: str | None) -> dict[str, Any]:
    date = date or accounts.today_of(table, company_id)
    side, partner_types, _ = SIDES[which]
    partners = [item for item in partner_store.every_partner(table, company_id) if item.get("type") in partner_types]
    open_by_partner: dict[int, dict[int, Decimal]] = {}
    in_currency: dict[int, Decimal] = {}
    for partner in partners:
        movements = ledgers.partner_movements_through(table, company_id, partner["id"], side, date)
        if movements:
            open_by_partner[partner["id"]] = aging.open_amounts(movements)
            in_currency.update(aging.open_in_currency(movements))
    documents = {item["id"]: item for item in table.batch_get(
        keys.document(company_id, document_id)
        for document_id in sorted({document_id for amounts in open_by_partner.values() for document_id in amounts})
    ).values()}
    rows = []
    for partner in sorted(partners, key=lambda item: (item.get("name", ""), item["id"])):
        amounts = open_by_partner.get(partner["id"], {})
        if amounts:
            rows.append(aging.partner_row(date, partner, [(documents[document_id], open_amount)
                                                         for document_id, open_amount in amounts.items()],
                                        in_currency))
    totals = {name: sum((row[name] for row in rows), ZERO) for name in (*aging.BUCKETS, "total")}
    return {"date": date, "partners": rows, "totals": totals}


def aged_table(which: str) -> Callable[[dict[str, Any]], ReportTable]:
    def as_table(report: dict[str, Any]) -> ReportTable:
        table = ReportTable(SIDES[which][2], f"Al {report['date']}", (
            Column("RTN"), Column("Socio", weight=4), *(Column(title, "amount") for title in BUCKET_TITLES),
            Column("Total", "amount")), filename=f"antiguedad-{which}-{report['date']}")
        for row in report["partners"]:
            table.add(row["taxId"] or "", row["name"], *(amount(row[name]) for name in (*aging.BUCKETS, "total")))
        table.add("", "Totales", *(amount(report["totals"][name]) for name in (*aging.BUCKETS, "total")), emphasis=True)
        return table
    return as_table
