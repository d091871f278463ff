"""The Honduran sales and purchase books of a period: one Query of the period's documents (the
date index, so a month reads only that month) and one BatchGet of their partners."""
from __future__ import annotations

from datetime import date, timedelta
from typing import Any, Callable

from chalicelib.countries.hn.domain import isv_books
from chalicelib.domain import accounting, tax_books
from chalicelib.domain.accounting import ZERO
from chalicelib.domain.report_table import Column, ReportTable, amount
from chalicelib.services.accounting.book_corrections import STATUS_LABELS, period_documents
from chalicelib.store import keys
from chalicelib.store.table import Table

COUNTRY = "HN"
BOOKS = {"sales": ("Libro de ventas", tax_books.SALES_BOOK_TYPES),
         "purchases": ("Libro de compras", tax_books.PURCHASE_BOOK_TYPES)}


def isv_book(table: Table, company_id: int, which: str, start_date: str, end_date: str) -> dict[str, Any]:
    _, types = BOOKS[which]
    documents = [item for item in period_documents(table, company_id, start_date, end_date, COUNTRY)
                 if item["type"] in types]
    partners = {item["id"]: item for item in table.batch_get(
        keys.entity(company_id, keys.PARTNER, partner_id)
        for partner_id in sorted({item["businessPartnerId"] for item in documents})).values()}
    rows = [isv_books.book_row(item, partners.get(item["businessPartnerId"])) for item in documents]
    return {"startDate": start_date, "endDate": end_date, "rows": rows, "totals": isv_books.book_totals(rows)}


REGISTER_LABELS = {"purchaseOrderNumber": "OCE", "registryNumber": "Registro", "sagNumber": "SAG"}


def registers(row: dict[str, Any]) -> str:
    """An exonerated sale's registers in one cell beside its exonerated amount (a landscape page
    has no room for three more columns): "OCE 123; Registro 456"."""
    return "; ".join(f"{label} {row[name]}" for name, label in REGISTER_LABELS.items() if row.get(name))


def isv_book_table(title: str) -> Callable[[dict[str, Any]], ReportTable]:
    def as_table(report: dict[str, Any]) -> ReportTable:
        start, end = report["startDate"], report["endDate"]
        table = ReportTable(title, f"Del {start} al {end}", (
            Column("Fecha", weight=14), Column("Tipo", weight=15), Column("Número", weight=27), Column("CAI", weight=25),
            Column("RTN", weight=19), Column("Nombre", weight=22), Column("Estado", weight=15), Column("Exento", "amount"),
            Column("Exonerado", "amount"), Column("Exoneración (OCE / registro / SAG)", weight=22),
            Column("Gravado 15%", "amount"), Column("Gravado 18%", "amount"), Column("ISV 15%", "amount"),
            Column("ISV 18%", "amount"), Column("Total", "amount")),
            filename=f"{title.lower().replace(' ', '-')}-{start}-{end}")
        for row in report["rows"]:
            figures = [amount(row[name]) for name in isv_books.AMOUNTS]
            table.add(row["date"], row["typeName"], row["number"] or "", row["cai"] or "", row["partnerTaxId"] or "",
                      row["partnerName"], STATUS_LABELS.get(row["status"], ""), *figures[:2], registers(row),
                      *figures[2:])
        totals = [amount(report["totals"][name]) for name in isv_books.AMOUNTS]
        table.add("", "", "", "", "", "Totales", "", *totals[:2], "", *totals[2:], emphasis=True)
        return table
    return as_table


def isv_summary(table: Table, company_id: int, month: str) -> dict[str, Any]:
    """What a month's ISV return needs: the sales and purchase books' totals, output and input tax,
    the credit brought forward, the ISV withheld from us and by us, and the tax payable or the
    credit carried forward.

    The credit brought forward is read from the books: the ISV accounts (the `tax_purchases` and
    `tax_sales` rules) at the end of the previous month, input less output when positive; a tax
    settlement (POST /tax-settlements) that pays or offsets the ISV moves them, so it is what remains
    after the last settlement. ISV withholdings are the month's withholding certificates (05) for ISV: those our
    customers gave us (`sales`) pay part of the tax due, what they exceed it by stays a claim
    (`withholdingsUnapplied`, on the withholding account); those we gave suppliers (`purchases`)
    are owed to the authority on their own."""
    from chalicelib.services.accounting import account_determination, reports

    first = f"{month}-01"
    last = (date.fromisoformat(first) + timedelta(days=32)).replace(day=1) - timedelta(days=1)
    documents = period_documents(table, company_id, first, last.isoformat(), COUNTRY)  # both books from one read
    sales, purchases = (isv_books.book_totals(isv_books.book_row(item, None) for item in documents
                                              if item["type"] in BOOKS[which][1]) for which in ("sales", "purchases"))
    received, made = (isv_books.withheld(documents, "isv", side) for side in ("sales", "purchases"))
    before = accounting.previous_day(first)
    credit_side = reports.balance_at(table, company_id, int(account_determination.resolve(table, company_id, "tax_purchases", None)
                                                           ["chartOfAccountId"]), before)
    debt_side = reports.balance_at(table, company_id, int(account_determination.resolve(table, company_id, "tax_sales", None)
                                                         ["chartOfAccountId"]), before)
    brought = max(credit_side - debt_side, ZERO)
    output, input_tax = sales["isv15"] + sales["isv18"], purchases["isv15"] + purchases["isv18"]
    net = output - input_tax - brought
    due = max(net, ZERO)
    return {"month": month, "sales": sales, "purchases": purchases, "outputTax": output, "inputTax": input_tax,
            "creditBroughtForward": brought, "withholdingsReceived": received,
            "taxPayable": max(due - received, ZERO), "withholdingsUnapplied": max(received - due, ZERO),
            "creditCarriedForward": max(-net, ZERO), "withholdingsMade": made}


def isv_summary_table(report: dict[str, Any]) -> ReportTable:
    table = ReportTable("Resumen de ISV", f"Mes {report['month']}", (Column("Concepto", weight=4),
                                                                     Column("Ventas", "amount"),
                                                                     Column("Compras", "amount")),
                        filename=f"resumen-isv-{report['month']}")
    for label, name in (("Exento", "exempt"), ("Exonerado", "exonerated"), ("Gravado 15%", "taxed15"),
                        ("Gravado 18%", "taxed18"), ("ISV 15%", "isv15"), ("ISV 18%", "isv18"), ("Total", "total")):
        table.add(label, amount(report["sales"][name]), amount(report["purchases"][name]))
    for label, name in (("Débito fiscal (ISV de ventas)", "outputTax"), ("Crédito fiscal (ISV de compras)", "inputTax"),
                        ("Crédito del mes anterior", "creditBroughtForward"),
                        ("Retenciones de ISV que nos efectuaron", "withholdingsReceived"),
                        ("ISV a pagar", "taxPayable"), ("Retenciones no aplicadas", "withholdingsUnapplied"),
                        ("Crédito para el mes siguiente", "creditCarriedForward"),
                        ("Retenciones de ISV efectuadas (a enterar)", "withholdingsMade")):
        table.add(label, amount(report[name]), None, emphasis=name in ("taxPayable", "creditCarriedForward"))
    return table
