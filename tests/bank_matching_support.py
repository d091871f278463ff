"""What the statement-line matching tests share: a shop with a bank account, its lines, the match
calls and the invariants checked after every step (the books balanced, the bank account's balance
equal to its ledger account, the partners' balances equal to the receivable and payable controls)."""
from __future__ import annotations

from decimal import Decimal
from typing import Any

from tests.documents_support import Shop
from tests.statement_lines_support import put_lines

D = Decimal
OPENED = "2026-11-01"


def bank_account(shop: Shop, code: str = "110103", opening: str = "1000.00", name: str = "Cuenta corriente BAC") -> dict:
    return shop.created("/bank-accounts", {"name": name, "openingBalance": opening, "openingBalanceDate": OPENED,
                                           "chartOfAccountId": shop.books[code]})


def second_ledger(shop: Shop) -> None:
    """110104, the ledger a second bank account takes (a bank's ledger starts empty)."""
    if "110104" not in shop.books.accounts:
        shop.books.accounts["110104"] = shop.created("/chart-of-accounts", {"code": "110104", "name": "Banco ahorro",
                                                                           "type": "asset"})["id"]


def lines(shop: Shop, table: Any, account_id: int, *rows: tuple[str, str, str, str | None]) -> list[int]:
    return put_lines(table, shop.company.company_id, account_id, list(rows))


def path(account_id: int, line_id: int, action: str) -> str:
    return f"/bank-accounts/{account_id}/statement-lines/{line_id}/{action}"


def act(shop: Shop, account_id: int, line_id: int, action: str, body: Any = None, expect: int = 200,
        key: str | None = None) -> Any:
    reply = shop.api.post(path(account_id, line_id, action), body or {}, key=key or shop.key)
    assert reply.status == expect, reply.text
    return reply.json


def balance_of(shop: Shop, account_id: int) -> Decimal:
    return D(str(shop.api.get(f"/bank-accounts/{account_id}", key=shop.key).json["balance"]))


def transactions(shop: Shop, account_id: int) -> dict[int, dict]:
    listed = shop.api.get(f"/bank-accounts/{account_id}/transactions?limit=100", key=shop.key).json
    return {t["id"]: t for t in listed["transactions"]}


def pending(shop: Shop, document_id: int) -> Decimal:
    return D(str(shop.get(document_id)["pending"]))


def check_books(shop: Shop, banks: dict[str, int]) -> None:
    """The invariants: debits = credits; each bank account's balance = its ledger account's; the
    customer's receivable balance = 110201 and the supplier's payable balance = 210101 (the shop's
    only partners)."""
    trial = shop.books.trial_balance()
    assert D(str(trial["totalDebit"])) == D(str(trial["totalCredit"]))
    for code, account_id in banks.items():
        assert balance_of(shop, account_id) == shop.balance(code), code
    assert D(str(shop.partner(shop.customer).get("receivableBalance", 0))) == shop.balance("110201")
    # a liability's trial balance is credit-signed here as debit - credit: its negative is what is owed
    assert D(str(shop.partner(shop.supplier).get("payableBalance", 0))) == -shop.balance("210101")
