"""Make the embedded moto (local stack, tests, benchmarks) cost what DynamoDB costs.

1. TransactWriteItems: moto keeps a rollback copy of the WHOLE table for every item of a
   transaction, so a 10-item transaction on a table of 10,000 items deep-copies 100,000 items.
   This version gives the same answers with work proportional to the transaction: since no two
   operations of a transaction may touch the same item, every condition can be evaluated first
   against the state before the transaction (as DynamoDB does); only when all hold are the
   writes applied, and only the touched items are kept for a rollback should a write fail.
2. Query on the base table: moto sorts every item of the table and then keeps the partition's;
   DynamoDB reads only the partition. Here a base-table Query is handed only the items of its
   partition it can reach (as in 3), so a benchmark of a partition read (the general ledger)
   measures the design, not moto.
3. Query on an index: moto tests every item of the table against the index key and sorts the
   partition. Here each partition (of an index, or of the table) is grouped and sorted once, in
   moto's order (kept until the next write to the backend), and a Query is handed only the
   items it can reach: after its start key (found or not), inside its sort-key condition, at
   most `limit` + 1 of them, else all of them and the item that follows (moto returns a
   LastEvaluatedKey when `limit` items are in and any item follows, inside the condition or
   not, or when the next item would take the page over 1 MB). moto's own loop then answers over
   that window exactly what it answers over the whole table (items, Count, ScannedCount,
   LastEvaluatedKey; Limit counts the items read before the filter, as DynamoDB documents): tests/
   test_moto_speedups.py compares the two on random tables and paged queries. A case the window
   does not model (a key attribute that is not a string, QueryFilter on non-key attributes) is
   answered by moto over the whole table. Repeated reads (a list benchmark over 10,000
   documents) then cost what DynamoDB's would.
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
   2.0. Batch and transactional writes keep moto's writer.
6. What moto rebuilds alike for every mock start and every call: infra/devstack/moto_overheads.py.
7. The 400 KB limit weighed once per write (infra/devstack/moto_item_size.py) and update
   expressions parsed once and validated without moto's repeated walks (moto_expressions.py);
   Query and Scan answer without a deep copy of their items (moto_reads.py)."""
from __future__ import annotations

import bisect
import copy
import threading
from typing import Any

from infra.devstack import moto_expressions, moto_item_size, moto_overheads, moto_reads

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
    moto_overheads.install()
    moto_item_size.install()
    moto_expressions.install()
    moto_reads.install()
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
    for name in ("put_item", "delete_item"):  # moto's writes below the backend (PartiQL, a rollback)
        setattr(Table, name, counting_writes(getattr(Table, name)))

    reading = threading.local()  # the window of the Query this thread runs, as (table, items)

    def partition_query(self: Any, hash_key: Any, *args: Any, **kwargs: Any) -> Any:
        window = query_window(self, hash_key, args, kwargs)
        if window is None:
            return whole_table_query(self, hash_key, *args, **kwargs)
        outer = getattr(reading, "window", None)
        reading.window = (self, window)
        try:
            return whole_table_query(self, hash_key, *args, **kwargs)
        finally:
            reading.window = outer

    def partition_items(self: Any) -> Any:
        current = getattr(reading, "window", None)
        if current is not None and current[0] is self:
            return current[1]
        return all_items(self)

    def query_window(self: Any, hash_key: Any, args: tuple[Any, ...], kwargs: dict[str, Any]) -> list[Any] | None:
        """The items to hand moto's Query so that it answers what it answers over the whole
        table, or None when moto must read the whole table (a case the window does not model)."""
        if len(args) > len(_QUERY_PARAMETERS) or set(kwargs) - set(_QUERY_PARAMETERS):
            return None  # QueryFilter/KeyConditions on non-key attributes: moto's own counting
        query = {**dict(zip(_QUERY_PARAMETERS, args, strict=False)), **kwargs}
        limit, forward = query.get("limit"), query.get("scan_index_forward", True)
        if type(forward) is not bool or (limit is not None and (type(limit) is not int or limit < 1)):
            return None
        range_conditions = query.get("range_key_conditions") or []
        if len(range_conditions) > 1:
            return None
        index_name = query.get("index_name")
        if index_name is None:
            if not self.range_key_attr or getattr(hash_key, "type", None) != "S" or any(
                    name != self.range_key_attr for name, _, _ in range_conditions):
                return None
            partition = base_partition(self, hash_key)
            attributes: tuple[str, ...] = (self.hash_key_attr, self.range_key_attr)
        else:
            index = next((i for i in self.all_indexes() if i.name == index_name), None)
            if index is None or not self.range_key_attr:
                return None  # (an unknown index: moto's refusal)
            hash_names = [k["AttributeName"] for k in index.schema if k["KeyType"] == "HASH"]
            range_names = [k["AttributeName"] for k in index.schema if k["KeyType"] == "RANGE"]
            conditions = query.get("hash_key_conditions") or []
            if (len(hash_names) != 1 or len(range_names) != 1 or len(conditions) != 1
                    or conditions[0][0] != hash_names[0] or conditions[0][1].type != "S"
                    or any(name != range_names[0] for name, _, _ in range_conditions)):
                return None
            groups = index_groups(self, hash_names[0], range_names[0])
            if groups is None:
                return None
            partition = groups.get(conditions[0][1].value, ([], [], []))
            attributes = (hash_names[0], range_names[0], self.hash_key_attr, self.range_key_attr)
        if partition is None:
            return None
        items, keys, sort_values = partition
        start = None
        if query.get("exclusive_start_key") is not None:
            start = _string_key(query["exclusive_start_key"], attributes)
            if start is None:
                return None
        span = _condition_span(sort_values, query.get("range_comparison"), query.get("range_objs") or [])
        if span is None:
            return None
        return _reachable(items, keys, span, limit, start, forward)

    def base_partition(self: Any, hash_key: Any) -> tuple[list[Any], list[tuple[str, ...]], list[str]] | None:
        """A table partition in moto's order for a Query (by the sort key), None unless every
        sort key is a string: built once per write."""
        cache = generation_cache(self)
        if (None, hash_key.value) not in cache:
            entries: list[Any] | None = []
            for item in (self.items.get(hash_key) or {}).values():
                sort = item.attrs.get(self.range_key_attr)
                if sort is None or sort.type != "S":
                    entries = None
                    break
                entries.append(((hash_key.value, sort.value), item))
            if entries is None:
                cache[(None, hash_key.value)] = None
            else:
                entries.sort(key=lambda entry: entry[0])
                cache[(None, hash_key.value)] = (
                    [item for _, item in entries], [key for key, _ in entries], [key[1] for key, _ in entries])
        return cache[(None, hash_key.value)]

    def index_groups(self: Any, hash_attribute: str, range_attribute: str) -> dict[str, Any] | None:
        """The index's partitions, each in moto's order for a Query: built once per write."""
        cache = generation_cache(self)
        if (hash_attribute, range_attribute) not in cache:
            items = (item for entry in self.items.values()
                     for item in (entry.values() if self.range_key_attr else [entry]))
            cache[(hash_attribute, range_attribute)] = _index_partitions(
                items, (hash_attribute, range_attribute, self.hash_key_attr, self.range_key_attr))
        return cache[(hash_attribute, range_attribute)]

    def generation_cache(self: Any) -> dict[Any, Any]:
        """The table's sorted partitions until the next write (faithful_dynamodb.py drops them
        too, as `_index_groups`, when it shows an index an older state)."""
        cache = getattr(self, "_index_groups", None)
        if cache is None or cache["generation"] != writes["generation"]:
            cache = self._index_groups = {"generation": writes["generation"]}
        return cache

    Table.query = partition_query  # type: ignore[method-assign]
    Table.all_items = partition_items  # type: ignore[method-assign]
    _installed = True


# --- Query windows (speed-ups 2 and 3) ------------------------------------------------------------
# moto's Table.query(hash_key, *these positionally, **the rest by name)
_QUERY_PARAMETERS = ("range_comparison", "range_objs", "limit", "exclusive_start_key", "scan_index_forward",
                     "projection_expressions", "index_name", "consistent_read", "filter_expression",
                     "hash_key_conditions", "range_key_conditions")
# moto refuses an item larger than this (its LimitedSizeDict)
_LARGEST_ITEM = 405_000


def _index_partitions(items: Any, attributes: tuple[str, str, str, str]) -> dict[str, Any] | None:
    """{index partition value: (items, their keys, their index sort values)}, each partition in
    the order moto queries it: by (index hash, index sort, table hash, table sort). The items
    without both index key attributes are not in the index. None when a key attribute is not a
    string (then moto's own comparisons are used)."""
    groups: dict[str, list[tuple[tuple[str, ...], Any]]] = {}
    for item in items:
        attrs = getattr(item, "attrs", None)
        if attrs is None or attrs.get(attributes[0]) is None or attrs.get(attributes[1]) is None:
            continue
        values = [attrs.get(name) for name in attributes]
        if any(value is None or value.type != "S" for value in values):
            return None
        key = tuple(value.value for value in values)
        groups.setdefault(key[0], []).append((key, item))
    partitions = {}
    for value, entries in groups.items():
        entries.sort(key=lambda entry: entry[0])
        partitions[value] = ([item for _, item in entries], [key for key, _ in entries],
                             [key[1] for key, _ in entries])
    return partitions


def _string_key(key: Any, attributes: tuple[str, ...]) -> tuple[str, ...] | None:
    """An ExclusiveStartKey as the tuple moto compares items with, None unless it holds every
    attribute as a string."""
    if not isinstance(key, dict):
        return None
    values = []
    for name in attributes:
        value = key.get(name)
        if not isinstance(value, dict) or list(value) != ["S"] or not isinstance(value["S"], str):
            return None
        values.append(value["S"])
    return tuple(values)


def _condition_span(sort_values: list[str], comparison: str | None, bounds: list[Any]) -> tuple[int, int] | None:
    """[low, high): the positions of the sorted sort values the key condition holds for (a
    condition on a string is an interval of them), None for a condition not modelled here."""
    if comparison is None:
        return 0, len(sort_values)
    if len(bounds) != (2 if comparison == "BETWEEN" else 1) or any(bound.type != "S" for bound in bounds):
        return None
    first = bounds[0].value
    if comparison == "=":
        return bisect.bisect_left(sort_values, first), bisect.bisect_right(sort_values, first)
    if comparison == "<":
        return 0, bisect.bisect_left(sort_values, first)
    if comparison == "<=":
        return 0, bisect.bisect_right(sort_values, first)
    if comparison == ">":
        return bisect.bisect_right(sort_values, first), len(sort_values)
    if comparison == ">=":
        return bisect.bisect_left(sort_values, first), len(sort_values)
    if comparison == "BETWEEN":  # a low bound over the high one holds for nothing
        return bisect.bisect_left(sort_values, first), bisect.bisect_right(sort_values, bounds[1].value)
    if comparison == "BEGINS_WITH":
        low = bisect.bisect_left(sort_values, first)
        return low, bisect.bisect_left(sort_values, True, lo=low, key=lambda value: not value.startswith(first))
    return None


def _reachable(items: list[Any], keys: list[tuple[str, ...]], span: tuple[int, int], limit: int | None,
               start: tuple[str, ...] | None, forward: bool) -> list[Any]:
    """What moto's Query loop over the whole partition (`items`, sorted, with their `keys`) sees.
    It passes over the items up to and including the start key (found or not), skips the items
    outside the key condition without counting them, and stops, with a LastEvaluatedKey, at the
    first item (inside the condition or not) met once `limit` items are in or that would take
    the page over 1 MB. So: the items inside the condition from the start key on, the first
    `limit` + 1 of them; or all of them and the item after them (in the direction read), and a
    later item that is too heavy for the page should there be one (moto sorts what it is given)."""
    from moto.dynamodb.models.table import RESULT_SIZE_LIMIT

    low, high = span
    if forward:
        first = max(low, bisect.bisect_right(keys, start) if start is not None else 0)
        if first >= high:
            return []
        if limit is not None and high - first > limit:
            return items[first:first + limit + 1]
        block, after = items[first:high], items[high:high + 1]
        later: Any = (items[position] for position in range(high + 1, len(items)))
    else:
        last = min(high, bisect.bisect_left(keys, start) if start is not None else len(items))
        if low >= last:
            return []
        if limit is not None and last - low > limit:
            return items[last - limit - 1:last]
        block, after = items[low:last], items[low - 1:low] if low else []
        later = (items[position] for position in range(low - 2, -1, -1))
    if after and (limit is None or len(block) < limit):  # moto weighs every later item too
        page = 0
        for item in block:
            page += item.size()
            if page > RESULT_SIZE_LIMIT:
                break  # the page ends inside the block
        else:
            if page + _LARGEST_ITEM > RESULT_SIZE_LIMIT:
                heavy = next((item for item in later if page + item.size() > RESULT_SIZE_LIMIT), None)
                after += [heavy] if heavy is not None else []
    return block + after


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
