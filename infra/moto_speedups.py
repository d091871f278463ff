"""Make the embedded moto (local stack, tests, benchmarks) cost what DynamoDB costs.

1. TransactWriteItems: moto keeps a rollback copy of the WHOLE table for every item of a
   transaction, so a 10-item transaction on a table of 10,000 items deep-copies 100,000 items.
   This version gives the same answers with work proportional to the transaction: since no two
   operations of a transaction may touch the same item, every condition can be evaluated first
   against the state before the transaction (as DynamoDB does); only when all hold are the
   writes applied, and only the touched items are kept for a rollback should a write fail.
2. Query on the base table: moto sorts every item of the table and then keeps the partition's;
   DynamoDB reads only the partition. Here a base-table Query looks at its partition only, so
   a benchmark of a partition read (the general ledger) measures the design, not moto.
3. Query on an index: moto tests every item of the table against the index key and sorts the
   partition. Here each index partition is grouped and sorted once (kept until the next write
   to the backend) and a Query is handed only the items it can reach: inside its sort-key
   condition, from its start key, at most its limit. Repeated reads (a list benchmark over
   10,000 documents) then cost what DynamoDB's would.
4. Clients: moto drops boto3's default session each time a mock starts (every test), and each
   new session re-reads and parses botocore's JSON data files (the endpoints, each service's
   model, after a walk of the data directories): about 50 ms a client. The parsed files and the
   walk are kept for the process instead. The cached models are shared: moto's own additions to
   a service model (merged into it in place) then show in every later client of that service in
   the process, an operation or a protocol more than production's botocore has; the app never
   calls them, and the deployed Lambdas do not load this module.
5. Item answers: moto writes every DynamoDB answer by walking botocore's shape of it, attribute
   by attribute (half the time of a request that reads a few dozen items). The answers of the
   reads and single-item writes are plain JSON already (attribute values as {"S": ...}), so they
   are written with json.dumps: botocore parses from them what it parses from the shape walk's
   (binary values in base64, no nulls), except a whole number of capacity units read as 2, not
   2.0. Batch and transactional writes keep moto's writer."""
from __future__ import annotations

import bisect
import copy
from typing import Any

_installed = False


def _keep_parsed_botocore_files() -> None:
    from botocore.loaders import JSONFileLoader, Loader

    load_file, parsed = JSONFileLoader.load_file, {}

    def load_file_once(self: Any, file_path: str) -> Any:
        if file_path not in parsed:
            parsed[file_path] = load_file(self, file_path)
        return parsed[file_path]

    JSONFileLoader.load_file = load_file_once  # type: ignore[method-assign]

    list_services, listed = Loader.list_available_services, {}

    def list_services_once(self: Any, type_name: str) -> Any:  # a walk of botocore's data directories
        key = (tuple(self.search_paths), type_name)
        if key not in listed:
            listed[key] = list_services(self, type_name)
        return listed[key]

    Loader.list_available_services = list_services_once  # type: ignore[method-assign]


_ITEM_OPERATIONS = {"GetItem", "PutItem", "UpdateItem", "DeleteItem", "Query", "Scan", "BatchGetItem",
                    "TransactGetItems"}


def _write_item_answers_as_json() -> None:
    import base64
    import json

    from moto.dynamodb.responses import DynamoResult

    shape_walk = DynamoResult.execute_result

    def plain(value: Any) -> Any:
        if isinstance(value, dict):
            return {key: plain(item) for key, item in value.items() if item is not None}
        if isinstance(value, list):
            return [plain(item) for item in value]
        if isinstance(value, bytes):
            return base64.b64encode(value).decode()
        return value

    def execute_result(self: Any, context: Any) -> Any:
        if context.operation_model.name not in _ITEM_OPERATIONS:
            return shape_walk(self, context)
        return 200, {"Content-Type": context.serializer_class.CONTENT_TYPE}, json.dumps(plain(self.result))

    DynamoResult.execute_result = execute_result  # type: ignore[method-assign]


def install() -> None:
    global _installed
    if _installed:
        return
    _keep_parsed_botocore_files()
    _write_item_answers_as_json()
    from moto.dynamodb.models import DynamoDBBackend
    from moto.dynamodb.models.table import Table

    DynamoDBBackend.transact_write_items = _transact_write_items  # type: ignore[method-assign]
    whole_table_query, all_items = Table.query, Table.all_items

    writes = {"generation": 0}

    def counting_writes(method: Any) -> Any:
        def write(self: Any, *args: Any, **kwargs: Any) -> Any:
            writes["generation"] += 1
            try:
                return method(self, *args, **kwargs)
            finally:
                writes["generation"] += 1
        return write

    for name in ("put_item", "update_item", "delete_item"):
        setattr(DynamoDBBackend, name, counting_writes(getattr(DynamoDBBackend, name)))

    def partition_query(self: Any, hash_key: Any, *args: Any, **kwargs: Any) -> Any:
        index_name = kwargs.get("index_name", args[6] if len(args) > 6 else None)
        if index_name is not None:
            conditions = kwargs.get("hash_key_conditions") or []
            if len(conditions) != 1:
                return whole_table_query(self, hash_key, *args, **kwargs)
            self._index_partition = index_window(self, index_name, conditions[0][0], conditions[0][1].value, args)
            try:
                return whole_table_query(self, hash_key, *args, **kwargs)
            finally:
                self._index_partition = None
        if hash_key is None or not self.range_key_attr:
            return whole_table_query(self, hash_key, *args, **kwargs)
        self._partition_only = hash_key
        try:
            return whole_table_query(self, hash_key, *args, **kwargs)
        finally:
            self._partition_only = None

    def index_groups(self: Any, hash_attribute: str, range_attribute: str) -> dict[Any, tuple[list[Any], list[str]]]:
        """Items by index partition, sorted by the index sort key: built once per write."""
        cache = getattr(self, "_index_groups", None)
        if cache is None or cache["generation"] != writes["generation"]:
            cache = self._index_groups = {"generation": writes["generation"]}
        if (hash_attribute, range_attribute) not in cache:
            groups: dict[Any, list[Any]] = {}
            for item in all_items(self):
                attrs = getattr(item, "attrs", {})
                key, sort = attrs.get(hash_attribute), attrs.get(range_attribute)
                if key is not None and sort is not None and sort.type == "S":
                    groups.setdefault(key.value, []).append(item)
            sorted_groups = {}
            for value, items in groups.items():
                items.sort(key=lambda item: (item.attrs[range_attribute].value, str(item.hash_key.value),
                                             str(item.range_key.value if item.range_key else "")))
                sorted_groups[value] = (items, [item.attrs[range_attribute].value for item in items])
            cache[(hash_attribute, range_attribute)] = sorted_groups
        return cache[(hash_attribute, range_attribute)]

    def index_window(self: Any, index_name: str, hash_attribute: str, value: Any, args: tuple[Any, ...]) -> list[Any]:
        """The items of the index partition a Query can reach: inside the sort-key condition,
        from the start key on, at most `limit` of them (plus the start item moto looks for)."""
        index = next(i for i in self.all_indexes() if i.name == index_name)
        range_attribute = next((k["AttributeName"] for k in index.schema if k["KeyType"] == "RANGE"), None)
        if range_attribute is None:
            return [item for item in all_items(self)
                    if getattr(item, "attrs", {}).get(hash_attribute) is not None
                    and item.attrs[hash_attribute].value == value]
        items, sort_values = index_groups(self, hash_attribute, range_attribute).get(value, ([], []))
        comparison, bounds, limit, start_key, forward = (list(args[:5]) + [None] * 5)[:5]
        bounds = [bound.value for bound in bounds or []]
        low, high = 0, len(items)
        if comparison in ("BETWEEN", ">=", ">", "=", "BEGINS_WITH"):
            low = bisect.bisect_left(sort_values, bounds[0])
        if comparison == "BETWEEN":
            high = bisect.bisect_right(sort_values, bounds[1])
        elif comparison in ("<=", "<", "="):
            high = bisect.bisect_right(sort_values, bounds[-1])
        elif comparison == "BEGINS_WITH":
            high = bisect.bisect_left(sort_values, bounds[0] + "\U0010ffff")
        window = items[low:high]
        if not forward and forward is not None:
            window = window[::-1]
        if start_key:
            marker = {name: next(iter(typed.values())) for name, typed in start_key.items()}
            position = next((i for i, item in enumerate(window)
                             if all(str(item.attrs[name].value) == str(v) for name, v in marker.items()
                                    if name in item.attrs)), None)
            if position is not None:
                window = window[position:]
        if limit:
            window = window[:int(limit) + 1]
        return window

    def partition_items(self: Any) -> Any:
        indexed = getattr(self, "_index_partition", None)
        if indexed is not None:
            return indexed
        hash_key = getattr(self, "_partition_only", None)
        if hash_key is None:
            return all_items(self)
        partition = self.items.get(hash_key) or {}
        return sorted(partition.values(), key=lambda item: item.range_key)

    Table.query = partition_query  # type: ignore[method-assign]
    Table.all_items = partition_items  # type: ignore[method-assign]
    _installed = True


def _transact_write_items(self: Any, transact_items: list[dict[str, Any]]) -> None:
    from moto.dynamodb.comparisons import get_filter_expression
    from moto.dynamodb.exceptions import (
        ConditionalCheckFailed,
        MockValidationException,
        MultipleTransactionsException,
        TooManyTransactionsException,
        TransactionCanceledException,
        TransactWriteSingleOpException,
    )

    if len(transact_items) > 100:
        raise TooManyTransactionsException()
    seen: set[tuple[str, str]] = set()
    planned: list[tuple[str, dict[str, Any], str, dict[str, Any]]] = []
    errors: list[tuple[Any, Any, Any]] = []
    for request in transact_items:
        if len(request) > 1:
            raise TransactWriteSingleOpException
        op_type, op = next(iter(request.items()))
        if op_type not in {"ConditionCheck", "Put", "Delete", "Update"}:
            raise ValueError("Unsupported transaction operation")
        table_name = op["TableName"]
        if op_type == "Put":
            table = self.get_table(table_name)
            key = {table.hash_key_attr: op["Item"][table.hash_key_attr]}
            if table.range_key_attr is not None:
                key[table.range_key_attr] = op["Item"][table.range_key_attr]
        else:
            key = op["Key"]
        identity = (str(table_name), str(dict(sorted(key.items()))))
        if identity in seen:
            raise MultipleTransactionsException()
        seen.add(identity)
        original = None
        condition = op.get("ConditionExpression")
        if condition is not None:
            current = self.get_item(table_name, key)
            check = get_filter_expression(condition, op.get("ExpressionAttributeNames"),
                                          op.get("ExpressionAttributeValues"))
            if not check.expr(current):
                if op.get("ReturnValuesOnConditionCheckFailure") == "ALL_OLD" and current:
                    original = current.to_json()["Attributes"]
                errors.append(("ConditionalCheckFailed", "The conditional request failed", original))
                continue
        errors.append((None, None, None))
        planned.append((op_type, op, table_name, key))
    if any(code is not None for code, _, _ in errors):
        raise TransactionCanceledException(errors)

    before = [(table_name, key, copy.deepcopy(self.get_item(table_name, key)))
              for op_type, _, table_name, key in planned if op_type != "ConditionCheck"]
    try:
        for op_type, op, table_name, key in planned:
            names, values = op.get("ExpressionAttributeNames"), op.get("ExpressionAttributeValues")
            if op_type == "Put":
                self.put_item(table_name, op["Item"], expression_attribute_names=names,
                              expression_attribute_values=values)
            elif op_type == "Delete":
                self.delete_item(table_name, key, expression_attribute_names=names,
                                 expression_attribute_values=values)
            elif op_type == "Update":
                self.update_item(table_name, key, update_expression=op["UpdateExpression"],
                                 expression_attribute_names=names, expression_attribute_values=values)
    except Exception as error:
        for table_name, key, item in before:
            if item is None:
                self.get_table(table_name).delete_item(*self.get_keys_value(self.get_table(table_name), key))
            else:
                self.put_item(table_name, item.to_json()["Attributes"])
        if isinstance(error, (MultipleTransactionsException, MockValidationException, ConditionalCheckFailed)):
            raise
        raise TransactionCanceledException([(type(error).__name__, str(error), None)]) from error
