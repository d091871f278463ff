"""The Query speed-ups of infra/devstack/moto_speedups.py answer exactly what plain moto answers.

Random tables (the deployed key schema and GSIs, items with index attributes missing, equal
index sort values across base keys, prefixes of each other, non-ASCII sort values, a few items
of up to 320 KB so that pages meet moto's 1 MB) take random paged queries (base table or an index, any
key condition, filters, limits, both directions, start keys of items, of no item or of another
partition) with writes in between (the cached index partitions are rebuilt). Every query
follows its LastEvaluatedKey to the end; each page (items, counts, LastEvaluatedKey, or the
error) must be the same with the speed-ups (this process) as in plain moto (a subprocess that
never installs them).

    python -m tests.test_moto_speedups plain     # the plain answers as JSON, what the test compares
"""
from __future__ import annotations

import json
import os
import random
import subprocess
import sys
from pathlib import Path
from typing import Any

import boto3
import pytest
from botocore.exceptions import ClientError
from moto import mock_aws

from infra.deploy.resources import create_table

ROOT = Path(__file__).resolve().parent.parent
TABLE = "speedups-differential"
SEEDS = (20240611, 7, 1234567)
QUERIES_PER_TABLE = 100
MAX_PAGES = 400

BASE_PARTITIONS = ("P1", "P2", "P3")
INDEX_PARTITIONS = {"GSI1": ("A", "B", "C"), "GSI2": ("X", "Y")}
# ties, prefixes of one another (begins_with's upper end), code points past the BMP
SORT_VALUES = ("a", "ab", "ab#1", "ab\U0010ffff", "ab\U0010ffffz", "abc", "b", "b#1", "b#2", "ba", "c",
               "c\x00", "\u00e9", "\U0001f600", "z")
STATUSES = ("open", "paid", "void")
# a partition laid out against moto's 1 MB: three items fill most of a page, a light one and a
# heavy one follow on either side (moto weighs the items outside the key condition too)
HEAVY = (("a", 320_000), ("b", 2_000), ("c1", 300_000), ("c2", 300_000), ("c3", 300_000), ("d", 2_000),
         ("e", 320_000))
HEAVY_VALUES = ("a", "b", "b0", "c", "c1", "c2", "c3", "d", "e", "z")
# the items of the BIG partitions: a page of them meets moto's 1 MB (an item may be up to 400 KB)
BLOB_SIZES = (2_000, 60_000, 150_000, 150_000, 320_000)


# --- the scenario: pure data from a seed, the same on both sides ------------------------------------

def _item(rng: random.Random, number: int, blob: int = 0) -> dict[str, Any]:
    item: dict[str, Any] = {
        "PK": {"S": "PBIG" if blob else rng.choice(BASE_PARTITIONS)},
        "SK": {"S": f"{rng.choice(SORT_VALUES)}#{number:04d}"},
        "status": {"S": rng.choice(STATUSES)},
        "n": {"N": str(rng.randint(-5, 50))},
    }
    for index, partitions in INDEX_PARTITIONS.items():
        if blob:
            if index == "GSI1":
                item["GSI1PK"], item["GSI1SK"] = {"S": "BIG"}, {"S": rng.choice(SORT_VALUES)}
            continue
        if rng.random() < 0.85:
            item[f"{index}PK"] = {"S": rng.choice(partitions)}
        if rng.random() < 0.85:
            item[f"{index}SK"] = {"S": rng.choice(SORT_VALUES)}
    if rng.random() < 0.3:
        item["tags"] = {"L": [{"S": rng.choice(STATUSES)}, {"N": "1"}]}
    if rng.random() < 0.2:
        item["meta"] = {"M": {"k": {"S": "v"}, "b": {"BOOL": True}}}
    if blob:
        item["blob"] = {"S": "x" * blob}
    return item


def _key(item: dict[str, Any]) -> tuple[str, str]:
    return item["PK"]["S"], item["SK"]["S"]


def _condition(rng: random.Random, attribute: str, present: list[str], heavy: bool = False) -> tuple[str, dict[str, Any]]:
    """A sort-key condition, its bounds often values the partition holds (equal values)."""
    names = {"#s": attribute}
    kind = rng.choice(["none", "none", "none", "=", "<", "<=", ">", ">=", "between", "between", "begins", "begins"]
                      [3 if heavy else 0:])
    values = HEAVY_VALUES if heavy else SORT_VALUES
    if present and rng.random() < 0.5:
        values = tuple(sorted(set(present))) + values[:2]
    low, high = sorted(rng.sample(values, 2))
    if rng.random() < 0.05:
        low, high = high, low  # a BETWEEN that holds for nothing (or an error)
    prefix = rng.choice(["a", "b", "c", "c3"] if heavy else ["a", "ab", "ab\U0010ffff", "b#", "c", "\u00e9", "q"])
    value = rng.choice(values)
    if kind == "none":
        return "", {}
    if kind == "between":
        return " AND #s BETWEEN :lo AND :hi", {"names": names, ":lo": {"S": low}, ":hi": {"S": high}}
    if kind == "begins":
        return " AND begins_with(#s, :v)", {"names": names, ":v": {"S": prefix}}
    return f" AND #s {kind} :v", {"names": names, ":v": {"S": value}}


def _query(rng: random.Random, items: dict[tuple[str, str], dict[str, Any]]) -> dict[str, Any]:
    index = rng.choice([None, "GSI1", "GSI1", "GSI2"])
    hash_name, sort_name = ("PK", "SK") if index is None else (f"{index}PK", f"{index}SK")
    partitions = BASE_PARTITIONS if index is None else INDEX_PARTITIONS[index]
    draw = rng.random()
    if index in (None, "GSI1") and draw < 0.2:
        partition = ("P" if index is None else "") + ("BIG" if draw < 0.07 else "HEAVY")
    else:
        partition = "nobody" if rng.random() < 0.05 else rng.choice(partitions)
    heavy = partition.endswith("HEAVY")
    if partition.endswith("BIG") and rng.random() < 0.5:
        condition, extra = "", {}
    else:
        present = [item[sort_name]["S"] for item in items.values()
                   if sort_name in item and item.get(hash_name, {}).get("S") == partition]
        condition, extra = _condition(rng, sort_name, present, heavy)
    names = {"#p": hash_name, **extra.pop("names", {})}
    values = {":p": {"S": partition}, **extra}
    params: dict[str, Any] = {"TableName": TABLE, "KeyConditionExpression": "#p = :p" + condition,
                              "ScanIndexForward": rng.random() < 0.5}
    if index:
        params["IndexName"] = index
    if heavy:
        if rng.random() < 0.15:
            params["Limit"] = rng.choice([3, 4, 5])
    elif rng.random() < (0.5 if partition.endswith("BIG") else 0.85):
        params["Limit"] = rng.choice([1, 2, 2, 3, 3, 4, 5, 7, 10])
    filtering = rng.choice([None, None, "status", "exists", "number"])
    if filtering == "status":
        names["#f"], values[":f"] = "status", {"S": rng.choice(STATUSES)}
        params["FilterExpression"] = "#f = :f"
    elif filtering == "exists":
        params["FilterExpression"] = "attribute_exists(GSI2SK)"
    elif filtering == "number":
        names["#f"], values[":f"] = "n", {"N": str(rng.randint(0, 40))}
        params["FilterExpression"] = "#f > :f"
    if rng.random() < 0.1:
        names["#k"], names["#st"] = "SK", "status"
        params["ProjectionExpression"] = "#p, #k, #st"
    params["ExpressionAttributeNames"] = names
    params["ExpressionAttributeValues"] = values
    start = rng.random()
    if start < 0.15:  # an item's own key
        reachable = [item for item in items.values() if hash_name in item and sort_name in item]
        if reachable:
            chosen = rng.choice(reachable)
            params["ExclusiveStartKey"] = {name: chosen[name] for name in {"PK", "SK", hash_name, sort_name}}
    elif start < 0.3:  # the key of no item, in the partition or (sometimes) another
        key = {"PK": {"S": rng.choice(BASE_PARTITIONS)}, "SK": {"S": f"{rng.choice(SORT_VALUES)}#{rng.randint(0, 9)}"}}
        key[hash_name] = {"S": partition if rng.random() < 0.8 else rng.choice(partitions)}
        key[sort_name] = {"S": rng.choice(SORT_VALUES) + rng.choice(["", "#", "~"])}
        params["ExclusiveStartKey"] = key
    return params


def _write(rng: random.Random, items: dict[tuple[str, str], dict[str, Any]], number: int) -> dict[str, Any]:
    choice = rng.random()
    if choice < 0.4 or not items:
        item = _item(rng, number)
        items[_key(item)] = item
        return {"put": item}
    key = rng.choice(sorted(items))
    item = items[key]
    if choice < 0.6:
        del items[key]
        return {"delete": {"PK": item["PK"], "SK": item["SK"]}}
    if choice < 0.8:  # an index sort key removed or changed in place
        attribute = rng.choice(["GSI1SK", "GSI2SK", "GSI1PK"])
        if attribute in item and rng.random() < 0.5:
            del item[attribute]
            return {"update": {"Key": {"PK": item["PK"], "SK": item["SK"]}, "UpdateExpression": "REMOVE #a",
                               "ExpressionAttributeNames": {"#a": attribute}}}
        item[attribute] = {"S": rng.choice(SORT_VALUES)}
        return {"update": {"Key": {"PK": item["PK"], "SK": item["SK"]}, "UpdateExpression": "SET #a = :v",
                           "ExpressionAttributeNames": {"#a": attribute},
                           "ExpressionAttributeValues": {":v": item[attribute]}}}
    item["status"] = {"S": rng.choice(STATUSES)}
    return {"put": item}


def scenario(seed: int, queries: int = QUERIES_PER_TABLE) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """(the items of the table, the operations: queries with writes in between)."""
    rng = random.Random(seed)
    items: dict[tuple[str, str], dict[str, Any]] = {}
    for number in range(rng.randint(60, 110)):
        item = _item(rng, number)
        items[_key(item)] = item
    for number in range(12):
        item = _item(rng, 9000 + number, blob=rng.choice(BLOB_SIZES))
        items[_key(item)] = item
    for sort, size in HEAVY:
        item = {"PK": {"S": "PHEAVY"}, "SK": {"S": sort}, "GSI1PK": {"S": "HEAVY"}, "GSI1SK": {"S": sort},
                "status": {"S": rng.choice(STATUSES)}, "n": {"N": "1"}, "blob": {"S": "x" * size}}
        items[_key(item)] = item
    initial = [json.loads(json.dumps(item)) for item in items.values()]
    operations: list[dict[str, Any]] = []
    written = 1000
    while sum("query" in operation for operation in operations) < queries:
        if rng.random() < 0.25:
            written += 1
            operations.append(json.loads(json.dumps(_write(rng, items, written))))
        else:
            operations.append({"query": _query(rng, items)})
    return initial, operations


# --- running it -----------------------------------------------------------------------------------

def _page(client: Any, params: dict[str, Any]) -> dict[str, Any]:
    try:
        response = client.query(**params)
    except ClientError as error:
        return {"error": error.response["Error"]}
    return {name: response[name] for name in ("Items", "Count", "ScannedCount", "LastEvaluatedKey")
            if name in response}


def run(seeds: tuple[int, ...] = SEEDS) -> list[list[dict[str, Any]]]:
    """Every query's pages, following LastEvaluatedKey, in the running process's moto."""
    answers: list[list[dict[str, Any]]] = []
    with mock_aws():
        client = boto3.client("dynamodb", region_name="us-east-1")
        for seed in seeds:
            initial, operations = scenario(seed)
            create_table(client, TABLE)
            for item in initial:
                client.put_item(TableName=TABLE, Item=item)
            for operation in operations:
                if "put" in operation:
                    client.put_item(TableName=TABLE, Item=operation["put"])
                elif "delete" in operation:
                    client.delete_item(TableName=TABLE, Key=operation["delete"])
                elif "update" in operation:
                    client.update_item(TableName=TABLE, **operation["update"])
                else:
                    params, pages = dict(operation["query"]), []
                    while len(pages) < MAX_PAGES:
                        pages.append(_page(client, params))
                        if "LastEvaluatedKey" not in pages[-1]:
                            break
                        params["ExclusiveStartKey"] = pages[-1]["LastEvaluatedKey"]
                    answers.append(pages)
            client.delete_table(TableName=TABLE)
    return answers


def plain_answers(seeds: tuple[int, ...] = SEEDS) -> subprocess.Popen[str]:
    """Plain moto's answers, computed by a process that never installs the speed-ups."""
    env = {**os.environ, "AWS_ACCESS_KEY_ID": "testing", "AWS_SECRET_ACCESS_KEY": "testing",
           "AWS_DEFAULT_REGION": "us-east-1", "PYTHONPATH": str(ROOT)}
    env.pop("AWS_ENDPOINT_URL", None)
    return subprocess.Popen([sys.executable, "-m", "tests.test_moto_speedups", "plain",
                             *map(str, seeds)], cwd=ROOT, env=env, stdout=subprocess.PIPE, text=True)


def differences(plain: list[list[dict[str, Any]]], patched: list[list[dict[str, Any]]]) -> list[int]:
    """The positions of the queries whose pages differ."""
    return [number for number, (one, other) in enumerate(zip(plain, patched, strict=True)) if one != other]


def _describe(pages: list[dict[str, Any]]) -> list[Any]:
    return [page.get("error") or (len(page["Items"]), page["ScannedCount"], page.get("LastEvaluatedKey"))
            for page in pages]


def test_paged_queries_answer_as_plain_moto():
    from infra.devstack import moto_speedups

    moto_speedups.install()  # the conftest's already (it does nothing twice): the speed-ups are on
    from moto.dynamodb.models.table import Table

    assert Table.query.__name__ == "partition_query"
    plain_process = plain_answers()  # meanwhile
    patched = run()
    output, _ = plain_process.communicate(timeout=300)
    assert plain_process.returncode == 0
    plain = json.loads(output)
    assert len(plain) == len(SEEDS) * QUERIES_PER_TABLE
    # the scenario reaches what it is meant to: many pages, pages cut at 1 MB
    queries = [operation["query"] for seed in SEEDS for operation in scenario(seed)[1] if "query" in operation]
    assert sum(len(pages) > 3 for pages in plain) > 50
    assert sum("LastEvaluatedKey" in page and page["ScannedCount"] < query.get("Limit", 1000)
               for query, pages in zip(queries, plain, strict=True) for page in pages) > 3
    differing = differences(plain, patched)
    assert not differing, (
        f"{len(differing)} of {len(plain)} queries differ; the first, {queries[differing[0]]}, pages as "
        f"(items, scanned, LastEvaluatedKey): plain {_describe(plain[differing[0]])}, "
        f"with the speed-ups {_describe(patched[differing[0]])}")


@pytest.mark.parametrize("descending", [False, True])
def test_a_filtered_list_longer_than_a_batch_lists_every_match(table, descending):
    """The review's case: 7 matching documents among 700, read in filtered batches of 200."""
    from chalicelib.store.listing import list_range

    client = table.client
    matching = {7, 150, 199, 200, 201, 450, 699}
    requests = [{"PutRequest": {"Item": {
        "PK": {"S": f"DOC#{number:04d}"}, "SK": {"S": "A"}, "GSI1PK": {"S": "C#1#DOCS"},
        "GSI1SK": {"S": f"2024-01-01#{number:04d}"}, "status": {"S": "x" if number in matching else "y"}}}}
        for number in range(700)]
    for start in range(0, len(requests), 25):
        client.batch_write_item(RequestItems={table.name: requests[start:start + 25]})
    page = list_range(table, partition="C#1#DOCS", low=None, high=None, filters={"status": "x"}, page=1,
                      limit=20, cursor=None, descending=descending, total=len(matching))
    listed = [int(item["PK"].split("#")[1]) for item in page.items]
    assert listed == sorted(matching, reverse=descending)


if __name__ == "__main__":
    if sys.argv[1:2] != ["plain"]:
        raise SystemExit("usage: python -m tests.test_moto_speedups plain [seed ...]")
    json.dump(run(tuple(int(seed) for seed in sys.argv[2:]) or SEEDS), sys.stdout)
