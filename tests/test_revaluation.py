"""Month-end revaluation (issue 44, NIIF para PYMES 30.9): open dollar receivables, payables and a
dollar bank balance translated at the month end's rate, the unrealised difference posted on the
day and reversed on the 1st; the documents keep their own rate, so a payment's realised
difference is what it always was. Every figure worked by hand in the comments."""
from __future__ import annotations

from decimal import Decimal

import pytest

from tests.documents_support import Shop, dollar_shop
from tests.test_journal import period

D = Decimal
MONTH_END, FIRST = "2026-11-30", "2026-12-01"


@pytest.fixture
def shop(api, company_a) -> Shop:
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
    assert shop.api.get(f"/revaluations/{done['id']}", key=shop.key).json == done


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
