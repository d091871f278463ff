"""Typed records at the store boundary (issue 29 item 4): what the table answers has its ids,
versions and other integer fields as int, and its money, quantities and rates as Decimal; an amount
at its cents whatever DynamoDB trimmed (issue 45: 115.00 comes back 115 from DynamoDB), so no answer
changes by a digit between the write and the read."""
from __future__ import annotations

from decimal import Decimal

import pytest

from chalicelib.domain.records import INTEGER_FIELDS, integer_field
from chalicelib.services.accounting.posting import get_entry
from chalicelib.services.payments.payments import get_payment
from chalicelib.services.sales_purchases.documents import get_document
from chalicelib.services.sales_purchases.partners import get_partner
from chalicelib.store import keys
from chalicelib.store.table import from_attributes, to_attributes
from chalicelib.store.transaction import Transaction
from tests.documents_support import Shop

pytestmark = pytest.mark.emulator("the store calls DynamoDB itself: on the emulator (and on DynamoDB Local)")

D = Decimal

STORED = {"PK": "T#typed", "SK": "DOC", "id": 15, "version": 3, "businessPartnerId": 7,
          "sourceDocumentId": D("8.00"),  # DynamoDB keeps 8: an integer field, read as int
          "total": D("115.00"), "pending": D("7"),  # money stays Decimal, also when whole, at its cents
          "lines": [{"productId": 4, "quantity": D("2"), "unitPrice": D("57.5"), "taxRate": D("0.15")}],
          "source": {"type": "document", "id": 15}, "reversalEntryIds": [D("9")]}


def assert_typed(item: dict) -> None:
    assert [type(item[name]) for name in ("id", "version", "businessPartnerId")] == [int, int, int]
    assert (item["id"], item["version"], item["businessPartnerId"]) == (15, 3, 7)
    line = item["lines"][0]
    assert type(line["productId"]) is int and line["productId"] == 4
    assert type(item["source"]["id"]) is int
    assert type(item["sourceDocumentId"]) is int and item["sourceDocumentId"] == 8
    # amounts at their cents (115.00 trimmed to 115 by DynamoDB, 7 written whole: 7.00); a quantity,
    # a price and a rate have no places of their own: kept as written, which DynamoDB trims
    assert [(type(value), str(value)) for value in (item["total"], item["pending"],
                                                     line["quantity"], line["unitPrice"], line["taxRate"])] == \
        [(D, "115.00"), (D, "7.00"), (D, "2"), (D, "57.5"), (D, "0.15")]
    assert item["reversalEntryIds"] == [D("9")] and type(item["reversalEntryIds"][0]) is D  # not an integer field


def test_get_query_and_batch_get_answer_ints_as_ints(table):
    Transaction(table).put_new(STORED).commit()
    assert_typed(table.get(keys.item_key("T#typed", "DOC")))
    assert_typed(table.query_all(partition=("PK", "T#typed"), consistent=True)[0])
    assert_typed(table.batch_get([keys.item_key("T#typed", "DOC")])[("T#typed", "DOC")])
    assert_typed(from_attributes(to_attributes(STORED)))  # a stream record's image reads the same


def test_the_integer_fields_are_the_records_ints_and_every_id():
    assert {"version", "line", "reversalOf", "credit_block_days", "productId", "chartOfAccountId"} <= INTEGER_FIELDS
    assert not {"quantity", "amount", "total", "debit", "exchangeRate", "pending"} & INTEGER_FIELDS
    assert integer_field("id") and integer_field("paymentMethodId") and not integer_field("quantity")


@pytest.fixture
def shop(api, company_a) -> Shop:
    return Shop(api, company_a)


def test_documents_payments_entries_and_partners_read_back_typed(shop, table):
    company_id = shop.company.company_id
    cash = shop.created("/payments/methods", {"name": "Efectivo", "isCashMethod": True})
    invoice = shop.document("01", [(shop.service, 2, 50)])  # 2 x 50.00 = 100.00 + 15% ISV 15.00 = 115.00
    paid = shop.api.post(f"/payments/documents/{invoice['id']}/payments",
                         {"paymentMethodId": cash["id"], "amount": 40, "paymentDate": "2026-11-03"}, key=shop.key)
    assert paid.status == 201, paid.text

    document = get_document(table, company_id, invoice["id"])
    assert [type(document[name]) for name in ("id", "version", "businessPartnerId")] == [int, int, int]
    assert type(document["lines"][0]["productId"]) is int
    assert (document["total"], document["pending"]) == (D("115.00"), D("75.00"))  # 115.00 - 40.00
    assert type(document["total"]) is D and type(document["lines"][0]["quantity"]) is D

    payment = get_payment(table, company_id, invoice["id"], paid.json["id"])
    assert [type(payment[name]) for name in ("id", "documentId", "businessPartnerId", "journalEntryId")] == [int] * 4
    assert payment["amount"] == D("40.00") and type(payment["amount"]) is D

    entry = get_entry(table, company_id, payment["journalEntryId"])
    assert type(entry["id"]) is int and type(entry["version"]) is int
    assert {type(line["chartOfAccountId"]) for line in entry["lines"]} == {int}
    assert sorted(line["debit"] for line in entry["lines"]) == [D("0.00"), D("40.00")]

    posting = table.query_all(partition=("PK", keys.account_partition(company_id, shop.books["110101"])),
                              sort_prefix=("SK", keys.POSTING_PREFIX), consistent=True)[0]
    assert [type(posting[name]) for name in ("accountId", "journalEntryId", "line")] == [int, int, int]
    assert posting["debit"] == D("40.00") and type(posting["debit"]) is D

    partner = get_partner(table, company_id, shop.customer)
    assert type(partner["id"]) is int and type(partner["version"]) is int
    assert partner["receivableBalance"] == D("75.00") and type(partner["receivableBalance"]) is D
