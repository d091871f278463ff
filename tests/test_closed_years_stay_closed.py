"""Issue 39, point 4 and the current-year finding of point 6: a year closes only after it has
ended and after every earlier year with postings; once a year is closed nothing dated on or
before its last day posts, whoever asks and whichever year the date falls in (one never
closed because nothing was posted in it included); reopening goes newest first. Figures worked
by hand in the comments."""
from __future__ import annotations

import datetime as dt
from decimal import Decimal

import pytest

from chalicelib import clock
from tests.documents_support import Shop
from tests.support import ORIGIN, RACES
from tests.users_support import member

D = Decimal
SPANISH = {"Accept-Language": "es"}


def at(moment: str):
    """clock.now fixed at an ISO moment (UTC)."""
    fixed = dt.datetime.fromisoformat(moment.replace("Z", "+00:00"))
    return lambda: fixed


@pytest.fixture
def shop(api, company_a, monkeypatch) -> Shop:
    """The company in mid-January 2027: 2026 has ended where it is (Honduras, UTC-6)."""
    monkeypatch.setattr(clock, "now", at("2027-01-15T18:00:00Z"))
    return Shop(api, company_a, inventory=True)


def year(shop: Shop, number: int, action: str, **headers: str):
    return shop.api.post(f"/fiscal-years/{number}/{action}", {}, key=shop.key, headers=headers or None)


def assets(shop: Shop, day: str) -> Decimal:
    sheet = shop.api.get(f"/reports/balance-sheet?date={day}", key=shop.key).json
    assert sheet["balanced"] is True, sheet
    return D(str(sheet["assets"]["total"]))


def refused(reply, code: str = "PERIOD_CLOSED") -> dict:
    assert (reply.status, reply.json.get("code")) == (400, code), reply.text
    return reply.json


def test_a_sellers_deposit_dated_in_an_open_year_before_a_closed_one_is_refused(api, table, company_a, shop):
    """The finding: with 2026 closed and 2025 open, a seller's posting dated 2025 moved 2026's
    closing assets from 300 to 1,000."""
    shop.books.entry("2026-03-01", ("110101", 300, 0), ("3401", 0, 300))   # the owner: cash 300, equity 300
    bank = shop.created("/bank-accounts", {"name": "Cuenta corriente", "bankName": "Banco Atlántida",
                                           "accountNumber": "0101-22", "openingBalance": 0,
                                           "openingBalanceDate": "2026-01-02", "chartOfAccountId": shop.books["110103"]})
    assert assets(shop, "2026-12-31") == D("300.00")                        # cash 300, bank 0
    # nothing was posted in 2025: it need not be closed first, and 2026 has ended
    closed = year(shop, 2026, "close")
    assert (closed.status, closed.json["closingEntryIds"]) == (200, []), closed.text   # no revenue nor expense
    _, seller = member(api, table, company_a, "vendedor@alpha.example", "seller")
    deposit = {"type": "deposit", "amount": 700, "transactionDate": "2025-12-15",
               "chartOfAccountId": shop.books["410101"]}
    refused(api.post(f"/bank-accounts/{bank['id']}/transactions", deposit, cookie=seller, origin=ORIGIN))
    # 2026's closing assets stay 300 (with the deposit they were 300 + 700 = 1,000)
    assert assets(shop, "2026-12-31") == D("300.00")
    assert api.get("/fiscal-years/2025", key=shop.key).json["status"] == "open"
    # the seller's deposit dated in 2027, after the closed year, posts: 300 + 700 = 1,000 at its date
    accepted = api.post(f"/bank-accounts/{bank['id']}/transactions", {**deposit, "transactionDate": "2027-01-10"},
                        cookie=seller, origin=ORIGIN)
    assert accepted.status == 201, accepted.text
    assert (assets(shop, "2026-12-31"), assets(shop, "2027-01-10")) == (D("300.00"), D("1000.00"))


def test_every_way_of_posting_is_refused_on_or_before_the_closed_years_end(api, table, company_a, shop):
    """2024 and 2026 closed, 2025 never (nothing posted in it): every dated write in 2025 is
    refused as one in a closed year is, whoever sends it."""
    first = shop.books.entry("2024-05-01", ("110101", 50, 0), ("3401", 0, 50))   # cash 50 in 2024
    draft = shop.books.entry("2025-02-01", ("110101", 5, 0), ("3401", 0, 5), status="draft")  # a draft posts nothing
    assert refused(year(shop, 2026, "close"), "FISCAL_YEAR_ORDER")              # 2024 has postings: first
    assert year(shop, 2024, "close").status == 200
    assert year(shop, 2026, "close").status == 200                              # 2025 has none: passed over
    before = assets(shop, "2026-12-31")
    assert before == D("50.00")                                                 # the 2024 cash alone
    _, seller = member(api, table, company_a, "vendedor@alpha.example", "seller")
    as_seller = {"cookie": seller, "origin": ORIGIN}
    # a seller's invoice and purchase, an owner's manual entry, the draft posted, a stock
    # adjustment, a reversal of the 2024 entry dated in 2025
    invoice = {"type": "01", "businessPartnerId": shop.customer, "date": "2025-06-01",
               "lines": [{"productId": shop.service, "quantity": 1, "unitPrice": 100}]}
    refused(api.post("/documents", invoice, **as_seller))
    refused(api.post("/documents", {**invoice, "type": "11", "businessPartnerId": shop.supplier}, **as_seller))
    shop.books.entry("2025-06-01", ("110101", 1, 0), ("3401", 0, 1), expect=400)
    refused(api.post(f"/journal-entries/{draft['id']}/post", key=shop.key))
    refused(api.post("/inventory/adjustments", {"warehouseId": 1, "date": "2025-07-01", "reason": "opening", "lines": [
        {"productId": shop.product, "quantity": 5, "unitCost": "10"}]}, key=shop.key))
    refused(api.post(f"/journal-entries/{first['id']}/reverse", {"date": "2025-03-01"}, key=shop.key))
    assert assets(shop, "2026-12-31") == before
    # the refusal says why, in the caller's language
    spanish = refused(api.post("/documents", invoice, headers=SPANISH, **as_seller))
    assert spanish["message"] == "2025-06-01 cae en o antes del último día de un ejercicio fiscal cerrado.", spanish


def test_a_year_closes_only_after_its_last_day_where_the_company_is(api, shop, monkeypatch):
    """Honduras is UTC-6: at 05:59 UTC on 1 January 2027 it is still 31 December 2026 there."""
    shop.books.entry("2026-03-01", ("110101", 300, 0), ("3401", 0, 300))
    for moment in ("2026-11-28T12:00:00Z", "2027-01-01T05:59:00Z"):          # today, and the year's last minute
        monkeypatch.setattr(clock, "now", at(moment))
        answer = refused(year(shop, 2026, "close"), "FISCAL_YEAR_NOT_ENDED")
        assert "2027-01-01" in answer["message"], answer
        assert api.get("/fiscal-years/2026", key=shop.key).json["status"] == "open"
    spanish = refused(year(shop, 2026, "close", **SPANISH), "FISCAL_YEAR_NOT_ENDED")["message"]
    assert spanish == ("El ejercicio fiscal 2026 no ha terminado: se puede cerrar a partir del 2027-01-01 "
                       "(hoy es 2026-12-31)."), spanish
    assert shop.books.entry("2026-12-31", ("110101", 1, 0), ("3401", 0, 1))["status"] == "posted"
    monkeypatch.setattr(clock, "now", at("2027-01-01T06:00:00Z"))                # midnight in Tegucigalpa
    assert year(shop, 2026, "close").json["status"] == "closed"


def test_years_close_oldest_first_naming_those_still_open(api, shop):
    """2024 and 2025 carry postings of the balance sheet only (no revenue, nothing for a closing
    entry to move): they are still years with postings, closed before 2026."""
    shop.books.entry("2024-05-01", ("110101", 10, 0), ("3401", 0, 10))
    shop.books.entry("2025-05-01", ("110101", 20, 0), ("3401", 0, 20))
    answer = refused(year(shop, 2026, "close"), "FISCAL_YEAR_ORDER")
    assert "2024, 2025" in answer["message"], answer
    spanish = refused(year(shop, 2026, "close", **SPANISH), "FISCAL_YEAR_ORDER")["message"]
    assert spanish.startswith("Hay ejercicios anteriores con movimientos aún abiertos: 2024, 2025."), spanish
    assert refused(year(shop, 2025, "close"), "FISCAL_YEAR_ORDER")["message"].count("2024") == 1
    for number in (2024, 2025, 2026):
        assert year(shop, number, "close").json["status"] == "closed"
    assert assets(shop, "2026-12-31") == D("30.00")                            # cash 10 + 20


def test_reopening_goes_newest_first_past_a_year_never_closed(api, shop):
    """2024 and 2026 closed, 2025 empty and open: 2024 reopens only after 2026 (the year just
    after it being open is not enough); then 2025 takes postings again, 2024 not yet."""
    shop.books.entry("2024-05-01", ("110101", 10, 0), ("3401", 0, 10))
    shop.books.entry("2026-05-01", ("110101", 20, 0), ("3401", 0, 20))
    for number in (2024, 2026):
        assert year(shop, number, "close").json["status"] == "closed"
    answer = refused(year(shop, 2024, "reopen"), "FISCAL_YEAR_ORDER")
    assert "2026" in answer["message"], answer
    assert year(shop, 2026, "reopen").json["status"] == "open"
    shop.books.entry("2025-06-01", ("110101", 1, 0), ("3401", 0, 1))           # after 2024's end: posts
    shop.books.entry("2024-12-31", ("110101", 1, 0), ("3401", 0, 1), expect=400)
    assert year(shop, 2024, "reopen").json["status"] == "open"
    shop.books.entry("2024-12-31", ("110101", 1, 0), ("3401", 0, 1))
    # cash 10 + 20 + 1 + 1 = 32
    assert assets(shop, "2026-12-31") == D("32.00")


# issue 39: fixbooks
@RACES
def test_a_close_racing_the_reopen_of_an_earlier_year_is_refused(api, shop, monkeypatch):
    """2025 closed; 2026's close checks that 2025 is closed, and 2025 is reopened before the close
    writes its lock: the books' lock it read (2025-12-31) has moved, so 2026 does not close past
    an open 2025 (it read closedThrough after the check, saw none, and closed)."""
    from chalicelib.services.accounting import fiscal_years
    shop.books.entry("2025-05-01", ("110101", 10, 0), ("3401", 0, 10))
    shop.books.entry("2026-05-01", ("110101", 20, 0), ("3401", 0, 20))
    assert year(shop, 2025, "close").json["status"] == "closed"
    checked = fiscal_years._check_earlier_years_closed

    def then_reopen_2025(*args):
        checked(*args)
        monkeypatch.setattr(fiscal_years, "_check_earlier_years_closed", checked)
        assert year(shop, 2025, "reopen").json["status"] == "open"

    monkeypatch.setattr(fiscal_years, "_check_earlier_years_closed", then_reopen_2025)
    raced = year(shop, 2026, "close")
    assert (raced.status, raced.json["code"]) == (409, "VERSION_CONFLICT"), raced.text
    assert [api.get(f"/fiscal-years/{number}", key=shop.key).json["status"] for number in (2025, 2026)] == \
           ["open", "open"]
    # asked again, the order check names 2025
    assert "2025" in refused(year(shop, 2026, "close"), "FISCAL_YEAR_ORDER")["message"]
