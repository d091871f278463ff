"""Month-end revaluation (issue 44, NIIF para PYMES 30.9): open dollar receivables, payables and a
dollar bank balance translated at the month end's rate, the unrealised difference posted on the
day and reversed on the 1st; the documents keep their own rate, so a payment's realised
difference is what it always was. Every figure worked by hand in the comments."""
from __future__ import annotations

import datetime
from decimal import Decimal

import pytest

from tests.documents_support import Shop, dollar_shop
from tests.support import ORIGIN
from tests.test_journal import period
from tests.users_support import member

D = Decimal
MONTH_END, FIRST = "2026-11-30", "2026-12-01"


# The clock on 10 December 2026 (a revaluation of a day yet to come is refused): 30 November and
# the payments of early December are in the past.
NOW = datetime.datetime(2026, 12, 10, 18, 0, tzinfo=datetime.timezone.utc)


@pytest.fixture
def shop(api, company_a, monkeypatch) -> Shop:
    return revaluation_shop(api, company_a, monkeypatch)


def revaluation_shop(api, company_a, monkeypatch) -> Shop:
    from chalicelib import clock

    monkeypatch.setattr(clock, "now", lambda: NOW)
    shop = dollar_shop(api, company_a)
    # the standard charts' unrealised accounts, with their rules (without them: 4202 / 6303)
    for code, name, kind, operation in (("4205", "Diferencial cambiario no realizado a favor", "income",
                                         "fx_unrealized_gain"),
                                        ("6304", "Diferencial cambiario no realizado en contra", "expense",
                                         "fx_unrealized_loss")):
        account = shop.created("/chart-of-accounts", {"code": code, "name": name, "type": kind})
        shop.books.accounts[code] = account["id"]
        shop.created("/account-determination-rules", {"operationType": operation, "chartOfAccountId": account["id"]})
    shop.untaxed = shop.created("/products", {"code": "S-0", "name": "Asesoría", "type": "service", "unitPrice": 1000,
                                              "taxRate": 0})["id"]
    for date, value in (("2026-11-02", "24.50"), (MONTH_END, "24.80"), ("2026-12-05", "24.90")):
        shop.created("/exchange-rates", {"currency": "USD", "date": date, "rate": value})
    return shop


def revalue(shop: Shop, expect: int = 201, **body):
    reply = shop.api.post("/revaluations", {"date": MONTH_END, **body}, key=shop.key)
    assert reply.status == expect, reply.text
    return reply.json


def dollar_invoice(shop: Shop, amount: str = "1000.00") -> dict:
    """USD `amount`, no tax, on 2 November at 24.50."""
    return shop.document("01", [(shop.untaxed, 1, D(amount))], currency="USD")


def statement_closing(shop: Shop, side: str, partner: int, date: str) -> Decimal:
    reply = shop.api.get(f"/credits/{side}/{partner}/statement?startDate=2026-11-01&endDate={date}", key=shop.key)
    assert reply.status == 200, reply.text
    return D(str(reply.json["closingBalance"]))


def balance_on(shop: Shop, code: str, date: str) -> Decimal:
    rows = {row["code"]: row for row in shop.books.trial_balance(date)["accounts"]}
    return D(str(rows[code]["balance"])) if code in rows else D(0)


def assert_balanced(shop: Shop, date: str) -> None:
    trial = shop.books.trial_balance(date)
    assert D(str(trial["totalDebit"])) == D(str(trial["totalCredit"]))


def test_a_dollar_receivable_revalued_reversed_and_paid(shop):
    invoice = dollar_invoice(shop)
    # USD 1,000.00 at 24.50 = 24,500.00 on the receivable
    assert D(str(invoice["baseTotal"])) == D("24500.00")
    done = revalue(shop)
    # at 24.80: 1,000.00 x 24.80 = 24,800.00; 24,800.00 - 24,500.00 = 300.00 gained
    assert (done["date"], done["reversalDate"], done["currencies"]) == (MONTH_END, FIRST, ["USD"])
    line, = done["lines"]
    assert (line["kind"], line["partnerId"], line["documentId"], line["currency"]) == \
           ("receivable", shop.customer, invoice["id"], "USD")
    assert [D(str(line[name])) for name in ("foreignAmount", "bookedAmount", "rate", "revaluedAmount", "difference")] \
        == [D("1000.00"), D("24500.00"), D("24.80"), D("24800.00"), D("300.00")]
    assert (D(str(done["totalGain"])), D(str(done["totalLoss"])), D(str(done["netDifference"]))) == \
           (D("300.00"), 0, D("300.00"))
    assert shop.entry_lines(done["journalEntryId"]) == {"110201": (D("300.00"), 0), "4205": (0, D("300.00"))}
    assert shop.entry_lines(done["reversalJournalEntryId"]) == {"110201": (0, D("300.00")), "4205": (D("300.00"), 0)}
    entry = shop.api.get(f"/journal-entries/{done['journalEntryId']}", key=shop.key).json
    assert (entry["date"], entry["entryType"]) == (MONTH_END, "automatic")
    assert entry["lines"][0]["lineDescription"] == "Diferencial cambiario no realizado: cliente Cliente Uno"
    reversal = shop.api.get(f"/journal-entries/{done['reversalJournalEntryId']}", key=shop.key).json
    assert (reversal["date"], reversal["reversalOf"]) == (FIRST, done["journalEntryId"])

    # the month end: the receivable at 24,800.00 in the books, the customer's ledger and aging alike
    assert balance_on(shop, "110201", MONTH_END) == D("24800.00") == statement_closing(shop, "client", shop.customer,
                                                                                         MONTH_END)
    assert balance_on(shop, "4205", MONTH_END) == D("300.00")
    assert_balanced(shop, MONTH_END)
    aged = shop.api.get(f"/reports/aged-receivables?date={MONTH_END}", key=shop.key).json
    row = aged["partners"][0]
    assert (row["currency"], D(str(row["foreignPending"])), D(str(row["total"]))) == \
           ("USD", D("1000.00"), D("24800.00"))
    assert D(str(row["documents"][0]["foreignPending"])) == D("1000.00")
    # the 1st: reversed, back to 24,500.00 (300.00 - 300.00 = 0 unrealised left)
    assert balance_on(shop, "110201", FIRST) == D("24500.00") == statement_closing(shop, "client", shop.customer, FIRST)
    assert balance_on(shop, "4205", FIRST) == 0
    assert_balanced(shop, FIRST)
    # the document keeps its own rate: pending 1,000.00 = 24,500.00
    document = shop.get(invoice["id"])
    assert (D(str(document["pending"])), D(str(document["basePending"]))) == (D("1000.00"), D("24500.00"))

    account = shop.created("/bank-accounts", {"name": "Cuenta en dólares", "currency": "USD", "openingBalance": 0,
                                              "openingBalanceDate": "2026-11-01",
                                              "chartOfAccountId": shop.books["110104"]})
    method = shop.created("/payments/methods", {"name": "Transferencia USD", "bankAccountId": account["id"]})
    paid = shop.api.post(f"/payments/documents/{invoice['id']}/payments",
                         {"paymentMethodId": method["id"], "amount": "1000.00", "paymentDate": "2026-12-05"},
                         key=shop.key).json
    # 1,000.00 x 24.90 = 24,900.00 in; 24,500.00 off the receivable; realised 400.00
    assert shop.entry_lines(paid["journalEntryId"]) == {
        "110104": (D("24900.00"), 0), "110201": (0, D("24500.00")), "4202": (0, D("400.00"))}
    # over the month pair: unrealised +300.00 - 300.00 = 0, realised 400.00 = 1,000 x (24.90 - 24.50)
    assert balance_on(shop, "4205", "2026-12-31") == 0 and balance_on(shop, "4202", "2026-12-31") == D("400.00")
    assert balance_on(shop, "110201", "2026-12-31") == 0 == statement_closing(shop, "client", shop.customer,
                                                                              "2026-12-31")
    assert D(str(shop.partner(shop.customer)["receivableBalance"])) == 0
    assert_balanced(shop, "2026-12-31")
    # listed and read back
    listed = shop.api.get("/revaluations", key=shop.key).json
    assert [item["id"] for item in listed["data"]] == [done["id"]] and listed["total"] == 1
    # the payment is dated 5 December, after the 30th: the revaluation is still current (not stale)
    assert shop.api.get(f"/revaluations/{done['id']}", key=shop.key).json == {**done, "stale": False}


def test_a_payable_and_a_bank_balance_in_one_entry_after_a_dry_run(shop):
    invoice = dollar_invoice(shop)                                              # receivable 24,500.00
    bill = shop.document("103", [(shop.untaxed, 1, D("500.00"))], currency="USD")
    # USD 500.00 at 24.50 = 12,250.00 owed
    assert D(str(bill["baseTotal"])) == D("12250.00")
    bank = shop.created("/bank-accounts", {"name": "Cuenta en dólares", "currency": "USD", "openingBalance": 0,
                                           "openingBalanceDate": "2026-11-01",
                                           "chartOfAccountId": shop.books["110104"]})
    deposit = shop.api.post(f"/bank-accounts/{bank['id']}/transactions", {
        "type": "deposit", "amount": "200.00", "transactionDate": "2026-11-03",
        "chartOfAccountId": shop.books["410101"]}, key=shop.key)
    assert deposit.status == 201, deposit.text                                  # USD 200 x 24.50 = 4,900.00
    trial_before = shop.books.trial_balance("2026-12-31")

    dry = revalue(shop, 200, dryRun=True)
    # receivable 1,000.00 x 24.80 = 24,800.00 - 24,500.00 = +300.00 (gain)
    # payable 500.00 x 24.80 = 12,400.00 - 12,250.00: owed 150.00 more = -150.00 (loss)
    # bank 200.00 x 24.80 = 4,960.00 - 4,900.00 = +60.00 (gain)
    differences = {line["kind"]: D(str(line["difference"])) for line in dry["lines"]}
    assert differences == {"receivable": D("300.00"), "payable": D("-150.00"), "bank": D("60.00")}
    # gains 300 + 60 = 360.00, losses 150.00, net 210.00
    assert (D(str(dry["totalGain"])), D(str(dry["totalLoss"])), D(str(dry["netDifference"]))) == \
           (D("360.00"), D("150.00"), D("210.00"))
    assert (dry["id"], dry["journalEntryId"], dry["reversalJournalEntryId"]) == (None, None, None)
    # a dry run writes nothing
    assert shop.books.trial_balance("2026-12-31") == trial_before
    assert shop.api.get("/revaluations", key=shop.key).json["total"] == 0

    done = revalue(shop)
    assert {line["kind"]: D(str(line["difference"])) for line in done["lines"]} == differences
    # debits 300 + 60 + 150 = 510.00 = credits 150 + 360
    assert shop.entry_lines(done["journalEntryId"]) == {
        "110201": (D("300.00"), 0), "210101": (0, D("150.00")), "110104": (D("60.00"), 0),
        "4205": (0, D("360.00")), "6304": (D("150.00"), 0)}
    # each subledger equals its control account on both days; the bank still holds USD 200.00
    for day, receivable, payable, ledger in ((MONTH_END, "24800.00", "12400.00", "4960.00"),
                                             (FIRST, "24500.00", "12250.00", "4900.00")):
        assert balance_on(shop, "110201", day) == D(receivable) == statement_closing(shop, "client", shop.customer, day)
        assert balance_on(shop, "210101", day) == D(payable) == statement_closing(shop, "supplier", shop.supplier, day)
        assert balance_on(shop, "110104", day) == D(ledger)
        assert_balanced(shop, day)
    assert D(str(shop.api.get(f"/bank-accounts/{bank['id']}", key=shop.key).json["balance"])) == D("200.00")
    aged = shop.api.get(f"/reports/aged-payables?date={MONTH_END}", key=shop.key).json["partners"][0]
    assert (aged["currency"], D(str(aged["foreignPending"])), D(str(aged["total"]))) == \
           ("USD", D("500.00"), D("12400.00"))
    assert invoice["id"] in {line["documentId"] for line in done["lines"]}


def test_the_same_date_twice_is_refused_and_another_company_sees_nothing(api, shop, company_b):
    dollar_invoice(shop)
    done = revalue(shop)
    again = revalue(shop, 409)
    assert again["code"] == "REVALUATION_EXISTS" and str(done["id"]) in again["details"][0]["message"]
    spanish = api.post("/revaluations", {"date": MONTH_END}, key=shop.key, headers={"Accept-Language": "es"}).json
    assert spanish["message"] == f"La revaluación {done['id']} ya revalúa el {MONTH_END}."
    assert api.get(f"/revaluations/{done['id']}", key=company_b.api_key).status == 404
    assert api.get("/revaluations", key=company_b.api_key).json["total"] == 0
    # only one entry pair was posted: the receivable at 24,800.00 at the month end
    assert balance_on(shop, "110201", MONTH_END) == D("24800.00")


def test_no_rate_or_a_closed_day_is_refused_and_writes_nothing(api, shop, company_a):
    dollar_invoice(shop)
    early = shop.api.post("/revaluations", {"date": "2026-11-01"}, key=shop.key)
    # the invoice is dated the 2nd: nothing open on the 1st needs a rate; asking for USD does
    assert early.status == 201 and early.json["lines"] == [] and early.json["journalEntryId"] is None
    refused = shop.api.post("/revaluations", {"date": "2026-10-31", "currencies": ["USD"]}, key=shop.key)
    assert (refused.status, refused.json["details"][0]["field"]) == (400, "currencies"), refused.text
    november = period(api, company_a, "Diciembre", "2026-12-01", "2026-12-31")
    assert api.post(f"/accounting-periods/{november['id']}/close", key=shop.key).status == 200
    closed = revalue(shop, 400)          # the reversal's day, 1 December, is closed
    assert closed["code"] == "PERIOD_CLOSED"
    assert [item["date"] for item in api.get("/revaluations", key=shop.key).json["data"]] == ["2026-11-01"]
    assert balance_on(shop, "110201", MONTH_END) == D("24500.00")


def forty_customers(shop: Shop) -> None:
    """Cliente 00 .. Cliente 39 (the plan's order: by name), customer k with a dollar invoice of
    USD (10 + k).00 at 24.50. In USD: 40 x 10 + (0 + ... + 39) = 400 + 780 = 1,180.00; booked
    1,180.00 x 24.50 = 28,910.00."""
    for number in range(40):
        customer = shop.created("/business-partners", {"name": f"Cliente {number:02d}", "type": "customer"})["id"]
        shop.document("01", [(shop.untaxed, 1, D(10 + number))], currency="USD", partner=customer)


# A chunk of n customers (one receivable account, 4205 for the gain, 6304 for the loss: 3
# accounts; the date in November, its reversal in December: 2 months; one year) writes
# 2 entries + 2 x (n + 2) postings + 3 x 2 month balances + 3 account guards + 2 day counts
# + 1 year lock + 1 books lock + n x (2 movements + 2 month totals) + 1 record + 1 Idempotency-Key
# = 6n + 21 <= 100: n = 13 (99). 40 customers: chunks of 13, 13, 13 and 1.
# Each customer gains (10 + k) x (24.80 - 24.50) = (10 + k) x 0.30:
#   k 0..12:  13 x 10 + (0 + ... + 12) = 130 + 78 = 208 USD -> 62.40
#   k 13..25: 130 + (13 + ... + 25) = 130 + 247 = 377 USD   -> 113.10
#   k 26..38: 130 + (26 + ... + 38) = 130 + 416 = 546 USD   -> 163.80
#   k 39:     49 USD                                         -> 14.70
#   in all 1,180 USD x 0.30 = 354.00 = 62.40 + 113.10 + 163.80 + 14.70
CHUNK_GAINS = [D("62.40"), D("113.10"), D("163.80"), D("14.70")]


def entry_totals(shop: Shop, entry_id: int) -> dict[str, tuple[Decimal, Decimal]]:
    """code -> (debit, credit) summed over an entry's lines (a line per customer on 110201)."""
    entry = shop.api.get(f"/journal-entries/{entry_id}", key=shop.key).json
    codes = {account_id: code for code, account_id in shop.books.accounts.items()}
    summed: dict[str, tuple[Decimal, Decimal]] = {}
    for line in entry["lines"]:
        debit, credit = summed.get(codes[line["chartOfAccountId"]], (D(0), D(0)))
        summed[codes[line["chartOfAccountId"]]] = (debit + D(str(line["debit"])), credit + D(str(line["credit"])))
    return summed


def receivables_by_partner(shop: Shop, date: str) -> Decimal:
    """The customers' ledgers at `date`, summed (aging reads them)."""
    aged = shop.api.get(f"/reports/aged-receivables?date={date}", key=shop.key).json
    return sum((D(str(row["total"])) for row in aged["partners"]), D(0))


def assert_books_whole(shop: Shop, receivable_at_month_end: str) -> None:
    """Trial balance zero on both days; the customers' ledgers equal 110201 on both; on the 1st
    everything is back at the booked 28,910.00."""
    for day, receivable in ((MONTH_END, D(receivable_at_month_end)), (FIRST, D("28910.00"))):
        assert_balanced(shop, day)
        assert balance_on(shop, "110201", day) == receivable == receivables_by_partner(shop, day)


def test_forty_customers_are_revalued_in_chunks(shop):
    forty_customers(shop)
    assert balance_on(shop, "110201", MONTH_END) == D("28910.00")
    done = revalue(shop)
    assert done["status"] == "posted" and len(done["lines"]) == 40
    assert (D(str(done["totalGain"])), D(str(done["totalLoss"]))) == (D("354.00"), 0)
    assert len(done["journalEntryIds"]) == len(done["reversalJournalEntryIds"]) == 4
    assert (done["journalEntryId"], done["reversalJournalEntryId"]) == \
           (done["journalEntryIds"][0], done["reversalJournalEntryIds"][0])
    for entry_id, reversal_id, gain in zip(done["journalEntryIds"], done["reversalJournalEntryIds"], CHUNK_GAINS,
                                           strict=True):
        # each chunk balances by itself: its customers' gains debited, their sum credited to 4205
        assert entry_totals(shop, entry_id) == {"110201": (gain, 0), "4205": (0, gain)}
        assert entry_totals(shop, reversal_id) == {"110201": (0, gain), "4205": (gain, 0)}
    entry = shop.api.get(f"/journal-entries/{done['journalEntryIds'][1]}", key=shop.key).json
    assert entry["description"].endswith("parte 2 de 4") and entry["date"] == MONTH_END
    # 28,910.00 + 354.00 = 29,264.00 = 1,180.00 x 24.80
    assert_books_whole(shop, "29264.00")
    assert balance_on(shop, "4205", MONTH_END) == D("354.00") and balance_on(shop, "4205", FIRST) == 0
    assert shop.api.get(f"/revaluations/{done['id']}", key=shop.key).json == {**done, "stale": False}


def test_a_revaluation_stopped_after_its_first_chunk_is_finished_by_asking_again(api, table, company_a, shop,
                                                                                   monkeypatch):
    from chalicelib.auth.principal import API_KEY, Principal
    from chalicelib.services.accounting import revaluation_chunks
    from chalicelib.services.accounting.posting import load_rules
    from chalicelib.services.commands import Command
    from chalicelib.store import keys
    from chalicelib.store.transaction import LostRace

    forty_customers(shop)
    write_chunk = revaluation_chunks.write_chunk

    def stopping(command, rule_list, record, number, answer):
        if number == 1:
            raise RuntimeError("the Lambda stopped")   # after chunk 0 committed
        return write_chunk(command, rule_list, record, number, answer)

    monkeypatch.setattr(revaluation_chunks, "write_chunk", stopping)
    revalue(shop, 500)   # what the client sees of a Lambda that stopped
    monkeypatch.setattr(revaluation_chunks, "write_chunk", write_chunk)
    stopped, = api.get("/revaluations", key=shop.key).json["data"]
    # the plan is whole (40 lines, 354.00), one chunk posted: 62.40
    assert stopped["status"] == "posting" and len(stopped["lines"]) == 40
    assert D(str(stopped["totalGain"])) == D("354.00") and len(stopped["journalEntryIds"]) == 1
    assert entry_totals(shop, stopped["journalEntryIds"][0]) == {"110201": (D("62.40"), 0), "4205": (0, D("62.40"))}
    # half-way and still whole: 28,910.00 + 62.40 = 28,972.40 on 110201 and in the customers' ledgers
    assert_books_whole(shop, "28972.40")
    # a request that read the record before chunk 0 was written (chunksPosted 0) writes nothing: it
    # loses the race (the route then runs it again from the record as it is)
    stale = {**table.get(keys.revaluation(company_a.company_id, MONTH_END)), "chunksPosted": 0,
             "journalEntryIds": [], "reversalJournalEntryIds": []}
    command = Command(Principal(API_KEY, company_a.company_id, company_a.user_id, "owner"), table)
    with pytest.raises(LostRace):
        write_chunk(command, load_rules(table, company_a.company_id), stale, 0, lambda record: record)
    assert_books_whole(shop, "28972.40")

    finished = revalue(shop)
    assert (finished["id"], finished["status"]) == (stopped["id"], "posted")
    assert finished["journalEntryIds"][0] == stopped["journalEntryIds"][0] and len(finished["journalEntryIds"]) == 4
    for entry_id, gain in zip(finished["journalEntryIds"], CHUNK_GAINS, strict=True):
        assert entry_totals(shop, entry_id) == {"110201": (gain, 0), "4205": (0, gain)}
    # nothing twice: 28,910.00 + 354.00 = 29,264.00
    assert_books_whole(shop, "29264.00")
    assert balance_on(shop, "4205", MONTH_END) == D("354.00")
    assert revalue(shop, 409)["code"] == "REVALUATION_EXISTS"


def test_a_seller_may_read_but_not_revalue(api, table, shop, company_a):
    dollar_invoice(shop)
    _, cookie = member(api, table, company_a, "vendedor@reval.hn", "seller")
    refused = api.post("/revaluations", {"date": MONTH_END}, cookie=cookie, origin=ORIGIN)
    assert (refused.status, refused.json["code"]) == (403, "PERMISSION_DENIED"), refused.text
    assert api.get("/revaluations", cookie=cookie).json["total"] == 0
    assert balance_on(shop, "110201", MONTH_END) == D("24500.00")     # nothing posted


def test_a_date_yet_to_come_is_refused_naming_date(shop):
    dollar_invoice(shop)
    # today is 2026-12-10 (Honduras: 12:00 that day); 2027-06-30 has no closing rate yet, and
    # before the fix it was revalued at 24.90 (the latest) with a 201
    refused = shop.api.post("/revaluations", {"date": "2027-06-30"}, key=shop.key)
    assert (refused.status, refused.json["details"][0]["field"]) == (400, "date"), refused.text
    spanish = shop.api.post("/revaluations", {"date": "2026-12-11"}, key=shop.key, headers={"Accept-Language": "es"})
    assert spanish.status == 400 and spanish.json["details"][0]["message"].startswith("no debe ser posterior a hoy")
    assert shop.api.get("/revaluations", key=shop.key).json["total"] == 0
    # today itself may be revalued: 1,000 x 24.90 - 24,500 = 400.00
    assert D(str(revalue(shop, date="2026-12-10")["totalGain"])) == D("400.00")


@pytest.mark.parametrize("said", ["yes", "no", "true", 1, 0])
def test_dry_run_takes_only_true_or_false(shop, said):
    dollar_invoice(shop)
    # "no" was taken for true by a lax bool? pydantic took "no" as False: a real revaluation posted
    refused = shop.api.post("/revaluations", {"date": MONTH_END, "dryRun": said}, key=shop.key)
    assert (refused.status, refused.json["details"][0]["field"]) == (400, "dryRun"), refused.text
    assert shop.api.get("/revaluations", key=shop.key).json["total"] == 0
    assert balance_on(shop, "110201", MONTH_END) == D("24500.00")
