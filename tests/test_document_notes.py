"""A note without the document it corrects (issue 38): the refusal names the types it may correct in
words and codes, wholly in the caller's language (no "of type 01 or 113" inside a Spanish sentence),
and the console's picker offers the same source types the API takes."""
from __future__ import annotations

import re
from pathlib import Path

import pytest

from chalicelib.domain.documents import KINDS
from chalicelib.services.sales_purchases.document_content import SOURCE_REQUIRED
from tests.documents_support import Shop

ROOT = Path(__file__).resolve().parents[1]


@pytest.mark.parametrize(("doc_type", "english", "spanish"), [
    ("06", "required: the sales invoice (01) or reservation invoice (113) this credit note corrects",
     "obligatorio: la factura (01) o factura de reserva (113) que corrige esta nota de crédito"),
    ("07", "required: the sales invoice (01) or reservation invoice (113) this debit note corrects",
     "obligatorio: la factura (01) o factura de reserva (113) que corrige esta nota de débito"),
    ("105", "required: the purchase invoice (103) or import (104) this purchase credit note corrects",
     "obligatorio: la factura de compra (103) o importación (104) que corrige esta nota de crédito de compra"),
])
def test_a_note_without_its_source_is_refused_in_the_callers_language(api, company_a, doc_type, english, spanish):
    shop = Shop(api, company_a)
    partner = shop.supplier if doc_type == "105" else shop.customer
    body = {"type": doc_type, "businessPartnerId": partner,
            "lines": [{"productId": shop.product, "quantity": 1, "unitPrice": 100}]}
    before = api.get("/documents?limit=1", key=shop.key).json["total"]
    for headers, words, label in (({"Accept-Language": "en"}, english, "Document corrected"),
                                  ({"Accept-Language": "es-HN"}, spanish, "Documento que corrige")):
        reply = api.post("/documents", body, key=shop.key, headers=headers)
        assert reply.status == 400 and reply.json["code"] == "VALIDATION_ERROR", reply.text
        # details[].field stays the program's name; the words are for people
        assert reply.json["details"] == [{"field": "sourceDocumentId", "message": words}]
        assert reply.json["message"] == f"{label}: {words}"  # the field named as a person knows it
    assert " or " not in spanish and " of type " not in spanish
    assert api.get("/documents?limit=1", key=shop.key).json["total"] == before  # nothing written


def test_every_note_type_names_each_type_it_corrects():
    notes = {code: kind for code, kind in KINDS.items() if kind.source_required}
    assert set(SOURCE_REQUIRED) == set(notes)
    for code, kind in notes.items():
        assert SOURCE_REQUIRED[code]["field"] == "sourceDocumentId"
        assert re.findall(r"\((\d+)\)", SOURCE_REQUIRED[code]["message"]) == list(kind.sources)


def test_the_consoles_source_picker_offers_the_types_the_api_takes():
    """pages/document-source.js copies which document each note corrects (it offers the picker
    and the invoice page's actions before any call): it must say what domain/documents.py says."""
    text = (ROOT / "chalicelib/console/pages/document-source.js").read_text()
    block = re.search(r"export const CORRECTS = \{(.*?)\};", text, re.DOTALL).group(1)
    console = {code: tuple(re.findall(r'"(\d+)"', sources))
               for code, sources in re.findall(r'"(\d+)": \[([^\]]*)\]', block)}
    assert console == {code: kind.sources for code, kind in KINDS.items() if kind.source_required}
