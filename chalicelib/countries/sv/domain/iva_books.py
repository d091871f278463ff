"""El Salvador's IVA books (Código Tributario Art. 141, its Reglamento Arts. 85-86, and the annexes
of the monthly IVA return, F-07), no I/O:

- sales to final consumers (facturas, DTE 01): one row per day with the range of documents issued
  and their totals; taxed sales include their IVA, as a factura's prices do;
- sales to taxpayers: one row per comprobante de crédito fiscal (DTE 03) and per note correcting
  one, taxed sales without IVA and the débito fiscal apart;
- purchases: one row per purchase document, internal and imported (104), exempt and taxed, the
  crédito fiscal, and purchases from excluded subjects (suppliers without an NRC, who charge no
  IVA).

A line's column comes from its `taxTreatment` (exempt, nonSubject, export or taxed). Credit notes
count against the others (negative); a cancelled document keeps its row, marked, with no
amounts, unless it was cancelled in a later month (then it shows as booked, and the reversal
counts against the later month); drafts are not in the books."""
from __future__ import annotations

from decimal import Decimal
from typing import Any, Iterable, Mapping

from chalicelib.countries.sv.domain.dte import CREDITO_FISCAL, DTE_TYPES, FACTURA, TITLES
from chalicelib.countries.sv.domain.dte_formats import RETORNO
from chalicelib.domain import taxes
from chalicelib.domain.accounting import ZERO
from chalicelib.domain.documents import KINDS
from chalicelib.domain.tax_books import PURCHASE_BOOK_TYPES, SALES_BOOK_TYPES, book_sign

SALES_TYPES = SALES_BOOK_TYPES
PURCHASE_TYPES = PURCHASE_BOOK_TYPES
IMPORT = "104"
CONSUMER_AMOUNTS = ("exempt", "nonSubject", "taxed", "exports", "iva", "total")
TAXPAYER_AMOUNTS = ("exempt", "nonSubject", "taxed", "iva", "total")
PURCHASE_AMOUNTS = ("exemptInternal", "exemptImports", "taxedInternal", "taxedImports", "iva", "excludedSubject",
                    "total")


def tipo_of(document: Mapping[str, Any]) -> str | None:
    """The authority's type a sales invoice was issued as (a factura when it carries none)."""
    if document["type"] not in DTE_TYPES:
        return None
    return (document.get("dte") or {}).get("tipoDte") or FACTURA


def for_taxpayers(document: Mapping[str, Any], sources: Mapping[int, Mapping[str, Any]]) -> bool:
    """A crédito fiscal, or a note correcting one; the rest of the sales are consumers'."""
    if document["type"] in DTE_TYPES:
        return tipo_of(document) == CREDITO_FISCAL
    source = sources.get(int(document.get("sourceDocumentId") or 0))
    return source is not None and tipo_of(source) == CREDITO_FISCAL


def _by_treatment(document: Mapping[str, Any]) -> dict[str, Decimal]:
    """A live document's bases by treatment and its tax, signed; a cancelled one's are zero."""
    split = dict.fromkeys((taxes.EXEMPT, taxes.NON_SUBJECT, taxes.EXPORT, taxes.TAXED, "iva"), ZERO)
    if document["status"] == "cancelled":
        return split
    for line in document["lines"]:   # as booked (domain/currency.as_booked): in the company's currency
        treatment = taxes.treatment_of(line)
        split[taxes.EXEMPT if treatment == taxes.EXONERATED else treatment] += Decimal(line["subtotal"])
        split["iva"] += Decimal(line["tax"])
    return {name: book_sign(document) * value for name, value in split.items()}


def _identity(document: Mapping[str, Any], partner: Mapping[str, Any] | None) -> dict[str, Any]:
    dte = document.get("dte") or {}
    return {"documentId": int(document["id"]), "date": document["date"], "type": document["type"],
            # a DTE by the authority's name of its type (a 03 is a "Comprobante de crédito fiscal", not a "Factura")
            "typeName": TITLES.get(str(dte.get("tipoDte"))) or KINDS[document["type"]].name,
            "number": dte.get("numeroControl") or document.get("number"),
            "codigoGeneracion": dte.get("codigoGeneracion"), "businessPartnerId": int(document["businessPartnerId"]),
            "partnerNrc": (partner or {}).get("nrc"), "partnerName": (partner or {}).get("name", ""),
            "status": document["status"]}


def taxpayer_row(document: Mapping[str, Any], partner: Mapping[str, Any] | None) -> dict[str, Any]:
    split = _by_treatment(document)
    amounts = {"exempt": split[taxes.EXEMPT] + split[taxes.EXPORT], "nonSubject": split[taxes.NON_SUBJECT],
               "taxed": split[taxes.TAXED], "iva": split["iva"]}
    amounts["total"] = sum(amounts.values(), ZERO)
    return {**_identity(document, partner), **_clean(amounts)}


def purchase_row(document: Mapping[str, Any], partner: Mapping[str, Any] | None) -> dict[str, Any]:
    """Under the supplier's own number when the document records it."""
    split = _by_treatment(document)
    imported = document["type"] == IMPORT
    amounts = dict.fromkeys(PURCHASE_AMOUNTS, ZERO)
    exempt = split[taxes.EXEMPT] + split[taxes.NON_SUBJECT] + split[taxes.EXPORT]
    if not (partner or {}).get("nrc") and not split["iva"] and not imported:
        amounts["excludedSubject"] = exempt + split[taxes.TAXED]
    else:
        amounts["exemptImports" if imported else "exemptInternal"] = exempt
        amounts["taxedImports" if imported else "taxedInternal"] = split[taxes.TAXED]
        amounts["iva"] = split["iva"]
    amounts["total"] = sum(amounts.values(), ZERO)
    row = _identity(document, partner)
    row["number"] = document.get("supplierDocumentNumber") or row["number"]
    return {**row, "internalNumber": document.get("number"), **_clean(amounts)}


def consumer_days(documents: Iterable[Mapping[str, Any]]) -> list[dict[str, Any]]:
    """One row per day: the lowest and highest control number of the day's facturas, how many,
    and the day's totals (taxed sales with their IVA; a note correcting a factura counts in the
    totals only). 01 and 113 share one control-number sequence, so the range covers both."""
    days: dict[str, dict[str, Any]] = {}
    for document in documents:
        day = days.setdefault(document["date"], {"date": document["date"], "fromNumber": None, "toNumber": None,
                                                  "documents": 0, **dict.fromkeys(CONSUMER_AMOUNTS, ZERO)})
        number = (document.get("dte") or {}).get("numeroControl") or document.get("number")
        if document["type"] in DTE_TYPES and number:
            day["fromNumber"] = min(day["fromNumber"] or number, number)
            day["toNumber"] = max(day["toNumber"] or number, number)
            day["documents"] += 1
        split = _by_treatment(document)
        day["exempt"] += split[taxes.EXEMPT]
        day["nonSubject"] += split[taxes.NON_SUBJECT]
        day["exports"] += split[taxes.EXPORT]
        day["taxed"] += split[taxes.TAXED] + split["iva"]
        day["iva"] += split["iva"]
    for day in days.values():
        day["total"] = day["exempt"] + day["nonSubject"] + day["exports"] + day["taxed"]
        day.update(_clean({name: day[name] for name in CONSUMER_AMOUNTS}))
    return [days[date] for date in sorted(days)]


# issue 40: returns
RETURN_AMOUNTS = ("taxedBase", "iva", "exempt", "nonSubject", "exports", "total")


def return_rows(documents: Iterable[Mapping[str, Any]]) -> list[dict[str, Any]]:
    """One row per return event (DTE 18) of the period, against the consumers' sales it reduces
    (its amounts are in the days' totals already, negative like any credit note's): the event and
    the DTE it returns by their generation codes, the taxed base without its IVA and the IVA."""
    rows = []
    for document in documents:
        dte = document.get("dte") or {}
        if dte.get("tipoDte") != RETORNO:
            continue
        split = _by_treatment(document)
        amounts = {"taxedBase": split[taxes.TAXED], "iva": split["iva"], "exempt": split[taxes.EXEMPT],
                   "nonSubject": split[taxes.NON_SUBJECT], "exports": split[taxes.EXPORT]}
        amounts["total"] = sum(amounts.values(), ZERO)
        rows.append({"documentId": int(document["id"]), "date": document["date"],
                     "codigoGeneracion": dte.get("codigoGeneracion"),
                     "returnedCodigoGeneracion": ((dte.get("related") or [{}])[0]).get("codigoGeneracion"),
                     "status": document["status"], "dteStatus": dte.get("status"), **_clean(amounts)})
    return sorted(rows, key=lambda row: (row["date"], row["documentId"]))


def totals(rows: Iterable[Mapping[str, Any]], names: tuple[str, ...]) -> dict[str, Decimal]:
    rows = list(rows)
    return {name: sum((row[name] for row in rows), ZERO) for name in names}


def _clean(amounts: Mapping[str, Decimal]) -> dict[str, Decimal]:
    return {name: value or ZERO for name, value in amounts.items()}  # no -0.00
