"""El Salvador's IVA books of a period: one Query of the period's documents (the date index, so a
month reads only that month) and one BatchGet of their partners and of the invoices the period's
notes correct (a note is the taxpayers' when it corrects a crédito fiscal)."""
from __future__ import annotations

from typing import Any, Callable

from chalicelib.countries.sv.domain import iva_books
from chalicelib.domain.report_table import Column, ReportTable, amount
from chalicelib.services.accounting.book_corrections import STATUS_LABELS, period_documents
from chalicelib.store import keys
from chalicelib.store.table import Table

TITLES = {"consumers": "Libro de ventas a consumidor final", "taxpayers": "Libro de ventas a contribuyentes",
          "purchases": "Libro de compras"}


def iva_book(table: Table, company_id: int, which: str, start_date: str, end_date: str) -> dict[str, Any]:
    documents = period_documents(table, company_id, start_date, end_date, country="SV")
    types = iva_books.PURCHASE_TYPES if which == "purchases" else iva_books.SALES_TYPES
    documents = [item for item in documents if item["type"] in types]
    in_period = {item["id"]: item for item in documents}
    wanted_sources = sorted({item["sourceDocumentId"] for item in documents if item.get("sourceDocumentId")
                             and which != "purchases" and item["sourceDocumentId"] not in in_period})
    wanted_partners = sorted({item["businessPartnerId"] for item in documents})
    found = table.batch_get([*(keys.entity(company_id, keys.PARTNER, partner_id) for partner_id in wanted_partners),
                             *(keys.document(company_id, source_id) for source_id in wanted_sources)])
    partners: dict[int, dict[str, Any]] = {}
    sources = dict(in_period)
    for item in found.values():
        (partners if item.get("itemType") == keys.PARTNER else sources)[item["id"]] = item
    report: dict[str, Any] = {"startDate": start_date, "endDate": end_date}
    names: tuple[str, ...]
    if which == "consumers":
        rows = iva_books.consumer_days(item for item in documents if not iva_books.for_taxpayers(item, sources))
        names = iva_books.CONSUMER_AMOUNTS
        # issue 40: returns (the return events among them, shown one by one)
        report["returns"] = iva_books.return_rows(item for item in documents
                                                  if not iva_books.for_taxpayers(item, sources))
    elif which == "taxpayers":
        rows = [iva_books.taxpayer_row(item, partners.get(item["businessPartnerId"]))
                for item in documents if iva_books.for_taxpayers(item, sources)]
        names = iva_books.TAXPAYER_AMOUNTS
    else:
        rows = [iva_books.purchase_row(item, partners.get(item["businessPartnerId"])) for item in documents]
        names = iva_books.PURCHASE_AMOUNTS
    return {**report, "rows": rows, "totals": iva_books.totals(rows, names)}


def iva_book_table(which: str) -> Callable[[dict[str, Any]], ReportTable]:
    title = TITLES[which]
    amounts: tuple[tuple[str, str], ...] = {"consumers": (("Exentas", "exempt"), ("No sujetas", "nonSubject"), ("Gravadas (IVA incluido)", "taxed"),
                             ("Exportaciones", "exports"), ("IVA incluido", "iva"), ("Total", "total")),
               "taxpayers": (("Exentas", "exempt"), ("No sujetas", "nonSubject"), ("Gravadas", "taxed"),
                             ("Débito fiscal", "iva"), ("Total", "total")),
               "purchases": (("Exentas internas", "exemptInternal"), ("Import. exentas", "exemptImports"),
                             ("Gravadas internas", "taxedInternal"), ("Import. gravadas", "taxedImports"),
                             ("Crédito fiscal", "iva"), ("Sujetos excluidos", "excludedSubject"),
                             ("Total", "total"))}[which]
    texts: tuple[tuple[Column, str], ...]
    if which == "consumers":
        texts = ((Column("Fecha", weight=14), "date"), (Column("Del No.", weight=30), "fromNumber"),
                 (Column("Al No.", weight=30), "toNumber"), (Column("Docs.", weight=8), "documents"))
    else:
        texts = ((Column("Fecha", weight=14), "date"), (Column("Tipo", weight=17), "typeName"),
                 (Column("Número", weight=40), "number"), (Column("NRC", weight=12), "partnerNrc"),
                 (Column("Nombre", weight=28), "partnerName"), (Column("Estado", weight=12), "status"))

    def as_table(report: dict[str, Any]) -> ReportTable:
        start, end = report["startDate"], report["endDate"]
        table = ReportTable(title, f"Del {start} al {end}", (*(column for column, _ in texts),
                                                              *(Column(label, "amount") for label, _ in amounts)),
                            filename=f"{title.lower().replace(' ', '-')}-{start}-{end}")
        for row in report["rows"]:
            cells = [STATUS_LABELS.get(row[name], "") if name == "status" else
                     "" if row[name] is None else str(row[name]) for _, name in texts]
            table.add(*cells, *(amount(row[name]) for _, name in amounts))
        table.add(*([""] * (len(texts) - 1)), "Totales", *(amount(report["totals"][name]) for _, name in amounts),
                  emphasis=True)
        return table
    return as_table
