"""A month of a bank account, the accountant's daily loop end to end through the API (issue 42): a
BAC-style CSV imported with the account's mapping (a rule creating the commission with its tax on
the way in), the deposit accepted as the suggestion paying two invoices, a transfer matched on both
accounts, a coffee created and unmatched back, the reconciliation completed at the statement's
closing balance, the file imported again adding nothing. The books' invariants after every step
(tests/bank_matching_support.check_books). Figures by hand in the comments."""
from __future__ import annotations

import base64

import pytest

from tests.bank_matching_support import D, act, balance_of, bank_account, check_books, pending, second_ledger
from tests.documents_support import Shop

MAPPING = {"encoding": "cp1252", "delimiter": ";", "skipRows": 4, "dateColumn": "Fecha", "dateFormat": "DD/MM/YYYY",
           "descriptionColumn": "Descripción", "referenceColumn": "Referencia", "debitColumn": "Débito",
           "creditColumn": "Crédito", "balanceColumn": "Saldo", "decimalSeparator": ",", "thousandsSeparator": "."}

# Checking account, opening 1,000.00:
#   1,000.00 + 1,725.00 - 57.50 - 500.00 - 85.00 = 2,082.50
CHECKING = """BAC Credomatic Honduras;Estado de cuenta
Cuenta:;730123456
Moneda:;HNL
Período:;01/11/2026 al 30/11/2026
Fecha;Referencia;Descripción;Débito;Crédito;Saldo
05/11/2026;DEP-881;DEPÓSITO CLIENTE UNO;;1.725,00;2.725,00
10/11/2026;CGO-1001;COMISIÓN MANEJO DE CUENTA;57,50;;2.667,50
15/11/2026;TRF-22;TRANSFERENCIA A CUENTA DE AHORRO;500,00;;2.167,50
20/11/2026;POS-1;CAFETERÍA CENTRAL;85,00;;2.082,50
"""
# Savings account, opening 0.00: 0.00 + 500.00 = 500.00
SAVINGS = """BAC Credomatic Honduras;Estado de cuenta
Cuenta:;730999888
Moneda:;HNL
Período:;01/11/2026 al 30/11/2026
Fecha;Referencia;Descripción;Débito;Crédito;Saldo
15/11/2026;TRF-22;TRANSFERENCIA DE CUENTA CORRIENTE;;500,00;500,00
"""


@pytest.fixture
def shop(api, company_a) -> Shop:
    return Shop(api, company_a)


def imported(shop: Shop, account_id: int, text: str, name: str = "bac_noviembre.csv") -> dict:
    content = base64.b64encode(text.encode("cp1252")).decode()
    return shop.created(f"/bank-accounts/{account_id}/statements", {"fileName": name, "content": content})


def listed(shop: Shop, account_id: int, status: str) -> list[dict]:
    reply = shop.api.get(f"/bank-accounts/{account_id}/statement-lines?status={status}", key=shop.key)
    assert reply.status == 200, reply.text
    return reply.json["statementLines"]


def line_described(lines: list[dict], start: str) -> dict:
    return next(line for line in lines if line["description"].startswith(start))


def test_a_month_imported_matched_and_reconciled(shop, table):
    second_ledger(shop)
    checking = bank_account(shop)                                       # 110103, opening 1,000.00
    savings = bank_account(shop, code="110104", opening="0.00", name="Ahorro BAC")
    banks = {"110103": checking["id"], "110104": savings["id"]}
    shop.created("/payments/methods", {"name": "Transferencia BAC", "bankAccountId": checking["id"]})
    first = shop.document("01", [(shop.service, 10, 100)])   # 1,000.00 + 15% 150.00 = 1,150.00
    second = shop.document("01", [(shop.service, 5, 100)])   # 500.00 + 75.00 = 575.00
    rule = shop.created("/bank-rules", {
        "name": "Comisiones BAC", "conditions": [{"field": "description", "operator": "contains", "value": "comision"}],
        "action": {"chartOfAccountId": shop.books["6199"], "taxRate": 0.15, "description": "Comisión bancaria"},
        "autoCreate": True})
    check_books(shop, banks)

    # the mapping saved, the preview shows the file's lines and stores nothing
    for account in (checking, savings):
        assert shop.api.put(f"/bank-accounts/{account['id']}/statement-mapping", MAPPING, key=shop.key).status == 200
    preview = shop.api.post(f"/bank-accounts/{checking['id']}/statement-mapping/preview", {
        "fileName": "bac.csv", "content": base64.b64encode(CHECKING.encode("cp1252")).decode()}, key=shop.key)
    assert preview.status == 200, preview.text
    assert [(line["date"], D(str(line["amount"]))) for line in preview.json["lines"]] == [
        ("2026-11-05", D("1725.00")), ("2026-11-10", D("-57.50")), ("2026-11-15", D("-500.00")),
        ("2026-11-20", D("-85.00"))]
    assert listed(shop, checking["id"], "unmatched") == []

    # the import: 4 lines; opening = the first balance less its amount = 2,725.00 - 1,725.00 = 1,000.00
    statement = imported(shop, checking["id"], CHECKING)
    assert (statement["linesImported"], statement["linesSkipped"], statement["linesAutoMatched"]) == (4, 0, 1)
    assert (D(str(statement["openingBalance"])), D(str(statement["closingBalance"]))) == (D("1000.00"), D("2082.50"))
    assert (statement["periodStart"], statement["periodEnd"]) == ("2026-11-05", "2026-11-20")
    # the rule created the commission: 57.50 / 1.15 = 50.00 to 6199 and 7.50 of ISV credit;
    # the bank 1,000.00 - 57.50 = 942.50
    commission = line_described(listed(shop, checking["id"], "matched"), "COMISIÓN")
    assert (commission["match"]["kind"], commission["match"]["ruleId"]) == ("create", rule["id"])
    assert balance_of(shop, checking["id"]) == D("942.50")
    assert shop.balance("6199") == D("50.00")
    check_books(shop, banks)

    # the deposit's best suggestion: both invoices of Cliente Uno (1,150.00 + 575.00 = 1,725.00)
    deposit = line_described(listed(shop, checking["id"], "unmatched"), "DEPÓSITO")
    best = deposit["suggestions"][0]
    assert best["kind"] == "document" and "partner" in best["reasons"] and "amount" in best["reasons"]
    assert sorted((d["documentId"], D(str(d["amount"]))) for d in best["documents"]) == [
        (first["id"], D("1150.00")), (second["id"], D("575.00"))]
    act(shop, checking["id"], deposit["id"], "match", {"documents": best["documents"]})
    # both paid; the customer owes 0; the bank 942.50 + 1,725.00 = 2,667.50
    assert (pending(shop, first["id"]), pending(shop, second["id"])) == (0, 0)
    assert D(str(shop.partner(shop.customer)["receivableBalance"])) == 0
    assert balance_of(shop, checking["id"]) == D("2667.50")
    check_books(shop, banks)

    # the transfer: made from the checking line, matched on the savings account's own statement
    transfer = line_described(listed(shop, checking["id"], "unmatched"), "TRANSFERENCIA")
    act(shop, checking["id"], transfer["id"], "match", {"transferToAccountId": savings["id"]})
    assert imported(shop, savings["id"], SAVINGS, "ahorro.csv")["linesImported"] == 1
    incoming, = listed(shop, savings["id"], "unmatched")
    assert incoming["suggestions"][0]["kind"] == "transaction"
    act(shop, savings["id"], incoming["id"], "match", {"transactionId": incoming["suggestions"][0]["transactionId"]})
    # checking 2,667.50 - 500.00 = 2,167.50; savings 0.00 + 500.00 = 500.00
    assert (balance_of(shop, checking["id"]), balance_of(shop, savings["id"])) == (D("2167.50"), D("500.00"))
    check_books(shop, banks)

    # the coffee created, unmatched (everything as before), created again
    coffee = line_described(listed(shop, checking["id"], "unmatched"), "CAFETERÍA")
    expense_before = shop.balance("6199")                                # 50.00 (the commission)
    act(shop, checking["id"], coffee["id"], "match", {"create": {"chartOfAccountId": shop.books["6199"],
                                                                 "description": "Café"}})
    assert (balance_of(shop, checking["id"]), shop.balance("6199")) == (D("2082.50"), D("135.00"))  # 50.00 + 85.00
    act(shop, checking["id"], coffee["id"], "unmatch")
    assert (balance_of(shop, checking["id"]), shop.balance("6199")) == (D("2167.50"), expense_before)
    check_books(shop, banks)
    act(shop, checking["id"], coffee["id"], "match", {"create": {"chartOfAccountId": shop.books["6199"],
                                                                 "description": "Café"}})
    assert listed(shop, checking["id"], "unmatched") == []
    check_books(shop, banks)

    # the reconciliation from the statement: its closing 2,082.50 at its last day; the cleared
    # transactions are the matched lines': 1,000.00 + 1,150.00 + 575.00 - 57.50 - 500.00 - 85.00
    # = 2,082.50 (the coffee's first transaction and its reversal are in no line: not cleared)
    reply = shop.api.post(f"/bank-accounts/{checking['id']}/reconciliations", {"statementId": statement["id"]},
                          key=shop.key)
    assert reply.status == 201, reply.text
    draft = reply.json
    assert (draft["statementDate"], D(str(draft["statementBalance"])), D(str(draft["difference"]))) == (
        "2026-11-20", D("2082.50"), D("0.00"))
    done = shop.api.post(f"/bank-accounts/{checking['id']}/reconciliations/{draft['id']}/complete", {}, key=shop.key)
    assert (done.status, done.json["status"]) == (200, "completed"), done.text
    account = shop.api.get(f"/bank-accounts/{checking['id']}", key=shop.key).json
    assert D(str(account["reconciledBalance"])) == D("2082.50") == D(str(account["balance"]))
    check_books(shop, banks)

    # the same file again: nothing new
    again = imported(shop, checking["id"], CHECKING)
    assert (again["linesImported"], again["linesSkipped"]) == (0, 4)
    assert len(listed(shop, checking["id"], "matched")) == 4
