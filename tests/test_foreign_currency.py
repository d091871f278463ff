"""Invoices in US dollars in a lempira company: the document keeps its dollars, the books carry
lempiras at its rate, a payment moves at its own date's rate and the difference is an exchange
gain or loss. Figures worked by hand in the comments."""
from __future__ import annotations

import threading
from decimal import Decimal

import pytest

from tests.documents_support import Shop, dollar_shop
from tests.support import RACES
from tests.test_printing import pdf_text, print_pdf

D = Decimal


@pytest.fixture
def shop(api, company_a) -> Shop:
    return dollar_shop(api, company_a)


def rate(shop: Shop, date: str, value: str) -> dict:
    return shop.created("/exchange-rates", {"currency": "USD", "date": date, "rate": value})


def dollar_bank(shop: Shop) -> tuple[dict, dict]:
    account = shop.created("/bank-accounts", {"name": "Cuenta en dólares", "currency": "USD", "openingBalance": 0,
                                              "openingBalanceDate": "2026-11-01",
                                              "chartOfAccountId": shop.books["110104"]})
    method = shop.created("/payments/methods", {"name": "Transferencia USD", "bankAccountId": account["id"]})
    return account, method


def pay(shop: Shop, document_id: int, expect: int = 201, **body):
    reply = shop.api.post(f"/payments/documents/{document_id}/payments", body, key=shop.key)
    assert reply.status == expect, reply.text
    return reply.json


def test_a_dollar_invoice_paid_at_a_higher_rate_makes_an_exchange_gain(shop):
    rate(shop, "2026-11-02", "24.50")
    rate(shop, "2026-11-10", "25.00")
    account, transfer = dollar_bank(shop)
    invoice = shop.document("01", [(shop.service, 1, 100)], currency="USD")     # USD 100 + 15 % = 115.00
    # the company's rate of its date: receivable 115 x 24.50 = 2,817.50, revenue 2,450.00, ISV 367.50
    assert (invoice["currency"], D(str(invoice["exchangeRate"])), D(str(invoice["total"])),
            D(str(invoice["baseTotal"]))) == ("USD", D("24.50"), D("115.00"), D("2817.50"))
    assert shop.entry_lines(invoice["journalEntryId"]) == {
        "110201": (D("2817.50"), 0), "410101": (0, D("2450.00")), "210201": (0, D("367.50"))}
    assert D(str(shop.partner(shop.customer)["receivableBalance"])) == D("2817.50")

    paid = pay(shop, invoice["id"], paymentMethodId=transfer["id"], amount="115.00", paymentDate="2026-11-10")
    # USD 115 at 25.00 = 2,875.00 in the bank; 2,817.50 off the receivable; 57.50 gained
    assert (D(str(paid["exchangeRate"])), D(str(paid["baseAmount"])), D(str(paid["settledBase"]))) == \
           (D("25.00"), D("2875.00"), D("2817.50"))
    assert shop.entry_lines(paid["journalEntryId"]) == {
        "110104": (D("2875.00"), 0), "110201": (0, D("2817.50")), "4202": (0, D("57.50"))}
    assert D(str(shop.partner(shop.customer)["receivableBalance"])) == 0 == shop.balance("110201")
    # the bank holds dollars: 115.00
    bank = shop.api.get(f"/bank-accounts/{account['id']}", key=shop.key).json
    assert (bank["currency"], D(str(bank["balance"]))) == ("USD", D("115.00"))
    assert (D(str(shop.get(invoice["id"])["pending"])), D(str(shop.get(invoice["id"])["basePending"]))) == (0, 0)

    # cancelled, everything comes back: the receivable 2,817.50, the gain gone
    cancelled = shop.api.post(f"/payments/documents/{invoice['id']}/payments/{paid['id']}/cancel",
                              {"reason": "rechazada", "date": "2026-11-10"}, key=shop.key)
    assert cancelled.status == 200, cancelled.text
    assert D(str(shop.partner(shop.customer)["receivableBalance"])) == D("2817.50") == shop.balance("110201")
    assert shop.balance("4202") == 0
    assert D(str(shop.get(invoice["id"])["basePending"])) == D("2817.50")


def test_a_dollar_invoice_paid_at_a_lower_rate_makes_an_exchange_loss(shop):
    _, transfer = dollar_bank(shop)
    invoice = shop.document("01", [(shop.service, 1, 100)], currency="USD", exchangeRate="24.50")   # 2,817.50
    paid = pay(shop, invoice["id"], paymentMethodId=transfer["id"], amount="115.00", exchangeRate="24.00")
    # USD 115 at 24.00 = 2,760.00: 57.50 less than the receivable carried, a loss
    assert shop.entry_lines(paid["journalEntryId"]) == {
        "110104": (D("2760.00"), 0), "6303": (D("57.50"), 0), "110201": (0, D("2817.50"))}
    assert shop.balance("110201") == 0 and shop.balance("6303") == D("57.50")


def test_a_dollar_invoice_paid_in_parts_leaves_no_cent_behind(shop):
    _, transfer = dollar_bank(shop)
    invoice = shop.document("01", [(shop.service, 2, 100)], currency="USD", exchangeRate="24.50")
    # USD 200 + 15 % = 230.00 at 24.50 = 5,635.00
    first = pay(shop, invoice["id"], paymentMethodId=transfer["id"], amount="100.00", exchangeRate="25.00")
    # USD 100: 2,500.00 in, 100 x 24.50 = 2,450.00 off the receivable, 50.00 gained; 130.00 left = 3,185.00
    assert shop.entry_lines(first["journalEntryId"]) == {
        "110104": (D("2500.00"), 0), "110201": (0, D("2450.00")), "4202": (0, D("50.00"))}
    document = shop.get(invoice["id"])
    assert (D(str(document["pending"])), D(str(document["basePending"]))) == (D("130.00"), D("3185.00"))
    second = pay(shop, invoice["id"], paymentMethodId=transfer["id"], amount="130.00", exchangeRate="24.80")
    # USD 130 x 24.80 = 3,224.00 in; the 3,185.00 left off the receivable; 39.00 gained
    assert shop.entry_lines(second["journalEntryId"]) == {
        "110104": (D("3224.00"), 0), "110201": (0, D("3185.00")), "4202": (0, D("39.00"))}
    assert shop.balance("110201") == 0 and shop.balance("4202") == D("89.00")   # 50 + 39


def test_rounding_to_cents_keeps_the_receivable_at_total_times_rate(shop):
    invoice = shop.document("01", [(shop.service, 3, D("33.33"))], currency="USD", exchangeRate="24.5123")
    # lines 3 x 33.33 = 99.99, ISV 15 % = 14.9985 -> 15.00, total 114.99
    # receivable 114.99 x 24.5123 = 2,818.669377 -> 2,818.67; ISV 15.00 x 24.5123 = 367.6845 -> 367.68;
    # revenue takes the rest: 2,818.67 - 367.68 = 2,450.99 (99.99 x 24.5123 = 2,451.02 before rounding)
    assert D(str(invoice["baseTotal"])) == D("2818.67")
    assert shop.entry_lines(invoice["journalEntryId"]) == {
        "110201": (D("2818.67"), 0), "410101": (0, D("2450.99")), "210201": (0, D("367.68"))}


def test_no_rate_is_refused_naming_the_field_and_writes_nothing(api, shop):
    rate(shop, "2026-11-02", "24.50")
    before = api.get("/documents", key=shop.key).json["total"]
    refused = shop.document("01", [(shop.service, 1, 100)], currency="USD", date="2026-11-01", expect=400)
    assert (refused["code"], refused["details"][0]["field"]) == ("VALIDATION_ERROR", "exchangeRate")
    own = shop.document("01", [(shop.service, 1, 100)], currency="HNL", exchangeRate="2", expect=400)
    assert own["details"][0]["field"] == "exchangeRate"
    assert api.get("/documents", key=shop.key).json["total"] == before
    # the rate of the day, or the newest before it
    later = shop.document("01", [(shop.service, 1, 100)], currency="USD", date="2026-11-05")
    assert D(str(later["exchangeRate"])) == D("24.50")
    # a payment with no rate for its date is refused naming the field, and moves nothing
    _, transfer = dollar_bank(shop)
    early = shop.document("01", [(shop.service, 1, 100)], currency="USD", date="2026-11-01", exchangeRate="24.40")
    refused = pay(shop, early["id"], 400, paymentMethodId=transfer["id"], amount="1", paymentDate="2026-11-01")
    assert refused["details"][0]["field"] == "exchangeRate"
    assert D(str(shop.get(early["id"])["pending"])) == D("115.00")
    assert pay(shop, later["id"], paymentMethodId=transfer["id"], amount="1")["exchangeRate"] == D("24.50")
    assert api.get("/exchange-rates", key=shop.key).json["exchangeRates"][0]["rate"] == D("24.50")
    replaced = shop.api.post("/exchange-rates", {"currency": "USD", "date": "2026-11-02", "rate": "24.60"},
                             key=shop.key)
    assert replaced.status == 200 and D(str(replaced.json["rate"])) == D("24.60")
    own_rate = shop.api.post("/exchange-rates", {"currency": "HNL", "date": "2026-11-02", "rate": "1"}, key=shop.key)
    assert own_rate.status == 400 and own_rate.json["details"][0]["field"] == "currency"


def test_dollar_bank_account_moves_its_ledger_at_the_days_rate(shop):
    rate(shop, "2026-11-02", "24.50")
    account, _ = dollar_bank(shop)
    income = shop.books["410101"]
    deposit = shop.api.post(f"/bank-accounts/{account['id']}/transactions",
                            {"type": "deposit", "amount": "10.00", "transactionDate": "2026-11-03",
                             "chartOfAccountId": income}, key=shop.key)
    assert deposit.status == 201, deposit.text
    # USD 10 in the bank; 10 x 24.50 = 245.00 in the books
    assert shop.entry_lines(deposit.json["journalEntryId"]) == {"110104": (D("245.00"), 0),
                                                                 "410101": (0, D("245.00"))}
    assert D(str(shop.api.get(f"/bank-accounts/{account['id']}", key=shop.key).json["balance"])) == D("10.00")


def test_aging_statement_and_summary_show_both_currencies(shop):
    _, transfer = dollar_bank(shop)
    invoice = shop.document("01", [(shop.service, 2, 100)], currency="USD", exchangeRate="24.50")   # 230 = 5,635
    pay(shop, invoice["id"], paymentMethodId=transfer["id"], amount="100.00", exchangeRate="25.00")
    # open: USD 130.00 = 5,635.00 - 2,450.00 = 3,185.00
    aged = shop.api.get("/reports/aged-receivables?date=2026-11-30", key=shop.key).json
    row = aged["partners"][0]["documents"][0]
    assert (row["currency"], D(str(row["openInCurrency"])), D(str(row["open"]))) == \
           ("USD", D("130.00"), D("3185.00"))
    summary = shop.api.get(f"/credits/client/{shop.customer}/summary", key=shop.key).json
    shown = summary["pendingDocuments"][0]
    assert (D(str(summary["pendingBalance"])), shown["currency"], D(str(shown["pending"])),
            D(str(shown["basePending"]))) == (D("3185.00"), "USD", D("130.00"), D("3185.00"))
    statement = shop.api.get(f"/credits/client/{shop.customer}/statement?startDate=2026-11-01&endDate=2026-11-30",
                             key=shop.key).json
    assert [(m["currency"], D(str(m["amountInCurrency"])), D(str(m["charge"])), D(str(m["credit"])))
            for m in statement["movements"]] == [("USD", D("230.00"), D("5635.00"), 0),
                                                 ("USD", D("-100.00"), 0, D("2450.00"))]


def test_a_honduran_invoice_in_dollars_prints_the_rate_and_the_lempiras(shop):
    invoice = shop.document("01", [(shop.service, 1, 100)], currency="USD", exchangeRate="24.50")
    printed = print_pdf(shop.api, f"/documents/{invoice['id']}/print", shop.key)
    assert printed.status_code == 200, printed.body[:300]
    text = pdf_text(printed.body)[1]
    # total 115.00 x 24.50 = 2,817.50; ISV 15.00 x 24.50 = 367.50
    assert "TOTAL A PAGAR (USD)" in text and "1 USD = 24.5 HNL" in text
    assert "Total en HNL" in text and "2,817.50" in text and "ISV en HNL" in text and "367.50" in text


@RACES
def test_concurrent_dollar_payments_at_different_rates_never_overpay_nor_leave_a_cent(shop):
    """Twenty quarters of a USD 460.00 invoice at 24.50 (11,270.00), each at its own rate: exactly
    four win; the receivable is emptied to the cent; what the bank got beyond 11,270.00 is the gain."""
    _, transfer = dollar_bank(shop)
    invoice = shop.document("01", [(shop.service, 4, 100)], currency="USD", exchangeRate="24.50")
    start, replies = threading.Barrier(20), []

    def quarter(racer: int) -> None:
        start.wait()
        replies.append(shop.api.post(f"/payments/documents/{invoice['id']}/payments",
                                     {"paymentMethodId": transfer["id"], "amount": "115.00",
                                      "exchangeRate": f"{D('24.40') + D(racer) / 100}"}, key=shop.key))

    threads = [threading.Thread(target=quarter, args=(racer,)) for racer in range(20)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(reply.status for reply in replies) == [201] * 4 + [400] * 16
    won = [reply.json for reply in replies if reply.status == 201]
    document = shop.get(invoice["id"])
    assert (D(str(document["pending"])), D(str(document["basePending"]))) == (0, 0)
    # 460 x 24.50 = 11,270.00 carried; each winner took 115 x 24.50 = 2,817.50 of it
    assert sum(D(str(p["settledBase"])) for p in won) == D("11270.00")
    received = sum(D(str(p["baseAmount"])) for p in won)
    assert shop.balance("110201") == 0 and shop.balance("110104") == received
    assert shop.balance("4202") - shop.balance("6303") == received - D("11270.00")
    assert D(str(shop.partner(shop.customer)["receivableBalance"])) == 0


@RACES
def test_concurrent_refunds_of_one_credit_note_never_give_back_more_than_it_credits(shop):
    cash = shop.created("/payments/methods", {"name": "Efectivo"})
    invoice = shop.document("01", [(shop.service, 4, 100)])                                  # 460.00
    shop.created(f"/payments/documents/{invoice['id']}/payments", {"paymentMethodId": cash["id"], "amount": 460})
    note = shop.document("06", [(shop.service, 4, 100)], sourceDocumentId=invoice["id"])     # 460.00 to give back
    start, replies = threading.Barrier(20), []

    def quarter() -> None:
        start.wait()
        replies.append(shop.api.post(f"/payments/documents/{note['id']}/payments",
                                     {"paymentMethodId": cash["id"], "amount": "115.00"}, key=shop.key))

    threads = [threading.Thread(target=quarter) for _ in range(20)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(reply.status for reply in replies) == [201] * 4 + [400] * 16
    assert {reply.json["code"] for reply in replies if reply.status == 400} == {"AMOUNT_EXCEEDS_PENDING"}
    # cash: 460 in, 4 x 115 = 460 out; the customer owes and is owed nothing
    assert shop.balance("110101") == 0 and shop.balance("110201") == 0
    assert D(str(shop.get(note["id"])["pending"])) == 0
    assert D(str(shop.partner(shop.customer)["receivableBalance"])) == 0


def test_the_isv_books_and_return_count_a_dollar_invoice_in_lempiras(shop):
    shop.document("01", [(shop.service, 1, 100)], currency="USD", exchangeRate="24.50")
    # the entry posted ISV 15.00 x 24.50 = 367.50 on 210201; the books and the return say the same
    book = shop.api.get("/reports/sales-book?startDate=2026-11-01&endDate=2026-11-30", key=shop.key).json
    row = book["rows"][0] if "rows" in book else book["documents"][0]
    assert (D(str(row["taxed15"])), D(str(row["isv15"])), D(str(row["total"]))) == \
           (D("2450.00"), D("367.50"), D("2817.50"))
    summary = shop.api.get("/reports/isv-summary?month=2026-11", key=shop.key).json
    assert D(str(summary["outputTax"])) == D("367.50") == shop.balance("210201")


def test_a_dollar_purchase_whose_rounded_parts_leave_a_cent_is_booked_not_refused(shop):
    # 10.07 + 15 % = 11.58; at 24.50: total 283.71, ISV 1.51 x 24.50 = 36.995 -> 37.00,
    # goods 10.07 x 24.50 = 246.715 -> 246.72: 283.71 - 37.00 - 246.72 = -0.01 credited to expense
    purchase = shop.document("103", [(shop.product, 1, D("10.07"))], currency="USD", exchangeRate="24.50")
    assert shop.entry_lines(purchase["journalEntryId"]) == {
        "110501": (D("246.72"), 0), "110401": (D("37.00"), 0), "5102": (0, D("0.01")), "210101": (0, D("283.71"))}
    two = shop.created("/documents", {"type": "103", "businessPartnerId": shop.supplier, "date": "2026-11-02",
                                      "currency": "USD", "exchangeRate": "24.50", "lines": [
                                          {"productId": shop.product, "quantity": 1, "unitPrice": "10.01", "taxRate": 0},
                                          {"productId": shop.product, "quantity": 1, "unitPrice": "10.01", "taxRate": 0}]})
    # 20.02 x 24.50 = 490.49 shared 245.25 / 245.24 (10.01 x 24.50 = 245.245 each): stock and payable agree
    assert shop.entry_lines(two["journalEntryId"]) == {"110501": (D("490.49"), 0), "210101": (0, D("490.49"))}


def test_a_dollar_draft_confirmed_after_the_company_took_dollars_as_its_own_is_refused_naming_the_rate(shop):
    draft = shop.created("/documents", {"type": "01", "status": "draft", "businessPartnerId": shop.customer,
                                        "date": "2026-11-02", "currency": "USD", "exchangeRate": "24.50",
                                        "lines": [{"productId": shop.product, "quantity": 1, "unitPrice": 100}]})
    # a draft posts nothing, so the company may still change its currency
    moved = shop.api.put(f"/companies/{shop.company.company_id}", {"currency": "USD"}, key=shop.key)
    assert moved.status == 200, moved.text
    reply = shop.api.post(f"/documents/{draft['id']}/confirm", {}, key=shop.key)
    # the draft's 24.50 would turn dollars into dollars: refused as a rate sent for the own currency is
    assert reply.status == 400 and reply.json["code"] == "VALIDATION_ERROR", reply.text
    assert reply.json["details"] == [{"field": "exchangeRate",
                                      "message": "must be 1 (or left out) for the company's own currency USD"}]
    assert shop.api.get(f"/documents/{draft['id']}", key=shop.key).json["status"] == "draft"


def test_a_dollar_document_stored_before_rates_is_settled_as_it_was_booked(shop, table):
    """Before currencies had rates a USD document was booked one to one: paying it now at the
    day's rate would invent a gain; it is settled one to one too."""
    from chalicelib.store import keys
    rate(shop, "2026-11-02", "24.50")
    old = shop.document("01", [(shop.service, 1, 100)], currency="USD")
    key = keys.document(shop.company.company_id, old["id"])
    table.client.update_item(TableName=table.name, Key={name: {"S": value} for name, value in key.items()},
                             UpdateExpression="REMOVE exchangeRate, baseTotal, basePending")
    cash = shop.created("/payments/methods", {"name": "Efectivo"})
    paid = pay(shop, old["id"], paymentMethodId=cash["id"], amount="115.00")
    assert (D(str(paid["exchangeRate"])), D(str(paid["baseAmount"])), D(str(paid["settledBase"]))) == \
           (1, D("115.00"), D("115.00"))
    assert shop.balance("4202") == 0 and shop.balance("6303") == 0
