"""Suggestions for unmatched statement lines: the pure scoring (domain/bank_matching.py) with its
figures by hand, then services/statements/suggestions.suggest on lines put straight into the table
(tests/statement_lines_support.py) against invoices, manual transactions and pending payments made
through the API, and what a page of suggestions costs in DynamoDB calls."""
from __future__ import annotations

from collections import Counter
from decimal import Decimal

import pytest

from chalicelib.domain import bank_matching as matching
from chalicelib.domain.bank_matching import Candidate, Line, Partner
from chalicelib.services.banking import banking
from chalicelib.services.sales_purchases import document_partners
from chalicelib.services.statements import lines as statement_lines
from chalicelib.services.statements import suggestions
from chalicelib.store import keys
from chalicelib.store.table import to_attributes
from tests.documents_support import Shop
from tests.statement_lines_support import put_lines

D = Decimal
INVOICE_DATE = "2026-11-02"   # the shop's documents' date (and, cash terms, their due date)


# --- the scoring, by hand ---------------------------------------------------------------------------

def document(amount: str, due: str = INVOICE_DATE, number: str = "000-001-01-00000123", partner: Partner | None = None,
             document_id: int = 7, partner_id: int = 1) -> Candidate:
    return Candidate(kind=matching.DOCUMENT, amount=D(amount), date=due, issued=INVOICE_DATE, numbers=(number,),
                     partner=partner, partner_id=partner_id, key=(document_id,))


def transaction(amount: str, date: str, reference: str | None = None, transaction_id: int = 3) -> Candidate:
    return Candidate(kind=matching.TRANSACTION, amount=D(amount), date=date, reference=reference,
                     key=(transaction_id,))


def test_a_deposit_naming_the_customer_with_other_accents_scores_amount_date_and_partner():
    line = Line(D("115.00"), "2026-11-05", "DEP PANADERIA NUNEZ SUC 3")
    scored = matching.score(line, document("115.00", partner=Partner("Panadería Núñez, S. de R.L.")))
    # amount 50 + date 10 (due 2026-11-02, 3 days before: within 7) + partner 15 = 75
    assert (scored.score, scored.reasons) == (75, ("amount", "date", "partner"))


def test_amounts_agree_to_the_cent_and_in_the_line_direction():
    line = Line(D("115.00"), "2026-11-02", "")
    assert matching.score(line, document("115.01")) is None
    assert matching.score(line, document("-115.00")) is None   # a purchase's pending: money out
    # DynamoDB trims 115.00 to 115: still the same amount; due the same day: 50 + 10
    assert matching.score(line, document("115")).score == 60
    # a line dated before the document was issued cannot pay it
    assert matching.score(Line(D("115.00"), "2026-11-01", ""), document("115.00")) is None


@pytest.mark.parametrize("date, points", [("2026-11-10", 20), ("2026-11-13", 15), ("2026-11-03", 10),
                                          ("2026-12-10", 0)])
def test_a_transaction_scores_its_date_closeness(date, points):
    # 0 days: 20; 3 days: 15; 7 days: 10; 30 days: 0 (still a candidate, no date reason)
    scored = matching.score(Line(D("-40.00"), "2026-11-10", "CHEQUE"), transaction("-40.00", date))
    assert scored.score == 50 + points
    assert ("date" in scored.reasons) == (points > 0)


def test_a_transaction_more_than_30_days_away_is_no_candidate():
    assert matching.score(Line(D("-40.00"), "2026-11-10", ""), transaction("-40.00", "2026-12-11")) is None


def test_document_numbers_in_the_text_count_as_reference():
    full = Line(D("115.00"), "2026-11-30", "PAGO FACT 000-001-01-00000123")
    short = Line(D("115.00"), "2026-11-30", "PAGO FACTURA 123 CLIENTE")
    amount_only = Line(D("123.00"), "2026-11-30", "DEPOSITO 123.00")
    invoice = document("115.00")
    # 28 days from the due date: 5 date points; + reference 15
    assert matching.score(full, invoice).score == 50 + 5 + 15
    assert matching.score(short, invoice, frozenset({"123"})).reasons == ("amount", "date", "reference")
    # two open documents end in 123: the last digits name neither
    ambiguous = matching.unique_tails([["000-001-01-00000123"], ["000-002-01-00000123"], ["000-001-01-00000124"]])
    assert ambiguous == frozenset({"124"})
    # one document's two numbers (its own and its authority's) ending alike name it alone
    assert matching.unique_tails([["F-00000321", "DTE-01-M001P001-000000000000321"]]) == frozenset({"321"})
    assert matching.score(short, invoice, ambiguous).reasons == ("amount", "date")
    # an amount written in the text is no document number
    assert matching.score(amount_only, document("123.00"), frozenset({"123"})).reasons == ("amount", "date")


def test_a_transaction_reference_in_the_text_counts():
    line = Line(D("500.00"), "2026-11-10", "TRANSF RECIBIDA", "TRF-8891")
    # same day 20 + reference 15: 85
    assert matching.score(line, transaction("500.00", "2026-11-10", "trf 8891")).score == 85


def test_the_tax_id_in_the_description_counts_as_partner():
    partner = Partner("Ferretería El Martillo", "08011999123456")
    named = Line(D("-230.00"), "2026-11-03", "PAGO PROV RTN 0801-1999-123456")
    unnamed = Line(D("-230.00"), "2026-11-03", "PAGO PROV RTN 0801-1999-654321")
    assert matching.score(named, document("-230.00", partner=partner)).reasons == ("amount", "date", "partner")
    assert "partner" not in matching.score(unnamed, document("-230.00", partner=partner)).reasons


def test_sets_of_one_partners_documents_adding_up_exactly():
    # 115.00 + 230.00 = 345.00: the oldest first, at least two
    assert matching.adding_up(D("345.00"), [D("115.00"), D("230.00"), D("100.00")]) == (0, 1)
    assert matching.adding_up(D("-330.00"), [D("-115.00"), D("-100.00"), D("-230.00")]) == (1, 2)
    assert matching.adding_up(D("115.00"), [D("115.00"), D("50.00")]) is None     # one document is no set
    assert matching.adding_up(D("1.00"), [D("0.40"), D("0.40")]) is None
    # at most 6: seven of 1.00 never make 7.00
    assert matching.adding_up(D("7.00"), [D("1.00")] * 7) is None
    assert matching.adding_up(D("6.00"), [D("1.00")] * 7) == (0, 1, 2, 3, 4, 5)
    # a page's searches share their steps: 3 steps find no set of six and leave none
    budget = matching.SearchBudget(3)
    assert matching.adding_up(D("6.00"), [D("1.00")] * 7, budget=budget) is None and budget.left == 0
    assert matching.adding_up(D("2.00"), [D("1.00")] * 2, budget=budget) is None
    pair = matching.document_set([document("115.00", document_id=1), document("230.00", document_id=2)])
    scored = matching.score(Line(D("345.00"), "2026-11-05", ""), pair)
    assert (pair.amount, pair.key, scored.score) == (D("345.00"), (1, 2), 60)   # 50 + date 10


def test_ranked_best_first_at_most_five():
    line = Line(D("10.00"), "2026-11-10", "")
    scored = [matching.score(line, transaction("10.00", f"2026-11-{day:02d}", transaction_id=day))
              for day in (1, 5, 9, 10, 11, 12, 20)]
    best = matching.ranked(scored)
    # same day 70; 1 day (9, 11) 65; 2 days (12) 65; 5 days (5) 60; 9 and 10 days (1, 20) 50
    assert [(each.candidate.key[0], each.score) for each in best] == [(10, 70), (9, 65), (11, 65), (12, 65), (5, 60)]


# --- the suggestions of a page of lines ----------------------------------------------------------

@pytest.fixture
def shop(api, company_a) -> Shop:
    return Shop(api, company_a)


def bank_account(shop: Shop) -> dict:
    return shop.created("/bank-accounts", {"name": "Cuenta corriente", "openingBalance": 1000,
                                           "openingBalanceDate": "2026-11-01",
                                           "chartOfAccountId": shop.books["110103"]})


def suggested(shop: Shop, table, account_id: int, rows) -> dict[int, list[dict]]:
    company_id = shop.company.company_id
    ids = put_lines(table, company_id, account_id, rows)
    page = [statement_lines.get_line(table, company_id, account_id, line_id) for line_id in ids]
    answer = suggestions.suggest(table, company_id, banking.get_bank_account(table, company_id, account_id), page)
    return [answer[line_id] for line_id in ids]


def invoice(shop: Shop, partner: int, *amounts: int) -> dict:
    """A service invoice: each amount + 15 % ISV (100 -> 115.00)."""
    return shop.document("01", [(shop.service, 1, amount) for amount in amounts], partner=partner)


def test_a_deposit_equal_to_one_invoice_suggests_it_first(shop, table):
    account = bank_account(shop)
    nunez = shop.created("/business-partners", {"name": "Panadería Núñez", "type": "customer"})["id"]
    theirs = invoice(shop, nunez, 100)             # 100 + 15 = 115.00
    invoice(shop, shop.customer, 200)              # 230.00, another amount
    other = invoice(shop, shop.customer, 100)      # 115.00 too, but Cliente Uno is not named
    [found] = suggested(shop, table, account["id"], [("2026-11-05", "115.00", "DEPOSITO PANADERIA NUNEZ", None)])
    # 50 + date 10 (due 2026-11-02, 3 days) + partner 15 = 75; the other 115.00 invoice 60
    assert found[0] == {"kind": "document", "score": 75, "reasons": ["amount", "date", "partner"],
                        "documents": [{"documentId": theirs["id"], "amount": D("115")}]}
    assert found[1:] == [{"kind": "document", "score": 60, "reasons": ["amount", "date"],
                          "documents": [{"documentId": other["id"], "amount": D("115")}]}]


def test_the_invoice_number_quoted_puts_that_invoice_first(shop, table):
    account = bank_account(shop)
    invoice(shop, shop.customer, 100)
    quoted = invoice(shop, shop.customer, 100)      # both 115.00, of one customer
    [found] = suggested(shop, table, account["id"], [("2026-11-05", "115.00", f"PAGO FACT {quoted['number']}", None)])
    # 50 + date 10 + reference 15 = 75 against 60
    assert [(each["documents"][0]["documentId"], each["score"]) for each in found][0] == (quoted["id"], 75)
    assert found[0]["reasons"] == ["amount", "date", "reference"] and found[1]["score"] == 60


def test_a_deposit_equal_to_two_invoices_of_one_customer_is_one_candidate(shop, table):
    account = bank_account(shop)
    first, second = invoice(shop, shop.customer, 100), invoice(shop, shop.customer, 200)   # 115.00 and 230.00
    [found] = suggested(shop, table, account["id"], [("2026-11-06", "345.00", "TRANSFERENCIA CLIENTE UNO", None)])
    # 115.00 + 230.00 = 345.00; 50 + date 10 (both due 4 days before) + partner 15 = 75
    assert found == [{"kind": "document", "score": 75, "reasons": ["amount", "date", "partner"],
                      "documents": [{"documentId": first["id"], "amount": D("115")},
                                    {"documentId": second["id"], "amount": D("230")}]}]


def test_an_unmatched_manual_transaction_and_a_pending_payment(shop, table):
    account = bank_account(shop)
    deposit = shop.created(f"/bank-accounts/{account['id']}/transactions", {
        "type": "deposit", "amount": "500.00", "transactionDate": "2026-11-10",
        "chartOfAccountId": shop.books["410101"]})
    transfer = shop.created("/payments/methods", {"name": "Transferencia", "bankAccountId": account["id"],
                                                  "requiresConfirmation": True})
    paid = invoice(shop, shop.customer, 300)                         # 345.00
    payment = shop.created(f"/payments/documents/{paid['id']}/payments", {
        "paymentMethodId": transfer["id"], "amount": 345, "paymentDate": "2026-11-09"})
    assert payment["status"] == "pending"
    manual, pending = suggested(shop, table, account["id"], [("2026-11-10", "500.00", "DEPOSITO", None),
                                                             ("2026-11-09", "345.00", "CLIENTE UNO", None)])
    # the same amount and day: 50 + 20
    assert manual == [{"kind": "transaction", "score": 70, "reasons": ["amount", "date"],
                       "transactionId": deposit["id"]}]
    # the payment names its customer: 50 + 20 + 15; the invoice owes nothing more, so is no candidate
    assert pending == [{"kind": "payment", "score": 85, "reasons": ["amount", "date", "partner"],
                        "transactionId": payment["bankTransactionId"]}]


def test_a_matched_transaction_is_no_longer_suggested(shop, table):
    account = bank_account(shop)
    deposit = shop.created(f"/bank-accounts/{account['id']}/transactions", {
        "type": "deposit", "amount": "80.00", "transactionDate": "2026-11-10",
        "chartOfAccountId": shop.books["410101"]})
    company_id = shop.company.company_id
    [before] = suggested(shop, table, account["id"], [("2026-11-10", "80.00", "DEP", None)])
    assert [each["transactionId"] for each in before] == [deposit["id"]]
    # what a match writes on the transaction (services/statements/__init__.py)
    key = keys.bank_transaction(company_id, account["id"], "2026-11-10", deposit["id"])
    table.client.update_item(TableName=table.name, Key=to_attributes(key), UpdateExpression="SET statementLineId = :l",
                             ExpressionAttributeValues=to_attributes({":l": 999}))
    [after] = suggested(shop, table, account["id"], [("2026-11-10", "80.00", "DEP", None)])
    assert after == []


def test_another_companys_documents_are_never_suggested(api, shop, table, company_b):
    account = bank_account(shop)
    other_shop = Shop(api, company_b)
    invoice(other_shop, other_shop.customer, 100)     # 115.00 at company B
    [found] = suggested(shop, table, account["id"], [("2026-11-05", "115.00", "CLIENTE UNO", None)])
    assert found == []


def test_the_rtn_in_the_description_counts_as_partner(shop, table):
    account = bank_account(shop)
    supplier = shop.created("/business-partners", {"name": "Ferretería El Martillo", "type": "supplier",
                                                   "taxId": "0801-1999-123456"})["id"]
    purchase = shop.document("103", [(shop.service, 2, 100)], partner=supplier)   # 230.00 owed
    [found] = suggested(shop, table, account["id"], [("2026-11-04", "-230.00", "PAGO RTN 08011999123456", None)])
    # money out matches the purchase: 50 + date 10 + partner 15 (its RTN) = 75
    assert found == [{"kind": "document", "score": 75, "reasons": ["amount", "date", "partner"],
                      "documents": [{"documentId": purchase["id"], "amount": D("230")}]}]
    [deposit] = suggested(shop, table, account["id"], [("2026-11-04", "230.00", "RTN 08011999123456", None)])
    assert deposit == []   # money in never pays a purchase


def test_only_documents_in_the_accounts_currency(shop, table):
    account = bank_account(shop)                     # lempiras
    rate = shop.api.post("/exchange-rates", {"currency": "USD", "date": INVOICE_DATE, "rate": "24.50"}, key=shop.key)
    assert rate.status == 201, rate.text
    shop.document("01", [(shop.service, 1, 100)], currency="USD")     # USD 115.00
    lempiras = invoice(shop, shop.customer, 100)                    # HNL 115.00
    [found] = suggested(shop, table, account["id"], [("2026-11-05", "115.00", "", None)])
    assert [each["documents"][0]["documentId"] for each in found] == [lempiras["id"]]


def test_a_rule_that_matches_is_suggested_unless_it_is_another_accounts(shop, table, monkeypatch):
    from chalicelib.domain import bank_rules as rule_matching
    from chalicelib.services.statements import bank_rules

    account = bank_account(shop)
    rules = [{"id": 1, "bankAccountId": account["id"] + 1, "name": "otra cuenta"},
             {"id": 2, "name": "comisiones"}]
    monkeypatch.setattr(bank_rules, "active_rules", lambda table, company_id: rules)
    monkeypatch.setattr(rule_matching, "matches", lambda rule, line: "COMISION" in line["description"])
    [found] = suggested(shop, table, account["id"], [("2026-11-04", "-25.00", "COMISION MANEJO", None)])
    assert found == [{"kind": "rule", "score": 60, "reasons": ["rule"], "ruleId": 2}]


def test_the_lines_listed_carry_their_suggestions_and_the_rules_proposals(shop, table):
    account = bank_account(shop)
    ledger = shop.created("/chart-of-accounts", {"code": "110104", "name": "Banco dos", "type": "asset"})
    other = shop.created("/bank-accounts", {"name": "Ahorro", "openingBalance": 0, "openingBalanceDate": "2026-11-01",
                                            "chartOfAccountId": ledger["id"]})
    commission = {"conditions": [{"field": "description", "operator": "contains", "value": "comision"}],
                  "action": {"chartOfAccountId": shop.books["6199"], "taxRate": "0.15"}}
    elsewhere = shop.created("/bank-rules", {"name": "Ahorro", "bankAccountId": other["id"], "priority": 1,
                                             **commission})
    ours = shop.created("/bank-rules", {"name": "Comisiones", "priority": 2, **commission})
    sale = invoice(shop, shop.customer, 100)                        # 115.00
    put_lines(table, shop.company.company_id, account["id"], [
        ("2026-11-04", "-25.00", "COMISIÓN MANEJO CTA", None), ("2026-11-05", "115.00", "DEP CLIENTE UNO", None)])
    reply = shop.api.get(f"/bank-accounts/{account['id']}/statement-lines?status=unmatched", key=shop.key)
    assert reply.status == 200, reply.text
    commission_line, deposit = reply.json["statementLines"]
    # the first rule names the other account: the second one proposes
    assert elsewhere["id"] != ours["id"]
    assert [{name: value for name, value in each.items() if value is not None}
            for each in commission_line["suggestions"]] == [{"kind": "rule", "score": 60, "reasons": ["rule"],
                                                              "ruleId": ours["id"]}]
    # 50 + date 10 (3 days after its due date) + partner 15
    [best] = deposit["suggestions"]
    assert (best["kind"], best["score"], best["reasons"]) == ("document", 75, ["amount", "date", "partner"])
    assert [(each["documentId"], D(str(each["amount"]))) for each in best["documents"]] == [(sale["id"], D("115.00"))]


def test_a_page_of_suggestions_costs_a_fixed_number_of_calls(shop, table):
    account = bank_account(shop)
    for _ in range(3):
        invoice(shop, shop.customer, 100)
    transfer = shop.created("/payments/methods", {"name": "Transferencia", "bankAccountId": account["id"],
                                                  "requiresConfirmation": True})
    purchase = shop.document("103", [(shop.service, 2, 100)])      # 230.00 owed
    shop.created(f"/payments/documents/{purchase['id']}/payments", {
        "paymentMethodId": transfer["id"], "amount": 100, "paymentDate": "2026-11-05"})   # 130.00 left
    company_id = shop.company.company_id
    stored_account = banking.get_bank_account(table, company_id, account["id"])
    # 150 more open invoices of 999.00 (index items as confirming writes them), due after the
    # lines: never a candidate, and never read (their documents are not even in the table)
    template = {"type": "01", "date": "2026-12-01", "dueDate": "2026-12-01", "pending": D("999.00"),
                "currency": "HNL", "businessPartnerId": shop.customer}
    for document_id in range(9000, 9150):
        table.client.put_item(TableName=table.name, Item=to_attributes(document_partners.open_document_item(
            company_id, {**template, "id": document_id, "number": f"000-001-01-0000{document_id}"})))

    def cost(rows) -> tuple[Counter, dict]:
        ids = put_lines(table, company_id, account["id"], rows)
        page = [statement_lines.get_line(table, company_id, account["id"], line_id) for line_id in ids]
        seen: Counter = Counter()

        def count(model, **_):
            seen.update([model.name])

        table.client.meta.events.register("before-call.dynamodb", count)
        answer = suggestions.suggest(table, company_id, stored_account, page)
        table.client.meta.events.unregister("before-call.dynamodb", count)
        return seen, {line_id: answer[line_id] for line_id in ids}

    deposits = [(f"2026-11-{day:02d}", "115.00", "DEP", None) for day in range(3, 23)]
    seen, answer = cost(deposits)
    # 20 lines, money in only: the transactions' Query, the sales side's open documents' Query (153
    # index items), the rules' Query, the card gateways' Query (issue 43: a deposit may be a payout;
    # none here, so no method or clearing account read), one BatchGetItem of their partner and one of
    # the 3 invoices suggested (to confirm what they owe); no transaction of 115.00: no payment read
    assert seen == Counter({"Query": 4, "BatchGetItem": 2})
    assert all(len(each) == 3 for each in answer.values())
    # both directions, 50 lines: one Query more (the purchases' side) and the pending payment's read
    both = deposits + [("2026-11-05", "-100.00", "PAGO", None)] * 30
    seen, answer = cost(both)
    assert seen == Counter({"Query": 5, "BatchGetItem": 3})
    assert [each["kind"] for each in list(answer.values())[-1]] == ["payment"]


def test_the_migration_indexes_open_documents_written_before(shop, table):
    from infra.ops.migrations import open_documents_indexed_per_company

    account = bank_account(shop)
    sale = invoice(shop, shop.customer, 100)
    company_id = shop.company.company_id
    key = keys.open_document(company_id, shop.customer, keys.RECEIVABLE_SIDE, INVOICE_DATE, sale["id"])
    table.client.update_item(TableName=table.name, Key=to_attributes(key), UpdateExpression="REMOVE GSI1PK, GSI1SK")
    [before] = suggested(shop, table, account["id"], [("2026-11-05", "115.00", "", None)])
    assert before == []
    assert open_documents_indexed_per_company(table) == 1
    assert open_documents_indexed_per_company(table) == 0   # idempotent
    [after] = suggested(shop, table, account["id"], [("2026-11-05", "115.00", "", None)])
    assert [each["documents"] for each in after] == [[{"documentId": sale["id"], "amount": D("115")}]]


def test_a_dte_quoted_by_its_control_number_is_suggested_from_the_documents_fields_read(api, company_b, table):
    """Suggestions read only a document's fields that name it (Table.batch_get with `fields`):
    an El Salvador invoice's número de control, inside its DTE, still counts as reference."""
    from tests.dte_support import consumer_of
    from tests.dte_support import invoice as sv_invoice

    shop = Shop(api, company_b, country="SV")
    account = shop.created("/bank-accounts", {"name": "Cuenta corriente", "currency": "USD", "openingBalance": 0,
                                              "openingBalanceDate": "2026-01-01",
                                              "chartOfAccountId": shop.books["110103"]})
    customer = consumer_of(shop)
    quoted = sv_invoice(shop, customer)                  # 2 x 50.00 = 100.00 + 13% IVA 13.00 = 113.00
    sv_invoice(shop, customer)                           # another of 113.00, not quoted
    control = quoted["dte"]["numeroControl"]
    [found] = suggested(shop, table, account["id"], [(quoted["date"], "113.00", f"ABONO {control}", None)])
    # amount 50 + date 10 (due the same day) + reference 15 = 75 for the one quoted; 60 for the other
    assert (found[0]["documents"][0]["documentId"], found[0]["score"], found[0]["reasons"]) == (
        quoted["id"], 75, ["amount", "date", "reference"])
    assert found[1]["score"] == 60


def test_a_set_of_documents_is_proposed_only_for_a_partner_the_line_names(shop, table):
    account = bank_account(shop)
    first, second = invoice(shop, shop.customer, 100), invoice(shop, shop.customer, 200)   # 115.00 and 230.00
    # 115.00 + 230.00 = 345.00, but nothing in the line names Cliente Uno or its invoices: no set
    [unnamed] = suggested(shop, table, account["id"], [("2026-11-06", "345.00", "DEPOSITO EN EFECTIVO", None)])
    assert unnamed == []
    # the second invoice's number quoted: the set is proposed (amount 50 + date 10 + reference 15)
    [quoted] = suggested(shop, table, account["id"], [("2026-11-06", "345.00", f"PAGO {second['number']}", None)])
    assert [(d["documentId"], d["amount"]) for d in quoted[0]["documents"]] == [(first["id"], D("115")),
                                                                               (second["id"], D("230"))]
    assert quoted[0]["score"] == 75 and quoted[0]["reasons"] == ["amount", "date", "reference"]
