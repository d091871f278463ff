"""`allowedActions`: what a document can do next, answered from the rules its commands check
(domain/document_actions.py); an action left out is refused by its route, one listed is taken."""
from __future__ import annotations

import pytest

from tests.documents_support import Shop


@pytest.fixture
def shop(api, company_a):
    return Shop(api, company_a)


def test_each_state_answers_what_its_commands_take(shop):
    draft = shop.document("01", [(shop.service, 1, 100)], status="draft")
    assert draft["allowedActions"] == ["update", "confirm", "delete", "cancel", "print", "send"]

    invoice = shop.document("01", [(shop.service, 1, 100)])  # 100 + 15 % = 115 owed
    assert invoice["allowedActions"] == ["pay", "print", "send"]
    refused = shop.action(invoice["id"], "cancel", expect=400)  # left out: refused
    assert refused["code"] == "DOCUMENT_NOT_CANCELLABLE"

    note = shop.document("06", [(shop.service, 1, 100)], sourceDocumentId=invoice["id"])
    assert note["allowedActions"] == ["cancel", "print", "send"]  # a credit note is applied, not paid
    cancelled = shop.action(note["id"], "cancel")  # listed: taken
    assert cancelled["status"] == "cancelled" and cancelled["allowedActions"] == ["print", "send"]
    assert shop.get(invoice["id"])["allowedActions"] == ["pay", "print", "send"]

    purchase = shop.document("103", [(shop.product, 2, 50)])
    assert purchase["allowedActions"] == ["unconfirm", "pay", "print", "send"]
    unconfirmed = shop.action(purchase["id"], "unconfirm")
    assert unconfirmed["allowedActions"] == ["update", "confirm", "delete", "cancel", "print", "send"]
