"""Values as DynamoDB keeps them (infra/devstack/faithful_values.py, issue 45): numbers trimmed
("leading and trailing zeroes are trimmed"), maps and items in an order of their own; and the store
reading each number as its field declares it (domain/records.py), whatever was trimmed."""
from __future__ import annotations

from decimal import Decimal

from chalicelib.domain.records import FIELD_PLACES, as_declared
from chalicelib.store import keys
from chalicelib.store.transaction import Transaction
from infra.devstack import faithful_values

D = Decimal
TABLE = "test-business-api"
KEY = {"PK": {"S": "T#values"}, "SK": {"S": "X"}}


def test_a_number_is_trimmed_as_dynamodb_keeps_it():
    # 115.00 -> 115, 5000.50 -> 5000.5, 0.00 -> 0, -0.0 -> 0, 1E+2 -> 100, 007.10 -> 7.1
    assert [faithful_values.trimmed(number) for number in ("115.00", "5000.50", "0.00", "-0.0", "1E+2", "007.10")] == \
        ["115", "5000.5", "0", "0", "100", "7.1"]


def test_numbers_written_or_added_come_back_trimmed(table):
    client = table.client
    client.put_item(TableName=TABLE, Item={**KEY, "total": {"N": "115.00"}, "rates": {"NS": ["0.150", "0.130"]},
                                           "lines": {"L": [{"M": {"debit": {"N": "100.00"}}}]}})
    # 115.00 + 0.50 = 115.50, kept as 115.5
    client.update_item(TableName=TABLE, Key=KEY, UpdateExpression="ADD #t :half",
                       ExpressionAttributeNames={"#t": "total"}, ExpressionAttributeValues={":half": {"N": "0.50"}})
    raw = client.get_item(TableName=TABLE, Key=KEY, ConsistentRead=True)["Item"]
    assert raw["total"] == {"N": "115.5"} and sorted(raw["rates"]["NS"]) == ["0.13", "0.15"]
    assert raw["lines"]["L"][0]["M"]["debit"] == {"N": "100"}


def test_a_map_comes_back_in_an_order_of_its_own_the_same_on_every_read(table):
    written = {name: {"S": name} for name in "abcdefghij"}
    table.client.put_item(TableName=TABLE, Item={**KEY, "party": {"M": written}})
    reads = [list(table.client.get_item(TableName=TABLE, Key=KEY, ConsistentRead=True)["Item"]["party"]["M"])
             for _ in range(2)]
    assert reads[0] == reads[1] and sorted(reads[0]) == list("abcdefghij") and reads[0] != list("abcdefghij")
    previous = faithful_values.set_seed("another")
    try:  # another seed, another order
        assert list(faithful_values.shuffled(dict.fromkeys("abcdefghij"))) != reads[0]
    finally:
        faithful_values.set_seed(previous)


def test_the_store_reads_amounts_at_their_cents_and_ints_as_ints(table):
    # written 100.00, 2.50 and 8.00, trimmed by DynamoDB to 100, 2.5 and 8
    Transaction(table).put_new({"PK": "T#values", "SK": "ENTRY", "totalDebit": D("100.00"), "quantity": D("2.50"),
                                "journalEntryId": D("8.00"), "lines": [{"debit": D("0.5"), "credit": D("0")}]}).commit()
    read = table.get(keys.item_key("T#values", "ENTRY"))
    assert str(read["totalDebit"]) == "100.00" and str(read["quantity"]) == "2.5"  # a quantity has no places
    assert read["journalEntryId"] == 8 and type(read["journalEntryId"]) is int
    assert [str(read["lines"][0][name]) for name in ("debit", "credit")] == ["0.50", "0.00"]


def test_a_field_keeps_its_places_when_it_has_more_and_one_name_has_one_scale():
    assert str(as_declared("amount", D("0.125"))) == "0.125"  # never rounded on reading
    assert str(as_declared("amount", D("7"))) == "7.00" and str(as_declared("exchangeRate", D("24.5"))) == "24.5"
    assert as_declared("version", D("3")) == 3 and str(as_declared("version", D("3.5"))) == "3.5"
    assert FIELD_PLACES["totalDebit"] == FIELD_PLACES["amount"] == 2 and "quantity" not in FIELD_PLACES
