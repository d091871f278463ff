"""Currency and country are fixed once the company has posted (issue 39, point 3): an admin who
changes the currency (HNL to USD) or the country (HN to SV) after the company has transacted gets
a 409 COMPANY_HAS_POSTINGS naming the field, and the books stay in one currency. Before anything
is posted the change stays allowed, and sending today's value is no change. And an opening
balance (900/901), recorded only with the accounting permission, is cancelled only with it
(issue 39, point 6)."""
from __future__ import annotations

from decimal import Decimal

import pytest

from tests.documents_support import Shop
from tests.support import ORIGIN
from tests.users_support import member

D = Decimal


@pytest.fixture
def shop(api, company_a) -> Shop:
    return Shop(api, company_a, inventory=True)


@pytest.fixture
def admin(api, table, company_a) -> str:
    return member(api, table, company_a, "admin@alpha.hn", "admin")[1]


def change(shop: Shop, cookie: str, body: dict, language: str = "en"):
    company = shop.api.get("/companies", key=shop.key).json
    return shop.api.put(f"/companies/{company['id']}", body, cookie=cookie, origin=ORIGIN,
                        headers={"If-Match": str(company["version"]), "Accept-Language": language})


def company(shop: Shop) -> dict:
    return shop.api.get("/companies", key=shop.key).json


def test_an_admin_cannot_change_the_currency_once_an_invoice_is_posted(shop, admin):
    invoice = shop.document("01", [(shop.service, 1, 100)])
    # 100 + 15 % ISV = 115 owed, in lempiras
    assert (invoice["status"], D(str(invoice["total"]))) == ("confirmed", D("115.00"))
    before = company(shop)
    reply = change(shop, admin, {"currency": "USD"})
    assert (reply.status, reply.json["code"], [d["field"] for d in reply.json["details"]]) == \
           (409, "COMPANY_HAS_POSTINGS", ["currency"]), reply.text
    assert reply.json["message"].startswith("Currency: cannot change once the company has posted")
    # nothing changed: the books stay in lempiras, the receivable 115.00 of them
    assert company(shop) == before and before["currency"] == "HNL"
    assert shop.balance("110201") == D("115.00")
    spanish = change(shop, admin, {"currency": "USD"}, language="es")
    assert (spanish.status, spanish.json["message"]) == (409, "Moneda: no se puede cambiar una vez que la empresa "
                                                              "tiene registros en su contabilidad o movimientos de "
                                                              "inventario"), spanish.text


def test_an_admin_cannot_change_the_country_once_posted_and_both_fields_are_named(shop, admin):
    shop.document("01", [(shop.service, 1, 100)])
    alone = change(shop, admin, {"country": "SV"})
    assert (alone.status, alone.json["code"], [d["field"] for d in alone.json["details"]]) == \
           (409, "COMPANY_HAS_POSTINGS", ["country"]), alone.text
    both = change(shop, admin, {"country": "SV", "currency": "USD", "name": "Alpha El Salvador"})
    assert (both.status, sorted(d["field"] for d in both.json["details"])) == (409, ["country", "currency"])
    # refused whole: not even the name changed
    assert (company(shop)["country"], company(shop)["currency"], company(shop)["name"]) == \
           ("HN", "HNL", "Alpha S. de R.L.")


def test_todays_currency_and_country_sent_again_are_no_change(shop, admin):
    # the console's settings form sends every field, the unchanged currency and country included
    shop.document("01", [(shop.service, 1, 100)])
    reply = change(shop, admin, {"country": "HN", "currency": "HNL", "name": "Alpha Honduras"})
    assert (reply.status, reply.json["name"], reply.json["currency"], reply.json["country"]) == \
           (200, "Alpha Honduras", "HNL", "HN"), reply.text


def test_before_anything_is_posted_the_currency_and_country_change(shop, admin):
    # a draft posts nothing; a partner and a product are no postings either
    shop.document("01", [(shop.service, 1, 100)], status="draft")
    reply = change(shop, admin, {"currency": "USD"})
    assert (reply.status, reply.json["currency"]) == (200, "USD"), reply.text
    back = change(shop, admin, {"currency": "HNL", "country": "SV"})
    assert (back.status, back.json["currency"], back.json["country"]) == (200, "HNL", "SV"), back.text


@pytest.mark.parametrize("posting", ["journal entry", "opening balance", "opening stock", "stock at no cost",
                                     "cancelled debit note"])
def test_every_kind_of_posting_fixes_the_currency(shop, admin, posting):
    if posting == "journal entry":
        shop.books.entry("2026-11-02", ("110101", 50, 0), ("6199", 0, 50))
    elif posting == "opening balance":
        reply = shop.api.post(f"/business-partners/{shop.customer}/opening-balance",
                              {"date": "2026-10-31", "amount": "1500.00"}, key=shop.key)
        assert reply.status == 201, reply.text
    elif posting in ("opening stock", "stock at no cost"):
        # 10 x 12.50 = 125.00 of inventory against opening equity; at no cost the stock moves, no entry posts
        cost = "12.50" if posting == "opening stock" else "0"
        reply = shop.api.post("/inventory/adjustments", {
            "warehouseId": 1, "date": "2026-11-01", "reason": "opening",
            "lines": [{"productId": shop.product, "quantity": 10, "unitCost": cost}]}, key=shop.key)
        assert reply.status == 201, reply.text
        assert shop.stock() == 10
    else:
        # cancelling does not unpost: the note's entry and its reversal both stay in the books
        note = shop.document("07", [(shop.service, 1, 100)], sourceDocumentId=shop.document(
            "01", [(shop.service, 1, 100)])["id"])
        shop.action(note["id"], "cancel", {"reason": "error"})
    reply = change(shop, admin, {"currency": "USD"})
    assert (reply.status, reply.json["code"]) == (409, "COMPANY_HAS_POSTINGS"), reply.text
    assert company(shop)["currency"] == "HNL"


# --- opening balances: cancelled only with the permission that records them --------------------------

def test_a_seller_cannot_cancel_an_opening_balance(api, table, company_a, shop):
    owed = api.post(f"/business-partners/{shop.customer}/opening-balance",
                    {"date": "2026-10-31", "amount": "1500.00"}, key=shop.key).json
    assert owed["type"] == "900"
    _, seller = member(api, table, company_a, "vendedor@alpha.hn", "seller")
    refused = api.post(f"/documents/{owed['id']}/cancel", {"reason": "error"}, cookie=seller, origin=ORIGIN)
    assert (refused.status, refused.json["code"]) == (403, "PERMISSION_DENIED"), refused.text
    # still owed: 1500.00 on the receivable, against the opening equity (its credit balance 1500.00)
    assert shop.get(owed["id"])["status"] == "confirmed"
    assert (shop.balance("110201"), shop.balance("3401")) == (D("1500.00"), D("1500.00"))
    # an accountant, who may record it, may cancel it: 1500 - 1500 = 0 on both
    _, accountant = member(api, table, company_a, "contador@alpha.hn", "accountant")
    done = api.post(f"/documents/{owed['id']}/cancel", {"reason": "error"}, cookie=accountant, origin=ORIGIN)
    assert (done.status, done.json["status"]) == (200, "cancelled"), done.text
    assert (shop.balance("110201"), shop.balance("3401")) == (0, 0)


def test_only_who_may_cancel_an_opening_balance_is_offered_cancel(api, table, company_a, shop):
    """The console's cancel button follows `allowedActions`: a seller's would answer 403."""
    owed = api.post(f"/business-partners/{shop.customer}/opening-balance",
                    {"date": "2026-10-31", "amount": "1500.00"}, key=shop.key).json
    assert "cancel" in owed["allowedActions"]  # recorded by the owner's key, who may cancel it
    _, seller = member(api, table, company_a, "vendedor@alpha.hn", "seller")
    _, accountant = member(api, table, company_a, "contador@alpha.hn", "accountant")
    by_seller = api.get(f"/documents/{owed['id']}", cookie=seller).json
    assert "cancel" not in by_seller["allowedActions"]
    assert "cancel" in api.get(f"/documents/{owed['id']}", cookie=accountant).json["allowedActions"]
    # a seller is still offered cancel on what a seller may cancel: a credit note
    note = shop.document("06", [(shop.service, 1, 20)],
                         sourceDocumentId=shop.document("01", [(shop.service, 1, 100)])["id"])
    assert "cancel" in api.get(f"/documents/{note['id']}", cookie=seller).json["allowedActions"]


def test_a_seller_still_cancels_a_credit_note(api, table, company_a, shop):
    invoice = shop.document("01", [(shop.service, 1, 100)])
    note = shop.document("06", [(shop.service, 1, 20)], sourceDocumentId=invoice["id"])
    _, seller = member(api, table, company_a, "vendedor@alpha.hn", "seller")
    done = api.post(f"/documents/{note['id']}/cancel", {"reason": "error"}, cookie=seller, origin=ORIGIN)
    assert (done.status, done.json["status"]) == (200, "cancelled"), done.text
