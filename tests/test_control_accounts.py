"""Control accounts: the receivable, payable and inventory accounts of the determination rules
and every bank account's ledger account move only through documents, payments, adjustments and
opening balances. A manual journal entry or a manual bank transaction against one is refused
with 400 CONTROL_ACCOUNT naming the field, whoever sends it, and nothing is written."""
from __future__ import annotations

from decimal import Decimal

import pytest

from tests.documents_support import Shop
from tests.support import ORIGIN
from tests.users_support import member

D = Decimal
CONTROL = ("110201", "210101", "210102", "110501")   # receivable, payables (local, 104), inventory


@pytest.fixture
def shop(api, company_a) -> Shop:
    return Shop(api, company_a)


def books(shop: Shop) -> dict:
    return shop.api.get("/journal-entries/trial-balance?date=2099-12-31", key=shop.key).json


def entry(shop: Shop, debit_code: str, credit_code: str, amount: str = "10.00", **body) -> dict:
    return {"date": "2026-11-05", "description": "Ajuste", **body,
            "lines": [{"chartOfAccountId": shop.books[debit_code], "debit": amount, "credit": "0"},
                      {"chartOfAccountId": shop.books[credit_code], "debit": "0", "credit": amount}]}


def test_a_seller_cannot_move_the_receivable_through_a_bank_deposit(api, table, shop, company_a):
    """The measured case: a deposit whose counterpart is the receivable made the account say
    679.00 while the partners said 680.00."""
    account = shop.created("/bank-accounts", {"name": "Cuenta corriente", "openingBalance": 0,
                                              "openingBalanceDate": "2026-11-01",
                                              "chartOfAccountId": shop.books["110103"]})
    shop.document("01", [(shop.service, 1, D("591.30"))])   # 591.30 + 15 % (88.695 -> 88.70) = 680.00
    _, seller = member(api, table, company_a, "vendedor@alpha.example", "seller")
    before = (books(shop), shop.partner(shop.customer)["receivableBalance"])
    path = f"/bank-accounts/{account['id']}/transactions"
    for code in CONTROL:
        reply = api.post(path, {"type": "deposit", "amount": "1.00", "transactionDate": "2026-11-05",
                                "chartOfAccountId": shop.books[code]}, cookie=seller, origin=ORIGIN)
        assert (reply.status, reply.json["code"]) == (400, "CONTROL_ACCOUNT"), (code, reply.text)
        assert [d["field"] for d in reply.json["details"]] == ["chartOfAccountId"]
    # the owner's API key neither
    reply = api.post(path, {"type": "withdrawal", "amount": "1.00", "transactionDate": "2026-11-05",
                            "chartOfAccountId": shop.books["110201"]}, key=shop.key)
    assert (reply.status, reply.json["code"]) == (400, "CONTROL_ACCOUNT"), reply.text
    assert (books(shop), shop.partner(shop.customer)["receivableBalance"]) == before
    assert shop.balance("110201") == D("680.00") == D(str(before[1]))
    assert api.get(f"{path}?limit=100", key=shop.key).json["total"] == 0
    # against income it goes through
    ok = api.post(path, {"type": "deposit", "amount": "1.00", "transactionDate": "2026-11-05",
                         "chartOfAccountId": shop.books["410101"]}, cookie=seller, origin=ORIGIN)
    assert ok.status == 201, ok.text


def test_another_bank_accounts_ledger_is_a_control_account(shop):
    first = shop.created("/bank-accounts", {"name": "Uno", "openingBalance": 0, "openingBalanceDate": "2026-11-01",
                                            "chartOfAccountId": shop.books["110103"]})
    second_ledger = shop.created("/chart-of-accounts", {"code": "110104", "name": "Banco dos", "type": "asset"})
    shop.created("/bank-accounts", {"name": "Dos", "openingBalance": 0, "openingBalanceDate": "2026-11-01",
                                    "chartOfAccountId": second_ledger["id"]})
    reply = shop.api.post(f"/bank-accounts/{first['id']}/transactions",
                          {"type": "deposit", "amount": "5.00", "transactionDate": "2026-11-05",
                           "chartOfAccountId": second_ledger["id"]}, key=shop.key)
    assert (reply.status, reply.json["code"]) == (400, "CONTROL_ACCOUNT"), reply.text
    shop.books.accounts["110104"] = second_ledger["id"]
    manual = shop.api.post("/journal-entries", entry(shop, "110104", "410101", status="posted"), key=shop.key)
    assert (manual.status, manual.json["code"]) == (400, "CONTROL_ACCOUNT"), manual.text


@pytest.mark.parametrize("role", ["owner", "accountant", "admin"])
def test_no_role_posts_a_manual_entry_to_a_control_account(api, table, shop, company_a, role):
    session = None if role == "owner" else member(api, table, company_a, f"{role}@alpha.example", role)[1]

    def post(path: str, body: dict | None = None):
        if session is None:
            return api.post(path, body, key=shop.key)
        return api.post(path, body, cookie=session, origin=ORIGIN)

    before = books(shop)
    for code in CONTROL:
        for status in ("draft", "posted"):
            reply = post("/journal-entries", entry(shop, "6199", code, status=status))
            assert (reply.status, reply.json["code"]) == (400, "CONTROL_ACCOUNT"), (code, reply.text)
            assert [d["field"] for d in reply.json["details"]] == ["lines[1].chartOfAccountId"]
    both = post("/journal-entries", entry(shop, "110201", "210101"))
    assert [d["field"] for d in both.json["details"]] == ["lines[0].chartOfAccountId", "lines[1].chartOfAccountId"]
    assert books(shop) == before
    assert api.get("/journal-entries", key=shop.key).json["total"] == 0
    assert post("/journal-entries", entry(shop, "6199", "410101", status="posted")).status == 201


def test_a_draft_whose_account_became_a_control_account_is_not_posted(api, shop):
    """A draft written against an account no rule named yet: posting it once a rule makes the
    account a control account is refused."""
    loose = shop.created("/chart-of-accounts", {"code": "110202", "name": "Clientes del exterior", "type": "asset"})
    shop.books.accounts["110202"] = loose["id"]
    draft = shop.created("/journal-entries", entry(shop, "110202", "410101"))
    shop.created("/account-determination-rules", {"operationType": "receivable", "documentType": "07",
                                          "chartOfAccountId": loose["id"]})
    refused = api.post(f"/journal-entries/{draft['id']}/post", key=shop.key)
    assert (refused.status, refused.json["code"]) == (400, "CONTROL_ACCOUNT"), refused.text
    assert api.get(f"/journal-entries/{draft['id']}", key=shop.key).json["status"] == "draft"
