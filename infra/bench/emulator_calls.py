"""What one DynamoDB call costs on the embedded emulator (moto and its speed layers): CPU ms per call.

    python -m infra.bench.emulator_calls [--plain] [--repeat N]

Representative calls, shaped as the store makes them (the expressions are the app's, collected
from a run of the suite): a document's item put with `attribute_not_exists(PK)`, the counters'
updates (`ADD ... SET ...` under a condition), a 12-item TransactWriteItems of a confirmed
document, a partition Query, a GetItem. Each kind runs N times through a boto3 client, as the tests
call it; the figure is the process's CPU time (user + system, not wall time: the machine is
shared) divided by the calls. `--plain`: moto alone, without infra/devstack's speed layers."""
from __future__ import annotations

import argparse
import os
import time
from collections.abc import Callable
from typing import Any

TABLE = "bench-emulator"


def _document(number: int, lines: int = 20) -> dict[str, Any]:
    """A document's item: ~60 attributes, its lines as a list of maps (about 6 KB)."""
    item: dict[str, Any] = {
        "PK": {"S": f"C#1#DOC#{number:06d}"}, "SK": {"S": "A"}, "GSI1PK": {"S": "C#1#DOCS"},
        "GSI1SK": {"S": f"2026-01-01#{number:06d}"}, "status": {"S": "confirmed"}, "version": {"N": "1"},
        "total": {"N": "1234.56"}, "currency": {"S": "HNL"},
        "lines": {"L": [{"M": {"product": {"S": f"P{line:03d}"}, "quantity": {"N": "2"},
                               "unitPrice": {"N": "100.25"}, "tax": {"N": "15.04"},
                               "description": {"S": "Servicio de mantenimiento " * 2}}} for line in range(lines)]},
    }
    for field in range(50):
        item[f"field{field:02d}"] = {"S": f"value {field}"}
    return item


def _counter_update(key: str) -> dict[str, Any]:
    return {"TableName": TABLE, "Key": {"PK": {"S": key}, "SK": {"S": "COUNTS"}},
            "UpdateExpression": "ADD #add0 :add0, #add1 :add1, #add2 :add2, #add3 :add3 SET #set0 = :set0, "
                                "#set1 = :set1, #set2 = :set2",
            "ConditionExpression": "attribute_exists(PK) AND isActive = :active",
            "ExpressionAttributeNames": {f"#add{n}": f"total{n}" for n in range(4)}
            | {f"#set{n}": f"last{n}" for n in range(3)},
            "ExpressionAttributeValues": {f":add{n}": {"N": "10.5"} for n in range(4)}
            | {f":set{n}": {"S": "2026-01-01"} for n in range(3)} | {":active": {"BOOL": True}}}


def _calls(client: Any) -> dict[str, Callable[[int], Any]]:
    client.put_item(TableName=TABLE, Item={"PK": {"S": "ACCOUNT"}, "SK": {"S": "COUNTS"},
                                           "isActive": {"BOOL": True}})
    for number in range(50):
        client.put_item(TableName=TABLE, Item={**_document(number), "PK": {"S": "C#1#LEDGER"},
                                               "SK": {"S": f"E#{number:06d}"}})

    def transaction(n: int) -> Any:
        items: list[dict[str, Any]] = [{"Put": {"TableName": TABLE, "Item": _document(100_000 + n * 10 + i, 3),
                                                "ConditionExpression": "attribute_not_exists(PK)"}}
                                       for i in range(6)]
        items += [{"Update": _counter_update("ACCOUNT")}]
        items += [{"Update": {"TableName": TABLE, "Key": {"PK": {"S": f"C#1#DAY#{i}"}, "SK": {"S": "N"}},
                              "UpdateExpression": "ADD #a :n", "ExpressionAttributeNames": {"#a": "count"},
                              "ExpressionAttributeValues": {":n": {"N": "1"}}}} for i in range(5)]
        return client.transact_write_items(TransactItems=items)

    return {
        "PutItem (document, 20 lines)": lambda n: client.put_item(
            TableName=TABLE, Item=_document(n), ConditionExpression="attribute_not_exists(PK)"),
        "UpdateItem ADD #a :n": lambda n: client.update_item(
            TableName=TABLE, Key={"PK": {"S": "C#1#SEQ"}, "SK": {"S": "N"}}, UpdateExpression="ADD #a :n",
            ExpressionAttributeNames={"#a": "next"}, ExpressionAttributeValues={":n": {"N": "1"}}),
        "UpdateItem ADD x4 SET x3, condition": lambda n: client.update_item(**_counter_update("ACCOUNT")),
        "UpdateItem SET on a document": lambda n: client.update_item(
            TableName=TABLE, Key={"PK": {"S": "C#1#DOC#000001"}, "SK": {"S": "A"}},
            UpdateExpression="SET #status = :to, #version = :next, #a0 = :a0, #a1 = :a1",
            ConditionExpression="#version >= :seen",
            ExpressionAttributeNames={"#status": "status", "#version": "version", "#a0": "paidAt", "#a1": "by"},
            ExpressionAttributeValues={":to": {"S": "paid"}, ":next": {"N": str(n + 2)}, ":seen": {"N": "1"},
                                       ":a0": {"S": "2026-01-02"}, ":a1": {"S": "ana"}}),
        "TransactWriteItems (6 puts, 6 updates)": transaction,
        "Query (a partition of 50)": lambda n: client.query(
            TableName=TABLE, KeyConditionExpression="PK = :p", ExpressionAttributeValues={":p": {"S": "C#1#LEDGER"}}),
        "GetItem (document)": lambda n: client.get_item(
            TableName=TABLE, Key={"PK": {"S": "C#1#DOC#000001"}, "SK": {"S": "A"}}),
    }


def measure(repeat: int, plain: bool) -> dict[str, float]:
    os.environ.update({"AWS_ACCESS_KEY_ID": "bench", "AWS_SECRET_ACCESS_KEY": "bench",
                       "AWS_DEFAULT_REGION": "us-east-1"})
    os.environ.pop("AWS_ENDPOINT_URL", None)
    if not plain:
        from infra.devstack import faithful_dynamodb, moto_speedups
        moto_speedups.install()
        faithful_dynamodb.install()
    import boto3
    from moto import mock_aws

    from infra.deploy.resources import create_table

    figures: dict[str, float] = {}
    with mock_aws():
        client = boto3.client("dynamodb", region_name="us-east-1")
        create_table(client, TABLE)
        for name, call in _calls(client).items():
            call(repeat)  # warm-up (a number the measured calls do not use)
            started = time.process_time()
            for n in range(repeat):
                call(n)
            figures[name] = round((time.process_time() - started) * 1000 / repeat, 3)
    return figures


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--plain", action="store_true", help="moto alone, without the speed layers")
    parser.add_argument("--repeat", type=int, default=200)
    arguments = parser.parse_args()
    for name, milliseconds in measure(arguments.repeat, arguments.plain).items():
        print(f"{milliseconds:8.3f} ms CPU  {name}")


if __name__ == "__main__":
    main()
