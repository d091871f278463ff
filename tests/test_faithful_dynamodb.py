"""The faithful layer over moto (infra/devstack/faithful_dynamodb.py) answers as DynamoDB documents it:
a transaction in flight conflicts, an index lags, throttling and the 400 KB limit are refused."""
from __future__ import annotations

import threading
import time

import pytest
from botocore.exceptions import ClientError

from infra.devstack import faithful_dynamodb

TABLE = "test-business-api"


def item(pk: str, sk: str = "X", **more: dict) -> dict:
    return {"PK": {"S": pk}, "SK": {"S": sk}, **more}


def put(pk: str, **more: dict) -> dict:
    return {"Put": {"TableName": TABLE, "Item": item(pk, **more)}}


def reasons(error: ClientError) -> list[str]:
    return [reason["Code"] for reason in error.response["CancellationReasons"]]


@pytest.fixture(params=["direct", "botocore"])
def client(request, table):
    """The store's client: the direct path to moto's handler (infra/devstack/direct_dynamodb.py) the
    suite runs on, and botocore's wire path beneath it; the layer answers both alike."""
    return table.client if request.param == "direct" else table.client._delegate


def in_flight(client, transact_items: list[dict], hold_s: float = 30) -> threading.Thread:
    """Starts a transaction that stays in flight until faithful_dynamodb.release_holds() (or
    `hold_s`); returns once it holds its items."""
    faithful_dynamodb.configure(transaction_hold_s=hold_s)
    thread = threading.Thread(target=client.transact_write_items, kwargs={"TransactItems": transact_items})
    thread.start()
    deadline = time.monotonic() + 2
    while not faithful_dynamodb._state.in_flight and time.monotonic() < deadline:
        time.sleep(0.001)
    faithful_dynamodb.configure(transaction_hold_s=0.0)
    return thread


def test_a_transaction_touching_an_item_in_flight_is_cancelled_with_transaction_conflict(client):
    holder = in_flight(client, [put("A", v={"N": "1"}), put("B")])
    with pytest.raises(ClientError) as cancelled:
        client.transact_write_items(TransactItems=[put("C"), put("A", v={"N": "2"})])
    faithful_dynamodb.release_holds()
    holder.join()
    error = cancelled.value.response["Error"]
    assert error["Code"] == "TransactionCanceledException"
    # the conflicting item is named, the other one says None, as DynamoDB's reasons do
    assert reasons(cancelled.value) == ["None", "TransactionConflict"]
    # nothing of the cancelled transaction was written; the one in flight was
    assert "Item" not in client.get_item(TableName=TABLE, Key=item("C"))
    assert client.get_item(TableName=TABLE, Key=item("A"))["Item"]["v"] == {"N": "1"}
    # once it committed, the item is free again
    client.transact_write_items(TransactItems=[put("A", v={"N": "3"})])
    assert client.get_item(TableName=TABLE, Key=item("A"))["Item"]["v"] == {"N": "3"}


def test_single_writes_conflict_reads_see_the_committed_state(client):
    client.put_item(TableName=TABLE, Item=item("A", v={"N": "0"}))
    holder = in_flight(client, [put("A", v={"N": "1"})])
    with pytest.raises(ClientError) as update:
        client.update_item(TableName=TABLE, Key=item("A"), UpdateExpression="SET v = :v",
                           ExpressionAttributeValues={":v": {"N": "9"}})
    with pytest.raises(ClientError) as delete:
        client.delete_item(TableName=TABLE, Key=item("A"))
    with pytest.raises(ClientError) as transactional_read:
        client.transact_get_items(TransactItems=[{"Get": {"TableName": TABLE, "Key": item("A")}}])
    # a plain read is not blocked: it sees what was committed before the transaction
    seen = client.get_item(TableName=TABLE, Key=item("A"))["Item"]["v"]
    faithful_dynamodb.release_holds()
    holder.join()
    assert update.value.response["Error"]["Code"] == "TransactionConflictException"
    assert delete.value.response["Error"]["Code"] == "TransactionConflictException"
    assert reasons(transactional_read.value) == ["TransactionConflict"]
    assert seen == {"N": "0"}
    assert client.get_item(TableName=TABLE, Key=item("A"))["Item"]["v"] == {"N": "1"}
    assert faithful_dynamodb.conflicts_seen() == 3


def test_transactions_on_other_items_do_not_conflict(client):
    holder = in_flight(client, [put("A")])
    client.transact_write_items(TransactItems=[put("B")])
    faithful_dynamodb.release_holds()
    holder.join()
    assert faithful_dynamodb.conflicts_seen() == 0


def test_an_index_read_lags_and_can_show_part_of_a_transaction(client):
    now = [1000.0]
    faithful_dynamodb.control_time(seed=7, clock=lambda: now[0])
    faithful_dynamodb.configure(index_lag_s=1.0)
    rows = [put(f"DOC#{n}", GSI1PK={"S": "LIST"}, GSI1SK={"S": f"{n:03d}"}) for n in range(20)]
    client.transact_write_items(TransactItems=rows)

    def listed() -> int:
        return client.query(TableName=TABLE, IndexName="GSI1", KeyConditionExpression="GSI1PK = :p",
                            ExpressionAttributeValues={":p": {"S": "LIST"}})["Count"]

    assert listed() == 0  # at once: the index has none of them
    now[0] += 0.5  # each item shows after its own delay in [0, 1) s: 20 draws of seed 7
    partly = listed()
    assert 0 < partly < 20
    # the table itself is exact all along
    assert len(client.query(TableName=TABLE, KeyConditionExpression="PK = :p",
                            ExpressionAttributeValues={":p": {"S": "DOC#3"}})["Items"]) == 1
    now[0] += 0.6
    assert listed() == 20


def test_an_index_shows_an_item_s_writes_in_order(client):
    now = [0.0]
    faithful_dynamodb.control_time(seed=1, clock=lambda: now[0])
    faithful_dynamodb.configure(index_lag_s=1.0)
    client.put_item(TableName=TABLE, Item=item("A", GSI1PK={"S": "L"}, GSI1SK={"S": "1"}, v={"N": "1"}))
    client.put_item(TableName=TABLE, Item=item("A", GSI1PK={"S": "L"}, GSI1SK={"S": "1"}, v={"N": "2"}))

    def seen() -> list[str]:
        return [row["v"]["N"] for row in client.query(
            TableName=TABLE, IndexName="GSI1", KeyConditionExpression="GSI1PK = :p",
            ExpressionAttributeValues={":p": {"S": "L"}})["Items"]]

    observed = []
    for _ in range(12):
        observed.append(tuple(seen()))
        now[0] += 0.1
    assert observed[0] == ()
    assert observed[-1] == ("2",)
    # never the second value before the first, never back from the second to the first
    settled = [values for values in observed if values]
    assert settled == sorted(settled)


def test_throttling_is_injected_as_dynamodb_answers_it(client, monkeypatch):
    from botocore.retries.standard import ExponentialBackoff

    monkeypatch.setattr(ExponentialBackoff, "delay_amount", lambda self, context: 0)  # seconds each, else
    faithful_dynamodb.inject("TransactWriteItems", "throttle")
    with pytest.raises(ClientError) as throttled:
        client.transact_write_items(TransactItems=[put("A"), put("B")])
    assert reasons(throttled.value) == ["ThrottlingError", "ThrottlingError"]
    # single calls: the SDK's own 4 retries (5 attempts, store/table.py) absorb four, a fifth
    # reaches the caller
    faithful_dynamodb.inject("GetItem", "throttle", times=4)
    assert "Item" not in client.get_item(TableName=TABLE, Key=item("A"))
    faithful_dynamodb.inject("GetItem", "throttle", times=5)
    with pytest.raises(ClientError) as exhausted:
        client.get_item(TableName=TABLE, Key=item("A"))
    assert exhausted.value.response["Error"]["Code"] == "ThrottlingException"


def test_an_item_over_400_kb_is_refused(client):
    big = {"S": "x" * (400 * 1024 + 1)}
    with pytest.raises(ClientError) as single:
        client.put_item(TableName=TABLE, Item=item("A", body=big))
    assert single.value.response["Error"]["Code"] == "ValidationException"
    with pytest.raises(ClientError) as transaction:
        client.transact_write_items(TransactItems=[put("B"), put("A", body=big)])
    assert reasons(transaction.value) == ["None", "ValidationError"]
    assert "Item" not in client.get_item(TableName=TABLE, Key=item("B"))
    # an update that grows an item past the limit is cancelled too, and rolls the others back
    client.put_item(TableName=TABLE, Item=item("C", body={"S": "y" * (300 * 1024)}))
    with pytest.raises(ClientError) as grown:
        client.transact_write_items(TransactItems=[put("D"), {"Update": {
            "TableName": TABLE, "Key": item("C"), "UpdateExpression": "SET more = :m",
            "ExpressionAttributeValues": {":m": {"S": "z" * (200 * 1024)}}}}])
    assert reasons(grown.value) == ["None", "ValidationError"]
    assert "Item" not in client.get_item(TableName=TABLE, Key=item("D"))
