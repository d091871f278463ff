"""A revaluation undone (issue 44, fix-reval2): a payment registered after a month end's
revaluation but dated on or before it leaves the revaluation stale; POST /revaluations/{id}/void
reverses its entries and its partners' ledger movements on their own days, frees the date, and a
new revaluation of it puts the month end right. Every figure worked by hand in the comments."""
from __future__ import annotations

from decimal import Decimal

import pytest

from tests.documents_support import Shop
from tests.test_journal import period
from tests.test_revaluation import (
    CHUNK_GAINS,
    FIRST,
    MONTH_END,
    assert_balanced,
    assert_books_whole,
    balance_on,
    dollar_invoice,
    entry_totals,
    forty_customers,
    revaluation_shop,
    revalue,
    statement_closing,
)

D = Decimal


@pytest.fixture
def shop(api, company_a, monkeypatch) -> Shop:
    return revaluation_shop(api, company_a, monkeypatch)


def void(shop: Shop, revaluation_id: int, expect: int = 200, **headers):
    reply = shop.api.post(f"/revaluations/{revaluation_id}/void", {}, key=shop.key, headers=headers or None)
    assert reply.status == expect, reply.text
    return reply.json


def read(shop: Shop, revaluation_id: int) -> dict:
    reply = shop.api.get(f"/revaluations/{revaluation_id}", key=shop.key)
    assert reply.status == 200, reply.text
    return reply.json


def aged_receivables(shop: Shop, date: str) -> list[dict]:
    return shop.api.get(f"/reports/aged-receivables?date={date}", key=shop.key).json["partners"]


def pay_in_full_on_the_month_end(shop: Shop, invoice: dict) -> dict:
    account = shop.created("/bank-accounts", {"name": "Cuenta en dólares", "currency": "USD", "openingBalance": 0,
                                              "openingBalanceDate": "2026-11-01",
                                              "chartOfAccountId": shop.books["110104"]})
    method = shop.created("/payments/methods", {"name": "Transferencia USD", "bankAccountId": account["id"]})
    reply = shop.api.post(f"/payments/documents/{invoice['id']}/payments",
                          {"paymentMethodId": method["id"], "amount": "1000.00", "paymentDate": MONTH_END},
                          key=shop.key)
    assert reply.status == 201, reply.text
    return reply.json


def test_a_stale_revaluation_voided_and_revalued_puts_the_month_end_right(shop):
    invoice = dollar_invoice(shop)                       # USD 1,000.00 at 24.50 = 24,500.00
    done = revalue(shop)                                 # 1,000 x 24.80 = 24,800.00: +300.00
    assert read(shop, done["id"])["stale"] is False
    paid = pay_in_full_on_the_month_end(shop, invoice)
    # 1,000.00 x 24.80 = 24,800.00 in; 24,500.00 off the receivable; realised 300.00
    assert shop.entry_lines(paid["journalEntryId"]) == {
        "110104": (D("24800.00"), 0), "110201": (0, D("24500.00")), "4202": (0, D("300.00"))}
    # stale: 24,500 + 300 (revaluation) - 24,500 (payment) = 300.00 left on a paid invoice, and
    # November's gain 300 unrealised + 300 realised = 600.00 for a dollar that rose 0.30 once
    assert read(shop, done["id"])["stale"] is True
    assert balance_on(shop, "110201", MONTH_END) == D("300.00")
    assert balance_on(shop, "4205", MONTH_END) + balance_on(shop, "4202", MONTH_END) == D("600.00")
    row, = aged_receivables(shop, MONTH_END)
    assert (D(str(row["total"])), D(str(row["documents"][0]["foreignPending"]))) == (D("300.00"), 0)

    voided = void(shop, done["id"])
    assert (voided["id"], voided["status"], voided["stale"]) == (done["id"], "voided", None)
    assert voided["voidedAt"] and len(voided["voidJournalEntryIds"]) == 2
    entry_void, reversal_void = voided["voidJournalEntryIds"]
    # the entry (110201 Dr 300 / 4205 Cr 300 on the 30th) reversed on the 30th, its reversal on the 1st
    assert shop.entry_lines(entry_void) == {"110201": (0, D("300.00")), "4205": (D("300.00"), 0)}
    assert shop.entry_lines(reversal_void) == {"110201": (D("300.00"), 0), "4205": (0, D("300.00"))}
    undone = shop.api.get(f"/journal-entries/{entry_void}", key=shop.key).json
    assert (undone["date"], undone["entryType"], undone["reversalOf"]) == (MONTH_END, "reversal", done["journalEntryId"])
    assert shop.api.get(f"/journal-entries/{reversal_void}", key=shop.key).json["date"] == FIRST
    original = shop.api.get(f"/journal-entries/{done['journalEntryId']}", key=shop.key).json
    assert original["status"] == "reversed"
    # the month end as if never revalued: 24,500 - 24,500 = 0 receivable; only the realised 300.00
    for day in (MONTH_END, FIRST):
        assert balance_on(shop, "110201", day) == 0 == statement_closing(shop, "client", shop.customer, day)
        assert_balanced(shop, day)
    assert (balance_on(shop, "4205", MONTH_END), balance_on(shop, "4202", MONTH_END)) == (0, D("300.00"))
    assert aged_receivables(shop, MONTH_END) == []
    # voiding again answers the same, and changes nothing
    assert void(shop, done["id"]) == voided
    assert balance_on(shop, "4205", MONTH_END) == 0

    # the date is free: revalued again, the bank now holds USD 1,000.00 booked at 24.80 = 24,800.00
    # = 1,000 x 24.80: no difference, no entry
    again = revalue(shop)
    assert again["id"] != done["id"] and again["status"] == "posted" and again["journalEntryId"] is None
    assert [(line["kind"], D(str(line["difference"]))) for line in again["lines"]] == [("bank", 0)]
    assert read(shop, again["id"])["stale"] is False
    # November's exchange gain: 300.00 (24.80 - 24.50 on 1,000), realised, once
    assert (balance_on(shop, "4205", MONTH_END), balance_on(shop, "4202", MONTH_END)) == (0, D("300.00"))
    assert balance_on(shop, "110201", MONTH_END) == 0 and aged_receivables(shop, MONTH_END) == []
    listed = shop.api.get("/revaluations", key=shop.key).json["data"]
    assert {(item["id"], item["status"]) for item in listed} == {(done["id"], "voided"), (again["id"], "posted")}
    assert revalue(shop, 409)["code"] == "REVALUATION_EXISTS"   # a posted one still holds its date


def test_an_empty_revaluation_is_voided_and_its_date_revalued_again(shop):
    # nothing is open on 1 November (the invoice is dated the 2nd): the record alone, no entry
    empty = revalue(shop, date="2026-11-01")
    assert (empty["lines"], empty["journalEntryId"], empty["journalEntryIds"]) == ([], None, [])
    voided = void(shop, empty["id"])
    assert (voided["status"], voided["voidJournalEntryIds"]) == ("voided", [])
    assert revalue(shop, date="2026-11-01")["status"] == "posted"


def test_a_void_in_a_closed_period_is_refused_and_changes_nothing(api, shop, company_a):
    dollar_invoice(shop)
    done = revalue(shop)
    december = period(api, company_a, "Diciembre", "2026-12-01", "2026-12-31")
    assert api.post(f"/accounting-periods/{december['id']}/close", key=shop.key).status == 200
    refused = void(shop, done["id"], 400)            # the reversal's day, 1 December, is closed
    assert refused["code"] == "PERIOD_CLOSED"
    assert read(shop, done["id"])["status"] == "posted"
    assert balance_on(shop, "110201", MONTH_END) == D("24800.00")   # 24,500 + 300 still
    spanish = void(shop, done["id"], 400, **{"Accept-Language": "es"})
    assert spanish["code"] == "PERIOD_CLOSED"
    assert shop.api.post("/revaluations/999/void", {}, key=shop.key).status == 404


def test_forty_customers_voided_in_chunks_a_stopped_void_finished_by_asking_again(shop, monkeypatch):
    from chalicelib.services.accounting import revaluation_void

    forty_customers(shop)
    done = revalue(shop)
    assert_books_whole(shop, "29264.00")             # 28,910.00 + 354.00
    void_chunk = revaluation_void.void_chunk

    def stopping(command, record, number):
        if number == 1:
            raise RuntimeError("the Lambda stopped")  # after chunk 0 was undone
        return void_chunk(command, record, number)

    monkeypatch.setattr(revaluation_void, "void_chunk", stopping)
    void(shop, done["id"], 500)
    monkeypatch.setattr(revaluation_void, "void_chunk", void_chunk)
    half = read(shop, done["id"])
    assert (half["status"], len(half["voidJournalEntryIds"])) == ("voiding", 2)
    # half-way and whole: 29,264.00 - 62.40 (chunk 0 undone) = 29,201.60
    assert_books_whole(shop, "29201.60")
    assert revalue(shop, 409)["code"] == "REVALUATION_EXISTS"   # its date is not free yet

    voided = void(shop, done["id"])
    assert voided["status"] == "voided" and len(voided["voidJournalEntryIds"]) == 8   # 4 chunks x 2
    for position, gain in enumerate(CHUNK_GAINS):
        assert entry_totals(shop, voided["voidJournalEntryIds"][2 * position]) == {"110201": (0, gain),
                                                                                   "4205": (gain, 0)}
    # nothing undone twice: back to 28,910.00 on both days, 4205 at 0
    assert_books_whole(shop, "28910.00")
    assert balance_on(shop, "4205", MONTH_END) == 0


def test_a_seller_may_not_void(api, table, shop, company_a):
    from tests.support import ORIGIN
    from tests.users_support import member

    dollar_invoice(shop)
    done = revalue(shop)
    _, cookie = member(api, table, company_a, "vendedor@void.hn", "seller")
    refused = api.post(f"/revaluations/{done['id']}/void", {}, cookie=cookie, origin=ORIGIN)
    assert (refused.status, refused.json["code"]) == (403, "PERMISSION_DENIED"), refused.text
    assert read(shop, done["id"])["status"] == "posted"

