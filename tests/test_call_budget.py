"""DynamoDB round trips per request (counted, not timed): authentication costs one GetItem and
one BatchGetItem; then one GetItem/Query per read and one transaction per write."""
from __future__ import annotations

from collections import Counter

import pytest

AUTH = Counter({"GetItem": 1, "BatchGetItem": 1})


@pytest.fixture
def calls(table):
    seen: Counter = Counter()
    table.client.meta.events.register("before-call.dynamodb", lambda model, **_: seen.update([model.name]))
    return seen


def measure(calls, send):
    calls.clear()
    reply = send()
    assert reply.status < 300, reply.text
    return calls - AUTH


def test_reads_cost_one_call(api, calls, company_a):
    key = company_a.api_key
    for n in range(25):
        api.post("/business-partners", {"name": f"P{n}", "type": "customer"}, key=key)
    assert measure(calls, lambda: api.get("/business-partners/3", key=key)) == Counter({"GetItem": 1})
    assert measure(calls, lambda: api.get("/business-partners", key=key)) == Counter({"Query": 1})
    assert measure(calls, lambda: api.get("/business-partners?page=2&limit=10", key=key)) == Counter({"Query": 1})
    assert measure(calls, lambda: api.get("/companies", key=key)) == Counter({"GetItem": 1})


def test_writes_cost_one_transaction(api, calls, company_a):
    key = company_a.api_key
    created = measure(calls, lambda: api.post("/products", {"code": "A", "name": "A"}, key=key))
    # the company's country (its tax rates) is read; the id comes from the counter (one UpdateItem
    # ADD, gaps allowed), the rest is one transaction
    assert created == Counter({"GetItem": 1, "UpdateItem": 1, "TransactWriteItems": 1})
    # the product is read with its stock position (its answer carries the average cost): one call
    updated = measure(calls, lambda: api.put("/products/1", {"name": "B"}, key=key))
    assert updated == Counter({"BatchGetItem": 1, "TransactWriteItems": 1})
    assert measure(calls, lambda: api.get("/products/1", key=key)) == Counter({"BatchGetItem": 1})


def test_ledger_costs_three_reads_whatever_the_other_accounts_hold(api, calls, company_a):
    from tests.support import Books
    books = Books(api, company_a, full=False)
    key = company_a.api_key
    books.entry("2026-10-01", ("110101", 5, 0), ("3101", 0, 5))
    books.entry("2026-11-02", ("110101", 7, 0), ("3101", 0, 7))
    path = f"/journal-entries/ledger?chartOfAccountId={books['110101']}&startDate=2026-11-01&endDate=2026-11-30"
    before = measure(calls, lambda: api.get(path, key=key))
    for n in range(30):
        books.entry("2026-11-03", ("110103", 10 + n, 0), ("410101", 0, 10 + n))
    after = measure(calls, lambda: api.get(path, key=key))
    # the account, its months (in the company's balances partition) and the postings of the range
    assert before == after == Counter({"GetItem": 1, "Query": 2})
    assert api.get(path, key=key).json["openingBalance"] == 5


def test_accounting_reads_and_writes_budget(api, calls, company_a):
    from tests.support import Books
    books = Books(api, company_a, full=False)
    key = company_a.api_key
    body = {"date": "2026-11-05", "lines": [{"chartOfAccountId": books["110101"], "debit": 1},
                                            {"chartOfAccountId": books["410101"], "credit": 1}]}
    # the id from its counter, the accounts checked in one BatchGet, the control accounts in two
    # Queries (the rules, the bank accounts), the rest one transaction
    assert measure(calls, lambda: api.post("/journal-entries", body, key=key)) == \
        Counter({"UpdateItem": 1, "BatchGetItem": 1, "Query": 2, "TransactWriteItems": 1})
    # the entry, the control accounts (two Queries), its accounts (one BatchGet: whether each
    # already has postings), one transaction
    assert measure(calls, lambda: api.post("/journal-entries/1/post", key=key)) == \
        Counter({"GetItem": 1, "Query": 2, "BatchGetItem": 1, "TransactWriteItems": 1})
    # a posted entry: its accounts read once, checked and guarded from that one read
    assert measure(calls, lambda: api.post("/journal-entries", {**body, "status": "posted"}, key=key)) == \
        Counter({"UpdateItem": 1, "BatchGetItem": 1, "Query": 2, "TransactWriteItems": 1})
    assert measure(calls, lambda: api.get("/journal-entries", key=key)) == Counter({"Query": 2})
    assert measure(calls, lambda: api.get("/journal-entries/1", key=key)) == Counter({"GetItem": 1})
    assert measure(calls, lambda: api.get("/journal-entries/trial-balance", key=key)) == Counter({"Query": 2})
    assert measure(calls, lambda: api.get("/chart-of-accounts", key=key)) == Counter({"Query": 1})


def test_documents_budget(api, calls, company_a):
    from tests.documents_support import Shop
    shop = Shop(api, company_a)
    key = shop.key
    shop.document("103", [(shop.product, 50, 60)])  # stock to sell
    invoice = {"type": "01", "businessPartnerId": shop.customer, "date": "2026-11-02",
               "lines": [{"productId": shop.product, "quantity": 1, "unitPrice": 100}]}
    # A confirmed sales invoice with one stocked line:
    #   BatchGetItem 2: the company, the customer and the product, read together; then the accounts
    #                   its rules post to (an account that already has postings needs no write);
    #   UpdateItem 2:   the document id and the automatic entry's id, from their counters (gaps allowed);
    #   GetItem 1:      the branch, for the establishment code of the fiscal number;
    #   Query 2:        the company's CAI ranges (small partition, read whole) and its determination rules;
    #   TransactWriteItems 1: everything else (number, stock, movement, entry, balances, counts, events).
    expected = Counter({"BatchGetItem": 2, "UpdateItem": 2, "GetItem": 1, "Query": 2, "TransactWriteItems": 1})
    assert measure(calls, lambda: api.post("/documents", invoice, key=key)) == expected
    assert measure(calls, lambda: api.post("/documents", invoice, key=key)) == expected  # not a first-time cost
    # A draft is counted as the confirmation it would become (issue 45: its plan built, never submitted, and
    # its items counted): it reads what the confirmation reads (the accounts, the branch, the CAI ranges and
    # the rules) but takes no entry id; 4 calls more than before it was counted (BatchGetItem 1, UpdateItem 1,
    # TransactWriteItems 1).
    draft = {**invoice, "status": "draft"}
    counted = Counter({"BatchGetItem": 2, "UpdateItem": 1, "GetItem": 1, "Query": 2, "TransactWriteItems": 1})
    assert measure(calls, lambda: api.post("/documents", draft, key=key)) == counted
    # The first page: one Query of the per-day counts (the exact total: one small item a day, a page
    # holds decades of them) and one Query of the date index (the page), the same with 3 documents as
    # with a full page and more behind it.
    first_page = Counter({"Query": 2})
    assert measure(calls, lambda: api.get("/documents?limit=20", key=key)) == first_page
    for _ in range(20):
        shop.document("01", [(shop.service, 1, 100)])
    listed = api.get("/documents?limit=20", key=key).json
    # the stock receipt, 2 invoices and the draft above, then 20 more: 1 + 2 + 1 + 20 = 24
    assert (len(listed["documents"]), listed["total"], bool(listed["nextCursor"])) == (20, 24, True)
    assert measure(calls, lambda: api.get("/documents?limit=20", key=key)) == first_page
    # the document and the company (whose currency allowedActions' `advance` reads), one round trip
    assert measure(calls, lambda: api.get("/documents/1", key=key)) == Counter({"BatchGetItem": 1})


def test_credit_summary_budget(api, calls, company_a):
    """The partner (balance, open counts), the company (its date), the first page of open
    documents and the documents of that page: the same calls with a short or a long history."""
    from tests.documents_support import Shop
    shop = Shop(api, company_a)
    cash = shop.created("/payments/methods", {"name": "Efectivo"})
    shop.document("01", [(shop.service, 1, 100)])
    expected = Counter({"GetItem": 2, "Query": 1, "BatchGetItem": 1})
    path = f"/credits/client/{shop.customer}/summary"
    assert measure(calls, lambda: api.get(path, key=shop.key)) == expected
    for _ in range(20):  # paid history does not count
        invoice = shop.document("01", [(shop.service, 1, 100)])
        shop.api.post(f"/payments/documents/{invoice['id']}/payments", {"paymentMethodId": cash["id"], "amount": 115},
                      key=shop.key)
    assert measure(calls, lambda: api.get(path, key=shop.key)) == expected
    assert api.get(path, key=shop.key).json["pendingDocumentCount"] == 1
