"""Exchange rates within bounds (issue 39, point 1): a rate sent with a document, payment or bank
transaction stays within the company's tolerance (default 5 %) of its recorded rate for the date,
unless the sender has the accounting permission (an accountant, an administrator, the owner's API
key); where no rate is recorded only they may send one. Whoever sends it, no conversion carries an
amount past the one money limit, 999,999,999,999.99. Figures worked by hand in the comments."""
from __future__ import annotations

from decimal import Decimal
from typing import Any

import pytest

from tests.documents_support import Shop, dollar_shop
from tests.support import ORIGIN
from tests.users_support import member

D = Decimal
DATE = "2026-11-05"


@pytest.fixture
def shop(api, company_a) -> Shop:
    return dollar_shop(api, company_a)


@pytest.fixture
def seller(api, table, company_a) -> dict[str, Any]:
    return {"cookie": member(api, table, company_a, "vendedor@alpha.example", "seller")[1], "origin": ORIGIN}


@pytest.fixture
def accountant(api, table, company_a) -> dict[str, Any]:
    return {"cookie": member(api, table, company_a, "contadora@alpha.example", "accountant")[1], "origin": ORIGIN}


def record_rate(shop: Shop, date: str, value: str) -> None:
    shop.created("/exchange-rates", {"currency": "USD", "date": date, "rate": value})


def dollar_bank(shop: Shop) -> tuple[int, int]:
    """A USD bank account (ledger 110104) and a payment method into it."""
    account = shop.created("/bank-accounts", {"name": "Cuenta en dólares", "currency": "USD", "openingBalance": 0,
                                              "openingBalanceDate": "2026-11-01",
                                              "chartOfAccountId": shop.books["110104"]})
    method = shop.created("/payments/methods", {"name": "Transferencia USD", "bankAccountId": account["id"]})
    return account["id"], method["id"]


def invoice(shop: Shop, who: dict[str, Any], amount: str, rate: str | None = None, date: str = DATE, **fields: Any):
    """A dollar invoice of one line without tax: its total is `amount`."""
    body = {"type": "01", "businessPartnerId": shop.customer, "date": date, "currency": "USD",
            "lines": [{"description": "Consultoría", "quantity": 1, "unitPrice": amount, "taxRate": 0}],
            **({"exchangeRate": rate} if rate is not None else {}), **fields}
    return shop.api.post("/documents", body, **who)


def pay(shop: Shop, who: dict[str, Any], document_id: int, method: int, amount: str, rate: str | None = None):
    body = {"paymentMethodId": method, "amount": amount, "paymentDate": DATE,
            **({"exchangeRate": rate} if rate is not None else {})}
    return shop.api.post(f"/payments/documents/{document_id}/payments", body, **who)


def deposit(shop: Shop, who: dict[str, Any], account: int, amount: str, rate: str | None = None):
    body = {"type": "deposit", "amount": amount, "transactionDate": DATE, "chartOfAccountId": shop.books["410101"],
            **({"exchangeRate": rate} if rate is not None else {})}
    return shop.api.post(f"/bank-accounts/{account}/transactions", body, **who)


def owner(shop: Shop) -> dict[str, Any]:
    return {"key": shop.key}


def refused(reply, code: str = "EXCHANGE_RATE_OUT_OF_RANGE", field: str = "exchangeRate") -> dict:
    assert (reply.status, reply.json["code"]) == (400, code), reply.text
    assert [detail["field"] for detail in reply.json["details"]] == [field], reply.text
    return reply.json


def test_a_sellers_payment_at_a_rate_of_a_million_is_refused_and_books_nothing(shop, seller):
    """The finding: a USD 100 payment at 1e6 booked a gain of 99,997,500."""
    record_rate(shop, "2026-11-02", "25.00")
    _, method = dollar_bank(shop)
    sale = invoice(shop, seller, "100.00")          # the company's rate: 100 x 25.00 = 2,500.00 receivable
    assert sale.status == 201, sale.text
    assert D(str(sale.json["baseTotal"])) == D("2500.00")
    # 100 x 1,000,000 = 100,000,000.00 into the bank against 2,500.00 off the receivable: the gain
    # of 99,997,500.00 it booked. 1,000,000 is 3,999,900 % away from 25.00 (5 % allows 23.75..26.25)
    answer = refused(pay(shop, seller, sale.json["id"], method, "100.00", "1000000"))
    assert answer["details"][0]["message"] == ("must be between 23.75 and 26.25: within 5 percent of the company's rate "
                                               "25 of USD on 2026-11-05; only a user with the accounting permission "
                                               "may send another")
    # nothing written: still USD 100 pending, 2,500.00 receivable, no gain, nothing in the bank
    assert D(str(shop.get(sale.json["id"])["pending"])) == D("100.00")
    assert (shop.balance("110201"), shop.balance("4202"), shop.balance("110104")) == (D("2500.00"), 0, 0)


def test_the_tolerance_around_the_recorded_rate_binds_a_seller_on_documents_payments_and_deposits(shop, seller):
    record_rate(shop, "2026-11-02", "24.50")
    account, method = dollar_bank(shop)
    # 5 % of 24.50 is 1.225: a seller may send 23.275 .. 25.725, both ends included
    for rate in ("25.73", "23.27", "1000000", "0.000001"):
        refused(invoice(shop, seller, "100.00", rate))
        refused(deposit(shop, seller, account, "10.00", rate))
    assert shop.api.get("/documents?type=01", key=shop.key).json["total"] == 0
    high = invoice(shop, seller, "100.00", "25.72")   # 100 x 25.72 = 2,572.00
    low = invoice(shop, seller, "100.00", "23.28")    # 100 x 23.28 = 2,328.00
    assert (high.status, low.status) == (201, 201), (high.text, low.text)
    assert (D(str(high.json["baseTotal"])), D(str(low.json["baseTotal"]))) == (D("2572.00"), D("2328.00"))
    refused(pay(shop, seller, high.json["id"], method, "40.00", "25.73"))
    paid = pay(shop, seller, high.json["id"], method, "40.00", "25.725")
    # 40 x 25.725 = 1,029.00 into the bank; 40 x 25.72 = 1,028.80 off the receivable: a gain of 0.20
    assert paid.status == 201, paid.text
    assert D(str(paid.json["baseAmount"])) == D("1029.00")
    assert shop.balance("4202") == D("0.20")       # on its own (credit) side
    booked = deposit(shop, seller, account, "10.00", "23.275")   # 10 x 23.275 = 232.75
    assert booked.status == 201, booked.text
    assert shop.entry_lines(booked.json["journalEntryId"]) == {"110104": (D("232.75"), 0), "410101": (0, D("232.75"))}
    # the receivable: 2,572.00 + 2,328.00 - 1,028.80 = 3,871.20
    assert shop.balance("110201") == D("3871.20")


def test_an_accountant_may_send_a_rate_outside_the_tolerance_or_where_none_is_recorded(shop, seller, accountant):
    record_rate(shop, "2026-11-02", "24.50")
    account, method = dollar_bank(shop)
    # 30.00 is 22.4 % above 24.50: the accountant's 100 x 30.00 = 3,000.00
    sale = invoice(shop, accountant, "100.00", "30.00")
    assert sale.status == 201, sale.text
    assert D(str(sale.json["baseTotal"])) == D("3000.00")
    # paid at 20.00: 100 x 20.00 = 2,000.00 into the bank, 3,000.00 off the receivable: a loss of 1,000.00
    paid = pay(shop, accountant, sale.json["id"], method, "100.00", "20.00")
    assert paid.status == 201, paid.text
    assert (shop.balance("6303"), shop.balance("110201")) == (D("1000.00"), 0)
    # before 2 November no rate is recorded: a seller may not send one, the accountant may
    answer = refused(invoice(shop, seller, "100.00", "24.00", date="2026-10-30"))
    assert answer["details"][0]["message"].startswith("no exchange rate of USD is recorded on or before 2026-10-30")
    earlier = invoice(shop, accountant, "100.00", "24.00", date="2026-10-30")
    assert earlier.status == 201 and D(str(earlier.json["baseTotal"])) == D("2400.00"), earlier.text
    # the owner's API key keeps the books too: 10 x 40.00 = 400.00
    assert deposit(shop, owner(shop), account, "10.00", "40.00").status == 201


def test_a_draft_keeps_the_accountants_rate_when_a_seller_edits_it(shop, seller, accountant):
    record_rate(shop, "2026-11-02", "24.50")
    draft = invoice(shop, accountant, "100.00", "30.00", status="draft")
    assert draft.status == 201, draft.text
    path = f"/documents/{draft.json['id']}"
    # the seller changes the notes, and sends the draft's own 30.00 back: not a new rate
    for body in ({"notes": "Entrega en enero"}, {"exchangeRate": "30.00", "notes": "Entrega en febrero"}):
        edited = shop.api.put(path, body, **seller)
        assert edited.status == 200, edited.text
        assert (D(str(edited.json["exchangeRate"])), D(str(edited.json["baseTotal"]))) == (D("30"), D("3000.00"))
    # a different one is the seller's: 31.00 is outside 23.275 .. 25.725
    refused(shop.api.put(path, {"exchangeRate": "31.00"}, **seller))
    # a new date takes the company's rate again: 100 x 24.50 = 2,450.00
    moved = shop.api.put(path, {"date": "2026-11-06"}, **seller)
    assert moved.status == 200 and D(str(moved.json["baseTotal"])) == D("2450.00"), moved.text


def test_the_company_sets_its_tolerance(shop, seller):
    assert D(str(shop.api.get("/companies", key=shop.key).json["exchangeRateTolerancePercent"])) == D("5")
    path = f"/companies/{shop.company.company_id}"
    for wrong in ("100.01", "-1", "1.234"):   # 0 .. 100, with at most 2 decimals
        refused(shop.api.put(path, {"exchangeRateTolerancePercent": wrong}, key=shop.key), "VALIDATION_ERROR",
                "exchangeRateTolerancePercent")
    # a seller does not manage the company
    assert shop.api.put(path, {"exchangeRateTolerancePercent": "50"}, **seller).status == 403
    changed = shop.api.put(path, {"exchangeRateTolerancePercent": "1"}, key=shop.key)
    assert changed.status == 200 and D(str(changed.json["exchangeRateTolerancePercent"])) == D("1"), changed.text
    record_rate(shop, "2026-11-02", "24.50")
    # 1 % of 24.50 is 0.245: 24.255 .. 24.745
    refused(invoice(shop, seller, "100.00", "24.75"))
    refused(invoice(shop, seller, "100.00", "24.25"))
    assert invoice(shop, seller, "100.00", "24.74").status == 201
    # 0 %: the recorded rate alone
    assert shop.api.put(path, {"exchangeRateTolerancePercent": "0"}, key=shop.key).status == 200
    refused(invoice(shop, seller, "100.00", "24.51"))
    assert invoice(shop, seller, "100.00", "24.50").status == 201


def test_a_rate_is_positive_with_at_most_six_decimals_everywhere(shop, seller, accountant):
    record_rate(shop, "2026-11-02", "24.50")
    account, method = dollar_bank(shop)
    sale = invoice(shop, owner(shop), "100.00")
    assert sale.status == 201, sale.text
    for who in (seller, accountant, owner(shop)):
        for wrong in ("24.5000001", "0", "-24.50", "0.0000001"):
            refused(invoice(shop, who, "100.00", wrong), "VALIDATION_ERROR")
            refused(pay(shop, who, sale.json["id"], method, "10.00", wrong), "VALIDATION_ERROR")
            refused(deposit(shop, who, account, "10.00", wrong), "VALIDATION_ERROR")
    for wrong in ("24.5000001", "0", "-24.50"):
        refused(shop.api.post("/exchange-rates", {"currency": "USD", "date": "2026-11-03", "rate": wrong},
                              key=shop.key), "VALIDATION_ERROR", "rate")
    # six decimals are a rate: 24.500001 is within 5 % of 24.50; 100 x 24.500001 = 2,450.0001 -> 2,450.00
    fine = invoice(shop, seller, "100.00", "24.500001")
    assert fine.status == 201 and D(str(fine.json["baseTotal"])) == D("2450.00"), fine.text


def test_no_conversion_passes_the_money_limit_whoever_sends_the_rate(shop, accountant):
    """The finding's 18 digits: USD 999,999,999,999.99 at 1e6 is 999,999,999,999,990,000.00."""
    record_rate(shop, "2026-11-02", "24.50")
    account, method = dollar_bank(shop)
    answer = refused(invoice(shop, accountant, "999999999999.99", "1000000"), "VALIDATION_ERROR")
    assert answer["details"][0]["message"] == ("at this rate the amount in the company's currency "
                                               "(999999999999990000.00) would exceed 999999999999.99")
    # 1,000,000.00 x 1,000,000 = 1,000,000,000,000.00: one cent past the one limit, 999,999,999,999.99
    # (chalicelib/domain/money.py)
    refused(invoice(shop, accountant, "1000000.00", "1000000"), "VALIDATION_ERROR")
    assert shop.api.get("/documents?type=01", key=shop.key).json["total"] == 0
    # 999,999.99 x 1,000,000 = 999,999,990,000.00: within it
    within = invoice(shop, accountant, "999999.99", "1000000")
    assert within.status == 201 and D(str(within.json["baseTotal"])) == D("999999990000.00"), within.text
    # a payment: USD 1,000,000 at 24.50 is 24,500,000.00 on the receivable; paid at 1e6 it would be
    # 1,000,000,000,000.00 in the bank
    sale = invoice(shop, accountant, "1000000.00")
    assert sale.status == 201, sale.text
    refused(pay(shop, accountant, sale.json["id"], method, "1000000.00", "1000000"), "VALIDATION_ERROR")
    assert D(str(shop.get(sale.json["id"])["pending"])) == D("1000000.00")
    # a deposit of USD 1,000,000 at 1e6, likewise; nothing reached the dollar bank's ledger
    refused(deposit(shop, accountant, account, "1000000.00", "1000000"), "VALIDATION_ERROR")
    assert shop.balance("110104") == 0


def test_money_that_converts_to_nothing_is_refused_not_a_500(shop, accountant):
    record_rate(shop, "2026-11-02", "24.50")
    account, _ = dollar_bank(shop)
    # USD 0.01 x 0.05 = 0.0005 -> 0.00 lempiras: the deposit's entry would move nothing (it answered 500)
    answer = refused(deposit(shop, accountant, account, "0.01", "0.05"), "VALIDATION_ERROR")
    assert answer["details"][0]["message"] == "at this rate 0.01 comes to 0.00 in the company's currency"
    # 0.01 x 0.5 = 0.005 -> 0.01 (half up): booked
    booked = deposit(shop, accountant, account, "0.01", "0.5")
    assert booked.status == 201, booked.text
    assert shop.entry_lines(booked.json["journalEntryId"]) == {"110104": (D("0.01"), 0), "410101": (0, D("0.01"))}


def test_the_refusal_speaks_spanish(shop, seller):
    record_rate(shop, "2026-11-02", "24.50")
    reply = shop.api.post("/documents", {
        "type": "01", "businessPartnerId": shop.customer, "date": DATE, "currency": "USD", "exchangeRate": "26",
        "lines": [{"description": "Consultoría", "quantity": 1, "unitPrice": "100.00", "taxRate": 0}]},
        headers={"Accept-Language": "es"}, **seller)
    answer = refused(reply)
    assert answer["details"][0]["message"] == (
        "debe estar entre 23.275 y 25.725: dentro del 5 por ciento del tipo de cambio de la empresa, 24.5, de USD al "
        "2026-11-05; solo un usuario con permiso de contabilidad puede enviar otro")


# issue 39: fixbooks
def test_a_draft_moved_to_another_date_checks_its_rate_again(shop, seller):
    """The reviewer's hole: the draft's own 25.00 sent back with a new date counted as "not sent",
    so the seller booked 150 % off the company's rate for that date."""
    record_rate(shop, "2020-01-01", "10.00")
    record_rate(shop, "2026-11-02", "25.00")
    draft = invoice(shop, seller, "100.00", "25.00", status="draft")
    assert draft.status == 201, draft.text
    path = f"/documents/{draft.json['id']}"
    # at 2020-06-01 the company's rate is 10.00: 5 % gives 9.50 .. 10.50, and 25.00 is outside it
    refused(shop.api.put(path, {"date": "2020-06-01", "exchangeRate": "25.00"}, **seller))
    stored = shop.get(draft.json["id"])
    assert (stored["date"], D(str(stored["baseTotal"]))) == (DATE, D("2500.00"))   # 100 x 25.00, unchanged
    # the same rate at the same date (sent as its own date) is still the draft's own
    kept = shop.api.put(path, {"date": DATE, "exchangeRate": "25.00", "notes": "igual"}, **seller)
    assert kept.status == 200 and D(str(kept.json["baseTotal"])) == D("2500.00"), kept.text


def test_a_draft_moved_to_another_currency_checks_its_rate_again(shop, seller):
    record_rate(shop, "2026-11-02", "25.00")
    draft = invoice(shop, seller, "100.00", currency="HNL", status="draft")
    assert draft.status == 201 and D(str(draft.json["exchangeRate"])) == 1, draft.text
    # the lempira draft's own rate, 1, sent back with USD: the dollar's 25.00 gives 23.75 .. 26.25
    refused(shop.api.put(f"/documents/{draft.json['id']}", {"currency": "USD", "exchangeRate": "1"}, **seller))
    refused(invoice(shop, seller, "100.00", "1"))   # as on a new document
    assert shop.get(draft.json["id"])["currency"] == "HNL"


def test_a_draft_stored_past_the_money_limit_is_not_confirmed(shop, table, seller):
    """A draft saved before base amounts were bounded: USD 999,999.99 at 1,000,001 is
    999,999,990,000.00 + 999,999.99 = 1,000,000,989,999.99 lempiras, past 999,999,999,999.99; its stored
    rate was only recomputed when missing, so it confirmed."""
    from chalicelib.store import keys
    record_rate(shop, "2026-11-02", "25.00")
    draft = invoice(shop, owner(shop), "999999.99", "25.00", status="draft")
    assert draft.status == 201, draft.text
    key = keys.document(shop.company.company_id, draft.json["id"])
    table.client.update_item(TableName=table.name, Key={name: {"S": value} for name, value in key.items()},
                             UpdateExpression="SET exchangeRate = :rate, baseTotal = :base",
                             ExpressionAttributeValues={":rate": {"N": "1000001"},
                                                        ":base": {"N": "1000000989999.99"}})
    refused(shop.api.post(f"/documents/{draft.json['id']}/confirm", {}, **seller), "VALIDATION_ERROR")
    assert shop.get(draft.json["id"])["status"] == "draft"
    assert shop.balance("110201") == 0
