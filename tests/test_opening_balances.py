"""Opening balances per partner: what customers owed and suppliers were owed when the books
started here, as open items payments settle, against the opening balance equity account; in
aging, statements and the credit summary. Figures worked by hand in the comments."""
from __future__ import annotations

from decimal import Decimal

import pytest

from tests.documents_support import Shop
from tests.support import ORIGIN
from tests.users_support import member

D = Decimal


@pytest.fixture
def shop(api, company_a) -> Shop:
    return Shop(api, company_a, inventory=True)   # with the opening balance equity account 3401


def opening(shop: Shop, partner_id: int, expect: int = 201, **body):
    reply = shop.api.post(f"/business-partners/{partner_id}/opening-balance", body, key=shop.key)
    assert reply.status == expect, reply.text
    return reply.json


def pay(shop: Shop, document_id: int, method_id: int, amount: str, date: str) -> dict:
    reply = shop.api.post(f"/payments/documents/{document_id}/payments",
                          {"paymentMethodId": method_id, "amount": amount, "paymentDate": date}, key=shop.key)
    assert reply.status == 201, reply.text
    return reply.json


def test_a_customers_opening_balance_is_an_open_item_payments_settle(shop):
    cash = shop.created("/payments/methods", {"name": "Efectivo"})
    owed = opening(shop, shop.customer, date="2026-10-31", amount="1500.00", dueDate="2026-10-15",
                   reference="FAC-0991")
    assert (owed["type"], owed["status"], D(str(owed["total"])), D(str(owed["pending"])), owed["dueDate"]) == \
           ("900", "confirmed", D("1500.00"), D("1500.00"), "2026-10-15")
    # receivable 1500 against the opening equity, no revenue, no tax
    assert shop.entry_lines(owed["journalEntryId"]) == {"110201": (D("1500.00"), 0), "3401": (0, D("1500.00"))}
    assert D(str(shop.partner(shop.customer)["receivableBalance"])) == D("1500.00")

    # aged at 2026-11-30: due 2026-10-15, 46 days past due -> 31 to 60
    aged = shop.api.get("/reports/aged-receivables?date=2026-11-30", key=shop.key).json
    row = next(r for r in aged["partners"] if r["businessPartnerId"] == shop.customer)
    assert (D(str(row["days31To60"])), D(str(row["total"])), row["documents"][0]["daysOverdue"]) == \
           (D("1500.00"), D("1500.00"), 46)
    summary = shop.api.get(f"/credits/client/{shop.customer}/summary", key=shop.key).json
    assert (D(str(summary["pendingBalance"])), summary["pendingDocumentCount"], summary["oldestDueDate"]) == \
           (D("1500.00"), 1, "2026-10-15"), summary

    # paid 600 then 900: 1500 - 600 - 900 = 0
    pay(shop, owed["id"], cash["id"], "600.00", "2026-11-03")
    assert D(str(shop.get(owed["id"])["pending"])) == D("900.00")
    pay(shop, owed["id"], cash["id"], "900.00", "2026-11-10")
    assert D(str(shop.partner(shop.customer)["receivableBalance"])) == 0 == shop.balance("110201")
    # cash 1500 in; the equity (credit balance) keeps what the company brought in
    assert (shop.balance("110101"), shop.balance("3401")) == (D("1500.00"), D("1500.00"))
    statement = shop.api.get(f"/credits/client/{shop.customer}/statement?startDate=2026-10-01&endDate=2026-11-30",
                             key=shop.key).json
    assert (D(str(statement["totalCharges"])), D(str(statement["totalCredits"])),
            D(str(statement["closingBalance"]))) == (D("1500.00"), D("1500.00"), 0)
    assert statement["movements"][0]["description"].startswith("Saldo inicial de cliente")


def test_a_suppliers_opening_balance_and_a_partner_that_is_both(shop):
    transfer = shop.created("/payments/methods", {"name": "Efectivo"})
    owes = opening(shop, shop.supplier, date="2026-10-31", amount="800.00")
    # payable 800 against the opening equity (equity debited: what the company owed lowers it)
    assert shop.entry_lines(owes["journalEntryId"]) == {"3401": (D("800.00"), 0), "210101": (0, D("800.00"))}
    assert (owes["type"], owes["dueDate"]) == ("901", "2026-10-31")
    pay(shop, owes["id"], transfer["id"], "300.00", "2026-11-02")
    # 800 - 300 = 500 still owed
    assert D(str(shop.partner(shop.supplier)["payableBalance"])) == D("500.00") == shop.balance("210101")
    aged = shop.api.get("/reports/aged-payables?date=2026-11-30", key=shop.key).json
    assert D(str(aged["totals"]["total"])) == D("500.00")

    both = shop.created("/business-partners", {"name": "Ferretería Mixta", "type": "both"})["id"]
    assert opening(shop, both, 400, date="2026-10-31", amount="10.00")["details"][0]["field"] == "side"
    assert opening(shop, shop.customer, 400, date="2026-10-31", amount="10.00",
                   side="payable")["details"][0]["field"] == "side"
    assert opening(shop, both, date="2026-10-31", amount="10.00", side="payable")["type"] == "901"


def test_bad_opening_balances_change_nothing(api, table, shop, company_a):
    books = shop.api.get("/journal-entries/trial-balance?date=2099-12-31", key=shop.key).json
    for body, field in (({"date": "2026-10-31", "amount": "0"}, "amount"),
                        ({"date": "2026-10-31", "amount": "-5"}, "amount"),
                        ({"amount": "5"}, "date"),
                        ({"date": "2026-10-31", "amount": "5", "dueDate": "2026-10-01x"}, "dueDate"),
                        ({"date": "2026-10-31", "amount": "5.001"}, "amount")):
        reply = opening(shop, shop.customer, 400, **body)
        assert reply["code"] == "VALIDATION_ERROR" and field in [d["field"] for d in reply["details"]], reply
    assert opening(shop, 999, 404, date="2026-10-31", amount="5")["code"] == "NOT_FOUND"
    # a seller may not put money into the company's equity
    _, seller = member(api, table, company_a, "vendedor@alpha.example", "seller")
    refused = api.post(f"/business-partners/{shop.customer}/opening-balance", {"date": "2026-10-31", "amount": "5"},
                       cookie=seller, origin=ORIGIN)
    assert refused.status == 403, refused.text
    assert shop.api.get("/journal-entries/trial-balance?date=2099-12-31", key=shop.key).json == books
    assert D(str(shop.partner(shop.customer)["receivableBalance"])) == 0
    # not a type POST /documents takes
    reply = api.post("/documents", {"type": "900", "businessPartnerId": shop.customer, "date": "2026-10-31",
                                    "lines": [{"description": "x", "quantity": 1, "unitPrice": 5}]}, key=shop.key)
    assert reply.status == 400 and reply.json["details"][0]["field"] == "type", reply.text


def test_an_opening_balance_entered_by_mistake_is_cancelled_while_unpaid(shop):
    cash = shop.created("/payments/methods", {"name": "Efectivo"})
    owed = opening(shop, shop.customer, date="2026-10-31", amount="250.00")
    paid = pay(shop, owed["id"], cash["id"], "50.00", "2026-11-02")
    assert shop.action(owed["id"], "cancel", expect=400)["code"] == "DOCUMENT_HAS_PAYMENTS"
    shop.api.post(f"/payments/documents/{owed['id']}/payments/{paid['id']}/cancel", {"reason": "error"}, key=shop.key)
    cancelled = shop.action(owed["id"], "cancel", {"date": "2026-11-05"})
    assert cancelled["status"] == "cancelled"
    assert D(str(shop.partner(shop.customer)["receivableBalance"])) == 0
    assert (shop.balance("110201"), shop.balance("3401"), shop.balance("110101")) == (0, 0, 0)


def test_opening_balances_are_listed_by_their_type(api, shop):
    opening(shop, shop.customer, date="2026-10-31", amount="100.00")
    opening(shop, shop.supplier, date="2026-10-31", amount="40.00")
    for doc_type, partner in (("900", shop.customer), ("901", shop.supplier)):
        listed = api.get(f"/documents?type={doc_type}", key=shop.key).json
        assert (listed["total"], [d["businessPartnerId"] for d in listed["documents"]]) == (1, [partner])


def test_the_list_filter_knows_every_document_type():
    from typing import get_args

    from chalicelib.domain.documents import KINDS
    from chalicelib.models.documents import ListedDocumentType
    listed, _names = get_args(ListedDocumentType)  # the Literal, then its names for generated clients
    assert sorted(get_args(listed)) == sorted(KINDS)
