"""Issue 39: the sales and purchase tax accounts (and the withholdings') are control accounts no
manual entry moves, so settling the month's ISV goes through POST /tax-settlements: the output
tax debited, the input credit offsetting it, the rest paid from a bank account (a withdrawal:
the bank account and its ledger move together), in one automatic entry. Every figure below is
worked out by hand in the comments."""
from __future__ import annotations

from decimal import Decimal

import pytest

from tests.documents_support import Shop
from tests.support import ORIGIN, RACES
from tests.users_support import member

D = Decimal
ISV_PAYABLE, ISV_CREDIT, BANK_LEDGER, WITHHELD = "210201", "110401", "110103", "210202"


@pytest.fixture
def shop(api, company_a) -> Shop:
    return Shop(api, company_a)


def bank_with_500(shop: Shop) -> dict:
    """A bank account on its own ledger (110103) with a deposit of 500.00 against sales income."""
    account = shop.created("/bank-accounts", {"name": "Cuenta corriente", "openingBalance": 0,
                                              "openingBalanceDate": "2026-10-01",
                                              "chartOfAccountId": shop.books[BANK_LEDGER]})
    shop.created(f"/bank-accounts/{account['id']}/transactions",
                 {"type": "deposit", "amount": "500.00", "transactionDate": "2026-10-01",
                  "chartOfAccountId": shop.books["410101"]})
    return account


def october_isv_90(shop: Shop) -> None:
    shop.document("01", [(shop.service, 1, 1000)], date="2026-10-05")    # 1,000.00 + 15 % = ISV 150.00
    shop.document("103", [(shop.product, 1, 400)], date="2026-10-06")    # 400.00 + 15 % = ISV 60.00


def bank_balance(shop: Shop, account_id: int) -> Decimal:
    return D(str(shop.api.get(f"/bank-accounts/{account_id}", key=shop.key).json["balance"]))


def settle(shop: Shop, body: dict, **how):
    if "cookie" in how:
        return shop.api.post("/tax-settlements", body, cookie=how["cookie"], origin=ORIGIN)
    return shop.api.post("/tax-settlements", body, key=shop.key)


def test_settling_october_offsets_the_credit_and_pays_the_rest_from_the_bank(api, shop):
    bank = bank_with_500(shop)
    october_isv_90(shop)
    assert (shop.balance(ISV_PAYABLE), shop.balance(ISV_CREDIT), shop.balance(BANK_LEDGER)) == (150, 60, 500)

    reply = settle(shop, {"date": "2026-11-15", "periodEnd": "2026-10-31", "bankAccountId": bank["id"]})
    assert reply.status == 201, reply.text
    settlement = reply.json
    # output 150.00; input 60.00 offsets 60.00 of it; 150.00 - 60.00 = 90.00 paid; no credit left
    assert {name: D(str(settlement[name])) for name in ("outputTax", "inputTax", "offset", "taxPaid",
                                                         "withholdingsPaid", "amountPaid", "creditCarriedForward")} == {
        "outputTax": D("150.00"), "inputTax": D("60.00"), "offset": D("60.00"), "taxPaid": D("90.00"),
        "withholdingsPaid": 0, "amountPaid": D("90.00"), "creditCarriedForward": 0}
    assert (settlement["date"], settlement["periodEnd"], settlement["bankAccountId"]) == (
        "2026-11-15", "2026-10-31", bank["id"])
    # debit ISV payable 150.00; credit ISV receivable 60.00 and the bank 90.00
    assert shop.entry_lines(settlement["journalEntryId"]) == {
        ISV_PAYABLE: (D("150.00"), 0), ISV_CREDIT: (0, D("60.00")), BANK_LEDGER: (0, D("90.00"))}
    entry = api.get(f"/journal-entries/{settlement['journalEntryId']}", key=shop.key).json
    assert (entry["entryType"], entry["source"]["type"], entry["source"]["id"], entry["date"]) == (
        "automatic", "tax_settlement", settlement["id"], "2026-11-15")

    # both tax accounts at 0.00; the bank's balance and its ledger both 500.00 - 90.00 = 410.00
    assert (shop.balance(ISV_PAYABLE), shop.balance(ISV_CREDIT)) == (0, 0)
    assert shop.balance(BANK_LEDGER) == D("410.00") == bank_balance(shop, bank["id"])
    books = shop.books.trial_balance()
    assert books["totalDebit"] == books["totalCredit"]
    withdrawals = api.get(f"/bank-accounts/{bank['id']}/transactions", key=shop.key).json["transactions"]
    assert [(t["type"], D(str(t["amount"])), t["journalEntryId"]) for t in withdrawals][0] == (
        "withdrawal", D("90.00"), settlement["journalEntryId"])

    listed = api.get("/tax-settlements", key=shop.key).json
    assert (listed["total"], [item["id"] for item in listed["taxSettlements"]]) == (1, [settlement["id"]])
    assert api.get(f"/tax-settlements/{settlement['id']}", key=shop.key).json == settlement
    assert api.get("/tax-settlements/99", key=shop.key).status == 404

    # the ISV summaries: October owed 90.00; nothing brought into November nor December
    october = api.get("/reports/isv-summary?month=2026-10", key=shop.key).json
    assert (october["outputTax"], october["inputTax"], october["taxPayable"]) == (150, 60, 90)
    for month in ("2026-11", "2026-12"):
        summary = api.get(f"/reports/isv-summary?month={month}", key=shop.key).json
        assert (summary["creditBroughtForward"], summary["taxPayable"], summary["creditCarriedForward"]) == (0, 0, 0)

    # the tax accounts stay control accounts: a manual entry against either is refused
    for code in (ISV_PAYABLE, ISV_CREDIT):
        manual = api.post("/journal-entries", {"date": "2026-11-20", "status": "posted", "lines": [
            {"chartOfAccountId": shop.books[code], "debit": "10.00", "credit": "0"},
            {"chartOfAccountId": shop.books["6199"], "debit": "0", "credit": "10.00"}]}, key=shop.key)
        assert (manual.status, manual.json["code"]) == (400, "CONTROL_ACCOUNT"), manual.text

    # October settled: settling it again is refused (its period ends before the settlement's date)...
    again = settle(shop, {"date": "2026-11-20", "periodEnd": "2026-10-31", "bankAccountId": bank["id"]})
    assert (again.status, again.json["code"], again.json["details"][0]["field"]) == (
        409, "TAX_SETTLEMENT_OVERLAP", "periodEnd")
    # ... and November, with nothing posted since, has nothing to settle
    nothing = settle(shop, {"date": "2026-12-10", "periodEnd": "2026-11-30", "bankAccountId": bank["id"]})
    assert (nothing.status, nothing.json["code"]) == (400, "NOTHING_TO_SETTLE"), nothing.text
    assert shop.balance(BANK_LEDGER) == D("410.00") == bank_balance(shop, bank["id"])


def test_a_seller_cannot_settle_the_tax(api, table, shop, company_a):
    bank = bank_with_500(shop)
    october_isv_90(shop)
    _, seller = member(api, table, company_a, "vendedor@alpha.example", "seller")
    reply = settle(shop, {"date": "2026-11-15", "periodEnd": "2026-10-31", "bankAccountId": bank["id"]}, cookie=seller)
    assert reply.status == 403, reply.text
    assert (shop.balance(ISV_PAYABLE), shop.balance(ISV_CREDIT), bank_balance(shop, bank["id"])) == (150, 60, 500)
    assert api.get("/tax-settlements", key=shop.key).json["total"] == 0
    # an accountant can
    _, accountant = member(api, table, company_a, "contador@alpha.example", "accountant")
    ok = settle(shop, {"date": "2026-11-15", "periodEnd": "2026-10-31", "bankAccountId": bank["id"]}, cookie=accountant)
    assert ok.status == 201, ok.text



def test_a_viewer_cannot_settle_and_another_companys_bank_or_settlement_is_not_reached(api, table, shop, company_a,
                                                                                       company_b):
    bank = bank_with_500(shop)
    october_isv_90(shop)
    _, viewer = member(api, table, company_a, "lector@alpha.example", "viewer")
    body = {"date": "2026-11-15", "periodEnd": "2026-10-31", "bankAccountId": bank["id"]}
    assert settle(shop, body, cookie=viewer).status == 403
    # company B's own bank account and settlement: B pays its own 90.00 (150.00 - 60.00) from it
    other = Shop(api, company_b)
    other_bank = bank_with_500(other)
    october_isv_90(other)
    theirs = settle(other, {**body, "bankAccountId": other_bank["id"]})
    assert theirs.status == 201, theirs.text
    # ids count per company: B's second bank account has an id A holds no account under
    ledger = other.created("/chart-of-accounts", {"code": "110199", "name": "Banco B dos", "type": "asset"})
    second = other.created("/bank-accounts", {"name": "Ahorro B", "openingBalance": 0, "openingBalanceDate": "2026-10-01",
                                              "chartOfAccountId": ledger["id"]})
    assert second["id"] != bank["id"]
    # A naming B's bank account: no such bank account for A, and nothing moves
    foreign = settle(shop, {**body, "bankAccountId": second["id"]})
    assert (foreign.status, foreign.json["details"][0]["field"]) == (400, "bankAccountId"), foreign.text
    assert (shop.balance(ISV_PAYABLE), shop.balance(ISV_CREDIT), bank_balance(shop, bank["id"])) == (150, 60, 500)
    # B's settlement is not A's: 404, and A's list is empty
    assert api.get(f"/tax-settlements/{theirs.json['id']}", key=shop.key).status == 404
    assert api.get("/tax-settlements", key=shop.key).json["total"] == 0
    # B's figures stayed B's: 500.00 - 90.00 = 410.00 in B's bank, A's untouched at 500.00
    assert bank_balance(other, other_bank["id"]) == D("410.00")

def test_more_input_than_output_leaves_the_credit_carried_forward(api, shop):
    shop.document("01", [(shop.service, 1, 200)], date="2026-10-05")     # 200.00 + 15 % = ISV 30.00
    shop.document("103", [(shop.product, 1, 400)], date="2026-10-06")    # 400.00 + 15 % = ISV 60.00
    # nothing to pay: no bank account needed
    reply = settle(shop, {"date": "2026-11-15", "periodEnd": "2026-10-31"})
    assert reply.status == 201, reply.text
    # output 30.00 offset by 30.00 of the 60.00 credit; 60.00 - 30.00 = 30.00 carried forward
    assert {name: D(str(reply.json[name])) for name in ("outputTax", "inputTax", "offset", "amountPaid",
                                                         "creditCarriedForward")} == {
        "outputTax": D("30.00"), "inputTax": D("60.00"), "offset": D("30.00"), "amountPaid": 0,
        "creditCarriedForward": D("30.00")}
    assert "bankAccountId" not in reply.json or reply.json["bankAccountId"] is None
    assert shop.entry_lines(reply.json["journalEntryId"]) == {ISV_PAYABLE: (D("30.00"), 0), ISV_CREDIT: (0, D("30.00"))}
    assert (shop.balance(ISV_PAYABLE), shop.balance(ISV_CREDIT)) == (0, D("30.00"))
    # December's summary brings the 30.00 forward from the books (the balances at November 30)
    december = api.get("/reports/isv-summary?month=2026-12", key=shop.key).json
    assert december["creditBroughtForward"] == 30


def test_withholdings_made_are_paid_in_the_same_settlement(api, shop):
    bank = bank_with_500(shop)
    october_isv_90(shop)
    purchase = shop.document("103", [(shop.product, 1, 100)], date="2026-10-07")   # 100.00 + ISV 15.00
    # we withheld 15.00 of ISV from the supplier: owed to the authority (210202)
    certificate = shop.document("05", [(None, 1, 15)], date="2026-10-08", partner=shop.supplier,
                                withholding={"tax": "isv", "side": "purchases"})
    shop.created(f"/payments/documents/{purchase['id']}/payments",
                 {"withholdingDocumentId": certificate["id"], "amount": 15, "paymentDate": "2026-10-08"})
    assert shop.balance(WITHHELD) == 15
    reply = settle(shop, {"date": "2026-11-15", "periodEnd": "2026-10-31", "bankAccountId": bank["id"],
                          "includeWithholdings": True})
    assert reply.status == 201, reply.text
    # output 150.00; input 60.00 + 15.00 = 75.00 offsets 75.00; 75.00 of ISV and 15.00 withheld: 90.00 paid
    assert {name: D(str(reply.json[name])) for name in ("outputTax", "inputTax", "taxPaid", "withholdingsPaid",
                                                         "amountPaid")} == {
        "outputTax": D("150.00"), "inputTax": D("75.00"), "taxPaid": D("75.00"), "withholdingsPaid": D("15.00"),
        "amountPaid": D("90.00")}
    assert shop.entry_lines(reply.json["journalEntryId"]) == {
        ISV_PAYABLE: (D("150.00"), 0), ISV_CREDIT: (0, D("75.00")), WITHHELD: (D("15.00"), 0),
        BANK_LEDGER: (0, D("90.00"))}
    assert (shop.balance(ISV_PAYABLE), shop.balance(ISV_CREDIT), shop.balance(WITHHELD)) == (0, 0, 0)
    assert shop.balance(BANK_LEDGER) == D("410.00") == bank_balance(shop, bank["id"])


def test_refusals_name_their_field_and_change_nothing(api, shop):
    bank = bank_with_500(shop)
    nothing = settle(shop, {"date": "2026-11-15", "periodEnd": "2026-10-31", "bankAccountId": bank["id"]})
    assert (nothing.status, nothing.json["code"], nothing.json["details"][0]["field"]) == (
        400, "NOTHING_TO_SETTLE", "periodEnd")
    october_isv_90(shop)

    def refused(body: dict, field: str, code: str = "VALIDATION_ERROR", status: int = 400) -> None:
        reply = settle(shop, body)
        assert (reply.status, reply.json["code"]) == (status, code), reply.text
        assert [d["field"] for d in reply.json["details"]] == [field], reply.text

    refused({"date": "2026-11-15", "periodEnd": "2026-10-31"}, "bankAccountId")            # 90.00 to pay
    refused({"date": "2026-10-30", "periodEnd": "2026-10-31", "bankAccountId": bank["id"]}, "date")
    refused({"date": "2026-11-15", "periodEnd": "2026-10-31", "bankAccountId": 99}, "bankAccountId")
    dollars_ledger = shop.created("/chart-of-accounts", {"code": "110104", "name": "Banco en dólares", "type": "asset"})
    dollars = shop.created("/bank-accounts", {"name": "Cuenta en dólares", "currency": "USD", "openingBalance": 0,
                                              "openingBalanceDate": "2026-10-01",
                                              "chartOfAccountId": dollars_ledger["id"]})
    refused({"date": "2026-11-15", "periodEnd": "2026-10-31", "bankAccountId": dollars["id"]}, "bankAccountId")
    refused({"date": "2026-11-15", "bankAccountId": bank["id"]}, "periodEnd")
    # a closed November: the entry would be dated in it
    november = shop.created("/accounting-periods", {"name": "Noviembre", "startDate": "2026-11-01",
                                                    "endDate": "2026-11-30"})
    assert api.post(f"/accounting-periods/{november['id']}/close", key=shop.key).status == 200
    closed = settle(shop, {"date": "2026-11-15", "periodEnd": "2026-10-31", "bankAccountId": bank["id"]})
    assert (closed.status, closed.json["code"]) == (400, "PERIOD_CLOSED"), closed.text

    # nothing moved: the tax accounts, the bank and its ledger, no settlement, no bank withdrawal
    assert (shop.balance(ISV_PAYABLE), shop.balance(ISV_CREDIT), shop.balance(BANK_LEDGER)) == (150, 60, 500)
    assert bank_balance(shop, bank["id"]) == 500
    assert api.get("/tax-settlements", key=shop.key).json["total"] == 0
    assert api.get(f"/bank-accounts/{bank['id']}/transactions", key=shop.key).json["total"] == 1
    # in December the same settlement goes through
    assert settle(shop, {"date": "2026-12-01", "periodEnd": "2026-10-31", "bankAccountId": bank["id"]}).status == 201


@RACES
def test_two_settlements_of_october_at_once_pay_it_once(api, monkeypatch, shop):
    from tests.race_support import hold_at_commit

    bank = bank_with_500(shop)
    october_isv_90(shop)
    body = {"date": "2026-11-15", "periodEnd": "2026-10-31", "bankAccountId": bank["id"]}
    race = hold_at_commit(monkeypatch, lambda: settle(shop, body), lambda: settle(shop, body))
    assert race.other.status == 201, race.other.text
    # the held one read the same balances, but the settlement guard had moved: its condition failed,
    # it was refused and wrote nothing
    assert race.lost == 1
    assert (race.held.status, race.held.json["code"]) == (409, "TAX_SETTLEMENT_OVERLAP"), race.held.text
    # 90.00 paid once: 500.00 - 90.00 = 410.00 in the bank and in its ledger
    assert shop.balance(BANK_LEDGER) == D("410.00") == bank_balance(shop, bank["id"])
    assert (shop.balance(ISV_PAYABLE), shop.balance(ISV_CREDIT)) == (0, 0)
    assert api.get("/tax-settlements", key=shop.key).json["total"] == 1


def test_what_posts_late_into_a_settled_month_is_in_the_next_settlement(api, shop):
    bank = bank_with_500(shop)
    october_isv_90(shop)
    first = settle(shop, {"date": "2026-11-15", "periodEnd": "2026-10-31", "bankAccountId": bank["id"]}).json
    assert D(str(first["amountPaid"])) == D("90.00")
    # after the settlement, an October invoice recorded late, and a November one
    shop.document("01", [(shop.service, 1, 100)], date="2026-10-20")     # 100.00 + 15 % = ISV 15.00
    shop.document("01", [(shop.service, 1, 200)], date="2026-11-03")     # 200.00 + 15 % = ISV 30.00
    second = settle(shop, {"date": "2026-12-10", "periodEnd": "2026-11-30", "bankAccountId": bank["id"]})
    assert second.status == 201, second.text
    # ISV payable at November 30: 150.00 + 15.00 + 30.00 - 150.00 (the first settlement) = 45.00; no credit
    assert (D(str(second.json["outputTax"])), D(str(second.json["inputTax"])), D(str(second.json["amountPaid"]))) == (
        D("45.00"), 0, D("45.00"))
    # the bank: 500.00 - 90.00 - 45.00 = 365.00, its ledger the same
    assert shop.balance(BANK_LEDGER) == D("365.00") == bank_balance(shop, bank["id"])
    assert [item["id"] for item in api.get("/tax-settlements", key=shop.key).json["taxSettlements"]] == [
        second.json["id"], first["id"]]


def test_a_refusal_speaks_spanish_when_asked(api, shop):
    october_isv_90(shop)
    reply = api.post("/tax-settlements", {"date": "2026-11-15", "periodEnd": "2026-10-31"}, key=shop.key,
                     headers={"Accept-Language": "es"})
    assert (reply.status, reply.json["details"][0]["field"]) == (400, "bankAccountId"), reply.text
    assert reply.json["message"] == "Cuenta bancaria: obligatorio: hay 90.00 por pagar", reply.json


def test_a_salvadoran_company_settles_its_iva_from_a_dollar_account(api, company_a, dte_authority):
    """The same use case for El Salvador's IVA: the company keeps its books in dollars, so a USD bank
    account is in its own currency."""
    shop = Shop(api, company_a, country="SV")
    today = shop.default_date
    shop.document("01", [(shop.service, 1, 100)], date=today)                # 100.00 + 13 % = IVA 13.00
    bank = shop.created("/bank-accounts", {"name": "Cuenta corriente", "currency": "USD", "openingBalance": 0,
                                           "openingBalanceDate": "2026-01-01", "chartOfAccountId": shop.books[BANK_LEDGER]})
    reply = settle(shop, {"date": today, "periodEnd": today, "bankAccountId": bank["id"]})
    assert reply.status == 201, reply.text
    # output 13.00, no input credit: 13.00 paid
    assert shop.entry_lines(reply.json["journalEntryId"]) == {ISV_PAYABLE: (D("13.00"), 0), BANK_LEDGER: (0, D("13.00"))}
    assert shop.balance(BANK_LEDGER) == D("-13.00") == bank_balance(shop, bank["id"])
