"""The item operations of the in-memory engine (infra/devstack/memory_dynamodb.py), each answering
the JSON DynamoDB answers, or raising its error. Called under the engine's lock."""
from __future__ import annotations

from typing import Any, Callable

from infra.devstack.memory_dynamodb import (
    PAGE_BYTES,
    DynamoDBError,
    ItemKey,
    MemoryEngine,
    MemoryTable,
    _invalid,
    checked_size,
    condition_holds,
    item_size,
    new_item,
    parsed_expressions,
    projection_of,
    read_key,
    remembered_token,
    scope_of,
    segment_of,
)
from infra.devstack.memory_expressions import apply_update, checked_paths, copied, holds, sort_value
from infra.devstack.memory_parsing import Parsed
from infra.devstack.moto_item_size import LIMIT as ITEM_LIMIT

_CONDITION_FAILED = "The conditional request failed"
_MAX_TRANSACTION_ITEMS = 100


def _failed_condition(params: dict[str, Any], item: dict[str, Any] | None) -> DynamoDBError:
    fields = {"Item": item} if item is not None and params.get("ReturnValuesOnConditionCheckFailure") == "ALL_OLD" else {}
    return DynamoDBError("ConditionalCheckFailedException", _CONDITION_FAILED, **fields)


def _returned(params: dict[str, Any], old: dict[str, Any] | None, new: dict[str, Any] | None,
              touched: set[str] = frozenset()) -> dict[str, Any]:  # type: ignore[assignment]
    wanted = params.get("ReturnValues", "NONE")
    chosen = {"ALL_OLD": old, "ALL_NEW": new, "UPDATED_OLD": old, "UPDATED_NEW": new}.get(wanted)
    if not chosen:
        return {}
    if wanted.startswith("UPDATED"):
        chosen = {name: value for name, value in chosen.items() if name in touched}
        if not chosen:
            return {}
    return {"Attributes": chosen}


# --- single items ---------------------------------------------------------------------------------

def get_item(engine: MemoryEngine, params: dict[str, Any], describe: Any) -> dict[str, Any]:
    table = engine.table(params["TableName"], describe)
    parsed = parsed_expressions(params)
    item = table.items.get(table.key_of(params["Key"]))
    return {"Item": projection_of(params, parsed, item)} if item is not None else {}


def _planned_put(table: MemoryTable, params: dict[str, Any]) -> tuple[ItemKey, dict[str, Any] | None, dict[str, Any]]:
    item = new_item(params)
    key = table.key_of_item(item)
    table.check_index_keys(item)
    checked_size(item)
    return key, table.items.get(key), item


def _planned_update(table: MemoryTable, params: dict[str, Any], parsed: dict[str, Parsed]
                    ) -> tuple[ItemKey, dict[str, Any] | None, dict[str, Any], set[str]]:
    if "UpdateExpression" not in parsed:
        raise _invalid("This memory engine answers UpdateItem only with an UpdateExpression")
    key = table.key_of(params["Key"])
    old = table.items.get(key)
    scope = scope_of(params)
    new = copied(old) if old is not None else dict(params["Key"])
    touched = apply_update(parsed["UpdateExpression"].tree, new, scope)
    table.check_index_keys(new)
    return key, old, new, touched


def put_item(engine: MemoryEngine, params: dict[str, Any], describe: Any) -> dict[str, Any]:
    table = engine.table(params["TableName"], describe)
    parsed = parsed_expressions(params)
    key, old, item = _planned_put(table, params)
    if not condition_holds(params, parsed, old):
        raise _failed_condition(params, old)
    table.write(key, item)
    return _returned(params, old, None)


def update_item(engine: MemoryEngine, params: dict[str, Any], describe: Any) -> dict[str, Any]:
    table = engine.table(params["TableName"], describe)
    parsed = parsed_expressions(params)
    key = table.key_of(params["Key"])
    if "UpdateExpression" in parsed:
        checked_paths(parsed["UpdateExpression"].tree, scope_of(params), table.key_names())
    if not condition_holds(params, parsed, table.items.get(key)):
        raise _failed_condition(params, table.items.get(key))
    key, old, new, touched = _planned_update(table, params, parsed)
    checked_size(new, "Item size to update has exceeded the maximum allowed size")
    table.write(key, new)
    return _returned(params, old, table.items[key], touched)


def delete_item(engine: MemoryEngine, params: dict[str, Any], describe: Any) -> dict[str, Any]:
    table = engine.table(params["TableName"], describe)
    parsed = parsed_expressions(params)
    key = table.key_of(params["Key"])
    old = table.items.get(key)
    if not condition_holds(params, parsed, old):
        raise _failed_condition(params, old)
    table.write(key, None)
    return _returned(params, old, None)


# --- queries --------------------------------------------------------------------------------------

def _key_condition(table: MemoryTable, index: str | None, parsed: Parsed, params: dict[str, Any]
                   ) -> tuple[Any, Callable[[dict[str, Any]], bool] | None]:
    """The partition value a KeyConditionExpression names, and its test of the sort key."""
    scope = scope_of(params)
    hash_name, range_name = table.key_names(index)[0], (table.key_names(index) + (None,))[1]
    parts = [parsed.tree]
    while parts[0][0] == "and":
        parts = [parts[0][1], parts[0][2]] + parts[1:]
    partition, sort_test = None, None
    for part in parts:
        path = _attribute_of(part)
        attribute = scope.name(path[0]) if path else None
        if part[0] == "compare" and part[1] == "=" and attribute == hash_name and partition is None:
            partition = scope.value(part[3][1])
        elif attribute == range_name and range_name is not None and sort_test is None and part[0] in (
                "compare", "between", "function") and (part[0] != "function" or part[1] == "begins_with"):
            sort_test = _sort_test(part, scope)
        else:
            raise _invalid("Query condition missed key schema element" if attribute is None or attribute not in (
                hash_name, range_name) else "Invalid KeyConditionExpression: the key condition is not supported")
    if partition is None:
        raise _invalid(f"Query condition missed key schema element: {hash_name}")
    return next(iter(partition.items())), sort_test


def _attribute_of(part: Any) -> tuple[Any, ...] | None:
    if part[0] == "compare" or part[0] == "between":
        operand = part[2] if part[0] == "compare" else part[1]
        return tuple(operand[1]) if operand[0] == "path" else None
    if part[0] == "function":
        return tuple(part[2][0][1])
    return None


def _sort_test(part: Any, scope: Any) -> Callable[[dict[str, Any]], bool]:
    def test(item: dict[str, Any]) -> bool:
        return holds(part, item, scope)
    return test


def query(engine: MemoryEngine, params: dict[str, Any], describe: Any) -> dict[str, Any]:
    table = engine.table(params["TableName"], describe)
    index = params.get("IndexName")
    if index is not None and index not in table.indexes:
        raise _invalid("The table does not have the specified index: " + index)
    if index is not None and params.get("ConsistentRead"):
        raise _invalid("Consistent reads are not supported on global secondary indexes")
    parsed = parsed_expressions(params)
    if "KeyConditionExpression" not in parsed:
        raise _invalid("Either the KeyConditions or KeyConditionExpression parameter must be specified in the request.")
    partition, sort_test = _key_condition(table, index, parsed["KeyConditionExpression"], params)
    key_names = table.key_names(index)
    if "FilterExpression" in parsed:
        scope = scope_of(params)
        for name in _paths_named(parsed["FilterExpression"].tree):
            if scope.name(name) in key_names:
                raise _invalid("Filter Expression can only contain non-primary key attributes: "
                               f"Primary key attribute: {scope.name(name)}")
    keys = [key for key in table.partition(index, partition)
            if sort_test is None or sort_test(table.items[key])]
    if not params.get("ScanIndexForward", True):
        keys.reverse()
    if "ExclusiveStartKey" in params:
        keys = _after_start(table, index, keys, params["ExclusiveStartKey"], params.get("ScanIndexForward", True),
                            partition)
    return _page(table, index, keys, params, parsed)


def _paths_named(tree: Any) -> list[str]:
    names: list[str] = []
    if isinstance(tree, tuple):
        if tree and tree[0] == "path":
            names.append(tree[1][0])
        else:
            for part in tree:
                names += _paths_named(part)
    return names


def _start_position(table: MemoryTable, index: str | None, start: dict[str, Any]) -> tuple[Any, ...]:
    wanted = set(table.key_names()) | set(table.key_names(index))
    if set(start) != wanted:
        raise _invalid("The provided starting key is invalid: The provided key element does not match the schema")
    for name in wanted:
        value_type = next(iter(start[name]))
        if value_type != table.types.get(name, value_type):
            raise _invalid("The provided starting key is invalid: The provided key element does not match the schema")
    index_keys = [next(iter(start[name].items())) for name in table.key_names(index)[1:]]
    return (tuple(sort_value(*value) for value in index_keys),
            tuple(sort_value(*next(iter(start[name].items()))) for name in table.key_names()))


def _position(table: MemoryTable, index: str | None, key: ItemKey) -> tuple[Any, ...]:
    item = table.items[key]
    index_keys = [next(iter(item[name].items())) for name in table.key_names(index)[1:]]
    return (tuple(sort_value(*value) for value in index_keys), tuple(sort_value(*value) for value in key))


def _after_start(table: MemoryTable, index: str | None, keys: list[ItemKey], start: dict[str, Any],
                 forward: bool, partition: Any) -> list[ItemKey]:
    position = _start_position(table, index, start)
    hash_name = table.key_names(index)[0]
    if partition is not None and next(iter(start[hash_name].items())) != tuple(partition):
        raise _invalid("The provided starting key is outside query boundaries based on provided conditions")
    return [key for key in keys if (_position(table, index, key) > position) == forward
            and _position(table, index, key) != position]


def _page(table: MemoryTable, index: str | None, keys: list[ItemKey], params: dict[str, Any],
          parsed: dict[str, Parsed]) -> dict[str, Any]:
    limit = params.get("Limit")
    scope = scope_of(params)
    selected: list[dict[str, Any]] = []
    scanned, read_bytes, last = 0, 0, None
    for position, key in enumerate(keys):
        item = table.index_view(index, table.items[key])
        scanned += 1
        read_bytes += item_size(item)
        if "FilterExpression" not in parsed or holds(parsed["FilterExpression"].tree, item, scope):
            selected.append(projection_of(params, parsed, item))
        # DynamoDB stops at the limit (or 1 MB) and gives where it stopped, whether or not more follow
        if (limit is not None and scanned >= limit) or (read_bytes >= PAGE_BYTES and position + 1 < len(keys)):
            last = read_key(item, tuple(dict.fromkeys(table.key_names() + table.key_names(index))))
            break
    answer: dict[str, Any] = {"Count": len(selected), "ScannedCount": scanned}
    if params.get("Select") != "COUNT":
        answer["Items"] = selected
    if last is not None:
        answer["LastEvaluatedKey"] = last
    return answer


def scan(engine: MemoryEngine, params: dict[str, Any], describe: Any) -> dict[str, Any]:
    table = engine.table(params["TableName"], describe)
    index = params.get("IndexName")
    parsed = parsed_expressions(params)
    keys = sorted(table.items, key=lambda key: tuple(sort_value(*value) for value in key))
    if index is not None:
        names = table.key_names(index)
        keys = [key for key in keys if all(name in table.items[key] for name in names)]
    total = params.get("TotalSegments")
    if total is not None:
        keys = [key for key in keys if segment_of(key, total) == params.get("Segment", 0)]
    if "ExclusiveStartKey" in params:
        start = tuple(sort_value(*next(iter(params["ExclusiveStartKey"][name].items()))) for name in table.key_names())
        keys = [key for key in keys if tuple(sort_value(*value) for value in key) > start]
    return _page(table, index, keys, params, parsed)


# --- batches --------------------------------------------------------------------------------------

def batch_get_item(engine: MemoryEngine, params: dict[str, Any], describe: Any) -> dict[str, Any]:
    responses: dict[str, list[dict[str, Any]]] = {}
    requested = sum(len(request["Keys"]) for request in params["RequestItems"].values())
    if requested > 100:
        raise _invalid("Too many items requested for the BatchGetItem call")
    for name, request in params["RequestItems"].items():
        table = engine.table(name, describe)
        parsed = parsed_expressions(request)
        keys = [table.key_of(key) for key in request["Keys"]]
        if len(set(keys)) != len(keys):
            raise _invalid("Provided list of item keys contains duplicates")
        found = [table.items[key] for key in keys if key in table.items]
        responses[name] = [projection_of(request, parsed, item) for item in found]
    return {"Responses": responses, "UnprocessedKeys": {}}


def batch_write_item(engine: MemoryEngine, params: dict[str, Any], describe: Any) -> dict[str, Any]:
    planned: list[tuple[MemoryTable, ItemKey, dict[str, Any] | None]] = []
    for name, requests in params["RequestItems"].items():
        table = engine.table(name, describe)
        for request in requests:
            if "PutRequest" in request:
                item = new_item(request["PutRequest"])
                key = table.key_of_item(item)
                table.check_index_keys(item)
                checked_size(item)
                planned.append((table, key, item))
            else:
                planned.append((table, table.key_of(request["DeleteRequest"]["Key"]), None))
    if len(planned) > 25:
        raise _invalid("Too many items requested for the BatchWriteItem call")
    if len({(table.name, key) for table, key, _ in planned}) != len(planned):
        raise _invalid("Provided list of item keys contains duplicates")
    for table, key, written in planned:
        table.write(key, written)
    return {"UnprocessedItems": {}}


# --- transactions ---------------------------------------------------------------------------------

def transact_write_items(engine: MemoryEngine, params: dict[str, Any], describe: Any) -> dict[str, Any]:
    operations = params["TransactItems"]
    if len(operations) > _MAX_TRANSACTION_ITEMS:
        raise _invalid("1 validation error detected: Value at 'transactItems' failed to satisfy constraint: "
                       "Member must have length less than or equal to 100")
    planned: list[tuple[MemoryTable, ItemKey, dict[str, Any] | None, dict[str, Any], dict[str, Parsed], str]] = []
    for operation in operations:
        kind, body = next(iter(operation.items()))
        table = engine.table(body["TableName"], describe)
        parsed = parsed_expressions(body)
        if kind == "Put":
            key = table.key_of_item(new_item(body))
        else:
            key = table.key_of(body["Key"])
        if "UpdateExpression" in parsed:  # (refused before any condition is evaluated, as UpdateItem's)
            checked_paths(parsed["UpdateExpression"].tree, scope_of(body), table.key_names())
        planned.append((table, key, table.items.get(key), body, parsed, kind))
    if len({(table.name, key) for table, key, *_ in planned}) != len(planned):
        raise _invalid("Transaction request cannot include multiple operations on one item")
    if remembered_token(engine, params.get("ClientRequestToken"), operations):
        return {}
    reasons: list[dict[str, Any]] = []
    writes: list[tuple[MemoryTable, ItemKey, dict[str, Any] | None]] = []
    for table, key, old, body, parsed, kind in planned:
        if not condition_holds(body, parsed, old):
            reason: dict[str, Any] = {"Code": "ConditionalCheckFailed", "Message": _CONDITION_FAILED}
            if old is not None and body.get("ReturnValuesOnConditionCheckFailure") == "ALL_OLD":
                reason["Item"] = old
            reasons.append(reason)
            continue
        new: dict[str, Any] | None = None
        if kind == "Put":
            _, _, new = _planned_put(table, body)
        elif kind == "Update":
            _, _, new, _ = _planned_update(table, body, parsed)
        if new is not None and item_size(new) > ITEM_LIMIT:
            reasons.append({"Code": "ValidationError", "Message": "Item size has exceeded the maximum allowed size"})
            continue
        reasons.append({"Code": "None"})
        if kind != "ConditionCheck":
            writes.append((table, key, new))
    if any(reason["Code"] != "None" for reason in reasons):
        engine.tokens.pop(params.get("ClientRequestToken") or "", None)
        message = ("Transaction cancelled, please refer cancellation reasons for specific reasons "
                   f"[{', '.join(reason['Code'] for reason in reasons)}]")
        raise DynamoDBError("TransactionCanceledException", message, Message=message, CancellationReasons=reasons)
    for table, key, new in writes:
        table.write(key, new)
    return {}


def transact_get_items(engine: MemoryEngine, params: dict[str, Any], describe: Any) -> dict[str, Any]:
    responses = []
    for operation in params["TransactItems"]:
        body = operation["Get"]
        table = engine.table(body["TableName"], describe)
        parsed = parsed_expressions(body)
        item = table.items.get(table.key_of(body["Key"]))
        responses.append({"Item": projection_of(body, parsed, item)} if item is not None else {})
    return {"Responses": responses}


OPERATIONS: dict[str, Callable[[MemoryEngine, dict[str, Any], Any], dict[str, Any]]] = {
    "GetItem": get_item, "PutItem": put_item, "UpdateItem": update_item, "DeleteItem": delete_item,
    "Query": query, "Scan": scan, "BatchGetItem": batch_get_item, "BatchWriteItem": batch_write_item,
    "TransactWriteItems": transact_write_items, "TransactGetItems": transact_get_items,
}
