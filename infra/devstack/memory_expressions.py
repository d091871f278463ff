"""DynamoDB's expressions evaluated for the in-memory engine (infra/devstack/memory_dynamodb.py),
over items in DynamoDB's JSON form (`{"S": "x"}`, `{"N": "1.5"}`, `{"M": {...}}`), from the trees
memory_parsing.py makes.

What DynamoDB refuses is refused here with its error and message (a ValidationException): a
placeholder not defined, two update actions on overlapping paths, a key attribute updated, an
operand of the wrong type, a path into nothing. tests/test_memory_dynamodb.py replays the suite's
corpus of writes (tests/fixtures/moto_expression_corpus.json) here and on moto and compares the
items and the errors."""
from __future__ import annotations

import base64
from decimal import Context, Decimal
from typing import Any

from infra.devstack.faithful_values import shuffled, trimmed
from infra.devstack.memory_parsing import ExpressionError, Path

NUMBERS = Context(prec=38)  # DynamoDB's precision
_SETS = ("SS", "NS", "BS")


# --- reading -----------------------------------------------------------------------------------

class Scope:
    """The request's placeholders, resolved as an expression is evaluated."""

    def __init__(self, names: dict[str, str] | None, values: dict[str, Any] | None) -> None:
        self.names = names or {}
        self.values = values or {}

    def name(self, part: Any) -> Any:
        if isinstance(part, str) and part.startswith("#"):
            if part not in self.names:
                raise ExpressionError("An expression attribute name used in the document path is not defined; "
                                      f"attribute name: {part}")
            return self.names[part]
        return part

    def value(self, placeholder: str) -> Any:
        if placeholder not in self.values:
            raise ExpressionError("An expression attribute value used in expression is not defined; "
                                  f"attribute value: {placeholder}")
        return self.values[placeholder]

    def resolved(self, path: Path) -> tuple[Any, ...]:
        return tuple(self.name(part) for part in path)


def read_path(item: dict[str, Any] | None, path: tuple[Any, ...]) -> Any:
    """The value at a resolved path of an item, or None."""
    if item is None:
        return None
    current: Any = item.get(path[0])
    for part in path[1:]:
        if current is None:
            return None
        if isinstance(part, int):
            values = current.get("L")
            current = values[part] if values is not None and part < len(values) else None
        else:
            members = current.get("M")
            current = members.get(part) if members is not None else None
    return current


def holds(tree: Any, item: dict[str, Any] | None, scope: Scope) -> bool:
    """Whether a parsed condition holds on an item (None: no item)."""
    kind = tree[0]
    if kind == "and":
        return holds(tree[1], item, scope) and holds(tree[2], item, scope)
    if kind == "or":
        return holds(tree[1], item, scope) or holds(tree[2], item, scope)
    if kind == "not":
        return not holds(tree[1], item, scope)
    if kind == "compare":
        return _compare(tree[1], _operand_value(tree[2], item, scope), _operand_value(tree[3], item, scope))
    if kind == "between":
        value = _operand_value(tree[1], item, scope)
        low, high = _operand_value(tree[2], item, scope), _operand_value(tree[3], item, scope)
        return _compare(">=", value, low) and _compare("<=", value, high)
    if kind == "in":
        value = _operand_value(tree[1], item, scope)
        return any(_compare("=", value, _operand_value(option, item, scope)) for option in tree[2])
    return _function_holds(tree[1], tree[2], item, scope)


def _function_holds(name: str, arguments: tuple[Any, ...], item: dict[str, Any] | None, scope: Scope) -> bool:
    target = read_path(item, scope.resolved(arguments[0][1]))
    if name == "attribute_exists":
        return target is not None
    if name == "attribute_not_exists":
        return target is None
    operand = _operand_value(arguments[1], item, scope)
    if name == "attribute_type":
        return target is not None and operand is not None and next(iter(target)) == operand.get("S")
    if target is None or operand is None:
        return False
    target_type, target_value = next(iter(target.items()))
    operand_type, operand_value = next(iter(operand.items()))
    if name == "begins_with":
        if target_type != operand_type or target_type not in ("S", "B"):
            return False
        if target_type == "B":
            return bytes_of(target_value).startswith(bytes_of(operand_value))
        return bool(target_value.startswith(operand_value))
    # contains
    if target_type == "S" and operand_type == "S":
        return operand_value in target_value
    if target_type == "B" and operand_type == "B":
        return bytes_of(operand_value) in bytes_of(target_value)
    if target_type in _SETS and operand_type == target_type[0]:
        return any(_compare("=", {operand_type: member}, operand) for member in target_value)
    if target_type == "L":
        return any(_compare("=", member, operand) for member in target_value)
    return False


def _operand_value(operand: Any, item: dict[str, Any] | None, scope: Scope) -> Any:
    kind = operand[0]
    if kind == "value":
        return scope.value(operand[1])
    if kind == "path":
        return read_path(item, scope.resolved(operand[1]))
    value = read_path(item, scope.resolved(operand[1]))  # size
    if value is None:
        return None
    value_type, inner = next(iter(value.items()))
    if value_type == "S":
        return {"N": str(len(inner))}
    if value_type == "B":
        return {"N": str(len(bytes_of(inner)))}
    if value_type in (*_SETS, "L", "M"):
        return {"N": str(len(inner))}
    raise ExpressionError("Invalid ConditionExpression: Incorrect operand type for operator or function; "
                          f"operator or function: size, operand type: {value_type}")


def bytes_of(value: Any) -> bytes:
    return value if isinstance(value, bytes) else base64.b64decode(value)


def _compare(operator: str, left: Any, right: Any) -> bool:
    if operator == "=":
        return left is not None and right is not None and same_value(left, right)
    if operator == "<>":
        return not (left is not None and right is not None and same_value(left, right))
    if left is None or right is None:
        return False
    left_type, left_value = next(iter(left.items()))
    right_type, right_value = next(iter(right.items()))
    if left_type != right_type or left_type not in ("S", "N", "B"):
        return False
    a, b = sort_value(left_type, left_value), sort_value(right_type, right_value)
    return bool(a < b if operator == "<" else a <= b if operator == "<=" else a > b if operator == ">" else a >= b)


def sort_value(value_type: str, value: Any) -> Any:
    if value_type == "N":
        return Decimal(value)
    if value_type == "B":
        return bytes_of(value)
    return value


def same_value(left: dict[str, Any], right: dict[str, Any]) -> bool:
    left_type, left_value = next(iter(left.items()))
    right_type, right_value = next(iter(right.items()))
    if left_type != right_type:
        return False
    if left_type == "N":
        return Decimal(left_value) == Decimal(right_value)
    if left_type == "B":
        return bytes_of(left_value) == bytes_of(right_value)
    if left_type == "NS":
        return {Decimal(number) for number in left_value} == {Decimal(number) for number in right_value}
    if left_type in ("SS", "BS"):
        return set(left_value) == set(right_value)
    if left_type == "L":
        return len(left_value) == len(right_value) and all(map(same_value, left_value, right_value))
    if left_type == "M":
        return left_value.keys() == right_value.keys() and all(
            same_value(member, right_value[name]) for name, member in left_value.items())
    return bool(left_value == right_value)


def copied(value: Any) -> Any:
    """A value of an item, shared with nothing (its maps and lists new)."""
    if isinstance(value, dict):
        return {name: copied(member) for name, member in value.items()}
    if isinstance(value, list):
        return [copied(member) for member in value]
    return value


def stored(value: dict[str, Any]) -> dict[str, Any]:
    """A value as DynamoDB keeps it: numbers trimmed, maps in its own order (faithful_values)."""
    value_type, inner = next(iter(value.items()))
    if value_type == "N":
        return {"N": trimmed(inner)}
    if value_type == "NS":
        return {"NS": [trimmed(number) for number in inner]}
    if value_type == "M":
        return {"M": shuffled({name: stored(member) for name, member in inner.items()})}
    if value_type == "L":
        return {"L": [stored(member) for member in inner]}
    return value


# --- updates --------------------------------------------------------------------------------------

def checked_paths(actions: tuple[Any, ...], scope: Scope, key_names: tuple[str, ...]) -> None:
    """What DynamoDB refuses of an update before reading the item: names not defined, two actions on
    overlapping paths, an action on a key attribute."""
    paths = [scope.resolved(action[1]) for action in actions]
    _no_overlap(paths)
    for path in paths:
        if path[0] in key_names:
            raise ExpressionError(f"One or more parameter values were invalid: Cannot update attribute {path[0]}. "
                                  "This attribute is part of the key")


def _no_overlap(paths: list[tuple[Any, ...]]) -> None:
    for index, path in enumerate(paths):
        for other in paths[index + 1:]:
            shorter = min(len(path), len(other))
            if path[:shorter] == other[:shorter]:
                raise ExpressionError("Invalid UpdateExpression: Two document paths overlap with each other; must "
                                      "remove or rewrite one of these paths; path one: "
                                      f"[{', '.join(map(str, path))}], path two: [{', '.join(map(str, other))}]")


def apply_update(actions: tuple[Any, ...], item: dict[str, Any], scope: Scope) -> set[str]:
    """Applies parsed update actions to `item` in place (every operand read from the item as it was
    before the update); returns the top-level attributes touched."""
    before = dict(item)
    planned: list[tuple[str, tuple[Any, ...], Any]] = []
    for action, path, operand in actions:
        resolved = scope.resolved(path)
        if action == "SET":
            planned.append(("SET", resolved, _set_result(operand, before, scope)))
        elif action == "REMOVE":
            planned.append(("REMOVE", resolved, None))
        else:
            planned.append((action, resolved, _added(action, read_path(before, resolved), scope.value(operand[1]))))
    # list positions removed from the last, so that each names the element it named before
    removals = sorted((plan for plan in planned if plan[0] == "REMOVE"), key=lambda plan: plan[1], reverse=True)
    for action, path, result in [plan for plan in planned if plan[0] != "REMOVE"] + removals:
        if action == "REMOVE" or (action == "DELETE" and result is None):
            _remove(item, path)
        else:
            _write(item, path, result)
    return {plan[1][0] for plan in planned}


def _set_result(operand: Any, item: dict[str, Any], scope: Scope) -> dict[str, Any]:
    kind = operand[0]
    if kind == "value":
        return stored(scope.value(operand[1]))
    if kind == "path":
        found = read_path(item, scope.resolved(operand[1]))
        if found is None:
            raise ExpressionError("The provided expression refers to an attribute that does not exist in the item")
        kept: dict[str, Any] = copied(found)
        return kept
    if kind == "if_not_exists":
        found = read_path(item, scope.resolved(operand[1]))
        return copied(found) if found is not None else _set_result(operand[2], item, scope)
    if kind == "list_append":
        first, second = _set_result(operand[1], item, scope), _set_result(operand[2], item, scope)
        if "L" not in first or "L" not in second:
            raise ExpressionError("Invalid UpdateExpression: Incorrect operand type for operator or function; "
                                  "operator or function: list_append, operand type: "
                                  f"{next(iter(first if 'L' not in first else second))}")
        return {"L": first["L"] + second["L"]}
    left, right = _set_result(operand[2], item, scope), _set_result(operand[3], item, scope)
    if "N" not in left or "N" not in right:
        raise ExpressionError("An operand in the update expression has an incorrect data type")
    left_number, right_number = Decimal(left["N"]), Decimal(right["N"])
    result = NUMBERS.add(left_number, right_number) if operand[1] == "+" else NUMBERS.subtract(left_number, right_number)
    return {"N": trimmed(str(result))}


def _added(action: str, current: Any, operand: dict[str, Any]) -> Any:
    operand_type, operand_value = next(iter(operand.items()))
    if action == "ADD":
        if operand_type == "N":
            if current is None:
                return {"N": trimmed(operand_value)}
            if "N" not in current:
                raise ExpressionError("An operand in the update expression has an incorrect data type")
            return {"N": trimmed(str(NUMBERS.add(Decimal(current["N"]), Decimal(operand_value))))}
        if operand_type not in _SETS:
            raise ExpressionError("Invalid UpdateExpression: Incorrect operand type for operator or function; "
                                  f"operator: ADD, operand type: {_type_name(operand_type)}")
        if current is None:
            return stored(operand)
        if operand_type not in current:
            raise ExpressionError("An operand in the update expression has an incorrect data type")
        return stored({operand_type: _set_union(operand_type, current[operand_type], operand_value)})
    if operand_type not in _SETS:
        raise ExpressionError("Invalid UpdateExpression: Incorrect operand type for operator or function; "
                              f"operator: DELETE, operand type: {_type_name(operand_type)}")
    if current is None:
        return None
    if operand_type not in current:
        raise ExpressionError("An operand in the update expression has an incorrect data type")
    left = _set_difference(operand_type, current[operand_type], operand_value)
    return {operand_type: left} if left else None


def _type_name(value_type: str) -> str:
    return {"S": "STRING", "N": "NUMBER", "B": "BINARY", "M": "MAP", "L": "LIST", "BOOL": "BOOLEAN",
            "NULL": "NULL"}.get(value_type, value_type)


def _set_union(set_type: str, current: list[Any], more: list[Any]) -> list[Any]:
    union = list(current)
    for member in more:
        if not any(same_value({set_type[0]: member}, {set_type[0]: kept}) for kept in union):
            union.append(member)
    return union


def _set_difference(set_type: str, current: list[Any], less: list[Any]) -> list[Any]:
    return [member for member in current
            if not any(same_value({set_type[0]: member}, {set_type[0]: gone}) for gone in less)]


def _invalid_path() -> ExpressionError:
    return ExpressionError("The document path provided in the update expression is invalid for update")


def _write(item: dict[str, Any], path: tuple[Any, ...], value: dict[str, Any]) -> None:
    if len(path) == 1:
        item[path[0]] = value
        return
    parent = read_path(item, path[:-1])
    last = path[-1]
    if isinstance(last, int):
        if parent is None or "L" not in parent:
            raise _invalid_path()
        if last < len(parent["L"]):
            parent["L"][last] = value
        else:
            parent["L"].append(value)
        return
    if parent is None or "M" not in parent:
        raise _invalid_path()
    parent["M"][last] = value


def _remove(item: dict[str, Any], path: tuple[Any, ...]) -> None:
    if len(path) == 1:
        item.pop(path[0], None)
        return
    parent = read_path(item, path[:-1])
    last = path[-1]
    if isinstance(last, int):
        if parent is not None and "L" in parent and last < len(parent["L"]):
            del parent["L"][last]
    elif parent is not None and "M" in parent:
        parent["M"].pop(last, None)


def projected(item: dict[str, Any], paths: list[tuple[Any, ...]]) -> dict[str, Any]:
    """The parts of an item a projection names (a nested path keeps its enclosing maps and lists)."""
    kept: dict[str, Any] = {}
    for path in paths:
        value = read_path(item, path)
        if value is None:
            continue
        if len(path) == 1:
            kept[path[0]] = value
            continue
        _graft(kept, item, path, value)
    return kept


def _graft(kept: dict[str, Any], item: dict[str, Any], path: tuple[Any, ...], value: Any) -> None:
    container: Any = kept
    source: Any = item
    for depth, part in enumerate(path[:-1]):
        source = source[part] if depth == 0 else (source["M"][part] if isinstance(part, str) else source["L"][part])
        kind = "M" if "M" in source else "L"
        holder = container if depth == 0 else container[kind]
        if isinstance(holder, dict):
            holder.setdefault(part, {kind: {} if kind == "M" else []})
            container = holder[part]
        else:
            holder.append({kind: {} if kind == "M" else []})
            container = holder[-1]
    last = path[-1]
    if isinstance(last, int):
        container["L"].append(value)
    else:
        container["M"][last] = value
