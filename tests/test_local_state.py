"""The local stack's persistence (infra/devstack/local_state.py) over the embedded moto, without a stack:
every change moto makes to the table reaches the log, the log replays to the same table,
compaction folds it without losing a change made meanwhile, and the old table.json is read."""
from __future__ import annotations

import json
import os
import threading

import boto3
import pytest
from botocore.exceptions import ClientError

from infra.deploy.resources import create_table
from infra.devstack import local_state
from infra.devstack.local_state import SNAPSHOT, LocalState
from infra.ops.table_io import scan_items


@pytest.fixture
def dynamodb(aws):
    return boto3.client("dynamodb")


@pytest.fixture
def persisted(aws, tmp_path):
    """The test table's persistence under tmp_path/table, started; stopped afterwards."""
    state = LocalState(tmp_path / "table", os.environ["TABLE_NAME"], log=lambda _: None)
    state.restore()
    state.start()
    yield state
    state.stop()


def contents(dynamodb, table_name: str) -> dict[tuple[str, str], dict]:
    return {(item["PK"]["S"], item["SK"]["S"]): item for item in scan_items(dynamodb, table_name)}


def replayed(dynamodb, directory, name: str = "replayed") -> dict[tuple[str, str], dict]:
    """A new table restored from the files alone."""
    create_table(dynamodb, name)
    LocalState(directory, name, log=lambda _: None).restore()
    return contents(dynamodb, name)


def put(dynamodb, pk: str, sk: str, **attributes) -> None:
    dynamodb.put_item(TableName=os.environ["TABLE_NAME"],
                      Item={"PK": {"S": pk}, "SK": {"S": sk}, **attributes})


def test_a_change_log_replays_to_the_same_table(dynamodb, persisted):
    name = os.environ["TABLE_NAME"]
    put(dynamodb, "C#1", "A", n={"N": "1"}, tags={"SS": ["x", "y"]}, blob={"B": b"\x00\x01binary"},
        lines={"L": [{"M": {"q": {"N": "2"}, "d": {"S": "caf\u00e9 \u2603"}, "raw": {"B": b"\xff"}}}]},
        flag={"BOOL": True}, nothing={"NULL": True})
    put(dynamodb, "C#1", "B", n={"N": "5"})
    dynamodb.update_item(TableName=name, Key={"PK": {"S": "C#1"}, "SK": {"S": "A"}},
                         UpdateExpression="SET n = n + :one, #l[0].q = :q, newField = :s REMOVE flag",
                         ExpressionAttributeNames={"#l": "lines"}, ExpressionAttributeValues={":one": {"N": "1"}, ":q": {"N": "7"}, ":s": {"S": "new"}})
    dynamodb.update_item(TableName=name, Key={"PK": {"S": "C#2"}, "SK": {"S": "created-by-update"}},
                         UpdateExpression="SET v = :v", ExpressionAttributeValues={":v": {"S": "made"}})
    with pytest.raises(ClientError):  # a refused condition changes nothing
        dynamodb.put_item(TableName=name, Item={"PK": {"S": "C#1"}, "SK": {"S": "B"}, "n": {"N": "99"}},
                          ConditionExpression="attribute_not_exists(PK)")
    dynamodb.batch_write_item(RequestItems={name: [
        {"PutRequest": {"Item": {"PK": {"S": f"C#3#{n}"}, "SK": {"S": "DOC"}, "n": {"N": str(n)}}}}
        for n in range(20)] + [{"DeleteRequest": {"Key": {"PK": {"S": "C#1"}, "SK": {"S": "B"}}}}]})
    dynamodb.transact_write_items(TransactItems=[
        {"Put": {"TableName": name, "Item": {"PK": {"S": "C#4"}, "SK": {"S": "T"}, "v": {"N": "1"}}}},
        {"Update": {"TableName": name, "Key": {"PK": {"S": "C#3#1"}, "SK": {"S": "DOC"}},
                    "UpdateExpression": "SET n = :n", "ExpressionAttributeValues": {":n": {"N": "100"}}}},
        {"Delete": {"TableName": name, "Key": {"PK": {"S": "C#3#2"}, "SK": {"S": "DOC"}}}},
        {"ConditionCheck": {"TableName": name, "Key": {"PK": {"S": "C#1"}, "SK": {"S": "A"}},
                            "ConditionExpression": "attribute_exists(PK)"}}])
    with pytest.raises(ClientError):  # a cancelled transaction changes nothing
        dynamodb.transact_write_items(TransactItems=[
            {"Put": {"TableName": name, "Item": {"PK": {"S": "C#5"}, "SK": {"S": "T"}}}},
            {"ConditionCheck": {"TableName": name, "Key": {"PK": {"S": "C#missing"}, "SK": {"S": "X"}},
                                "ConditionExpression": "attribute_exists(PK)"}}])
    assert persisted.flush()

    expected = contents(dynamodb, name)
    assert ("C#1", "B") not in expected and ("C#3#2", "DOC") not in expected and ("C#5", "T") not in expected
    assert expected[("C#1", "A")]["lines"]["L"][0]["M"]["q"] == {"N": "7"}
    assert replayed(dynamodb, persisted.directory) == expected


def test_a_transaction_rolled_back_midway_leaves_the_log_as_moto(dynamodb, persisted):
    """The second write fails once the first is applied (a number added to a string): moto puts the
    first item back, and the log ends with the state it put back."""
    name = os.environ["TABLE_NAME"]
    put(dynamodb, "R#1", "A", v={"N": "1"})
    put(dynamodb, "R#2", "A", text={"S": "not a number"})
    with pytest.raises(ClientError):
        dynamodb.transact_write_items(TransactItems=[
            {"Put": {"TableName": name, "Item": {"PK": {"S": "R#1"}, "SK": {"S": "A"}, "v": {"N": "2"}}}},
            {"Put": {"TableName": name, "Item": {"PK": {"S": "R#3"}, "SK": {"S": "new"}}}},
            {"Update": {"TableName": name, "Key": {"PK": {"S": "R#2"}, "SK": {"S": "A"}},
                        "UpdateExpression": "SET #t = #t + :one", "ExpressionAttributeNames": {"#t": "text"},
                        "ExpressionAttributeValues": {":one": {"N": "1"}}}}])
    assert persisted.flush()
    expected = contents(dynamodb, name)
    assert expected[("R#1", "A")]["v"] == {"N": "1"} and ("R#3", "new") not in expected
    assert replayed(dynamodb, persisted.directory) == expected


def test_deletions_replay_over_the_snapshot(dynamodb, persisted):
    name = os.environ["TABLE_NAME"]
    for n in range(10):
        put(dynamodb, f"D#{n}", "X", n={"N": str(n)})
    assert persisted.compact()["items"] == 10  # the ten in the snapshot, the deletions in the log
    dynamodb.delete_item(TableName=name, Key={"PK": {"S": "D#0"}, "SK": {"S": "X"}})
    dynamodb.batch_write_item(RequestItems={name: [
        {"DeleteRequest": {"Key": {"PK": {"S": "D#1"}, "SK": {"S": "X"}}}}]})
    dynamodb.transact_write_items(TransactItems=[
        {"Delete": {"TableName": name, "Key": {"PK": {"S": "D#2"}, "SK": {"S": "X"}}}}])
    dynamodb.delete_item(TableName=name, Key={"PK": {"S": "D#missing"}, "SK": {"S": "X"}})
    put(dynamodb, "D#9", "X", n={"N": "90"})
    assert persisted.flush()

    restored = replayed(dynamodb, persisted.directory)
    assert sorted(pk for pk, _ in restored) == [f"D#{n}" for n in range(3, 10)]
    assert restored[("D#9", "X")]["n"] == {"N": "90"}
    assert persisted.compact()["items"] == 7  # and folded, they are gone from the snapshot
    assert not local_state.segments(persisted.directory)
    assert replayed(dynamodb, persisted.directory, "again") == restored


def test_compaction_while_writes_continue_loses_nothing(dynamodb, persisted):
    name = os.environ["TABLE_NAME"]
    for n in range(200):
        put(dynamodb, f"W#{n % 50}", f"{n}", n={"N": str(n)})
    stop = threading.Event()
    failures: list[BaseException] = []

    def write(worker: int) -> None:
        client, n = boto3.client("dynamodb"), 0
        try:
            while not stop.is_set() or n < 100:
                key = {"PK": {"S": f"W#{worker}#{n % 30}"}, "SK": {"S": "ITEM"}}
                if n % 7 == 6:
                    client.delete_item(TableName=name, Key=key)
                else:
                    client.update_item(TableName=name, Key=key, UpdateExpression="SET n = :n, w = :w",
                                       ExpressionAttributeValues={":n": {"N": str(n)}, ":w": {"N": str(worker)}})
                n += 1
        except BaseException as error:  # noqa: BLE001 - reported by the test
            failures.append(error)

    writers = [threading.Thread(target=write, args=(worker,)) for worker in range(3)]
    for thread in writers:
        thread.start()
    folds = [persisted.compact() for _ in range(4)]
    stop.set()
    for thread in writers:
        thread.join()
    assert not failures and all(folds)
    assert persisted.flush()

    expected = contents(dynamodb, name)
    assert replayed(dynamodb, persisted.directory) == expected
    persisted.compact()
    assert replayed(dynamodb, persisted.directory, "folded") == expected


def test_the_old_table_json_is_read_and_converted(dynamodb, tmp_path):
    items = [{"PK": {"S": "C#1"}, "SK": {"S": f"OLD#{n}"}, "n": {"N": str(n)},
              "m": {"M": {"a": {"L": [{"S": "x"}, {"N": "1"}]}}}} for n in range(30)]
    legacy = tmp_path / "table.json"
    legacy.write_text(json.dumps({"table": "business-api-local", "items": items}))
    state = LocalState(tmp_path / "table", os.environ["TABLE_NAME"], legacy_snapshot=legacy, log=lambda _: None)

    assert state.restore() == 30
    assert not legacy.exists() and (tmp_path / "table.json.converted").exists()
    assert (tmp_path / "table" / SNAPSHOT).exists()
    assert sorted(contents(dynamodb, os.environ["TABLE_NAME"]).values(), key=lambda item: int(item["n"]["N"])) == items
    assert replayed(dynamodb, tmp_path / "table") == contents(dynamodb, os.environ["TABLE_NAME"])


def test_a_line_cut_short_by_a_crash_is_ignored(dynamodb, persisted):
    put(dynamodb, "K#1", "A", v={"S": "kept"})
    assert persisted.flush()
    (number, path), = local_state.segments(persisted.directory)
    with path.open("a") as log:
        log.write('{"key": {"PK": {"S": "K#2"}, "SK": {"S": "A"}}, "item": {"PK": {"S": "K')
    assert list(replayed(dynamodb, persisted.directory)) == [("K#1", "A")]
    persisted.compact()
    assert list(replayed(dynamodb, persisted.directory, "folded")) == [("K#1", "A")]


def test_a_stopped_persistence_records_nothing_more(dynamodb, tmp_path):
    state = LocalState(tmp_path / "table", os.environ["TABLE_NAME"], log=lambda _: None)
    state.restore()
    state.start()
    put(dynamodb, "S#1", "A")
    assert state.stop()
    put(dynamodb, "S#2", "A")
    assert list(replayed(dynamodb, tmp_path / "table")) == [("S#1", "A")]
