"""Issue 38, point 8: no raw field names in messages to people. A refusal's message names its field
as a person knows it, in the caller's language ("Identificación tributaria (RTN, NIT…): debe ser…");
`details[].field` keeps the API's name for programs and `details[].message` the problem. The labels
are one catalogue (chalicelib/messages/field_labels.py, FIELD_LABELS of en.py and es.py), applied where the answer is
written for the caller."""
from __future__ import annotations

import re

from chalicelib.errors import ValidationFailed
from chalicelib.messages import en, es, field_label
from chalicelib.messages.phrases import Phrase
from tests.error_codes import named_fields

SPANISH = {"Accept-Language": "es"}


def _unlabelled(template: str, labels: dict[str, str]) -> set[str]:
    """What of a field path the catalogue cannot name: a list item's "<list>[]", or its last name
    (or a longer dotted end of the path); a part filled in at run time, `{}`, is named where it is
    filled in."""
    segments = re.findall(r"([^.\[\]]+)((?:\[\{\}\])*)", template)
    missing = {f"{name}[]" for name, indices in segments if indices and name != "{}"} - set(labels)
    last, indices = segments[-1]
    names = [name for name, _indices in segments]
    ends = {".".join(names[start:]) for start in range(len(names))}
    if not indices and last != "{}" and not ends & set(labels):
        missing.add(last)
    return missing


def test_every_field_the_source_and_the_models_name_has_a_label_in_both_languages():
    fields = named_fields()
    assert {"taxId", "startDate", "lines[{}].quantity", "clearedTransactionIds[{}]", "sourceDocumentId",
            "dte.receptor.numDocumento"} <= fields
    missing = {lang: sorted({key for field in fields for key in _unlabelled(field, labels)})
               for lang, labels in (("en", en.FIELD_LABELS), ("es", es.FIELD_LABELS))}
    assert missing == {"en": [], "es": []}
    assert set(en.FIELD_LABELS) == set(es.FIELD_LABELS)


def test_no_label_is_a_program_name():
    camel_or_snake = re.compile(r"\b[a-z]+_[a-z_]+\b|\b[a-z]+[A-Z][A-Za-z0-9]*\b")
    found = {key: label for labels in (en.FIELD_LABELS, es.FIELD_LABELS) for key, label in labels.items()
             if camel_or_snake.search(label)}
    assert found == {}


def test_a_nested_path_is_its_last_name_with_the_item_in_words():
    assert field_label("es", "lines[0].quantity") == "Línea 1, cantidad"
    assert field_label("en", "lines[0].quantity") == "Line 1, quantity"
    assert field_label("es", "clearedTransactionIds[2]") == "Movimiento conciliado 3"  # counted from 1
    assert field_label("es", "x.direccion.departamento") == "Departamento"
    assert field_label("es", "dteIssuer.nrc") == "NRC del emisor del DTE"  # a whole path of its own
    assert field_label("en", "lines[1].taxId") == "Line 2, tax id (RTN, NIT…)"
    assert field_label("es", "lines[1].nrc") == "Línea 2, NRC"  # an acronym keeps its capitals
    assert field_label("es", "dte.receptor.numDocumento") == "NIT o DUI del receptor"  # the longest end known
    assert field_label("es", "unknownField") == "unknownField"  # as it came, never dropped


def test_for_field_names_the_field_as_a_person_knows_it_in_both_languages():
    refusal = ValidationFailed.for_field("taxId", "already used by another business partner")
    assert refusal.body("en") == {"code": "VALIDATION_ERROR", "message": "Tax id (RTN, NIT…): already used by another "
                                  "business partner",
                                  "details": [{"field": "taxId", "message": "already used by another business partner"}]}
    assert refusal.body("es") == {"code": "VALIDATION_ERROR",
                                  "message": "Identificación tributaria (RTN, NIT…): ya lo usa otro cliente o proveedor",
                                  "details": [{"field": "taxId", "message": "ya lo usa otro cliente o proveedor"}]}


def test_a_model_refusal_names_the_line_and_the_field(api, company_a):
    """pydantic's `lines.0.quantity` arrives as details[].field `lines[0].quantity`; the message reads
    the line's number and the field's name."""
    body = {"type": "01", "businessPartnerId": 1, "date": "2026-11-05",
            "lines": [{"productId": 1, "quantity": "-1", "unitPrice": "10.00"}]}
    english = api.post("/documents", body, key=company_a.api_key).json
    spanish = api.post("/documents", body, key=company_a.api_key, headers=SPANISH).json
    assert english["details"][0]["field"] == spanish["details"][0]["field"] == "lines[0].quantity"
    assert english["message"] == f"Line 1, quantity: {english['details'][0]['message']}"
    assert spanish["message"] == f"Línea 1, cantidad: {spanish['details'][0]['message']}"
    assert "lines[0]" not in english["message"] + spanish["message"]


def test_a_refusal_ending_with_its_detail_names_the_field_there():
    """The tax authority's format quoting its first problem: the quote names the field in words."""
    problem = {"field": "documento", "message": "is required"}
    refusal = ValidationFailed(Phrase("The tax authority's format refuses this invalidation: {}: {}", "documento",
                                      "is required"), details=[problem])  # a message by its id (issue 45)
    assert refusal.body("en")["message"] == "The tax authority's format refuses this invalidation: Document: is required"
    assert refusal.body("en")["details"] == [problem]
    spanish = refusal.body("es")
    assert spanish["message"].endswith(": Documento: " + spanish["details"][0]["message"])
    assert spanish["details"][0]["field"] == "documento"
