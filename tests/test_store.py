"""The transaction builder against moto: one TransactWriteItems, CancellationReasons mapped to
the operation's own error, bounded retries of lost races, the 100-item limit."""
from __future__ import annotations

import pytest

from chalicelib.errors import ApiError, DocumentTooLarge, NotFound, ServiceUnavailable
from chalicelib.store import keys
from chalicelib.store.listing import decode_cursor, encode_cursor
from chalicelib.store.transaction import LostRace, Transaction, run_with_retries

pytestmark = pytest.mark.emulator("the store calls DynamoDB itself: on the emulator (and on DynamoDB Local)")


def test_commit_is_all_or_nothing(table):
    transaction = Transaction(table)
    transaction.put_new({"PK": "T#1", "SK": "A", "n": 1})
    transaction.require({"PK": "T#missing", "SK": "X"}, NotFound("no such thing"))
    with pytest.raises(NotFound, match="no such thing"):
        transaction.commit()
    assert table.get({"PK": "T#1", "SK": "A"}) is None


def test_the_failing_operation_names_the_error(table):
    Transaction(table).put_new({"PK": "T#2", "SK": "A"}).commit()
    first = ApiError("first", code="FIRST")
    second = ApiError("second", code="CONFLICT")
    transaction = Transaction(table).put_new({"PK": "T#3", "SK": "A"}, on_fail=first)
    transaction.put_new({"PK": "T#2", "SK": "A"}, on_fail=second)
    with pytest.raises(ApiError) as raised:
        transaction.commit()
    assert raised.value.code == "CONFLICT"


def test_a_condition_without_its_own_error_is_a_lost_race(table):
    Transaction(table).put_new({"PK": "T#4", "SK": "A", "version": 1}).commit()
    transaction = Transaction(table).update_fields({"PK": "T#4", "SK": "A"}, {"x": 1}, expected_version=7)
    with pytest.raises(LostRace):
        transaction.commit()


def test_update_fields_sets_removes_and_bumps_version(table):
    Transaction(table).put_new({"PK": "T#5", "SK": "A", "version": 1, "keep": 1, "drop": 2}).commit()
    Transaction(table).update_fields({"PK": "T#5", "SK": "A"}, {"drop": None, "new": "v"}, 1).commit()
    assert table.get({"PK": "T#5", "SK": "A"}) == {"PK": "T#5", "SK": "A", "version": 2, "keep": 1, "new": "v"}


def test_more_than_100_items_is_document_too_large(table):
    transaction = Transaction(table)
    for n in range(101):
        transaction.put({"PK": f"T#big{n}", "SK": "A"})
    with pytest.raises(DocumentTooLarge) as raised:
        transaction.commit()
    assert raised.value.status == 400 and raised.value.code == "DOCUMENT_TOO_LARGE"
    assert table.get({"PK": "T#big0", "SK": "A"}) is None


def test_lost_races_are_retried_a_bounded_number_of_times():
    calls = []

    def always_loses():
        calls.append(1)
        raise LostRace()

    with pytest.raises(ServiceUnavailable):
        run_with_retries(always_loses, attempts=3)
    assert len(calls) == 3
    outcomes = iter([LostRace(), LostRace(), "done"])

    def wins_third_time():
        outcome = next(outcomes)
        if isinstance(outcome, Exception):
            raise outcome
        return outcome

    assert run_with_retries(wins_third_time) == "done"


def test_id_counters_are_per_company(table):
    assert [table.next_id(keys.id_sequence(1, "BP")) for _ in range(3)] == [1, 2, 3]
    assert table.next_id(keys.id_sequence(2, "BP")) == 1


def test_every_company_key_starts_with_its_prefix():
    for key in (keys.company(7), keys.entity(7, "BP", 1), keys.id_sequence(7, "BP"),
                keys.entity_count(7, "BP"), keys.unique_value(7, "X", "v"), keys.idempotency(7, "k"),
                keys.outbox_event(7, "t", "e"), keys.rate_window(7, "ak", 0), keys.membership(7, 1),
                keys.audit_entry(7, "t", "e")):
        assert key["PK"] == "C#7" or key["PK"].startswith("C#7#")
    assert keys.collection_index(7, "BP", 1)["GSI1PK"].startswith("C#7#")
    assert keys.membership_index(7, 1)["GSI1PK"].startswith("C#7#")


def test_cursor_round_trip_and_partition_guard():
    key = {"PK": "C#1#BP#2", "SK": "BP", "GSI1PK": "C#1#BP", "GSI1SK": "000000000002"}
    assert decode_cursor(encode_cursor(key), partition_attribute="GSI1PK", partition="C#1#BP") == key
    with pytest.raises(ApiError):
        decode_cursor(encode_cursor(key), partition_attribute="GSI1PK", partition="C#2#BP")
    with pytest.raises(ApiError):
        decode_cursor("!!!", partition_attribute="GSI1PK", partition="C#1#BP")


def test_batch_get_reads_any_number_of_keys_100_a_call(table):
    """BatchGetItem takes 100 keys: the store splits bigger reads itself, so callers need not."""
    for n in range(250):
        table.client.put_item(TableName=table.name, Item={"PK": {"S": f"B#{n}"}, "SK": {"S": "X"}, "n": {"N": str(n)}})
    calls = []
    table.client.meta.events.register("before-call.dynamodb.BatchGetItem", lambda **_: calls.append(1))
    found = table.batch_get({"PK": f"B#{n}", "SK": "X"} for n in range(260))  # ten of them do not exist
    assert sorted(int(item["n"]) for item in found.values()) == list(range(250)) and len(calls) == 3
