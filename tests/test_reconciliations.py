"""Bank reconciliations: drafts, their cleared balance and difference, completion (which locks the
cleared transactions and moves the account's reconciled balance), refusals, web-only delete,
tenant isolation and concurrent completions."""
from __future__ import annotations

import threading
from concurrent.futures import ThreadPoolExecutor
from decimal import Decimal

import pytest

from tests.documents_support import Shop
from tests.support import OPENING_CHART, OPENING_RULES, ORIGIN, RACES, Books, CompanyFixture

D = Decimal
OPENED = "2026-11-01"


def opened_books(api, company: CompanyFixture) -> Books:
    """A small chart with the opening balance equity a bank account's opening balance posts against."""
    return Books(api, company, full=False, chart=OPENING_CHART, rules=OPENING_RULES)


@pytest.fixture
def books(api, company_a) -> Books:
    return opened_books(api, company_a)


def bank_account(books: Books, name: str = "Cuenta corriente", code: str = "110103", opening: str = "1000.00",
                 **fields) -> dict:
    reply = books.api.post("/bank-accounts", {"name": name, "openingBalance": opening, "openingBalanceDate": OPENED,
                                              "chartOfAccountId": books[code], **fields}, key=books.key)
    assert reply.status == 201, reply.text
    return reply.json


def move(books: Books, account_id: int, kind: str, amount: str, date: str) -> int:
    reply = books.api.post(f"/bank-accounts/{account_id}/transactions",
                           {"type": kind, "amount": amount, "transactionDate": date,
                            "chartOfAccountId": books["3101" if kind == "deposit" else "6199"]}, key=books.key)
    assert reply.status == 201, reply.text
    return reply.json["id"]


def path(account_id: int, reconciliation_id: int | None = None, action: str = "") -> str:
    base = f"/bank-accounts/{account_id}/reconciliations"
    return base + (f"/{reconciliation_id}" if reconciliation_id else "") + (f"/{action}" if action else "")


def create(books: Books, account_id: int, date: str, balance, cleared=(), expect: int = 201) -> dict:
    reply = books.api.post(path(account_id), {"statementDate": date, "statementBalance": balance,
                                              "clearedTransactionIds": list(cleared)}, key=books.key)
    assert reply.status == expect, reply.text
    return reply.json


def patch(books: Books, account_id: int, reconciliation_id: int, body: dict, headers: dict | None = None):
    return books.api.request("PATCH", path(account_id, reconciliation_id), body=body, key=books.key,
                             headers=headers)


def complete(books: Books, account_id: int, reconciliation_id: int, **kwargs):
    return books.api.post(path(account_id, reconciliation_id, "complete"), key=books.key, **kwargs)


def figures(reconciliation: dict) -> tuple:
    return tuple(D(str(reconciliation[name])) for name in ("openingBalance", "clearedBalance", "difference"))


def account(books: Books, account_id: int) -> dict:
    reply = books.api.get(f"/bank-accounts/{account_id}", key=books.key)
    assert reply.status == 200, reply.text
    return reply.json


def reconciled_flags(books: Books, account_id: int) -> dict[int, bool]:
    listed = books.api.get(f"/bank-accounts/{account_id}/transactions?limit=100", key=books.key).json
    return {t["id"]: t["reconciled"] for t in listed["transactions"]}


def test_draft_patch_complete_and_the_next_reconciliation(api, books):
    checking = bank_account(books)["id"]
    deposit = move(books, checking, "deposit", "500.00", "2026-11-05")
    cheque = move(books, checking, "withdrawal", "120.50", "2026-11-06")
    late_deposit = move(books, checking, "deposit", "80.00", "2026-11-20")
    december = move(books, checking, "withdrawal", "40.00", "2026-12-02")

    draft = create(books, checking, "2026-11-30", "1459.50", [deposit, cheque])
    assert (draft["status"], draft["version"], draft["bankAccountId"], draft["completedAt"]) == \
        ("draft", 1, checking, None)
    assert draft["clearedTransactionIds"] == [deposit, cheque] and draft["statementDate"] == "2026-11-30"
    # 1000 + 500 - 120.50 = 1379.50 cleared; the statement shows 1459.50: 80.00 still to clear
    assert figures(draft) == (D("1000.00"), D("1379.50"), D("80.00"))
    assert api.get(path(checking, draft["id"]), key=books.key).json == draft
    listed = api.get(path(checking), key=books.key).json
    assert (listed["total"], listed["page"], listed["limit"]) == (1, 1, 20)
    assert listed["reconciliations"] == [draft]

    unbalanced = complete(books, checking, draft["id"])
    assert unbalanced.status == 400 and unbalanced.json["code"] == "RECONCILIATION_UNBALANCED"
    assert unbalanced.json["details"][0]["field"] == "difference"
    assert unbalanced.json["details"][0]["message"].startswith("80.00")

    stale = patch(books, checking, draft["id"], {"clearedTransactionIds": [deposit]}, headers={"If-Match": "7"})
    assert stale.status == 409 and stale.json["code"] == "VERSION_CONFLICT"
    patched = patch(books, checking, draft["id"], {"clearedTransactionIds": [deposit, cheque, late_deposit]},
                    headers={"If-Match": "1"})
    assert patched.status == 200, patched.text
    assert patched.json["version"] == 2 and patched.json["clearedTransactionIds"] == [deposit, cheque, late_deposit]
    assert figures(patched.json) == (D("1000.00"), D("1459.50"), D("0.00"))
    balance_only = patch(books, checking, draft["id"], {"statementBalance": "1459.00", "version": 2})
    assert figures(balance_only.json) == (D("1000.00"), D("1459.50"), D("-0.50"))
    assert patch(books, checking, draft["id"], {"statementBalance": 1459.5}).json["version"] == 4

    done = complete(books, checking, draft["id"], headers={"If-Match": "4"})
    assert done.status == 200, done.text
    assert (done.json["status"], done.json["version"]) == ("completed", 5) and done.json["completedAt"]
    assert figures(done.json) == (D("1000.00"), D("1459.50"), D("0.00"))
    assert reconciled_flags(books, checking) == {deposit: True, cheque: True, late_deposit: True, december: False}
    transactions = api.get(f"/bank-accounts/{checking}/transactions", key=books.key).json["transactions"]
    assert {t["id"]: t.get("reconciliationId") for t in transactions} == \
        {deposit: draft["id"], cheque: draft["id"], late_deposit: draft["id"], december: None}
    state = account(books, checking)
    assert (D(str(state["reconciledBalance"])), D(str(state["balance"])), state["lastReconciliationDate"]) == \
        (D("1459.50"), D("1419.50"), "2026-11-30")

    # the next statement opens at the last one's closing balance
    second = create(books, checking, "2026-12-31", "1419.50", [december])
    assert figures(second) == (D("1459.50"), D("1419.50"), D("0.00"))
    assert complete(books, checking, second["id"]).json["status"] == "completed"
    listed = api.get(path(checking), key=books.key).json
    assert listed["total"] == 2 and [r["id"] for r in listed["reconciliations"]] == [second["id"], draft["id"]]
    assert [r["status"] for r in listed["reconciliations"]] == ["completed", "completed"]
    assert D(str(account(books, checking)["reconciledBalance"])) == D("1419.50")
    second_page = api.get(path(checking) + "?page=2&limit=1", key=books.key).json
    assert [r["id"] for r in second_page["reconciliations"]] == [draft["id"]] and second_page["total"] == 2
    # a statement may not go back before the last completed one
    early = create(books, checking, "2026-12-30", "1419.50", expect=400)
    assert early["details"][0]["field"] == "statementDate"


def test_an_unbalanced_completion_changes_nothing(api, books):
    checking = bank_account(books)["id"]
    deposit = move(books, checking, "deposit", "250.00", "2026-11-03")
    draft = create(books, checking, "2026-11-30", "1240.00", [deposit])
    assert figures(draft) == (D("1000.00"), D("1250.00"), D("-10.00"))
    refused = complete(books, checking, draft["id"])
    assert refused.status == 400 and refused.json["code"] == "RECONCILIATION_UNBALANCED"
    assert refused.json["details"][0]["message"].startswith("-10.00")
    assert api.get(path(checking, draft["id"]), key=books.key).json == draft
    assert reconciled_flags(books, checking) == {deposit: False}
    state = account(books, checking)
    assert D(str(state["reconciledBalance"])) == D("1000.00") and state.get("lastReconciliationDate") is None


def test_completed_transactions_and_reconciliations_are_locked(api, books, company_a):
    checking = bank_account(books)["id"]
    first_tx = move(books, checking, "deposit", "100.00", "2026-11-03")
    second_tx = move(books, checking, "withdrawal", "30.00", "2026-11-04")
    rival = create(books, checking, "2026-11-30", "1100.00", [first_tx])  # a draft that will lose it
    spare = create(books, checking, "2026-11-30", "1000.00")
    done = create(books, checking, "2026-11-30", "1100.00", [first_tx])
    assert complete(books, checking, done["id"]).status == 200

    again = create(books, checking, "2026-11-30", "1070.00", [second_tx, first_tx], expect=400)
    assert again["code"] == "BANK_TRANSACTION_RECONCILED"
    assert again["details"] == [{"field": "clearedTransactionIds[1]",
                                 "message": f"already reconciled by reconciliation {done['id']}"}]
    by_patch = patch(books, checking, spare["id"], {"clearedTransactionIds": [second_tx, first_tx]})
    assert by_patch.status == 400 and by_patch.json["code"] == "BANK_TRANSACTION_RECONCILED"
    assert by_patch.json["details"][0]["field"] == "clearedTransactionIds[1]"
    lost = complete(books, checking, rival["id"])
    assert lost.status == 400 and lost.json["code"] == "BANK_TRANSACTION_RECONCILED"
    assert api.get(path(checking, rival["id"]), key=books.key).json["status"] == "draft"

    cookie = api.login(company_a.email)
    for reply in (patch(books, checking, done["id"], {"statementBalance": 5}),
                  complete(books, checking, done["id"]),
                  api.delete(path(checking, done["id"]), cookie=cookie, origin=ORIGIN)):
        assert reply.status == 400 and reply.json["code"] == "INVALID_RECONCILIATION_STATUS", reply.text
    after = api.get(path(checking, done["id"]), key=books.key).json
    assert (after["status"], after["version"], D(str(after["statementBalance"]))) == ("completed", 2, D("1100.00"))
    assert D(str(account(books, checking)["reconciledBalance"])) == D("1100.00")
    # the losing draft can drop the reconciled transaction and clear what is left
    fixed = patch(books, checking, rival["id"], {"clearedTransactionIds": [second_tx], "statementBalance": 1070})
    assert figures(fixed.json) == (D("1100.00"), D("1070.00"), D("0.00"))
    assert complete(books, checking, rival["id"]).status == 200
    assert reconciled_flags(books, checking) == {first_tx: True, second_tx: True}


def test_cleared_transactions_must_be_this_accounts_unique_and_not_after_the_statement(api, books, company_b):
    checking = bank_account(books)["id"]
    savings = bank_account(books, "Ahorros", code="110101", opening="0.00")["id"]
    mine = move(books, checking, "deposit", "10.00", "2026-11-03")
    elsewhere = move(books, savings, "deposit", "20.00", "2026-11-03")
    later = move(books, checking, "deposit", "30.00", "2026-12-03")
    # company B's transaction ids go past A's: one of them names nothing of A's account
    other_books = opened_books(api, company_b)
    theirs = bank_account(other_books)["id"]
    foreign = [move(other_books, theirs, "deposit", "1.00", "2026-11-03") for _ in range(5)][-1]
    assert foreign not in (mine, elsewhere, later)

    cases = [
        ([mine, elsewhere], "clearedTransactionIds[1]", "no such transaction on this bank account"),
        ([foreign], "clearedTransactionIds[0]", "no such transaction on this bank account"),
        ([mine, 999999], "clearedTransactionIds[1]", "no such transaction on this bank account"),
        ([later], "clearedTransactionIds[0]", "dated 2026-12-03, after statementDate"),
        ([mine, later, mine], "clearedTransactionIds[1]", "dated 2026-12-03, after statementDate"),
    ]
    for cleared, field, message in cases:
        reply = create(books, checking, "2026-11-30", "1010.00", cleared, expect=400)
        assert reply["code"] == "VALIDATION_ERROR" and reply["details"][0] == {"field": field, "message": message}, \
            (cleared, reply)
    duplicated = create(books, checking, "2026-11-30", "1010.00", [mine, later, mine], expect=400)
    assert {"field": "clearedTransactionIds[2]", "message": "duplicate of clearedTransactionIds[0]"} in \
        duplicated["details"]
    too_many = create(books, checking, "2026-11-30", "1010.00", list(range(1, 97)), expect=400)
    assert too_many["details"][0]["field"] == "clearedTransactionIds"
    for bad in ([0], [-1], ["1"], [1.5], None):
        reply = api.post(path(checking), {"statementDate": "2026-11-30", "statementBalance": 1,
                                          "clearedTransactionIds": bad}, key=books.key)
        assert reply.status == 400 and reply.json["code"] == "VALIDATION_ERROR", (bad, reply.text)
    for body, field in (({"statementBalance": 1}, "statementDate"),
                        ({"statementDate": "2026-11-30"}, "statementBalance"),
                        ({"statementDate": "2026-02-30", "statementBalance": 1}, "statementDate"),
                        ({"statementDate": "2026-10-31", "statementBalance": 1}, "statementDate"),
                        ({"statementDate": "2026-11-30", "statementBalance": 1, "status": "completed"}, "status")):
        reply = api.post(path(checking), body, key=books.key)
        assert reply.status == 400 and reply.json["details"][0]["field"] == field, (body, reply.text)
    assert api.post(path(999), {"statementDate": "2026-11-30", "statementBalance": 1}, key=books.key).status == 404
    assert api.get(path(checking), key=books.key).json["total"] == 0

    # the same checks when a draft changes: a new statement date can leave a cleared transaction after it
    draft = create(books, checking, "2026-12-31", "1040.00", [mine, later])
    assert figures(draft) == (D("1000.00"), D("1040.00"), D("0.00"))
    moved = patch(books, checking, draft["id"], {"statementDate": "2026-11-30"})
    assert moved.status == 400 and moved.json["details"][0] == {
        "field": "clearedTransactionIds[1]", "message": "dated 2026-12-03, after statementDate"}
    for body in ({"clearedTransactionIds": [elsewhere]}, {"statementBalance": None}, {"clearedTransactionIds": None},
                 {"note": "x"}, {"clearedTransactionIds": list(range(1, 97))}):
        reply = patch(books, checking, draft["id"], body)
        assert reply.status == 400 and reply.json["code"] == "VALIDATION_ERROR", (body, reply.text)
    assert api.get(path(checking, draft["id"]), key=books.key).json == draft
    assert reconciled_flags(books, checking) == {mine: False, later: False}


def test_the_largest_reconciliation_completes_in_one_transaction(api, books):
    from chalicelib.models.banking import MAX_CLEARED_TRANSACTIONS
    from chalicelib.services.banking import reconciliations

    assert MAX_CLEARED_TRANSACTIONS == reconciliations.MAX_CLEARED == 95
    checking = bank_account(books, opening="0.00")["id"]
    cleared = [move(books, checking, "deposit", "1.00", "2026-11-03") for _ in range(95)]
    draft = create(books, checking, "2026-11-30", "95.00", cleared)
    assert figures(draft) == (D("0.00"), D("95.00"), D("0.00"))
    done = complete(books, checking, draft["id"])
    assert done.status == 200, done.text
    assert set(reconciled_flags(books, checking).values()) == {True}
    assert D(str(account(books, checking)["reconciledBalance"])) == D("95.00")


def test_an_overdrawn_statement_and_the_opening_balance_followed(api, books, table, company_a):
    checking = bank_account(books, opening="0.00")["id"]
    # an empty account's opening balance may still change; its reconciled balance follows
    draft = create(books, checking, "2026-11-30", "-50.00")
    assert figures(draft) == (D("0.00"), D("0.00"), D("-50.00"))
    assert api.put(f"/bank-accounts/{checking}", {"openingBalance": 100}, key=books.key).status == 200
    assert figures(api.get(path(checking, draft["id"]), key=books.key).json) == (D("100.00"), D("100.00"),
                                                                                D("-150.00"))
    overdraft = move(books, checking, "withdrawal", "150.00", "2026-11-10")
    done = patch(books, checking, draft["id"], {"clearedTransactionIds": [overdraft]})
    assert figures(done.json) == (D("100.00"), D("-50.00"), D("0.00"))
    assert complete(books, checking, draft["id"]).status == 200
    assert D(str(account(books, checking)["reconciledBalance"])) == D("-50.00")

    # an account written before reconciliations existed has reconciled nothing: its opening balance
    from chalicelib.store.repositories import bank_accounts
    legacy = bank_account(books, "Antigua", code="110101", opening="300.00")["id"]
    key = bank_accounts.account_key(company_a.company_id, legacy)
    table.client.update_item(TableName=table.name, Key={"PK": {"S": key["PK"]}, "SK": {"S": key["SK"]}},
                             UpdateExpression="REMOVE reconciledBalance")
    assert "reconciledBalance" not in table.get(key)
    zero = create(books, legacy, "2026-11-30", "300.00")
    assert figures(zero) == (D("300.00"), D("300.00"), D("0.00"))
    assert complete(books, legacy, zero["id"]).status == 200  # nothing cleared, balanced: allowed
    assert D(str(account(books, legacy)["reconciledBalance"])) == D("300.00")


def test_payment_bank_transactions_can_be_reconciled(api, company_a):
    shop = Shop(api, company_a)
    bank = shop.created("/bank-accounts", {"name": "Cuenta corriente", "openingBalance": 1000,
                                           "openingBalanceDate": OPENED, "chartOfAccountId": shop.books["110103"]})
    method = shop.created("/payments/methods", {"name": "Transferencia", "bankAccountId": bank["id"]})
    invoice = shop.document("01", [(shop.service, 2, 100)])  # 200 + 15% = 230
    payment = shop.created(f"/payments/documents/{invoice['id']}/payments",
                           {"paymentMethodId": method["id"], "amount": 230, "paymentDate": "2026-11-04"})
    draft = create(shop.books, bank["id"], "2026-11-30", "1230.00", [payment["bankTransactionId"]])
    assert figures(draft) == (D("1000.00"), D("1230.00"), D("0.00"))
    assert complete(shop.books, bank["id"], draft["id"]).status == 200
    assert reconciled_flags(shop.books, bank["id"]) == {payment["bankTransactionId"]: True}


def test_delete_is_web_only_and_for_drafts(api, books, company_a):
    checking = bank_account(books)["id"]
    draft = create(books, checking, "2026-11-30", "1000.00")
    refused = api.delete(path(checking, draft["id"]), key=books.key)
    assert refused.status == 403 and refused.json["code"] == "API_KEY_DELETE_FORBIDDEN"
    cookie = api.login(company_a.email)
    # an account with reconciliations cannot be deleted, even without transactions
    in_use = api.delete(f"/bank-accounts/{checking}", cookie=cookie, origin=ORIGIN)
    assert in_use.status == 400 and in_use.json["code"] == "BANK_ACCOUNT_IN_USE"
    stale = api.delete(path(checking, draft["id"]), cookie=cookie, origin=ORIGIN, headers={"If-Match": "2"})
    assert stale.status == 409
    deleted = api.delete(path(checking, draft["id"]), cookie=cookie, origin=ORIGIN)
    assert deleted.status == 200 and deleted.json == {"id": draft["id"], "deleted": True}
    assert api.get(path(checking, draft["id"]), key=books.key).status == 404
    assert api.get(path(checking), key=books.key).json["total"] == 0
    assert api.delete(path(checking, draft["id"]), cookie=cookie, origin=ORIGIN).status == 404
    assert api.delete(f"/bank-accounts/{checking}", cookie=cookie, origin=ORIGIN).status == 200


def test_another_companys_accounts_and_reconciliations_are_not_found(api, books, company_b):
    checking = bank_account(books)["id"]
    deposit = move(books, checking, "deposit", "5.00", "2026-11-03")
    draft = create(books, checking, "2026-11-30", "1005.00", [deposit])
    other_key = company_b.api_key
    cookie = api.login(company_b.email)

    def attempts(*, creating: bool):
        replies = [api.get(path(checking, draft["id"]), key=other_key),
                   api.request("PATCH", path(checking, draft["id"]), body={"statementBalance": 1}, key=other_key),
                   api.post(path(checking, draft["id"], "complete"), key=other_key),
                   api.delete(path(checking, draft["id"]), cookie=cookie, origin=ORIGIN)]
        if creating:
            replies += [api.get(path(checking), key=other_key),
                        api.post(path(checking), {"statementDate": "2026-11-30", "statementBalance": 1},
                                 key=other_key)]
        return replies

    for reply in attempts(creating=True):  # B has no bank account at all
        assert reply.status == 404 and reply.json["code"] == "NOT_FOUND", reply.text
    own = bank_account(opened_books(api, company_b))["id"]
    assert own == checking  # B's first account has the same id as A's, and is B's own
    for reply in attempts(creating=False):
        assert reply.status == 404 and reply.json["message"] == "Reconciliation not found.", reply.text
    assert api.get(path(checking), key=other_key).json == {"reconciliations": [], "total": 0, "page": 1,
                                                           "limit": 20, "nextCursor": None}
    assert api.get(path(checking, draft["id"]), key=books.key).json == draft
    assert reconciled_flags(books, checking) == {deposit: False}


@pytest.fixture
def meet_before_commit(monkeypatch):
    """Holds the first commit of each of `parties` threads until all have reached it, so that
    every one of them has read and decided before any writes."""
    from chalicelib.store import transaction as transaction_module

    def install(parties: int) -> None:
        barrier, local = threading.Barrier(parties, timeout=20), threading.local()
        original = transaction_module.Transaction.commit

        def commit(self):
            if not getattr(local, "met", False) and threading.current_thread() is not threading.main_thread():
                local.met = True
                barrier.wait()
            return original(self)

        monkeypatch.setattr(transaction_module.Transaction, "commit", commit)

    return install


@RACES
def test_two_drafts_clearing_one_transaction_completed_at_once_let_exactly_one_win(api, books, meet_before_commit):
    checking = bank_account(books)["id"]
    deposit = move(books, checking, "deposit", "75.00", "2026-11-03")
    drafts = [create(books, checking, "2026-11-30", "1075.00", [deposit])["id"] for _ in range(2)]
    meet_before_commit(2)
    with ThreadPoolExecutor(2) as pool:
        replies = list(pool.map(lambda rid: complete(books, checking, rid), drafts))
    assert sorted(r.status for r in replies) == [200, 400], [r.text for r in replies]
    loser = next(r for r in replies if r.status == 400)
    assert loser.json["code"] == "BANK_TRANSACTION_RECONCILED"
    states = sorted(api.get(path(checking, rid), key=books.key).json["status"] for rid in drafts)
    assert states == ["completed", "draft"]
    assert D(str(account(books, checking)["reconciledBalance"])) == D("1075.00")  # counted once


@RACES
def test_two_balanced_drafts_on_one_opening_balance_cannot_both_complete(api, books, meet_before_commit):
    """Each balances against the same reconciled balance; once one completes, the other's
    difference is no longer zero (the account's condition catches it, the retry reports it)."""
    checking = bank_account(books)["id"]
    first = move(books, checking, "deposit", "10.00", "2026-11-03")
    second = move(books, checking, "deposit", "20.00", "2026-11-04")
    drafts = [create(books, checking, "2026-11-30", "1010.00", [first])["id"],
              create(books, checking, "2026-11-30", "1020.00", [second])["id"]]
    meet_before_commit(2)
    with ThreadPoolExecutor(2) as pool:
        replies = list(pool.map(lambda rid: complete(books, checking, rid), drafts))
    assert sorted(r.status for r in replies) == [200, 400], [r.text for r in replies]
    assert next(r for r in replies if r.status == 400).json["code"] == "RECONCILIATION_UNBALANCED"
    winner = drafts[[r.status for r in replies].index(200)]
    expected = D("1010.00") if winner == drafts[0] else D("1020.00")
    assert D(str(account(books, checking)["reconciledBalance"])) == expected
    assert sum(reconciled_flags(books, checking).values()) == 1


@RACES
def test_many_concurrent_completions_of_one_transaction(api, books):
    checking = bank_account(books)["id"]
    deposit = move(books, checking, "deposit", "5.00", "2026-11-03")
    drafts = [create(books, checking, "2026-11-30", "1005.00", [deposit])["id"] for _ in range(4)]
    with ThreadPoolExecutor(4) as pool:
        statuses = list(pool.map(lambda rid: complete(books, checking, rid).status, drafts))
    assert sorted(statuses) == [200, 400, 400, 400]
    assert D(str(account(books, checking)["reconciledBalance"])) == D("1005.00")
    listed = api.get(path(checking), key=books.key).json["reconciliations"]
    assert sorted(r["status"] for r in listed) == ["completed", "draft", "draft", "draft"]
