"""How a record that points at a document (a bank transaction, a gateway's notification, a
scheduled invoice's last run) names it for a person: the document's fiscal number and, where its
country's authority numbers it too (El Salvador's DTE), that number. They are copied beside the id
when the link is written, so a page of such records reads no document; records written before
they carried them are completed at read time from one BatchGetItem for the page (no migration)."""
from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from chalicelib import countries
from chalicelib.store import keys
from chalicelib.store.table import Table


def names(document: Mapping[str, Any], prefix: str = "document") -> dict[str, Any]:
    """`<prefix>Number` and `<prefix>NumeroControl` (None where the country has none, or the
    document no number yet)."""
    issuer = countries.pack_of_document(document, None)
    return {f"{prefix}Number": document.get("number") or None,
            f"{prefix}NumeroControl": issuer.hooks.printed_number(document)}


def known_as(document: Mapping[str, Any]) -> str:
    """How a person knows a document, in the books and on a statement: by its authority's number where
    its country's authority numbers it (El Salvador's número de control: the EEE-PPP-TT-N number is the
    service's own, printed nowhere), else by its fiscal number, else (a draft) by its id."""
    return names(document)["documentNumeroControl"] or str(document.get("number") or document["id"])


def completed(table: Table, company_id: int, items: Iterable[dict[str, Any]], id_field: str = "documentId",
              prefix: str = "document") -> list[dict[str, Any]]:
    """`items` with their documents' names: those stored with the link are kept; the rest (written
    before the link carried them) are read in one BatchGetItem. A document since deleted names
    nothing (its id stays)."""
    items = list(items)
    missing = sorted({int(item[id_field]) for item in items
                      if item.get(id_field) is not None and f"{prefix}Number" not in item})
    if not missing:
        return items
    found = {int(document["id"]): document
             for document in table.batch_get([keys.document(company_id, each) for each in missing]).values()}
    return [item if item.get(id_field) is None or f"{prefix}Number" in item
            else {**item, **names(found.get(int(item[id_field]), {}), prefix)} for item in items]
