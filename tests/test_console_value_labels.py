"""Issue 38, point 8: every movement type, document type and status the API can answer has its
label in both console languages. A value without one is shown by `humanize` as a made-up English
form of itself ("payment_doc" read "Payment doc" in the Spanish console too)."""
from __future__ import annotations

import importlib
import inspect
import pkgutil
import typing

import pytest
from pydantic import BaseModel

import chalicelib.models
from chalicelib.domain import documents
from chalicelib.models import banking, inventory, payments
from chalicelib.models import documents as document_models
from chalicelib.services.payments import payments as payment_service
from tests.test_console_assets import console_labels


def _literals(annotation: object) -> set[str]:
    if typing.get_origin(annotation) is typing.Literal:
        return {value for value in typing.get_args(annotation) if isinstance(value, str)}
    return set().union(*map(_literals, typing.get_args(annotation)))


def _answered_statuses() -> set[str]:
    """Every status an answer model spells out (a field named `status` or ending in `_status`, as a
    document's `paymentStatus`), and a document's (a plain string there)."""
    found = set(_literals(document_models.DocumentStatus))
    for info in pkgutil.iter_modules(chalicelib.models.__path__):
        module = importlib.import_module(f"chalicelib.models.{info.name}")
        for model in vars(module).values():
            if inspect.isclass(model) and issubclass(model, BaseModel):
                for name, field in model.model_fields.items():
                    if name == "status" or name.endswith("_status"):
                        found |= _literals(field.annotation)
    assert {"unpaid", "partially_paid", "paid", "overdue"} <= found  # the walk sees payment statuses
    return found


def _bank_transaction_types() -> set[str]:
    manual = _literals(banking.ManualTransaction.model_fields["type"].annotation)
    return manual | set(payment_service._REVERSED_TYPE) | set(payment_service._REVERSED_TYPE.values())


VALUES = {
    "doctype": set(documents.KINDS),
    "bank.type": _bank_transaction_types(),
    "stock.kind": _literals(inventory.StockMovement.model_fields["kind"].annotation),
    "doc.kind": _literals(payments.Payment.model_fields["kind"].annotation),
    "status": _answered_statuses(),
}


@pytest.mark.parametrize("language", ["es", "en"])
@pytest.mark.parametrize("prefix", sorted(VALUES))
def test_every_value_the_api_answers_has_a_label(prefix, language):
    labels = console_labels(language)
    assert VALUES[prefix]  # the walk found the values
    assert sorted(value for value in VALUES[prefix] if f"{prefix}.{value}" not in labels) == []


def test_the_english_console_names_no_document_type_in_spanish():
    english = console_labels("en")
    assert {key: text for key, text in english.items() if key.startswith("doctype.")
            and any(word in text for word in ("Factura", "Nota de", "Crédito", "Cotización", "Pedido"))} == {}
