"""The capacity-unit arithmetic of the cost bench (infra/bench/capacity.py) on hand-worked examples,
and its meter on one real transaction over moto. The rules are AWS's (docs/operations.md, "Cost per
operation"): item size = attribute names' UTF-8 bytes + values' sizes; 1 WRU per 1 KB written, 2 in a
transaction; 1 RRU per 4 KB read strongly consistent, 0.5 eventually; a GSI write per 1 KB projected."""
from __future__ import annotations

import boto3
import pytest

from chalicelib.store.transaction import Transaction
from infra.bench.capacity import (
    CapacityMeter,
    index_writes,
    item_size,
    number_size,
    read_units,
    summed,
    write_units,
)
from infra.deploy.resources import table_properties

GSI1, GSI2, _GSI3 = table_properties()["GlobalSecondaryIndexes"]  # GSI1 and GSI2 ProjectionType ALL


def sized(total: int, **attributes: dict) -> dict:
    """An item of exactly `total` bytes: PK "x" (2 + 1 = 3 bytes), the attributes given, and a
    string "p" padding the rest (1 byte of name + its characters)."""
    item = {"PK": {"S": "x"}, **attributes}
    padding = total - item_size(item) - 1
    assert padding >= 0
    return {**item, "p": {"S": "a" * padding}}


def test_item_size_is_names_plus_values():
    # "PK" 2 + "C#1" 3 = 5; "SK" 2 + "DOC" 3 = 5; "total" 5 + 115.5 (digits 1155: 4 -> 2 bytes, + 1) 3 = 8;
    # "paid" 4 + a boolean 1 = 5; "ñame" 5 bytes (ñ is 2 in UTF-8) + "é" 2 = 7: 5 + 5 + 8 + 5 + 7 = 30
    assert item_size({"PK": {"S": "C#1"}, "SK": {"S": "DOC"}, "total": {"N": "115.5"}, "paid": {"BOOL": False},
                      "ñame": {"S": "é"}}) == 30
    # a list of one map {"q": 1}: the map 3 + (1 per element + "q" 1 + the number 1: 1 digit -> 1 + 1 = 2) = 7;
    # the list 3 + (1 per element + 7) = 11; with the name "lines" 5: 16
    assert item_size({"lines": {"L": [{"M": {"q": {"N": "1"}}}]}}) == 16
    # null 1, binary its raw bytes, a string set the sum of its members: 1 + 1, 1 + 3, 2 + (1 + 2)
    assert item_size({"n": {"NULL": True}, "b": {"B": b"\x00\x01\x02"}, "ss": {"SS": ["a", "bc"]}}) == 2 + 4 + 5
    assert item_size(None) == 0  # no item (a missing key): nothing


@pytest.mark.parametrize(("number", "size"), [
    ("0", 1),          # no significant digit: the 1 byte only
    ("100", 2),        # trailing zeros trimmed: 1 digit -> 1 byte, + 1
    ("-12.300", 3),    # 123: 3 digits -> 2 bytes, + 1
    ("0.000125", 3),   # leading zeros trimmed: 125 -> 2 + 1
    ("1E+2", 2),       # 1 digit, whatever the exponent
    ("1234567890123456789012345678901234567", 20),  # 37 digits -> 19 bytes, + 1
])
def test_number_size_is_one_byte_per_two_significant_digits_plus_one(number, size):
    assert number_size(number) == size


def test_write_units_round_up_to_a_kilobyte_and_double_in_a_transaction():
    assert write_units(1536, transactional=True) == 4  # 1.5 KB -> 2 KB rounded -> 2 WRU, x 2 in a transaction
    assert write_units(1536) == 2  # the same item put on its own
    assert write_units(1024) == 1 and write_units(1025) == 2  # exactly 1 KB is one unit; a byte more is two
    assert write_units(67) == 1  # a small counter: at least a unit
    assert write_units(0, transactional=True) == 2  # a ConditionCheck of a missing item: 1 KB minimum, x 2
    # UpdateItem: the larger of before (900 B) and after (1,100 B): 1,100 -> 2 KB -> 2 WRU
    assert write_units(max(900, 1100)) == 2


def test_read_units_round_up_to_four_kilobytes():
    assert read_units(3500, consistent=True) == 1.0  # 3,500 B -> 4 KB: 1 RRU strongly consistent
    assert read_units(3500, consistent=False) == 0.5  # half eventually consistent
    assert read_units(10 * 1024, consistent=True) == 3.0  # 10 KB -> 12 KB: 3 RRU
    assert read_units(0, consistent=True) == 1.0  # a missing item still costs the minimum
    assert read_units(8 * 1024, consistent=True, transactional=True) == 4.0  # TransactGetItems: 8 KB -> 2 x 2
    # BatchGetItem rounds each item on its own: 1.5 KB + 6.5 KB -> 4 KB + 8 KB -> 1 + 2 = 3 RRU ...
    assert read_units(1536, consistent=True) + read_units(6656, consistent=True) == 3.0
    # ... a Query rounds the sum once: 1.5 KB + 6.5 KB = 8 KB -> 2 RRU, 1 eventually consistent (a GSI)
    assert read_units(1536 + 6656, consistent=True) == 2.0
    assert read_units(1536 + 6656, consistent=False) == 1.0


def test_index_writes_follow_the_index_keys():
    indexed = {"GSI1PK": {"S": "C#1#DOCS"}, "GSI1SK": {"S": "2026-11-02#1"}}
    item = sized(3072, **indexed)  # 3 KB, in GSI1 (both its keys), not in GSI2
    assert item_size(item) == 3072
    # a new 3 KB item: the index gets the whole item (ALL): 3 KB -> 3 WRU, once, transaction or not
    assert index_writes(None, item, GSI1) == [("put", 3)]
    assert index_writes(None, item, GSI2) == []  # without GSI2's keys: no write there
    # so a 3 KB indexed item put in a transaction costs 3 x 2 = 6 on the table + 3 on GSI1 = 9 WRU
    assert write_units(3072, transactional=True) + sum(units for _, units in index_writes(None, item, GSI1)) == 9
    # a counter added on it, keys unchanged: an update of the entry, the larger of before and after
    counted = {**item, "n": {"N": "5"}}  # 3,072 + 1 + 2 = 3,075 B -> 4 KB
    assert index_writes(item, counted, GSI1) == [("update", 4)]
    assert index_writes(item, item, GSI1) == []  # nothing changed (a ConditionCheck): nothing written
    # the index key changes: the old entry deleted (3 KB: 3) and the new one put (3 KB: 3)
    moved = {**item, "GSI1SK": {"S": "2026-11-03#1"}}
    assert index_writes(item, moved, GSI1) == [("delete", 3), ("put", 3)]
    # the item loses its index keys, or is deleted: the entry is deleted
    unindexed = {name: value for name, value in item.items() if name not in indexed}
    assert index_writes(item, unindexed, GSI1) == [("delete", 3)]
    assert index_writes(item, None, GSI1) == [("delete", 3)]
    # a KEYS_ONLY index holds only the keys: PK 2 + 1, SK 2 + 1, GSI1PK 6 + 8, GSI1SK 6 + 12 = 38 B -> 1 WRU
    keys_only = {**GSI1, "Projection": {"ProjectionType": "KEYS_ONLY"}}
    assert index_writes(None, {**item, "SK": {"S": "D"}}, keys_only) == [("put", 1)]


@pytest.mark.emulator("the meter reads the items before and after through a client of its own (the benchmark's)")
def test_the_meter_prices_a_real_transaction_from_the_items(table):
    """A 1.5 KB item in GSI1, a counter and a ConditionCheck, in one TransactWriteItems."""
    meter = CapacityMeter(table.client, boto3.client("dynamodb"))
    document = {"PK": "C#1#DOC#1", "SK": "DOC", "GSI1PK": "C#1#DOCS", "GSI1SK": "2026-11-02#1", "body": "x" * 1400}
    Transaction(table).put_new(document).increment({"PK": "C#1", "SK": "SEQ#DOC"}, "value") \
        .check({"PK": "C#1#PLOCK", "SK": "2026"}, "attribute_not_exists(yearClosed)").commit()
    totals = summed(meter.take())
    # the document: PK 2+9, SK 2+3, GSI1PK 6+8, GSI1SK 6+12, body 4+1,400: 1,452 B -> 2 KB -> 2 x 2 = 4,
    # and its GSI1 entry 2; the counter 1 KB x 2 = 2; the check of a missing item 1 KB x 2 = 2
    assert (totals["tableWriteUnits"], totals["indexWriteUnits"], totals["writeUnits"]) == (8, 2, 10)
    assert (totals["itemsWritten"], totals["itemsChecked"], totals["calls"]) == (2, 1, {"TransactWriteItems": 1})
    table.get({"PK": "C#1#DOC#1", "SK": "DOC"})  # strongly consistent: 1,452 B -> 4 KB -> 1 RRU
    table.query(partition=("GSI1PK", "C#1#DOCS"), index="GSI1")  # a GSI: eventually consistent, 0.5
    assert [call["readUnits"] for call in meter.take()] == [1.0, 0.5]
