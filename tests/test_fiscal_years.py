"""Closing the year: the closing entry brings revenue, cost and expense accounts to zero against
retained earnings on December 31, the year then takes no posting, reopening reverses it; the
income statement of a closed year still shows its figures, the balance sheet shows retained
earnings. Figures worked by hand in the comments."""
from __future__ import annotations

import datetime as dt
from decimal import Decimal

import pytest

from chalicelib import clock
from tests.documents_support import Shop
from tests.race_support import hold_at_commit
from tests.support import ORIGIN
from tests.users_support import member

D = Decimal


@pytest.fixture
def shop(api, company_a) -> Shop:
    shop = Shop(api, company_a)
    retained = shop.created("/chart-of-accounts", {"code": "3301", "name": "Utilidades retenidas", "type": "equity"})
    shop.books.accounts["3301"] = retained["id"]
    shop.created("/account-determination-rules", {"operationType": "retained_earnings",
                                                  "chartOfAccountId": retained["id"]})
    return shop


def post(shop: Shop, path: str, expect: int = 200, body: dict | None = None):
    reply = shop.api.post(path, body, key=shop.key)
    assert reply.status == expect, reply.text
    return reply.json


def balances(shop: Shop, date: str) -> dict[str, Decimal]:
    trial = shop.api.get(f"/journal-entries/trial-balance?date={date}", key=shop.key).json
    return {row["code"]: D(str(row["balance"])) for row in trial["accounts"] if row["balance"]}


def income(shop: Shop, start: str, end: str) -> tuple[Decimal, Decimal, Decimal]:
    report = shop.api.get(f"/reports/income-statement?startDate={start}&endDate={end}", key=shop.key).json
    return D(str(report["revenue"]["total"])), D(str(report["expenses"]["total"])), D(str(report["netResult"]))


def a_year_of_trade(shop: Shop) -> dict:
    cash = shop.created("/payments/methods", {"name": "Efectivo"})
    invoice = shop.document("01", [(shop.service, 2, 100)], date="2025-03-10")   # revenue 200, ISV 30: 230
    shop.document("06", [(shop.service, 1, 100)], date="2025-07-01",
                  sourceDocumentId=invoice["id"])                               # returns 100, ISV 15: 115
    shop.document("11", [(None, 1, 80)], date="2025-06-01")                      # expense 80, ISV 12: 92
    return {"invoice": invoice, "cash": cash}


def test_a_year_closed_and_reopened(api, shop):
    trade = a_year_of_trade(shop)
    # the year: revenue 200 - returns 100 = 100, expenses 80, result 100 - 80 = 20 (a profit)
    assert income(shop, "2025-01-01", "2025-12-31") == (D("100.00"), D("80.00"), D("20.00"))
    before = balances(shop, "2025-12-31")
    assert (before["410101"], before["4102"], before["6199"]) == (D("200.00"), D("-100.00"), D("80.00"))

    closed = post(shop, "/fiscal-years/2025/close")
    assert (closed["year"], closed["status"], closed["closingDate"], len(closed["closingEntryIds"])) == \
           (2025, "closed", "2025-12-31", 1)
    # 410101 debited 200, 4102 credited 100, 6199 credited 80, retained earnings credited 20
    assert shop.entry_lines(closed["closingEntryIds"][0]) == {
        "410101": (D("200.00"), 0), "4102": (0, D("100.00")), "6199": (0, D("80.00")), "3301": (0, D("20.00"))}
    entry = api.get(f"/journal-entries/{closed['closingEntryIds'][0]}", key=shop.key).json
    assert (entry["date"], entry["entryType"]) == ("2025-12-31", "automatic")
    after = balances(shop, "2025-12-31")
    assert not {"410101", "4102", "6199"} & after.keys() and after["3301"] == D("20.00")
    # everything else as it was
    assert {code: value for code, value in after.items() if code != "3301"} == \
           {code: value for code, value in before.items() if code not in ("410101", "4102", "6199")}
    # the income statement of the closed year still shows it; the balance sheet shows retained earnings
    assert income(shop, "2025-01-01", "2025-12-31") == (D("100.00"), D("80.00"), D("20.00"))
    for day in ("2025-12-31", "2026-01-31"):
        sheet = api.get(f"/reports/balance-sheet?date={day}", key=shop.key).json
        assert (D(str(sheet["equity"]["currentYearResult"])), D(str(sheet["equity"]["priorYearsResult"]))) == (0, 0)
        assert [(a["code"], D(str(a["balance"]))) for a in sheet["equity"]["accounts"]] == [("3301", D("20.00"))]
        assert sheet["balanced"] is True

    # no posting dated in 2025 any more: a document, a manual entry, a payment
    refused = shop.document("01", [(shop.service, 1, 10)], date="2025-12-15", expect=400)
    assert refused["code"] == "PERIOD_CLOSED", refused
    manual = api.post("/journal-entries", {"date": "2025-05-05", "status": "posted", "lines": [
        {"chartOfAccountId": shop.books["110101"], "debit": "5", "credit": "0"},
        {"chartOfAccountId": shop.books["410101"], "debit": "0", "credit": "5"}]}, key=shop.key)
    assert (manual.status, manual.json["code"]) == (400, "PERIOD_CLOSED"), manual.text
    pay = api.post(f"/payments/documents/{trade['invoice']['id']}/payments",
                   {"paymentMethodId": trade["cash"]["id"], "amount": "10", "paymentDate": "2025-12-20"}, key=shop.key)
    assert (pay.status, pay.json["code"]) == (400, "PERIOD_CLOSED"), pay.text
    assert balances(shop, "2025-12-31") == after
    # 2026 goes on
    paid = api.post(f"/payments/documents/{trade['invoice']['id']}/payments",
                    {"paymentMethodId": trade["cash"]["id"], "amount": "10", "paymentDate": "2026-01-05"}, key=shop.key)
    assert paid.status == 201, paid.text
    assert post(shop, "/fiscal-years/2025/close", 400)["code"] == "FISCAL_YEAR_STATUS"

    reopened = post(shop, "/fiscal-years/2025/reopen")
    assert (reopened["status"], reopened["reopeningEntryIds"]) == ("open", closed["closingEntryIds"])
    assert balances(shop, "2025-12-31") == before
    assert income(shop, "2025-01-01", "2025-12-31") == (D("100.00"), D("80.00"), D("20.00"))
    assert shop.document("01", [(shop.service, 1, 10)], date="2025-12-15")["status"] == "confirmed"
    assert post(shop, "/fiscal-years/2025/reopen", 400)["code"] == "FISCAL_YEAR_STATUS"
    # the year with its new invoice (10 more revenue): closed again, 30 to retained earnings
    again = post(shop, "/fiscal-years/2025/close")
    assert balances(shop, "2025-12-31")["3301"] == D("30.00")
    assert len(again["closingEntryIds"]) == 2
    assert income(shop, "2025-01-01", "2025-12-31") == (D("110.00"), D("80.00"), D("30.00"))
    listed = api.get("/fiscal-years", key=shop.key).json
    assert [(y["year"], y["status"]) for y in listed["fiscalYears"]] == [(2025, "closed")]


def test_years_close_in_order_and_reopen_newest_first(api, table, shop, company_a, monkeypatch):
    # in January 2027: 2026 has ended and can be closed
    monkeypatch.setattr(clock, "now", lambda: dt.datetime(2027, 1, 15, 18, 0, tzinfo=dt.timezone.utc))
    a_year_of_trade(shop)
    shop.document("01", [(shop.service, 1, 50)], date="2026-02-01")    # 2026: revenue 50
    assert post(shop, "/fiscal-years/2026/close", 400)["code"] == "FISCAL_YEAR_ORDER"
    post(shop, "/fiscal-years/2025/close")
    closed = post(shop, "/fiscal-years/2026/close")
    # 2026 alone: 50 to retained earnings, 20 + 50 = 70 in all
    assert shop.entry_lines(closed["closingEntryIds"][0]) == {"410101": (D("50.00"), 0), "3301": (0, D("50.00"))}
    assert balances(shop, "2026-12-31")["3301"] == D("70.00")
    assert post(shop, "/fiscal-years/2025/reopen", 400)["code"] == "FISCAL_YEAR_ORDER"
    _, seller = member(api, table, company_a, "vendedor@alpha.example", "seller")
    refused = api.post("/fiscal-years/2026/reopen", {}, cookie=seller, origin=ORIGIN)
    assert refused.status == 403, refused.text
    post(shop, "/fiscal-years/2026/reopen")
    post(shop, "/fiscal-years/2025/reopen")
    assert "3301" not in balances(shop, "2026-12-31")
    assert api.get("/fiscal-years/2024", key=shop.key).json["status"] == "open"
    # an empty year closes with no entry
    empty = post(shop, "/fiscal-years/2024/close")
    assert (empty["status"], empty["closingEntryIds"]) == ("closed", [])


def test_a_chart_with_more_accounts_than_one_entry_takes_closes_with_several(api, shop):
    """35 expense accounts moved: 30 close in the first entry, 5 in the second; together they
    bring all 35 to zero and retained earnings to the year's loss."""
    codes = [f"62{n:02d}" for n in range(1, 36)]
    for code in codes:
        shop.books.accounts[code] = shop.created("/chart-of-accounts", {"code": code, "name": f"Gasto {code}",
                                                                        "type": "expense"})["id"]
    for chunk in (codes[:20], codes[20:]):
        lines = [{"chartOfAccountId": shop.books[code], "debit": "1.00", "credit": "0"} for code in chunk]
        lines.append({"chartOfAccountId": shop.books["110101"], "debit": "0", "credit": f"{len(chunk)}.00"})
        shop.created("/journal-entries", {"date": "2025-04-01", "status": "posted", "lines": lines})
    closed = post(shop, "/fiscal-years/2025/close")
    assert (closed["status"], len(closed["closingEntryIds"])) == ("closed", 2)
    # a loss of 35 x 1.00 = 35.00: retained earnings debited
    after = balances(shop, "2025-12-31")
    assert not set(codes) & after.keys() and after["3301"] == D("-35.00")
    assert income(shop, "2025-01-01", "2025-12-31") == (0, D("35.00"), D("-35.00"))
    reopened = post(shop, "/fiscal-years/2025/reopen")
    assert (reopened["status"], sorted(reopened["reopeningEntryIds"])) == ("open", sorted(closed["closingEntryIds"]))
    assert "3301" not in balances(shop, "2025-12-31") and balances(shop, "2025-12-31")["6201"] == D("1.00")


def test_a_close_without_a_retained_earnings_rule_changes_nothing(api, company_b):
    shop = Shop(api, company_b)
    shop.document("01", [(shop.service, 1, 100)], date="2025-03-10")
    refused = post(shop, "/fiscal-years/2025/close", 400)
    assert refused["code"] == "ACCOUNT_RULE_MISSING", refused
    assert api.get("/fiscal-years/2025", key=shop.key).json["status"] == "open"
    assert shop.document("01", [(shop.service, 1, 10)], date="2025-12-15")["status"] == "confirmed"


@pytest.mark.parametrize("first", ["close", "entry"])
def test_a_year_closing_while_an_entry_posts_lets_none_slip_in(api, shop, monkeypatch, first):
    """An entry dated in 2025 races the close, forced both ways: one request has read what it
    decides on and is held at its commit while the other runs whole. An entry the close got ahead
    of is refused (its commit failed, and run again it finds the year closed); an entry that got
    ahead of the close is closed with the rest. None lands in the closed year."""
    body = {"date": "2025-11-05", "status": "posted", "lines": [
        {"chartOfAccountId": shop.books["110101"], "debit": "1.00", "credit": "0"},
        {"chartOfAccountId": shop.books["410101"], "debit": "0", "credit": "1.00"}]}
    shop.created("/journal-entries", body)  # 1.00 of revenue in the year before the race

    def post():
        reply = api.post("/journal-entries", body, key=shop.key)
        return reply.json.get("code") if reply.status == 400 else reply.status

    def close():
        return api.post("/fiscal-years/2025/close", {}, key=shop.key).status

    if first == "close":
        race = hold_at_commit(monkeypatch, post, close)
        entry, closed = race.held, race.other
        assert race.lost == 1 and entry == "PERIOD_CLOSED"  # its commit failed: it raced, and lost
    else:
        race = hold_at_commit(monkeypatch, close, post)
        closed, entry = race.held, race.other
        # held before it locked the year: it reads the balances after the lock, the entry among them
        assert entry == 201 and race.lost == 0
    assert closed == 200
    # every accepted entry's 1.00 of revenue went to retained earnings; none is left in the year
    after = balances(shop, "2025-12-31")
    assert "410101" not in after and after.get("3301", D(0)) == (2 if entry == 201 else 1)
    assert api.post("/journal-entries", body, key=shop.key).json["code"] == "PERIOD_CLOSED"


def test_an_inactive_account_to_close_is_refused_before_the_year_is_locked(api, shop):
    travel = shop.created("/chart-of-accounts", {"code": "6250", "name": "Viáticos", "type": "expense"})["id"]
    shop.books.accounts["6250"] = travel
    shop.created("/journal-entries", {"date": "2025-04-01", "status": "posted", "lines": [     # 5.00 on 6250
        {"chartOfAccountId": travel, "debit": "5.00", "credit": "0"},
        {"chartOfAccountId": shop.books["110101"], "debit": "0", "credit": "5.00"}]})
    assert api.put(f"/chart-of-accounts/{travel}", {"isActive": False}, key=shop.key).status == 200
    refused = post(shop, "/fiscal-years/2025/close", 400)
    assert refused["code"] == "INVALID_ACCOUNT" and "6250" in refused["message"], refused
    # nothing locked: 2025 still takes postings
    assert api.get("/fiscal-years/2025", key=shop.key).json["status"] == "open"
    assert shop.document("01", [(shop.service, 1, 10)], date="2025-12-15")["status"] == "confirmed"
    assert api.put(f"/chart-of-accounts/{travel}", {"isActive": True}, key=shop.key).status == 200
    assert post(shop, "/fiscal-years/2025/close")["status"] == "closed"
