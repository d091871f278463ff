"""Issue 38, point 8: what the service stores for a person to read later (entries' descriptions,
a bank transaction's reference) is written in the books' language: Spanish, for a Honduran and a
Salvadoran company alike (no company has a language setting: docs/decisions.md)."""
from __future__ import annotations

import pytest

from tests.documents_support import Shop
from tests.support import Books
from tests.test_payments import bank_account, pay


@pytest.fixture
def shop(api, company_a) -> Shop:
    return Shop(api, company_a)


def test_a_reversed_entry_is_described_in_spanish(api, company_a):
    books = Books(api, company_a, full=False)
    original = books.entry("2026-11-05", ("110101", 100, 0), ("410101", 0, 100), description="Venta de contado")
    reversal = api.post(f"/journal-entries/{original['id']}/reverse", {"date": "2026-11-20"},
                        key=company_a.api_key).json
    assert reversal["description"] == f"Reversión de la partida {original['id']}: Venta de contado"
    bare = books.entry("2026-11-06", ("110101", 5, 0), ("410101", 0, 5))
    reversed_bare = api.post(f"/journal-entries/{bare['id']}/reverse", {}, key=company_a.api_key).json
    assert reversed_bare["description"] == f"Reversión de la partida {bare['id']}"


def test_a_refused_transfer_is_reversed_in_spanish(shop):
    account = bank_account(shop)
    transfer = shop.created("/payments/methods", {"name": "Transferencia", "bankAccountId": account["id"],
                                                  "requiresConfirmation": True})
    purchase = shop.document("103", [(shop.service, 2, 100)])
    payment = pay(shop, purchase["id"], paymentMethodId=transfer["id"], amount=230)
    cancelled = shop.api.post(f"/payments/documents/{purchase['id']}/payments/{payment['id']}/cancel",
                              {"reason": "transferencia rechazada"}, key=shop.key).json
    transactions = shop.api.get(f"/bank-accounts/{account['id']}/transactions", key=shop.key).json["transactions"]
    reversed_tx = next(t for t in transactions if t["id"] == cancelled["reversalBankTransactionId"])
    assert reversed_tx["reference"] == "Reversión: transferencia rechazada"
    entry = shop.api.get(f"/journal-entries/{cancelled['reversalEntryId']}", key=shop.key).json
    paid_entry = shop.api.get(f"/journal-entries/{payment['journalEntryId']}", key=shop.key).json
    assert entry["description"] == f"Reversión de la partida {paid_entry['id']}: {paid_entry['description']}"
    assert paid_entry["description"].startswith("Pago ")
