"""moto_item_size.py and moto_expressions.py answer what moto answers without them, and the 400 KB
limit is refused as DynamoDB refuses it.

The differential: the app's writes (tests/fixtures/moto_expression_corpus.json, collected from a run
of the suite by tests/moto_expression_corpus.py: every update expression and condition the store
writes, with the item each found) and malformed or unusual expressions (below) are played, each on
the item it found and on no item, in this process (every speed layer on) and in a subprocess whose
moto_speedups installs neither module. Each answer (attributes returned, or the error's code,
message and cancellation reasons) and each item afterwards, with its size as moto weighs it, must
be the same.

    python -m tests.test_moto_expressions plain     # the answers without the two modules, as JSON
"""
from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import boto3
import pytest
from botocore.exceptions import ClientError
from moto import mock_aws

from infra.deploy.resources import create_table
from tests.moto_expression_corpus import CORPUS, TABLE

ROOT = Path(__file__).resolve().parent.parent
KEY = {"PK": {"S": "X#1"}, "SK": {"S": "A"}}
ITEM = {**KEY, "n": {"N": "5"}, "s": {"S": "text"}, "l": {"L": [{"N": "1"}, {"S": "a"}]},
        "m": {"M": {"a": {"N": "1.50"}, "b": {"M": {"c": {"S": "deep"}}}, "list": {"L": [{"N": "0"}]}}},
        "tags": {"SS": ["x", "y"]}, "days": {"NS": ["1", "2"]}, "ok": {"BOOL": True}, "none": {"NULL": True},
        "bin": {"B": "AAEC"}}


def _update(expression: str, values: dict[str, Any] | None = None, names: dict[str, str] | None = None,
            condition: str | None = None) -> dict[str, Any]:
    body: dict[str, Any] = {"TableName": TABLE, "Key": KEY, "UpdateExpression": expression,
                            "ReturnValues": "ALL_NEW"}
    if values:
        body["ExpressionAttributeValues"] = values
    if names:
        body["ExpressionAttributeNames"] = names
    if condition:
        body["ConditionExpression"] = condition
    return {"op": "update_item", "body": body, "pre": ITEM}


ONE, TEXT = {"N": "1"}, {"S": "v"}
# what the store never writes: malformed, refused, nested, functions, arithmetic, every action kind
UNUSUAL = [
    _update("SET a = :v, a = :w", {":v": ONE, ":w": ONE}),
    _update("SET m.a = :v, m = :w", {":v": ONE, ":w": ONE}),
    _update("SET #a = :v, #b = :v", {":v": ONE}, {"#a": "x", "#b": "x"}),
    _update("SET a = :v SET b = :v", {":v": ONE}),
    _update("ADD a :v ADD b :v", {":v": ONE}),
    _update("REMOVE a REMOVE b"),
    _update("ADD a :v, b :v REMOVE c, d REMOVE e", {":v": ONE}),
    _update("SET #k = :v", {":v": TEXT}, {"#k": "PK"}),
    _update("SET SK = :v", {":v": TEXT}),
    _update("SET a = :undefined", {":v": ONE}),
    _update("SET #undefined = :v", {":v": ONE}),
    _update("SET = :v", {":v": ONE}),
    _update("SET a = :v,", {":v": ONE}),
    _update("SET l = list_append(l, :l), n = n + :v, s2 = if_not_exists(s2, :t)",
            {":l": {"L": [{"N": "2"}]}, ":v": {"N": "0.25"}, ":t": TEXT}),
    _update("SET l = list_append(:l, missing)", {":l": {"L": []}}),
    _update("SET n = n - :v, fresh = if_not_exists(n, :v) + :v", {":v": {"N": "2.50"}}),
    _update("SET s = s + :v", {":v": ONE}),
    _update("SET m.b.c = :t, m.list[0] = :v, m.list[5] = :v, m.new = :t", {":t": TEXT, ":v": ONE}),
    _update("SET m.missing.deeper = :t", {":t": TEXT}),
    _update("SET l[0].x = :t", {":t": TEXT}),
    _update("REMOVE l[0], l[1], m.b.c, none, nothing"),
    _update("ADD tags :t, days :d, n :v, counter :v", {":t": {"SS": ["z"]}, ":d": {"NS": ["3"]}, ":v": ONE}),
    _update("ADD s :v", {":v": ONE}),
    _update("DELETE tags :t, days :d", {":t": {"SS": ["x"]}, ":d": {"NS": ["2", "9"]}}),
    _update("DELETE n :v", {":v": ONE}),
    _update("SET #s = :v", {":v": {"S": ""}}, {"#s": "s"}),
    _update("SET a = :v", {":v": ONE}, condition="attribute_exists(PK) AND n = :v"),
    _update("SET ok = :f, bin = :b REMOVE tags", {":f": {"BOOL": False}, ":b": {"B": "AQID"}}),
    _update("set a=:v remove b add c :v", {":v": ONE}),
]


def _answer(client: Any, case: dict[str, Any]) -> dict[str, Any]:
    try:
        answer = getattr(client, case["op"])(**case["body"])
    except ClientError as error:
        return {"error": {name: error.response.get(name) for name in ("Error", "CancellationReasons")
                          if name in error.response}}
    except Exception as error:  # moto's own failures (a KeyError on an undefined name) must be its own too
        return {"crash": type(error).__name__}
    answer.pop("ResponseMetadata", None)
    return answer


def _keys(case: dict[str, Any]) -> list[dict[str, Any]]:
    bodies = [next(iter(request.values())) for request in case["body"]["TransactItems"]] \
        if case["op"] == "transact_write_items" else [case["body"]]
    return [body.get("Key") or {"PK": body["Item"]["PK"], "SK": body["Item"]["SK"]} for body in bodies]


def _pre_items(case: dict[str, Any]) -> list[Any]:
    return case["pre"] if case["op"] == "transact_write_items" else [case["pre"]]


def run(cases: list[dict[str, Any]]) -> list[Any]:
    """Each case on the item it found, then (a write of a single item) on no item: its answer and
    the items afterwards, each with its size as moto weighs it."""
    from moto.core import DEFAULT_ACCOUNT_ID
    from moto.dynamodb.models import dynamodb_backends

    results = []
    with mock_aws():
        client = boto3.client("dynamodb", region_name="us-east-1")
        create_table(client, TABLE)
        backend = dynamodb_backends[DEFAULT_ACCOUNT_ID]["us-east-1"]
        for case in cases:
            for found in (True, False) if case["op"] != "transact_write_items" else (True,):
                keys = _keys(case)
                for item in _pre_items(case) if found else []:
                    if item is not None:
                        client.put_item(TableName=TABLE, Item=item)
                answer = _answer(client, case)
                after = []
                for key in keys:
                    item = backend.get_item(TABLE, key)
                    after.append(None if item is None else [item.to_json()["Attributes"], item.size()])
                    client.delete_item(TableName=TABLE, Key=key)
                results.append(json.loads(json.dumps([answer, after], default=repr)))
    return results


def cases() -> list[dict[str, Any]]:
    return json.loads(CORPUS.read_text()) + UNUSUAL


def test_the_apps_writes_and_unusual_expressions_answer_as_without_the_two_modules():
    from moto.dynamodb.models.dynamo_type import LimitedSizeDict
    from moto.dynamodb.parsing.expressions import UpdateExpressionParser

    from infra.devstack import moto_speedups

    moto_speedups.install()  # the conftest's already: the two modules are on here
    assert LimitedSizeDict.__setitem__ is dict.__setitem__
    assert UpdateExpressionParser.make.__func__.__name__ == "make_once"
    env = {**os.environ, "AWS_ACCESS_KEY_ID": "testing", "AWS_SECRET_ACCESS_KEY": "testing",
           "AWS_DEFAULT_REGION": "us-east-1", "PYTHONPATH": str(ROOT)}
    env.pop("AWS_ENDPOINT_URL", None)
    plain_process = subprocess.Popen([sys.executable, "-m", "tests.test_moto_expressions", "plain"], cwd=ROOT,
                                     env=env, stdout=subprocess.PIPE, text=True)
    every = cases()
    patched = run(every)
    output, _ = plain_process.communicate(timeout=600)
    assert plain_process.returncode == 0
    plain = json.loads(output)
    assert len(plain) == len(patched)
    # the corpus reaches what it is meant to: refusals of every kind, conditions failing, items written
    errors = {answer["error"]["Error"]["Code"] for answer, _ in plain if "error" in answer}
    assert {"ValidationException", "ConditionalCheckFailedException"} <= errors
    assert sum("error" not in answer for answer, _ in plain) > 150
    differing = [number for number, (one, other) in enumerate(zip(plain, patched, strict=True)) if one != other]
    assert not differing, f"{len(differing)} differ; the first: without {plain[differing[0]]}, with {patched[differing[0]]}"


# --- the 400 KB limit, as DynamoDB refuses it ----------------------------------------------------------

@pytest.fixture
def client():
    with mock_aws():
        made = boto3.client("dynamodb", region_name="us-east-1")
        create_table(made, TABLE)
        yield made


def _sized(size: int) -> dict[str, Any]:
    """An item of exactly `size` bytes as moto weighs it: "PK" + "X#1" (5), "SK" + "A" (3), "big" + the rest."""
    return {**KEY, "big": {"S": "x" * (size - 5 - 3 - 3)}}


def _refusal(error: Any) -> tuple[str, str]:
    return error.value.response["Error"]["Code"], error.value.response["Error"]["Message"]


def test_an_item_at_the_limit_is_kept_and_one_byte_more_is_refused(client):
    client.put_item(TableName=TABLE, Item=_sized(405_000))
    with pytest.raises(ClientError) as refused:
        client.put_item(TableName=TABLE, Item={**_sized(405_001), "SK": {"S": "B"}})
    assert _refusal(refused) == ("ValidationException", "Item size has exceeded the maximum allowed size")
    assert "Item" not in client.get_item(TableName=TABLE, Key={**KEY, "SK": {"S": "B"}})


def test_an_update_past_the_limit_is_refused_and_changes_nothing(client):
    client.put_item(TableName=TABLE, Item={**_sized(300_000), "m": {"M": {"a": {"S": "1"}}}, "n": {"N": "1"}})
    before = client.get_item(TableName=TABLE, Key=KEY)["Item"]
    # 300,000 + "n" grown + 110,000 more: past 405,000; inside a map (moto never weighed it), or after an
    # action already applied (moto left it applied)
    big, one = {"S": "y" * 110_000}, {"N": "1"}
    for expression, values in (("SET n = n + :one, m.big = :big", {":one": one, ":big": big}),
                               ("ADD n :one SET more = :big", {":one": one, ":big": big}),
                               ("SET n = :one, m = :map", {":one": one, ":map": {"M": {"big": big}}})):
        with pytest.raises(ClientError) as refused:
            client.update_item(TableName=TABLE, Key=KEY, UpdateExpression=expression,
                               ExpressionAttributeValues=values)
        assert _refusal(refused) == ("ValidationException", "Item size to update has exceeded the maximum allowed size")
        assert client.get_item(TableName=TABLE, Key=KEY)["Item"] == before


def test_replacing_a_large_attribute_is_weighed_on_the_item_as_written(client):
    # 250,000 of "big" replaced by 250,000: the item stays under the limit (moto counted both, 500,000)
    client.put_item(TableName=TABLE, Item=_sized(250_000))
    client.update_item(TableName=TABLE, Key=KEY, UpdateExpression="SET big = :same",
                       ExpressionAttributeValues={":same": {"S": "z" * (250_000 - 11)}})
    assert client.get_item(TableName=TABLE, Key=KEY)["Item"]["big"]["S"].startswith("z")


def test_an_update_past_the_limit_in_a_transaction_cancels_it(client):
    client.put_item(TableName=TABLE, Item=_sized(300_000))
    with pytest.raises(ClientError) as cancelled:
        client.transact_write_items(TransactItems=[
            {"Put": {"TableName": TABLE, "Item": {**KEY, "SK": {"S": "OTHER"}}}},
            {"Update": {"TableName": TABLE, "Key": KEY, "UpdateExpression": "SET m = :map",
                        "ExpressionAttributeValues": {":map": {"M": {"big": {"S": "y" * 110_000}}}}}}])
    assert cancelled.value.response["Error"]["Code"] == "TransactionCanceledException"
    assert [reason["Code"] for reason in cancelled.value.response["CancellationReasons"]] == ["None", "ValidationError"]
    assert "Item" not in client.get_item(TableName=TABLE, Key={**KEY, "SK": {"S": "OTHER"}})
    assert "m" not in client.get_item(TableName=TABLE, Key=KEY)["Item"]


if __name__ == "__main__":
    if sys.argv[1:2] != ["plain"]:
        raise SystemExit("usage: python -m tests.test_moto_expressions plain")
    from infra.devstack import faithful_dynamodb, moto_expressions, moto_item_size, moto_reads, moto_speedups

    # moto's own sizes, expressions and copies
    moto_expressions.install = moto_item_size.install = moto_reads.install = lambda: None
    moto_speedups.install()
    faithful_dynamodb.install()
    json.dump(run(cases()), sys.stdout)
