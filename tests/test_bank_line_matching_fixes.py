"""Statement-line matching, the reviewers' defects (issue 42): a reversed transaction (an unmatched
`create`'s, a cancelled payment's) neither suggested, matched nor cleared alone; a reconciliation
drafted from a statement refusing a transaction unmatched since; `transferToAccountId` taking the
transfer already waiting on this account instead of booking it twice; a match's tax rate and rule
checked; the webhook's payload. Figures by hand in the comments."""
from __future__ import annotations

import pytest

from chalicelib.store import keys
from tests.bank_matching_support import (
    D,
    act,
    balance_of,
    bank_account,
    check_books,
    lines,
    pending,
    second_ledger,
    transactions,
)
from tests.documents_support import Shop, outbox_payloads


@pytest.fixture
def shop(api, company_a) -> Shop:
    return Shop(api, company_a)


def _line(shop: Shop, account_id: int, line_id: int) -> dict:
    return shop.api.get(f"/bank-accounts/{account_id}/statement-lines/{line_id}", key=shop.key).json


def _commission_matched_and_unmatched(shop: Shop, table) -> tuple[dict, int, int, int]:
    """A -57.50 commission matched by creating a withdrawal (15% tax inside), then unmatched: the
    withdrawal and its reversal (a deposit of 57.50) stay in the account. Answers (account, line,
    withdrawal id, reversal id)."""
    account = bank_account(shop)  # opening 1,000.00
    fee, = lines(shop, table, account["id"], ("2026-11-06", "-57.50", "COMISION MANEJO CUENTA", "COM-11"))
    created = act(shop, account["id"], fee, "match", {"create": {
        "chartOfAccountId": shop.books["6199"], "description": "Comision", "taxRate": "0.15"}})
    tx_id, = created["match"]["transactionIds"]
    act(shop, account["id"], fee, "unmatch")
    reversal, = [t["id"] for t in transactions(shop, account["id"]).values() if t["id"] != tx_id]
    # 1,000.00 - 57.50 + 57.50 = 1,000.00
    assert balance_of(shop, account["id"]) == D("1000.00")
    return account, fee, tx_id, reversal


def test_a_reversed_withdrawal_is_not_suggested_nor_matched_again(shop, table):
    account, fee, tx_id, reversal = _commission_matched_and_unmatched(shop, table)
    listed = transactions(shop, account["id"])
    assert (listed[tx_id].get("reversedBy"), listed[reversal].get("reverses")) == (reversal, tx_id)
    suggested = [s.get("transactionId") for s in _line(shop, account["id"], fee).get("suggestions") or []]
    assert tx_id not in suggested and reversal not in suggested
    refused = act(shop, account["id"], fee, "match", {"transactionId": tx_id}, expect=400)
    assert refused["details"][0]["field"] == "transactionId"
    # nothing moved: the bank still at 1,000.00, the line still unmatched, the withdrawal free
    assert balance_of(shop, account["id"]) == D("1000.00")
    assert _line(shop, account["id"], fee)["status"] == "unmatched"
    assert transactions(shop, account["id"])[tx_id].get("statementLineId") is None
    check_books(shop, {"110103": account["id"]})


def test_a_cancelled_payment_s_transaction_is_not_matched_again(shop, table):
    account = bank_account(shop)
    shop.created("/payments/methods", {"name": "Transferencia BAC", "bankAccountId": account["id"]})
    invoice = shop.document("01", [(shop.service, 2, 100)])  # 2 x 100 = 200.00 + 15% 30.00 = 230.00
    line_id, = lines(shop, table, account["id"], ("2026-11-05", "230.00", "DEP", None))
    matched = act(shop, account["id"], line_id, "match", {"documents": [{"documentId": invoice["id"], "amount": "230.00"}]})
    tx_id, = matched["match"]["transactionIds"]
    act(shop, account["id"], line_id, "unmatch")
    listed = transactions(shop, account["id"])
    reversal = listed[tx_id]["reversedBy"]
    assert listed[reversal]["reverses"] == tx_id
    suggested = [s.get("transactionId") for s in _line(shop, account["id"], line_id).get("suggestions") or []]
    assert tx_id not in suggested
    refused = act(shop, account["id"], line_id, "match", {"transactionId": tx_id}, expect=400)
    assert refused["details"][0]["field"] == "transactionId"
    # the invoice still owes 230.00, the bank holds 1,000.00 (1,000.00 + 230.00 - 230.00)
    assert (pending(shop, invoice["id"]), balance_of(shop, account["id"])) == (D("230.00"), D("1000.00"))
    check_books(shop, {"110103": account["id"]})


def test_a_reconciliation_clears_a_reversed_transaction_only_with_its_reversal(shop, table):
    account, _, tx_id, reversal = _commission_matched_and_unmatched(shop, table)
    base = f"/bank-accounts/{account['id']}/reconciliations"
    # alone, the withdrawal would balance a statement at 1,000.00 - 57.50 = 942.50 that never showed it
    alone = shop.api.post(base, {"statementDate": "2026-11-30", "statementBalance": "942.50",
                                 "clearedTransactionIds": [tx_id]}, key=shop.key)
    assert (alone.status, alone.json["details"][0]["field"]) == (400, "clearedTransactionIds[0]")
    reversal_alone = shop.api.post(base, {"statementDate": "2026-11-30", "statementBalance": "1057.50",
                                          "clearedTransactionIds": [reversal]}, key=shop.key)
    assert (reversal_alone.status, reversal_alone.json["details"][0]["field"]) == (400, "clearedTransactionIds[0]")
    # both: 1,000.00 - 57.50 + 57.50 = 1,000.00, the bank's balance
    both = shop.created(base, {"statementDate": "2026-11-30", "statementBalance": "1000.00",
                               "clearedTransactionIds": [tx_id, reversal]})
    assert D(str(both["difference"])) == 0


def test_a_statement_draft_refuses_to_clear_a_transaction_unmatched_since(shop, table):
    account = bank_account(shop)  # opening 1,000.00
    fee, = lines(shop, table, account["id"], ("2026-11-06", "-57.50", "COMISION", "COM-11"))
    company_id = shop.company.company_id
    table.client.put_item(TableName=table.name, Item={
        **{name: {"S": value} for name, value in keys.bank_statement(company_id, account["id"], 1).items()},
        "itemType": {"S": keys.BANK_STATEMENT}, "id": {"N": "1"}, "periodEnd": {"S": "2026-11-30"},
        "closingBalance": {"N": "942.50"}})
    matched = act(shop, account["id"], fee, "match", {"create": {"chartOfAccountId": shop.books["6199"],
                                                                  "description": "Comision"}})
    tx_id, = matched["match"]["transactionIds"]
    draft = shop.created(f"/bank-accounts/{account['id']}/reconciliations", {"statementId": 1})
    # 1,000.00 - 57.50 = 942.50 = the statement's closing balance
    assert (draft["clearedTransactionIds"], D(str(draft["difference"]))) == ([tx_id], 0)
    act(shop, account["id"], fee, "unmatch")
    done = shop.api.post(f"/bank-accounts/{account['id']}/reconciliations/{draft['id']}/complete", {}, key=shop.key)
    assert (done.status, done.json["details"][0]["field"]) == (400, "clearedTransactionIds[0]")
    assert str(fee) in done.json["details"][0]["message"]
    # the books unchanged: the bank at 1,000.00 (withdrawn and reversed), nothing reconciled
    assert balance_of(shop, account["id"]) == D("1000.00") == shop.balance("110103")
    assert D(str(shop.api.get(f"/bank-accounts/{account['id']}", key=shop.key).json["reconciledBalance"])) == D("1000.00")
    assert not any(t.get("reconciled") for t in transactions(shop, account["id"]).values())


def test_the_second_account_s_transfer_line_takes_the_waiting_side_instead_of_booking_it_twice(shop, table):
    second_ledger(shop)
    checking, savings = bank_account(shop), bank_account(shop, code="110104", opening="0.00", name="Ahorro BAC")
    banks = {"110103": checking["id"], "110104": savings["id"]}
    out, = lines(shop, table, checking["id"], ("2026-11-08", "-500.00", "TRANSF A AHORRO", "TR-77"))
    into, = lines(shop, table, savings["id"], ("2026-11-10", "500.00", "TRANSF DE CORRIENTE", None))
    first = act(shop, checking["id"], out, "match", {"transferToAccountId": savings["id"]})
    waiting = first["match"]["otherTransactionId"]
    second = act(shop, savings["id"], into, "match", {"transferToAccountId": checking["id"]})
    assert (second["match"]["kind"], second["match"]["transactionIds"], second["match"]["otherTransactionId"],
            second["match"]["transferToAccountId"]) == ("transfer", [waiting], first["match"]["transactionIds"][0],
                                                        checking["id"])
    # booked once: checking 1,000.00 - 500.00 = 500.00, savings 0.00 + 500.00 = 500.00 (twice: 1,000.00 and 0.00)
    assert (balance_of(shop, checking["id"]), balance_of(shop, savings["id"])) == (D("500.00"), D("500.00"))
    assert len(transactions(shop, savings["id"])) == 1
    assert transactions(shop, savings["id"])[waiting]["statementLineId"] == into
    check_books(shop, banks)
    # unmatching the savings' line frees the side; the checking's line then reverses both
    act(shop, savings["id"], into, "unmatch")
    act(shop, checking["id"], out, "unmatch")
    assert (balance_of(shop, checking["id"]), balance_of(shop, savings["id"])) == (D("1000.00"), D("0.00"))
    check_books(shop, banks)


def test_a_match_s_tax_rate_must_be_one_of_the_country_s(shop, table):
    account = bank_account(shop)
    fee, = lines(shop, table, account["id"], ("2026-11-06", "-57.50", "COMISION", None))
    refused = act(shop, account["id"], fee, "match", {"create": {
        "chartOfAccountId": shop.books["6199"], "description": "Comision", "taxRate": "0.3333"}}, expect=400)
    assert refused["details"][0]["field"] == "create.taxRate"
    assert balance_of(shop, account["id"]) == D("1000.00")


def test_a_match_s_rule_must_exist(shop, table):
    account = bank_account(shop)
    fee, = lines(shop, table, account["id"], ("2026-11-06", "-57.50", "COMISION", None))
    refused = act(shop, account["id"], fee, "match", {"create": {
        "chartOfAccountId": shop.books["6199"], "description": "Comision"}, "ruleId": 999}, expect=400)
    assert (refused["details"][0]["field"], refused["details"][0]["message"]) == ("ruleId", "no such bank rule")
    assert _line(shop, account["id"], fee)["status"] == "unmatched"


def test_the_matched_event_names_the_statement_the_rule_and_the_documents(shop, table):
    account = bank_account(shop)
    shop.created("/payments/methods", {"name": "Transferencia BAC", "bankAccountId": account["id"]})
    invoice = shop.document("01", [(shop.service, 2, 100)])  # 200.00 + 15% 30.00 = 230.00
    paid, fee = lines(shop, table, account["id"], ("2026-11-05", "230.00", "DEP", None),
                      ("2026-11-06", "-57.50", "COMISION", None))
    rule = shop.created("/bank-rules", {"name": "Comisiones", "conditions": [
        {"field": "description", "operator": "contains", "value": "COMISION"}],
        "action": {"chartOfAccountId": shop.books["6199"], "description": "Comision"}})
    matched = act(shop, account["id"], paid, "match", {"documents": [{"documentId": invoice["id"], "amount": "230.00"}]})
    act(shop, account["id"], fee, "match", {"create": {"chartOfAccountId": shop.books["6199"],
                                                       "description": "Comision"}, "ruleId": rule["id"]})
    events = {e["data"]["id"]: e["data"] for e in outbox_payloads(table, shop.company.company_id)
              if e["event"] == "statement_line.matched"}
    payment_id, = matched["match"]["paymentIds"]
    assert (events[paid]["statementId"], events[paid]["bankAccountId"], "ruleId" in events[paid]) == (
        1, account["id"], False)
    assert [(d["documentId"], D(str(d["amount"])), d["paymentId"]) for d in events[paid]["documents"]] == [
        (invoice["id"], D("230.00"), payment_id)]
    assert (events[fee]["ruleId"], events[fee]["statementId"], "documents" in events[fee]) == (rule["id"], 1, False)
