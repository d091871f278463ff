"""Statement lines matched (issue 42, point 3): a deposit paying two invoices, a commission created
with its tax, a transfer matched on both accounts, an existing transaction (a pending payment's
confirmed), each unmatched back to the figures before; ignore and restore; amounts a cent off
refused; another company's line 404. Figures by hand in the comments; the invariants
(tests/bank_matching_support.check_books) after every step."""
from __future__ import annotations

import pytest

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


def test_a_deposit_pays_two_invoices_in_one_match_and_the_unmatch_leaves_everything_as_before(shop, table):
    account = bank_account(shop)  # opening 1,000.00
    method = shop.created("/payments/methods", {"name": "Transferencia BAC", "bankAccountId": account["id"]})
    first = shop.document("01", [(shop.service, 10, 100)])  # 10 x 100 = 1,000.00 + 15% ISV 150.00 = 1,150.00
    second = shop.document("01", [(shop.service, 5, 100)])  # 5 x 100 = 500.00 + 75.00 = 575.00
    assert D(str(shop.partner(shop.customer)["receivableBalance"])) == D("1725.00")  # 1,150.00 + 575.00
    banks = {"110103": account["id"]}
    check_books(shop, banks)
    line_id, = lines(shop, table, account["id"], ("2026-11-05", "1725.00", "DEPOSITO CLIENTE UNO", "DEP-881"))

    matched = act(shop, account["id"], line_id, "match", {"documents": [
        {"documentId": first["id"], "amount": "1150.00"}, {"documentId": second["id"], "amount": "575.00"}]})
    assert (matched["status"], matched["version"], matched["match"]["kind"]) == ("matched", 2, "documents")
    payment_ids, tx_ids = matched["match"]["paymentIds"], matched["match"]["transactionIds"]
    assert len(payment_ids) == 2 and len(tx_ids) == 2
    assert [(d["documentId"], D(str(d["amount"]))) for d in matched["match"]["documents"]] == [
        (first["id"], D("1150.00")), (second["id"], D("575.00"))]
    # both invoices paid: pending 0; the customer owes 1,725.00 - 1,150.00 - 575.00 = 0
    assert (pending(shop, first["id"]), pending(shop, second["id"])) == (0, 0)
    assert D(str(shop.partner(shop.customer)["receivableBalance"])) == 0
    # the bank: 1,000.00 + 1,725.00 = 2,725.00, two transactions carrying the line, by the method, on the line's date
    assert balance_of(shop, account["id"]) == D("2725.00") == shop.balance("110103")
    listed = transactions(shop, account["id"])
    assert sorted((D(str(listed[t]["amount"])), listed[t]["statementLineId"], listed[t]["transactionDate"])
                  for t in tx_ids) == [(D("575.00"), line_id, "2026-11-05"), (D("1150.00"), line_id, "2026-11-05")]
    payments = shop.api.get(f"/payments/documents/{first['id']}/payments", key=shop.key).json["payments"]
    assert [(p["status"], p["paymentMethodId"], p["paymentDate"]) for p in payments] == [
        ("confirmed", method["id"], "2026-11-05")]
    events = [p for p in outbox_payloads(table, shop.company.company_id) if p["event"] == "statement_line.matched"]
    assert [(e["data"]["id"], e["data"]["kind"], e["data"]["transactionIds"]) for e in events] == [
        (line_id, "documents", tx_ids)]
    check_books(shop, banks)

    again = act(shop, account["id"], line_id, "match", {"documents": [
        {"documentId": first["id"], "amount": "1150.00"}]}, expect=409)
    assert again["code"] == "STATEMENT_LINE_NOT_UNMATCHED"

    # a payment of the match is undone by unmatching the line, not cancelled alone
    alone = shop.api.post(f"/payments/documents/{first['id']}/payments/{payment_ids[0]}/cancel", {"reason": "x"},
                          key=shop.key)
    assert (alone.status, alone.json["code"]) == (409, "BANK_TRANSACTION_ALREADY_MATCHED")

    unmatched = act(shop, account["id"], line_id, "unmatch")
    assert (unmatched["status"], unmatched["version"], unmatched.get("match")) == ("unmatched", 3, None)
    # as before: pendings 1,150.00 and 575.00, the customer owes 1,725.00, the bank holds 1,000.00
    assert (pending(shop, first["id"]), pending(shop, second["id"])) == (D("1150.00"), D("575.00"))
    assert D(str(shop.partner(shop.customer)["receivableBalance"])) == D("1725.00") == shop.balance("110201")
    assert balance_of(shop, account["id"]) == D("1000.00") == shop.balance("110103")
    statuses = [p["status"] for document in (first, second) for p in shop.api.get(
        f"/payments/documents/{document['id']}/payments", key=shop.key).json["payments"]]
    assert statuses == ["cancelled", "cancelled"]
    # the original transactions are free of the line (each with its reversal beside it)
    listed = transactions(shop, account["id"])
    assert all(listed[t].get("statementLineId") is None for t in tx_ids) and len(listed) == 4
    check_books(shop, banks)


def test_documents_refused_a_cent_off_of_the_wrong_side_or_over_their_pending(shop, table):
    account = bank_account(shop)
    shop.created("/payments/methods", {"name": "Transferencia BAC", "bankAccountId": account["id"]})
    invoice = shop.document("01", [(shop.service, 10, 100)])  # 1,150.00
    purchase = shop.document("103", [(shop.service, 1, 100)])  # a supplier's invoice: 100.00 + 15.00 = 115.00
    deposit, withdrawal = lines(shop, table, account["id"], ("2026-11-05", "1150.00", "DEPOSITO", None),
                                ("2026-11-05", "-115.00", "PAGO PROVEEDOR", None))
    base = f"/bank-accounts/{account['id']}/statement-lines/{deposit}/match"
    # 1,149.99 is a cent short of the line's 1,150.00
    short = act(shop, account["id"], deposit, "match", {"documents": [{"documentId": invoice["id"],
                                                                       "amount": "1149.99"}]}, expect=400)
    assert short["code"] == "MATCH_AMOUNT_MISMATCH" and short["details"][0]["field"] == "documents"
    wrong_side = act(shop, account["id"], withdrawal, "match", {"documents": [{"documentId": invoice["id"],
                                                                               "amount": "115.00"}]}, expect=400)
    assert wrong_side["details"][0]["field"] == "documents[0].documentId"
    both = shop.api.post(base, {"documents": [{"documentId": invoice["id"], "amount": "1150.00"}],
                                "transactionId": 1}, key=shop.key)
    assert both.status == 400
    seven = [{"documentId": invoice["id"], "amount": "1"}] * 7  # more than the 6 one transaction holds
    assert shop.api.post(base, {"documents": seven}, key=shop.key).status == 400
    # nothing written by any of them
    assert pending(shop, invoice["id"]) == D("1150.00") and balance_of(shop, account["id"]) == D("1000.00")
    paid = act(shop, account["id"], withdrawal, "match", {"documents": [{"documentId": purchase["id"],
                                                                         "amount": "115.00"}]})
    assert paid["status"] == "matched" and pending(shop, purchase["id"]) == 0
    # 1,000.00 - 115.00 = 885.00; the supplier is owed 0
    assert balance_of(shop, account["id"]) == D("885.00")
    check_books(shop, {"110103": account["id"]})


def test_a_commission_line_creates_a_withdrawal_with_its_input_tax_and_unmatch_reverses_it(shop, table):
    account = bank_account(shop)
    fee, interest = lines(shop, table, account["id"], ("2026-11-06", "-57.50", "COMISION MANEJO CUENTA", "COM-11"),
                          ("2026-11-07", "115.00", "INTERESES GANADOS", None))
    banks = {"110103": account["id"]}
    created = act(shop, account["id"], fee, "match", {"create": {
        "chartOfAccountId": shop.books["6199"], "description": "Comisión bancaria", "taxRate": "0.15"}})
    assert created["match"]["kind"] == "create"
    tx_id, = created["match"]["transactionIds"]
    # 57.50 includes 15%: base = 57.50 / 1.15 = 50.00, tax = 57.50 - 50.00 = 7.50 (input tax, 110401)
    assert shop.entry_lines(created["match"]["journalEntryId"]) == {
        "6199": (D("50.00"), 0), "110401": (D("7.50"), 0), "110103": (0, D("57.50"))}
    listed = transactions(shop, account["id"])
    assert (listed[tx_id]["type"], D(str(listed[tx_id]["amount"])), listed[tx_id]["statementLineId"]) == (
        "withdrawal", D("57.50"), fee)
    assert balance_of(shop, account["id"]) == D("942.50")  # 1,000.00 - 57.50
    check_books(shop, banks)
    # money in with a tax: output tax. 115.00 / 1.15 = 100.00 income, 15.00 ISV por pagar (210201)
    earned = act(shop, account["id"], interest, "match", {"create": {
        "chartOfAccountId": shop.books["410101"], "description": "Intereses", "taxRate": "0.15"}})
    assert shop.entry_lines(earned["match"]["journalEntryId"]) == {
        "110103": (D("115.00"), 0), "410101": (0, D("100.00")), "210201": (0, D("15.00"))}
    assert balance_of(shop, account["id"]) == D("1057.50")  # 942.50 + 115.00
    check_books(shop, banks)

    act(shop, account["id"], fee, "unmatch")
    act(shop, account["id"], interest, "unmatch")
    # every figure as before: the bank at 1,000.00, the expense, the tax and the income at 0
    assert balance_of(shop, account["id"]) == D("1000.00")
    assert [shop.balance(code) for code in ("6199", "110401", "410101", "210201")] == [0, 0, 0, 0]
    listed = transactions(shop, account["id"])
    assert listed[tx_id].get("statementLineId") is None
    # the two created, their two reversals: a deposit of 57.50 and a withdrawal of 115.00
    assert sorted((t["type"], D(str(t["amount"]))) for t in listed.values()) == [
        ("deposit", D("57.50")), ("deposit", D("115.00")), ("withdrawal", D("57.50")), ("withdrawal", D("115.00"))]
    check_books(shop, banks)


def test_a_transfer_is_matched_on_both_accounts_and_unmatched_only_from_the_last(shop, table):
    second_ledger(shop)
    checking, savings = bank_account(shop), bank_account(shop, code="110104", opening="0.00", name="Ahorro BAC")
    banks = {"110103": checking["id"], "110104": savings["id"]}
    out, = lines(shop, table, checking["id"], ("2026-11-08", "-500.00", "TRANSF A AHORRO", "TR-77"))
    into, = lines(shop, table, savings["id"], ("2026-11-08", "500.00", "TRANSF DE CORRIENTE", "TR-77"))
    matched = act(shop, checking["id"], out, "match", {"transferToAccountId": savings["id"]})
    mine, = matched["match"]["transactionIds"]
    assert matched["match"]["transferToAccountId"] == savings["id"]
    # -500.00 on the checking account: from it to the savings. 1,000.00 - 500.00 = 500.00; 0 + 500.00 = 500.00
    assert (balance_of(shop, checking["id"]), balance_of(shop, savings["id"])) == (D("500.00"), D("500.00"))
    other = [t for t in transactions(shop, savings["id"]).values() if t["type"] == "transfer_in"]
    assert len(other) == 1 and other[0].get("statementLineId") is None  # left for the savings' line
    assert matched["match"]["otherTransactionId"] == other[0]["id"]
    assert transactions(shop, checking["id"])[mine]["type"] == "transfer_out"
    check_books(shop, banks)
    act(shop, savings["id"], into, "match", {"transactionId": other[0]["id"]})
    assert transactions(shop, savings["id"])[other[0]["id"]]["statementLineId"] == into

    refused = act(shop, checking["id"], out, "unmatch", expect=409)
    assert refused["code"] == "BANK_TRANSACTION_ALREADY_MATCHED"  # the savings' line holds the other side
    act(shop, savings["id"], into, "unmatch")  # the transaction is free again, nothing else moves
    assert balance_of(shop, savings["id"]) == D("500.00")
    act(shop, checking["id"], out, "unmatch")  # now both sides reversed
    assert (balance_of(shop, checking["id"]), balance_of(shop, savings["id"])) == (D("1000.00"), D("0.00"))
    check_books(shop, banks)


def test_an_existing_transaction_matches_to_the_cent_and_a_pending_payment_is_confirmed_by_it(shop, table):
    account = bank_account(shop)
    banks = {"110103": account["id"]}
    deposit = shop.created(f"/bank-accounts/{account['id']}/transactions", {
        "type": "deposit", "amount": "250.00", "transactionDate": "2026-11-03", "chartOfAccountId": shop.books["3401"]})
    cheque = shop.created("/payments/methods", {"name": "Cheque", "bankAccountId": account["id"],
                                                "requiresConfirmation": True})
    invoice = shop.document("01", [(shop.service, 2, 100)])  # 200.00 + 30.00 = 230.00
    payment = shop.created(f"/payments/documents/{invoice['id']}/payments",
                           {"paymentMethodId": cheque["id"], "amount": "230.00", "paymentDate": "2026-11-04"})
    assert payment["status"] == "pending"
    cent, wrong_way, exact, cheque_line = lines(
        shop, table, account["id"], ("2026-11-03", "250.01", "DEPOSITO", None), ("2026-11-03", "-250.00", "X", None),
        ("2026-11-03", "250.00", "DEPOSITO", None), ("2026-11-05", "230.00", "CHEQUE 1001", None))
    for line_id in (cent, wrong_way):  # 250.01 is a cent over; -250.00 is money out
        refused = act(shop, account["id"], line_id, "match", {"transactionId": deposit["id"]}, expect=400)
        assert (refused["code"], refused["details"][0]["field"]) == ("MATCH_AMOUNT_MISMATCH", "transactionId")
    matched = act(shop, account["id"], exact, "match", {"transactionId": deposit["id"]})
    assert matched["match"]["transactionIds"] == [deposit["id"]]
    taken = act(shop, account["id"], cent, "match", {"transactionId": deposit["id"]}, expect=409)
    assert taken["code"] == "BANK_TRANSACTION_ALREADY_MATCHED"
    before = balance_of(shop, account["id"])  # 1,000.00 + 250.00 + 230.00 = 1,480.00
    assert before == D("1480.00")

    by_cheque = act(shop, account["id"], cheque_line, "match", {"transactionId": payment["bankTransactionId"]})
    assert by_cheque["match"]["confirmedPaymentId"] == payment["id"]
    confirmed = shop.api.get(f"/payments/documents/{invoice['id']}/payments", key=shop.key).json["payments"][0]
    assert confirmed["status"] == "confirmed"
    events = [p["event"] for p in outbox_payloads(table, shop.company.company_id)]
    assert events.count("payment.confirmed") == 1
    act(shop, account["id"], cheque_line, "unmatch")  # the money did move: the payment stays confirmed
    assert shop.api.get(f"/payments/documents/{invoice['id']}/payments",
                        key=shop.key).json["payments"][0]["status"] == "confirmed"
    act(shop, account["id"], exact, "unmatch")
    assert transactions(shop, account["id"])[deposit["id"]].get("statementLineId") is None
    assert balance_of(shop, account["id"]) == before  # matching moves no money
    act(shop, account["id"], exact, "match", {"transactionId": deposit["id"]})  # free again
    check_books(shop, banks)


def test_ignore_and_restore_each_only_from_its_status(shop, table):
    account = bank_account(shop)
    line_id, = lines(shop, table, account["id"], ("2026-11-05", "-3.00", "AJUSTE BANCO", None))
    key = {"PK": f"C#{shop.company.company_id}#BANKLINE#{account['id']}"}
    assert act(shop, account["id"], line_id, "unmatch", expect=409)["code"] == "STATEMENT_LINE_NOT_MATCHED"
    assert act(shop, account["id"], line_id, "unignore", expect=409)["code"] == "STATEMENT_LINE_NOT_IGNORED"
    ignored = act(shop, account["id"], line_id, "ignore")
    assert (ignored["status"], ignored["version"]) == ("ignored", 2)
    item, = table.query(partition=("PK", key["PK"]), consistent=True)[0]
    assert item["GSI1PK"] == f"{key['PK']}#ignored"  # listed by status: under ignored now
    assert act(shop, account["id"], line_id, "ignore", expect=409)["code"] == "STATEMENT_LINE_NOT_UNMATCHED"
    refused = act(shop, account["id"], line_id, "match", {"create": {"chartOfAccountId": shop.books["6199"],
                                                                     "description": "Ajuste"}}, expect=409)
    assert refused["code"] == "STATEMENT_LINE_NOT_UNMATCHED"
    restored = act(shop, account["id"], line_id, "unignore")
    assert (restored["status"], restored["version"]) == ("unmatched", 3)
    item, = table.query(partition=("PK", key["PK"]), consistent=True)[0]
    assert item["GSI1PK"] == f"{key['PK']}#unmatched"
    assert balance_of(shop, account["id"]) == D("1000.00")


def test_another_company_s_lines_and_transactions_answer_404(api, shop, table, company_b):
    account = bank_account(shop)
    line_id, = lines(shop, table, account["id"], ("2026-11-05", "100.00", "DEPOSITO", None))
    deposit = shop.created(f"/bank-accounts/{account['id']}/transactions", {
        "type": "deposit", "amount": "100.00", "transactionDate": "2026-11-03", "chartOfAccountId": shop.books["3401"]})
    for action, body in (("match", {"transactionId": deposit["id"]}), ("ignore", {}), ("unmatch", {}),
                         ("unignore", {})):
        reply = api.post(f"/bank-accounts/{account['id']}/statement-lines/{line_id}/{action}", body,
                         key=company_b.api_key)
        assert reply.status == 404, reply.text
    beta = Shop(api, company_b)
    theirs = bank_account(beta)
    their_line, = lines(beta, table, theirs["id"], ("2026-11-05", "100.00", "DEPOSITO", None))
    # Beta's own line, Alpha's transaction: not Beta's to match
    assert act(beta, theirs["id"], their_line, "match", {"transactionId": deposit["id"]}, expect=404)
    assert act(shop, account["id"], line_id + 1000, "ignore", expect=404)


def test_six_invoices_of_one_customer_in_one_line_fit_one_transaction(shop, table):
    """The cap's worst case here: six payments, one partner, one bank account, each written once."""
    account = bank_account(shop)
    shop.created("/payments/methods", {"name": "Transferencia BAC", "bankAccountId": account["id"]})
    # invoices of 1..6 services at 100.00 + 15%: 115.00, 230.00, ..., 690.00; together 115.00 x 21 = 2,415.00
    invoices = [shop.document("01", [(shop.service, n, 100)]) for n in range(1, 7)]
    line_id, = lines(shop, table, account["id"], ("2026-11-05", "2415.00", "DEPOSITO VARIOS", None))
    matched = act(shop, account["id"], line_id, "match", {"documents": [
        {"documentId": invoice["id"], "amount": f"{115 * n}.00"} for n, invoice in enumerate(invoices, start=1)]})
    assert len(matched["match"]["paymentIds"]) == 6
    assert [pending(shop, invoice["id"]) for invoice in invoices] == [0] * 6
    assert balance_of(shop, account["id"]) == D("3415.00")  # 1,000.00 + 2,415.00
    assert D(str(shop.partner(shop.customer)["receivableBalance"])) == 0
    check_books(shop, {"110103": account["id"]})
    act(shop, account["id"], line_id, "unmatch")  # six cancellations, one transaction too
    assert balance_of(shop, account["id"]) == D("1000.00")
    assert D(str(shop.partner(shop.customer)["receivableBalance"])) == D("2415.00")
    check_books(shop, {"110103": account["id"]})


def test_six_invoices_paid_in_part_in_one_line_fit_one_transaction(shop, table):
    """Paid in part, each invoice's open-document item is rewritten with what it still owes (where
    paid off it is deleted): one operation either way, so the cap holds."""
    account = bank_account(shop)
    shop.created("/payments/methods", {"name": "Transferencia BAC", "bankAccountId": account["id"]})
    invoices = [shop.document("01", [(shop.service, n, 100)]) for n in range(1, 7)]   # 115.00 x n
    # each paid 1.00 short: 2,415.00 - 6 x 1.00 = 2,409.00
    line_id, = lines(shop, table, account["id"], ("2026-11-05", "2409.00", "DEPOSITO VARIOS", None))
    matched = act(shop, account["id"], line_id, "match", {"documents": [
        {"documentId": invoice["id"], "amount": f"{115 * n - 1}.00"} for n, invoice in enumerate(invoices, start=1)]})
    assert len(matched["match"]["paymentIds"]) == 6
    assert [pending(shop, invoice["id"]) for invoice in invoices] == [1] * 6
    assert D(str(shop.partner(shop.customer)["receivableBalance"])) == D("6.00")
    check_books(shop, {"110103": account["id"]})
    act(shop, account["id"], line_id, "unmatch")
    assert D(str(shop.partner(shop.customer)["receivableBalance"])) == D("2415.00")
    check_books(shop, {"110103": account["id"]})


def test_a_line_whose_transaction_is_reconciled_cannot_be_unmatched(shop, table):
    account = bank_account(shop)
    deposit = shop.created(f"/bank-accounts/{account['id']}/transactions", {
        "type": "deposit", "amount": "250.00", "transactionDate": "2026-11-03", "chartOfAccountId": shop.books["3401"]})
    line_id, = lines(shop, table, account["id"], ("2026-11-03", "250.00", "DEPOSITO", None))
    act(shop, account["id"], line_id, "match", {"transactionId": deposit["id"]})
    # the statement: 1,000.00 opening + 250.00 = 1,250.00, the deposit cleared: difference 0
    draft = shop.created(f"/bank-accounts/{account['id']}/reconciliations", {
        "statementDate": "2026-11-30", "statementBalance": "1250.00", "clearedTransactionIds": [deposit["id"]]})
    completed = shop.api.post(f"/bank-accounts/{account['id']}/reconciliations/{draft['id']}/complete", {},
                              key=shop.key)
    assert completed.status == 200, completed.text
    refused = act(shop, account["id"], line_id, "unmatch", expect=409)
    assert refused["code"] == "STATEMENT_LINE_RECONCILED"
    assert transactions(shop, account["id"])[deposit["id"]]["statementLineId"] == line_id
