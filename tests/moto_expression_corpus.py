"""The app's DynamoDB writes as the suite makes them: the corpus of tests/test_moto_expressions.py.

Collect (a pytest plugin: every write request moto receives, with the items it touches as they
were before it) and distil (each distinct operation/update expression/condition once or twice,
a few whole transactions) into tests/fixtures/moto_expression_corpus.json:

    RECORD_TO=/tmp/writes.jsonl python -m pytest -n 0 -p tests.moto_expression_corpus tests/test_documents.py ...
    python -m tests.moto_expression_corpus /tmp/writes.jsonl ... > tests/fixtures/moto_expression_corpus.json
"""
from __future__ import annotations

import json
import os
import sys
from pathlib import Path
from typing import Any

CORPUS = Path(__file__).resolve().parent / "fixtures" / "moto_expression_corpus.json"
TABLE = "corpus"
_OPERATIONS = {"Put": "put_item", "Update": "update_item", "Delete": "delete_item"}
_LARGEST_CASE = 24_000  # characters of JSON: the corpus stays small


def pytest_configure(config: Any) -> None:
    """Records every write the emulator receives (the plugin's only hook)."""
    from moto.dynamodb.responses import DynamoHandler

    out = open(os.environ.get("RECORD_TO", "/tmp/dynamodb_writes.jsonl"), "a")

    def before(backend: Any, table: str, body: dict[str, Any]) -> Any:
        moto_table = backend.get_table(table)
        key = body.get("Key") or {name: body["Item"][name] for name in moto_table.attribute_keys}
        item = backend.get_item(table, key)
        return item.to_json()["Attributes"] if item else None

    def recorded(name: str, original: Any) -> Any:
        def record(self: Any) -> Any:
            body, backend = self.body, self.dynamodb_backend
            if name == "transact_write_items":
                items = [next(iter(request.items())) for request in body["TransactItems"]]
                pre = [before(backend, op["TableName"], op) for _, op in items]
            else:
                pre = before(backend, body["TableName"], body)
            out.write(json.dumps({"op": name, "body": body, "pre": pre}) + "\n")
            return original(self)
        return record

    for name in ("update_item", "put_item", "delete_item", "transact_write_items"):
        setattr(DynamoHandler, name, recorded(name, getattr(DynamoHandler, name)))


def _renamed(value: Any) -> Any:
    if isinstance(value, dict):
        return {key: (TABLE if key == "TableName" else _renamed(item)) for key, item in value.items()}
    if isinstance(value, list):
        return [_renamed(item) for item in value]
    return value


def distil(paths: list[str], per_signature: int = 2, transactions: int = 12) -> list[dict[str, Any]]:
    """Single calls: each (operation, update expression, condition) `per_signature` times, with
    the item before; and the first `transactions` transactions of distinct shapes, whole."""
    cases: list[dict[str, Any]] = []
    seen: dict[Any, int] = {}
    shapes: set[Any] = set()
    for path in paths:
        for line in Path(path).read_text().splitlines():
            record = _renamed(json.loads(line))
            if record["op"] == "transact_write_items":
                items = [next(iter(request.items())) for request in record["body"]["TransactItems"]]
                singles = [({**op, "ReturnValuesOnConditionCheckFailure": "ALL_OLD"} if kind != "Put" else op,
                            _OPERATIONS.get(kind), pre) for (kind, op), pre in zip(items, record["pre"], strict=True)]
                shape = tuple((kind, op.get("UpdateExpression"), op.get("ConditionExpression")) for kind, op in items)
                if shape not in shapes and len(shapes) < transactions and len(json.dumps(record)) < 4 * _LARGEST_CASE:
                    shapes.add(shape)
                    cases.append(record)
            else:
                singles = [(record["body"], record["op"], record["pre"])]
            for body, operation, pre in singles:
                signature = (operation, body.get("UpdateExpression"), body.get("ConditionExpression"))
                if operation is None or seen.get(signature, 0) >= per_signature:
                    continue
                case = {"op": operation, "body": body, "pre": pre}
                if len(json.dumps(case)) < _LARGEST_CASE:
                    seen[signature] = seen.get(signature, 0) + 1
                    cases.append(case)
    return cases


if __name__ == "__main__":
    json.dump(distil(sys.argv[1:]), sys.stdout, indent=None, separators=(",", ":"))
    sys.stdout.write("\n")
