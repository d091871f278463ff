"""CPU per DynamoDB call on the embedded emulator, through botocore's wire path and through the direct
client (infra/devstack/direct_dynamodb.py): `python -m infra.bench.emulator_client [--rounds N]`.

Each round makes the calls a sales invoice's life makes (shaped as the store writes them: a document
of 30 attributes and 10 lines as maps, a counter, a page of 20 of the 50 documents already there by an
index, a 4-item transaction, a batch read) and deletes what it wrote, so that every round meets the
same table; on the faithful layer as the tests run it. One JSON line per path: CPU ms per call of
each operation (time.process_time over the rounds, after one round of warm-up), and the ratio."""
from __future__ import annotations

import argparse
import json
import time
from collections.abc import Callable
from typing import Any

TABLE = "bench-emulator-calls"


def _document(number: int) -> dict[str, Any]:
    lines = [{"M": {"productId": {"N": str(line)}, "description": {"S": f"Product {line}"},
                    "quantity": {"N": "2.5"}, "unitPrice": {"N": "115.00"}, "taxRate": {"N": "0.15"},
                    "total": {"N": "287.50"}}} for line in range(10)]
    return {"PK": {"S": "COMPANY#1"}, "SK": {"S": f"DOC#{number:08d}"},
            "GSI1PK": {"S": "COMPANY#1#DOCS"}, "GSI1SK": {"S": f"2026-11-{1 + number % 28:02d}#{number:08d}"},
            "lines": {"L": lines}, "total": {"N": "2875.00"}, "currency": {"S": "HNL"},
            **{f"field{n}": {"S": f"value {n} of document {number}"} for n in range(22)}}


def _calls(client: Any) -> list[tuple[str, Callable[[], Any]]]:
    base = 1000
    counter = {"PK": {"S": "COMPANY#1"}, "SK": {"S": "COUNTER#DOC"}}
    return [
        ("PutItem", lambda: client.put_item(TableName=TABLE, Item=_document(base))),
        ("GetItem", lambda: client.get_item(TableName=TABLE, Key={"PK": {"S": "COMPANY#1"},
                                                                  "SK": {"S": f"DOC#{base:08d}"}})),
        ("UpdateItem", lambda: client.update_item(
            TableName=TABLE, Key=counter, UpdateExpression="ADD #n :one", ExpressionAttributeNames={"#n": "next"},
            ExpressionAttributeValues={":one": {"N": "1"}}, ReturnValues="UPDATED_NEW")),
        ("Query", lambda: client.query(
            TableName=TABLE, IndexName="GSI1", KeyConditionExpression="GSI1PK = :p",
            ExpressionAttributeValues={":p": {"S": "COMPANY#1#DOCS"}}, Limit=20, ScanIndexForward=False)),
        ("TransactWriteItems", lambda: client.transact_write_items(TransactItems=[
            *({"Put": {"TableName": TABLE, "Item": _document(base + n),
                       "ConditionExpression": "attribute_not_exists(PK)"}} for n in (1, 2, 3)),
            {"Update": {"TableName": TABLE, "Key": counter, "UpdateExpression": "SET #l = :l",
                        "ExpressionAttributeNames": {"#l": "last"}, "ExpressionAttributeValues": {":l": {"N": str(base)}}}}])),
        ("BatchGetItem", lambda: client.batch_get_item(RequestItems={TABLE: {"Keys": [
            {"PK": {"S": "COMPANY#1"}, "SK": {"S": f"DOC#{base + n:08d}"}} for n in (1, 2, 3)]}})),
        *(("DeleteItem", lambda n=n: client.delete_item(  # type: ignore[misc]
            TableName=TABLE, Key={"PK": {"S": "COMPANY#1"}, "SK": {"S": f"DOC#{base + n:08d}"}})) for n in range(4)),
    ]


def measure(rounds: int) -> list[dict[str, Any]]:
    from infra.bench.common import bench_environment

    bench_environment(auth_at_gateway=False)
    import boto3
    from moto import mock_aws

    from infra.deploy.resources import create_table
    from infra.devstack.direct_dynamodb import DirectDynamoDB

    records: list[dict[str, Any]] = []
    with mock_aws():
        botocore_client = boto3.client("dynamodb", region_name="us-east-1")
        create_table(botocore_client, TABLE)
        for number in range(50):
            botocore_client.put_item(TableName=TABLE, Item=_document(number))
        for path, client in (("botocore", botocore_client), ("direct", DirectDynamoDB(botocore_client))):
            spent: dict[str, float] = {}
            calls: dict[str, int] = {}
            for round_number in range(rounds + 1):
                for operation, call in _calls(client):
                    started = time.process_time()
                    call()
                    if round_number:  # the first round warms up
                        spent[operation] = spent.get(operation, 0.0) + time.process_time() - started
                        calls[operation] = calls.get(operation, 0) + 1
            records.append({"path": path, "rounds": rounds,
                            "cpuMsPerCall": {op: round(1000 * s / calls[op], 3) for op, s in spent.items()},
                            "cpuMsPerRound": round(1000 * sum(spent.values()) / rounds, 3)})
    botocore_ms, direct_ms = (float(record["cpuMsPerRound"]) for record in records)
    records.append({"directToBotocore": round(direct_ms / botocore_ms, 3)})
    return records


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--rounds", type=int, default=200)
    for record in measure(parser.parse_args().rounds):
        print(json.dumps(record))


if __name__ == "__main__":
    main()
