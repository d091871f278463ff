"""Issue 42, speed: a document's open-document index item carries what it owes now (and what
names it), so a page of bank statement suggestions reads the index and confirms only the
documents it suggests. Figures worked by hand in the comments."""
from __future__ import annotations

from decimal import Decimal

import pytest

from chalicelib.services.banking import banking
from chalicelib.services.statements import lines as statement_lines
from chalicelib.services.statements import suggestions
from chalicelib.store import keys
from chalicelib.store.table import to_attributes
from tests.documents_support import Shop
from tests.statement_lines_support import put_lines

D = Decimal


@pytest.fixture
def shop(api, company_a) -> Shop:
    return Shop(api, company_a, inventory=True)   # inventory: the opening balance equity account too


def post(shop: Shop, path: str, body: dict, expect: int = 201) -> dict:
    reply = shop.api.post(path, body, key=shop.key)
    assert reply.status == expect, reply.text
    return reply.json


def pay(shop: Shop, document_id: int, method_id: int, amount: str) -> dict:
    return post(shop, f"/payments/documents/{document_id}/payments",
                {"paymentMethodId": method_id, "amount": amount, "paymentDate": "2026-11-05"})


def cancel(shop: Shop, document_id: int, payment_id: int) -> dict:
    return post(shop, f"/payments/documents/{document_id}/payments/{payment_id}/cancel", {"reason": "error"}, 200)


def index_key(shop: Shop, document: dict, side: str = keys.RECEIVABLE_SIDE) -> keys.Key:
    return keys.open_document(shop.company.company_id, document["businessPartnerId"], side, document["dueDate"],
                              document["id"])


def indexed(shop: Shop, table, document: dict, side: str = keys.RECEIVABLE_SIDE) -> dict | None:
    return table.get(index_key(shop, document, side))


def pending_indexed(shop: Shop, table, document: dict, side: str = keys.RECEIVABLE_SIDE) -> Decimal | None:
    item = indexed(shop, table, document, side)
    return None if item is None else D(str(item["pending"]))


def test_the_index_item_follows_what_the_invoice_owes_through_payments_and_cancellations(shop, table):
    cash = shop.created("/payments/methods", {"name": "Efectivo"})
    sale = shop.document("01", [(shop.service, 2, 100)])       # 2 x 100 = 200 + 15 % ISV 30 = 230.00
    item = indexed(shop, table, sale)
    assert (D(str(item["pending"])), item["type"], item["number"], int(item["businessPartnerId"]), item["date"]) == \
           (D("230.00"), "01", sale["number"], shop.customer, sale["date"])
    first = pay(shop, sale["id"], cash["id"], "100.00")
    assert pending_indexed(shop, table, sale) == D("130.00")        # 230 - 100
    rest = pay(shop, sale["id"], cash["id"], "130.00")
    assert indexed(shop, table, sale) is None                       # 130 - 130 = 0: paid off, out of the index
    cancel(shop, sale["id"], rest["id"])
    assert pending_indexed(shop, table, sale) == D("130.00")        # reopened: 0 + 130
    cancel(shop, sale["id"], first["id"])
    assert pending_indexed(shop, table, sale) == D("230.00")        # 130 + 100


def test_the_index_item_follows_an_advance_applied_and_its_cancellation(shop, table):
    cash = shop.created("/payments/methods", {"name": "Efectivo", "isCashMethod": True})
    order = shop.document("101", [(shop.service, 4, 100)])    # 4 x 100 = 400 + 60 = 460.00, a draft
    pay(shop, order["id"], cash["id"], "200.00")              # an advance of 200.00 on the order
    sale = shop.document("01", [(shop.service, 4, 100)], sourceDocumentId=order["id"])   # 460.00
    assert pending_indexed(shop, table, sale) == D("460.00")
    applied = post(shop, f"/payments/documents/{sale['id']}/apply-advances-from-source", {})
    assert pending_indexed(shop, table, sale) == D("260.00")        # 460 - 200
    cancel(shop, sale["id"], applied["id"])
    assert pending_indexed(shop, table, sale) == D("460.00")        # 260 + 200


def test_the_index_item_of_an_opening_balance_and_a_purchase(shop, table):
    cash = shop.created("/payments/methods", {"name": "Efectivo"})
    owed = post(shop, f"/business-partners/{shop.customer}/opening-balance",
                {"date": "2026-10-31", "amount": "1500.00", "dueDate": "2026-10-15"})
    assert (pending_indexed(shop, table, owed), indexed(shop, table, owed)["type"]) == (D("1500.00"), "900")
    pay(shop, owed["id"], cash["id"], "400.00")
    assert pending_indexed(shop, table, owed) == D("1100.00")       # 1500 - 400
    purchase = shop.document("103", [(shop.service, 2, 100)])       # 230.00 owed to the supplier
    pay(shop, purchase["id"], cash["id"], "30.00")
    assert pending_indexed(shop, table, purchase, keys.PAYABLE_SIDE) == D("200.00")   # 230 - 30


def bank_account(shop: Shop) -> dict:
    return shop.created("/bank-accounts", {"name": "Cuenta corriente", "openingBalance": 1000,
                                           "openingBalanceDate": "2026-11-01",
                                           "chartOfAccountId": shop.books["110103"]})


def suggested(shop: Shop, table, account_id: int, rows) -> list[list[dict]]:
    company_id = shop.company.company_id
    ids = put_lines(table, company_id, account_id, rows)
    page = [statement_lines.get_line(table, company_id, account_id, line_id) for line_id in ids]
    answer = suggestions.suggest(table, company_id, banking.get_bank_account(table, company_id, account_id), page)
    return [answer[line_id] for line_id in ids]


def suggested_documents(answer: list[dict]) -> list[list[int]]:
    return [[part["documentId"] for part in each["documents"]] for each in answer if each["kind"] == "document"]


def test_a_stale_index_item_is_never_suggested(shop, table):
    account = bank_account(shop)
    stale = shop.document("01", [(shop.service, 2, 100)])      # owes 230.00
    kept = shop.document("01", [(shop.service, 1, 100)])       # owes 115.00
    # the index says the first owes 115.00 too: its document, read to confirm, says 230.00
    table.client.update_item(TableName=table.name, Key=to_attributes(index_key(shop, stale)),
                             UpdateExpression="SET pending = :p", ExpressionAttributeValues=to_attributes(
                                 {":p": D("115.00")}))
    [found] = suggested(shop, table, account["id"], [("2026-11-05", "115.00", "DEP", None)])
    assert suggested_documents(found) == [[kept["id"]]]


def test_the_migration_copies_what_a_suggestion_needs_onto_index_items_written_before(shop, table):
    from infra.ops.migrations import open_documents_indexed_per_company

    account = bank_account(shop)
    cash = shop.created("/payments/methods", {"name": "Efectivo"})
    sale = shop.document("01", [(shop.service, 2, 100)])       # 230.00
    pay(shop, sale["id"], cash["id"], "115.00")                # 230 - 115 = 115.00 left
    key = index_key(shop, sale)
    # as written before issue 42's speed: keys, itemType, documentId, dueDate and the GSI1 keys only
    table.client.update_item(TableName=table.name, Key=to_attributes(key),
                             UpdateExpression="REMOVE pending, #t, #d, businessPartnerId, #n",
                             ExpressionAttributeNames={"#t": "type", "#d": "date", "#n": "number"})
    [before] = suggested(shop, table, account["id"], [("2026-11-05", "115.00", "", None)])
    assert suggested_documents(before) == [[sale["id"]]]    # read from its document, as before
    assert open_documents_indexed_per_company(table) == 1
    assert open_documents_indexed_per_company(table) == 0   # idempotent
    item = table.get(key)
    assert (D(str(item["pending"])), item["type"], item["number"], int(item["businessPartnerId"])) == \
           (D("115.00"), "01", sale["number"], shop.customer)
    [after] = suggested(shop, table, account["id"], [("2026-11-06", "115.00", "", None)])
    assert suggested_documents(after) == [[sale["id"]]]
