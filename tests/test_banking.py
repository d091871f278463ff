"""Bank accounts, manual transactions and transfers: balances, entries and refusals."""
from __future__ import annotations

from decimal import Decimal

import pytest

from tests.support import ORIGIN, Books

D = Decimal


@pytest.fixture
def books(api, company_a) -> Books:
    return Books(api, company_a)


def bank_account(books: Books, name: str, code: str = "110103", opening: str = "1000.00", **fields) -> dict:
    reply = books.api.post("/bank-accounts", {"name": name, "bankName": "Banco Atlántida", "accountNumber": "0101-22",
                                              "openingBalance": opening, "openingBalanceDate": "2026-11-01",
                                              "chartOfAccountId": books[code], **fields}, key=books.key)
    assert reply.status == 201, reply.text
    return reply.json


def balance(books: Books, account_id: int) -> Decimal:
    return D(str(books.api.get(f"/bank-accounts/{account_id}", key=books.key).json["balance"]))


def test_deposits_withdrawals_and_transfers_move_balances_and_the_books(api, books):
    checking = bank_account(books, "Cuenta corriente")
    savings = bank_account(books, "Ahorros", code="110102", opening="0.00")
    assert D(str(checking["balance"])) == D("1000.00") and checking["transactionCount"] == 0
    deposit = api.post(f"/bank-accounts/{checking['id']}/transactions",
                       {"type": "deposit", "amount": 500, "transactionDate": "2026-11-05", "reference": "DEP-1",
                        "chartOfAccountId": books["3101"]}, key=books.key)
    assert deposit.status == 201, deposit.text
    assert (deposit.json["direction"], D(str(deposit.json["amount"]))) == ("credit", D("500.00"))
    withdrawal = api.post(f"/bank-accounts/{checking['id']}/transactions",
                          {"type": "withdrawal", "amount": 120.5, "transactionDate": "2026-11-06",
                           "chartOfAccountId": books["6199"]}, key=books.key).json
    assert withdrawal["direction"] == "debit"
    transfer = api.post("/bank-transactions/transfer", {"fromAccountId": checking["id"], "toAccountId": savings["id"],
                                                        "amount": 200, "transactionDate": "2026-11-07",
                                                        "reference": "TR-9"}, key=books.key)
    assert transfer.status == 201, transfer.text
    assert (transfer.json["outgoing"]["type"], transfer.json["incoming"]["type"]) == ("transfer_out", "transfer_in")
    assert balance(books, checking["id"]) == D("1179.50")  # 1000 + 500 - 120.50 - 200
    assert balance(books, savings["id"]) == D("200.00")
    listed = api.get(f"/bank-accounts/{checking['id']}/transactions", key=books.key).json
    assert listed["total"] == 3
    assert [t["type"] for t in listed["transactions"]] == ["transfer_out", "withdrawal", "deposit"]
    rows = {row["code"]: D(str(row["balance"])) for row in books.trial_balance()["accounts"]}
    # the ledger follows the bank: the opening balance posted with the account (debit 110103, credit
    # the opening balance equity 3401), then the transactions: 1000 + 500 - 120.50 - 200 = 1179.50,
    # the checking account's balance; savings opened at 0 (no entry), 0 + 200 = 200.00
    assert rows["110103"] == D("1179.50") and rows["110102"] == D("200.00")
    assert rows["3401"] == D("1000.00")  # the checking account's opening balance, on the credit side
    assert rows["3101"] == D("500.00") and rows["6199"] == D("120.50")
    entry = api.get(f"/journal-entries/{transfer.json['journalEntryId']}", key=books.key).json
    assert entry["source"]["type"] == "bank_transfer" and entry["entryType"] == "automatic"


def test_refusals_change_nothing(api, books, company_a):
    checking = bank_account(books, "Cuenta corriente")
    key = books.key
    dollars = api.post("/chart-of-accounts", {"code": "110199", "name": "Bancos en dólares", "type": "asset"},
                       key=key).json
    books.accounts["110199"] = dollars["id"]
    # opened at 0: a dollar opening balance would need the day's rate to post, and this account only
    # stands for "another currency" below
    other = bank_account(books, "Dólares", code="110199", currency="USD", opening="0.00")
    cases = [
        ("/bank-transactions/transfer", {"fromAccountId": checking["id"], "toAccountId": checking["id"], "amount": 5,
                                         "transactionDate": "2026-11-07"}, "toAccountId"),
        ("/bank-transactions/transfer", {"fromAccountId": checking["id"], "toAccountId": other["id"], "amount": 5,
                                         "transactionDate": "2026-11-07"}, "toAccountId"),
        ("/bank-transactions/transfer", {"fromAccountId": checking["id"], "toAccountId": other["id"], "amount": 0,
                                         "transactionDate": "2026-11-07"}, "amount"),
        ("/bank-transactions/transfer", {"fromAccountId": checking["id"], "toAccountId": other["id"], "amount": -5,
                                         "transactionDate": "2026-11-07"}, "amount"),
        (f"/bank-accounts/{checking['id']}/transactions", {"type": "deposit", "amount": 0, "transactionDate": "2026-11-07",
                                                          "chartOfAccountId": books["3101"]}, "amount"),
        (f"/bank-accounts/{checking['id']}/transactions", {"type": "deposit", "amount": 5, "transactionDate": "2026-11-07",
                                                          "chartOfAccountId": books["110103"]}, "chartOfAccountId"),
        (f"/bank-accounts/{checking['id']}/transactions", {"type": "fee", "amount": 5, "transactionDate": "2026-11-07",
                                                          "chartOfAccountId": books["3101"]}, "type"),
        ("/bank-accounts", {"name": "x", "openingBalanceDate": "2026-11-01", "chartOfAccountId": books["3101"]},
         "chartOfAccountId"),
    ]
    for path, body, field in cases:
        reply = api.post(path, body, key=key)
        assert reply.status == 400 and reply.json["details"][0]["field"] == field, (path, body, reply.text)
    assert balance(books, checking["id"]) == D("1000.00")
    assert api.get(f"/bank-accounts/{checking['id']}/transactions", key=key).json["total"] == 0
    # a linked ledger account cannot be deactivated (until its bank account is deleted, below)
    assert api.put(f"/chart-of-accounts/{books['110199']}", {"isActive": False}, key=key).json["code"] == "ACCOUNT_IN_USE"
    # the ledger account is fixed once there are transactions; the account can then only be deactivated
    api.post(f"/bank-accounts/{checking['id']}/transactions", {"type": "deposit", "amount": 5,
                                                              "transactionDate": "2026-11-07",
                                                              "chartOfAccountId": books["3101"]}, key=key)
    fixed = api.put(f"/bank-accounts/{checking['id']}", {"chartOfAccountId": books["110101"]}, key=key)
    assert fixed.status == 400 and fixed.json["code"] == "BANK_ACCOUNT_IN_USE"
    assert api.delete(f"/bank-accounts/{checking['id']}", key=key).json["code"] == "API_KEY_DELETE_FORBIDDEN"
    cookie = api.login(company_a.email)
    assert api.delete(f"/bank-accounts/{checking['id']}", cookie=cookie, origin=ORIGIN).json["code"] == \
        "BANK_ACCOUNT_IN_USE"
    assert api.put(f"/bank-accounts/{checking['id']}", {"isActive": False}, key=key).status == 200
    inactive = api.post(f"/bank-accounts/{checking['id']}/transactions",
                        {"type": "deposit", "amount": 5, "transactionDate": "2026-11-07",
                         "chartOfAccountId": books["3101"]}, key=key)
    assert inactive.status == 400
    assert api.delete(f"/bank-accounts/{other['id']}", cookie=cookie, origin=ORIGIN).status == 200
    assert api.put(f"/chart-of-accounts/{books['110199']}", {"isActive": False}, key=key).status == 200


def test_a_closed_period_refuses_bank_transactions(api, books):
    checking = bank_account(books, "Cuenta corriente")
    period = api.post("/accounting-periods", {"name": "Nov", "startDate": "2026-11-01", "endDate": "2026-11-30"},
                      key=books.key).json
    api.post(f"/accounting-periods/{period['id']}/close", key=books.key)
    refused = api.post(f"/bank-accounts/{checking['id']}/transactions",
                       {"type": "deposit", "amount": 5, "transactionDate": "2026-11-07",
                        "chartOfAccountId": books["3101"]}, key=books.key)
    assert refused.status == 400 and refused.json["code"] == "PERIOD_CLOSED"
    assert balance(books, checking["id"]) == D("1000.00")


def test_an_opening_balance_dated_in_a_closed_period_is_refused(api, books):
    """The opening balance posts on its date, so a closed period refuses it like any posting:
    nothing written, not even the bank account; opened at 0 (no entry) it is created."""
    period = api.post("/accounting-periods", {"name": "Nov", "startDate": "2026-11-01", "endDate": "2026-11-30"},
                      key=books.key).json
    api.post(f"/accounting-periods/{period['id']}/close", key=books.key)
    refused = api.post("/bank-accounts", {"name": "Cuenta corriente", "openingBalance": "1000.00",
                                          "openingBalanceDate": "2026-11-01", "chartOfAccountId": books["110103"]},
                       key=books.key)
    assert (refused.status, refused.json["code"]) == (400, "PERIOD_CLOSED"), refused.text
    assert api.get("/bank-accounts", key=books.key).json["total"] == 0
    assert books.trial_balance()["accounts"] == []
    assert D(str(bank_account(books, "Cuenta corriente", opening="0.00")["balance"])) == 0


def test_payment_methods_link_to_the_companys_bank_accounts_only(api, books, company_b):
    checking = bank_account(books, "Cuenta corriente")
    linked = api.post("/payments/methods", {"name": "Transferencia", "bankAccountId": checking["id"]}, key=books.key)
    assert linked.status == 201 and linked.json["bankAccountId"] == checking["id"]
    foreign = api.post("/payments/methods", {"name": "Robada", "bankAccountId": checking["id"]}, key=company_b.api_key)
    assert foreign.status == 400
    for path in (f"/bank-accounts/{checking['id']}", f"/bank-accounts/{checking['id']}/transactions"):
        assert api.get(path, key=company_b.api_key).status == 404
    assert api.put(f"/bank-accounts/{checking['id']}", {"name": "x"}, key=company_b.api_key).status == 404
    stolen = api.post(f"/bank-accounts/{checking['id']}/transactions",
                      {"type": "withdrawal", "amount": 5, "transactionDate": "2026-11-07", "chartOfAccountId": 1},
                      key=company_b.api_key)
    assert stolen.status == 404
    assert api.get("/bank-accounts", key=company_b.api_key).json["total"] == 0


def test_a_bank_account_and_a_product_answer_the_same_money_on_get_as_on_post(api, books):
    """DynamoDB keeps 1000.50 as 1000.5 (the tests' emulator too: infra/devstack/faithful_values.py):
    the store reads money at its cents, so the GET answers, as text, what the POST did."""
    created = books.api.post("/bank-accounts", {"name": "Cuenta en dólares", "openingBalance": "1000.50",
                                                "openingBalanceDate": "2026-11-01",
                                                "chartOfAccountId": books["110103"]}, key=books.key)
    assert created.status == 201, created.text
    read = api.get(f"/bank-accounts/{created.json['id']}", key=books.key)
    for name in ("openingBalance", "balance", "reconciledBalance"):
        assert f'"{name}":1000.50' in created.text.replace(" ", "") and f'"{name}":1000.50' in read.text.replace(" ", "")
    product = api.post("/products", {"code": "P-1", "name": "Café", "unitPrice": "10.50", "cost": "4.00"},
                       key=books.key)
    assert product.status == 201, product.text
    again = api.get(f"/products/{product.json['id']}", key=books.key)
    assert '"cost":4.00' in product.text.replace(" ", "") and '"cost":4.00' in again.text.replace(" ", "")
