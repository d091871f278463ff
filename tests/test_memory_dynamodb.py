"""The in-memory engine (infra/devstack/memory_dynamodb.py) answers as the emulator answers.

The differential, on moto (with the faithful layer: numbers trimmed, as DynamoDB) and in memory:
- the app's writes (tests/fixtures/moto_expression_corpus.json: every update expression and
  condition the store writes, with the item each found) and the malformed or unusual expressions of
  tests/test_moto_expressions.py, each on the item it found and on no item: the same answer (the
  attributes returned, or the error's code and cancellation reasons) and the same items afterwards;
- random tables (partitions, sort keys, index keys present or not) read by random Queries on the
  table and its indexes (key conditions of every kind, both directions, limits, filters, projections)
  followed page by page through their LastEvaluatedKey: the same items in the same order, the same
  counts, and the same pages' ends;
- transactions: all or nothing, the cancellation reasons in order, an item named twice refused."""
from __future__ import annotations

import json
import random
from typing import Any

import boto3
import pytest
from botocore.exceptions import ClientError
from moto import mock_aws

from infra.deploy.resources import create_table
from infra.devstack import memory_dynamodb
from infra.devstack.direct_dynamodb import DirectDynamoDB
from infra.devstack.memory_dynamodb import MemoryDynamoDB, item_size
from tests.moto_expression_corpus import TABLE
from tests.test_moto_expressions import UNUSUAL, _keys, _pre_items, cases

pytestmark = pytest.mark.emulator("compares the in-memory engine with moto")


@pytest.fixture
def engines():
    """(moto's client, the in-memory engine's client) on a table of the template's schema each."""
    memory_dynamodb.reset()
    with mock_aws():
        plain = boto3.client("dynamodb", region_name="us-east-1")
        create_table(plain, TABLE)
        yield DirectDynamoDB(plain), MemoryDynamoDB(plain)
    memory_dynamodb.reset()


def _answer(client: Any, operation: str, body: dict[str, Any]) -> dict[str, Any]:
    try:
        answer = getattr(client, operation)(**body)
    except ClientError as error:
        reasons = [reason.get("Code") for reason in error.response.get("CancellationReasons", [])]
        return {"error": error.response["Error"]["Code"], "reasons": reasons}
    except Exception as error:  # moto's own failures (a KeyError on an undefined name)
        return {"crash": type(error).__name__}
    answer.pop("ResponseMetadata", None)
    answer.pop("ConsumedCapacity", None)  # (not played in memory)
    if not answer.get("ItemCollectionMetrics", True):  # (moto answers it empty, unasked)
        del answer["ItemCollectionMetrics"]
    if body.get("ReturnValues", "").startswith("UPDATED") and "Attributes" in answer:
        # moto gives an item's keys among the attributes an update made it; DynamoDB what it set
        answer["Attributes"] = {name: value for name, value in answer["Attributes"].items() if name not in ("PK", "SK")}
    return answer


def _same(value: Any) -> str:
    """A value compared without its maps' order (DynamoDB keeps none)."""
    return json.dumps(value, sort_keys=True, default=repr)


# Where moto answers otherwise than DynamoDB, which refuses both (ValidationException): a path into a
# number ("The document path provided in the update expression is invalid for update"; moto ignores
# the action), and DELETE of a number from no item (the operand is refused before any item is read).
MOTO_NOT_DYNAMODB = {("SET l[0].x = :t", True), ("DELETE n :v", False)}


def _played(client: Any) -> list[Any]:
    """Each case's answer and items afterwards; where moto is not DynamoDB, only whether it was refused."""
    results = []
    for case in cases():
        for found in (True, False) if case["op"] != "transact_write_items" else (True,):
            if (case["body"].get("UpdateExpression"), found) in MOTO_NOT_DYNAMODB:
                if isinstance(client, MemoryDynamoDB):
                    for item in _pre_items(case) if found else []:
                        client.put_item(TableName=TABLE, Item=item)
                    results.append(_same(["as DynamoDB", _answer(client, case["op"], case["body"]).get("error")]))
                    for key in _keys(case):
                        client.delete_item(TableName=TABLE, Key=key)
                else:
                    results.append(_same(["as DynamoDB", "ValidationException"]))
                continue
            keys = _keys(case)
            for item in _pre_items(case) if found else []:
                if item is not None:
                    client.put_item(TableName=TABLE, Item=item)
            answer = _answer(client, case["op"], case["body"])
            after = []
            for key in keys:
                item = client.get_item(TableName=TABLE, Key=key, ConsistentRead=True).get("Item")
                after.append(item)
                client.delete_item(TableName=TABLE, Key=key)
            results.append(_same([answer, after]))
    return results


def test_the_apps_writes_and_unusual_expressions_answer_as_on_moto(engines):
    moto, memory = engines
    on_moto = _played(moto)
    in_memory = _played(memory)
    assert len(on_moto) == len(in_memory) > 2 * len(UNUSUAL)
    # where moto fails itself (a KeyError on an undefined name), DynamoDB refuses the request
    crashed = [number for number, answer in enumerate(on_moto) if answer.startswith('[{"crash"')]
    assert all(in_memory[number].startswith('[{"error": "ValidationException"') for number in crashed)
    differing = [number for number, (one, other) in enumerate(zip(on_moto, in_memory, strict=True))
                 if one != other and number not in crashed]
    assert not differing, (f"{len(differing)} differ; the first ({differing[0]}): moto {on_moto[differing[0]]}, "
                           f"memory {in_memory[differing[0]]}")
    assert sum(answer == '["as DynamoDB", "ValidationException"]' for answer in in_memory) == len(MOTO_NOT_DYNAMODB)
    # the corpus reaches what it is meant to: refusals of every kind, conditions failing, items written
    assert sum('"error": "ValidationException"' in answer for answer in in_memory) > 10
    assert sum('"ConditionalCheckFailed' in answer for answer in in_memory) > 5


def test_an_items_size_is_weighed_as_the_emulator_weighs_it(engines):
    from moto.core import DEFAULT_ACCOUNT_ID
    from moto.dynamodb.models import dynamodb_backends

    moto, _ = engines
    backend = dynamodb_backends[DEFAULT_ACCOUNT_ID]["us-east-1"]
    for case in cases():
        for item in _pre_items(case):
            if item is not None:
                moto.put_item(TableName=TABLE, Item=item)
                stored = backend.get_item(TABLE, {"PK": item["PK"], "SK": item["SK"]})
                assert item_size(stored.to_json()["Attributes"]) == stored.size()


# --- queries --------------------------------------------------------------------------------------

def _random_items(rng: random.Random) -> list[dict[str, Any]]:
    items = []
    for number in range(rng.randint(20, 120)):
        item: dict[str, Any] = {"PK": {"S": f"P#{rng.randint(1, 3)}"}, "SK": {"S": f"S#{rng.randint(1, 60):03d}#{number}"},
                                "amount": {"N": str(rng.choice([1, 2, 3.5, 10, 10.0]))},
                                "kind": {"S": rng.choice(["a", "b", "c"])}}
        if rng.random() < 0.6:
            item["GSI1PK"] = {"S": f"G#{rng.randint(1, 2)}"}
            item["GSI1SK"] = {"S": rng.choice(["2026-01-01", "2026-02-01", "2026-03-15", "2025-12-31"])}
        if rng.random() < 0.4:
            item["GSI3PK"], item["GSI3SK"] = {"S": "ALL"}, {"S": f"{rng.randint(1, 9)}"}
        if rng.random() < 0.3 and "GSI3PK" not in item:  # (moto weighs a KEYS_ONLY index's items whole)
            item["big"] = {"S": "x" * rng.choice([10, 5000, 200_000])}
        items.append(item)
    return items


def _random_query(rng: random.Random) -> dict[str, Any]:
    index = rng.choice([None, None, "GSI1", "GSI3"])
    hash_name, range_name, partition = {None: ("PK", "SK", f"P#{rng.randint(1, 3)}"),
                                        "GSI1": ("GSI1PK", "GSI1SK", f"G#{rng.randint(1, 2)}"),
                                        "GSI3": ("GSI3PK", "GSI3SK", "ALL")}[index]
    names, values = {"#p": hash_name}, {":p": {"S": partition}}
    condition = "#p = :p"
    low = {None: "S#010", "GSI1": "2026-01-01", "GSI3": "3"}[index]
    high = {None: "S#045", "GSI1": "2026-02-28", "GSI3": "7"}[index]
    sort = rng.choice(["none", "begins", "between", ">=", "<=", "<", ">", "="])
    if sort != "none":
        names["#s"] = range_name
        if sort == "begins":
            values[":lo"] = {"S": low[:max(1, len(low) - 1)]}
            condition += " AND begins_with(#s, :lo)"
        elif sort == "between":
            values[":lo"], values[":hi"] = {"S": low}, {"S": high}
            condition += " AND #s BETWEEN :lo AND :hi"
        else:
            values[":lo"] = {"S": low}
            condition += f" AND #s {sort} :lo"
    query: dict[str, Any] = {"TableName": TABLE, "KeyConditionExpression": condition,
                             "ScanIndexForward": rng.random() < 0.5}
    if index:
        query["IndexName"] = index
    if rng.random() < 0.5:
        query["Limit"] = rng.randint(1, 15)
    if rng.random() < 0.3:
        names["#k"] = "kind"
        values[":k"] = {"S": "a"}
        query["FilterExpression"] = "#k = :k"
    if rng.random() < 0.2 and index != "GSI3":
        names["#a"] = "amount"
        query["ProjectionExpression"] = "#a, PK, SK"
    query["ExpressionAttributeNames"], query["ExpressionAttributeValues"] = names, values
    return query


def _pages(client: Any, query: dict[str, Any]) -> list[Any]:
    """The pages a query reads, up to the last one with items: DynamoDB gives where a page stopped
    whenever the limit is reached, so its last page may be empty; moto does so only when any item
    of the partition follows; the in-memory engine as DynamoDB."""
    pages: list[dict[str, Any]] = []
    start = None
    for _ in range(200):
        answer = _answer(client, "query", {**query, **({"ExclusiveStartKey": start} if start else {})})
        pages.append(answer)
        start = answer.get("LastEvaluatedKey")
        if not start:
            break
    else:
        raise AssertionError("a query that never ends")
    while len(pages) > 1 and not pages[-1].get("ScannedCount") and "error" not in pages[-1]:
        pages.pop()
        pages[-1].pop("LastEvaluatedKey", None)
    return [_same(page) for page in pages]


@pytest.mark.parametrize("seed", range(6))
def test_random_queries_read_the_same_pages_as_on_moto(engines, seed):
    rng = random.Random(seed)
    moto, memory = engines
    for item in _random_items(rng):
        moto.put_item(TableName=TABLE, Item=item)
        memory.put_item(TableName=TABLE, Item=item)
    for _ in range(60):
        query = _random_query(rng)
        assert _pages(memory, query) == _pages(moto, query), query


# --- transactions ---------------------------------------------------------------------------------

def _put(sk: str, condition: str | None = None) -> dict[str, Any]:
    put: dict[str, Any] = {"TableName": TABLE, "Item": {"PK": {"S": "T#1"}, "SK": {"S": sk}, "n": {"N": "1.10"}}}
    if condition:
        put["ConditionExpression"] = condition
    return {"Put": put}


def test_a_transaction_applies_whole_or_not_at_all_as_on_moto(engines):
    for client in engines:
        client.put_item(TableName=TABLE, Item={"PK": {"S": "T#1"}, "SK": {"S": "taken"}})
    transactions = [
        [_put("a"), _put("taken", "attribute_not_exists(PK)"), _put("b")],
        [_put("a"), _put("b", "attribute_not_exists(PK)")],
        [_put("a"), _put("a")],
        [_put("c"), {"ConditionCheck": {"TableName": TABLE, "Key": {"PK": {"S": "T#1"}, "SK": {"S": "taken"}},
                                        "ConditionExpression": "attribute_exists(PK)"}},
         {"Update": {"TableName": TABLE, "Key": {"PK": {"S": "T#1"}, "SK": {"S": "a"}},
                     "UpdateExpression": "ADD n :one", "ExpressionAttributeValues": {":one": {"N": "1"}}}}],
        [{"Delete": {"TableName": TABLE, "Key": {"PK": {"S": "T#1"}, "SK": {"S": "c"}},
                     "ConditionExpression": "n = :n", "ExpressionAttributeValues": {":n": {"N": "1.1"}}}}],
    ]
    for operations in transactions:
        answers = [_answer(client, "transact_write_items", {"TransactItems": operations}) for client in engines]
        assert answers[0] == answers[1], operations
        contents = [_same(client.query(TableName=TABLE, KeyConditionExpression="PK = :p",
                                       ExpressionAttributeValues={":p": {"S": "T#1"}})["Items"])
                    for client in engines]
        assert contents[0] == contents[1], operations


def _scanned(client: Any, segments: int) -> list[str]:
    found = []
    for segment in range(segments):
        start = None
        while True:
            page = client.scan(TableName=TABLE, Segment=segment, TotalSegments=segments, Limit=7,
                               FilterExpression="begins_with(PK, :one) OR PK = :two",
                               ExpressionAttributeValues={":one": {"S": "P#1"}, ":two": {"S": "P#3"}},
                               **({"ExclusiveStartKey": start} if start else {}))
            found += [_same(item) for item in page["Items"]]
            start = page.get("LastEvaluatedKey")
            if not start:
                break
    return sorted(found)


def test_segmented_scans_and_batch_reads_find_the_items_moto_finds(engines):
    rng = random.Random(45)
    items = _random_items(rng)
    for client in engines:
        for item in items:
            client.put_item(TableName=TABLE, Item=item)
    moto, memory = engines
    # each item in exactly one segment
    assert _scanned(memory, 3) == _scanned(memory, 1) == _scanned(moto, 1)
    keys = [{"PK": item["PK"], "SK": item["SK"]} for item in rng.sample(items, 30)]
    keys = list({_same(key): key for key in keys}.values())
    request = {TABLE: {"Keys": keys + [{"PK": {"S": "P#9"}, "SK": {"S": "none"}}],
                       "ProjectionExpression": "#a, SK", "ExpressionAttributeNames": {"#a": "amount"}}}
    read = [sorted(_same(item) for item in client.batch_get_item(RequestItems=request)["Responses"][TABLE])
            for client in engines]
    assert read[0] == read[1] and len(read[1]) == len(keys)
