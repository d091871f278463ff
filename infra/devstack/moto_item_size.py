"""DynamoDB's 400 KB item limit, checked once per write instead of once per attribute.

moto keeps an item's attributes in a `LimitedSizeDict` whose every `__setitem__` adds up the size
of the whole item again (each attribute, each nested value) before taking one more attribute: an
item of n attributes costs n² sizes to make, and every item put, every attribute an update sets,
pays it. Here the dict is a plain dict and the limit is checked where a write ends, on the item as
written, which is what DynamoDB refuses ("Item size has exceeded the maximum allowed size"):

- an item made whole (PutItem, a transaction's Put, BatchWriteItem's put, an import): refused
  when its size is over the limit, exactly when moto refused it (the sizes of its attributes
  only add up, so the last sum moto made is the whole item's);
- an update (UpdateExpression or AttributeUpdates): the item as updated is weighed once, after
  its actions; over the limit, the attributes the update touched are put back as they were and
  moto's "Item size to update has exceeded the maximum allowed size" is raised. Where moto
  differed from DynamoDB, this follows DynamoDB: moto counted an attribute being replaced twice
  (its old and its new value: an update of an item near the limit was refused that DynamoDB takes),
  never weighed a value set inside a map or a list (SET m.x = :big grew an item past the limit),
  and left an update refused half-way applied.
- A value's size is worked out without moto's copies of every nested value (moto's `size`
  wrapped each map entry in a new DynamoType, copying its subtree, at every level).

tests/test_moto_expressions.py proves the sizes equal to moto's and the limit refused as DynamoDB
refuses it."""
from __future__ import annotations

import copy
from typing import Any

LIMIT = 405_000  # moto's limit: between DynamoDB's documented 400 KB and the 409-410 KB measured
_MISSING = object()
_installed = False


def install() -> None:
    global _installed
    if _installed:
        return
    from moto.dynamodb.exceptions import ItemSizeTooLarge
    from moto.dynamodb.models.dynamo_type import DynamoType, Item, LimitedSizeDict
    from moto.dynamodb.parsing.executors import UpdateExpressionExecutor

    whole_size = DynamoType.size

    def size(self: Any) -> int:
        kind, value = self.type, self.value
        if kind == "S" or kind == "B":
            return len(value if isinstance(value, bytes) else value.encode("utf-8"))
        if kind == "N":
            return len(str(value))
        if kind == "M":
            return sum(len(name.encode("utf-8")) + (entry.size() if type(entry) is DynamoType
                                                    else DynamoType(entry).size())
                       for name, entry in value.items())
        if kind == "L":
            return sum(entry.size() for entry in value)
        return int(whole_size(self))  # sets, BOOL, NULL: as moto weighs them

    DynamoType.size = size  # type: ignore[method-assign]
    LimitedSizeDict.__setitem__ = dict.__setitem__  # type: ignore[assignment, method-assign]

    make_item = Item.__init__

    def item_weighed(self: Any, hash_key: Any, range_key: Any, attrs: dict[str, Any]) -> None:
        make_item(self, hash_key, range_key, attrs)
        if self.size() > LIMIT:
            raise ItemSizeTooLarge

    Item.__init__ = item_weighed  # type: ignore[method-assign]

    execute = UpdateExpressionExecutor.execute

    def execute_weighed(self: Any, node: Any = None) -> None:
        if node is not None:  # a step of the update: the whole one is weighed at its end
            execute(self, node)
            return
        attrs = self.item.attrs
        touched = _touched_attributes(self.update_ast, self.expression_attribute_names or {})
        before = _kept(attrs, touched if touched is not None else list(attrs))
        try:
            execute(self)
            if self.item.size() > LIMIT:
                raise ItemSizeTooLarge
        except Exception:
            _put_back(attrs, before, touched is None)
            raise

    UpdateExpressionExecutor.execute = execute_weighed  # type: ignore[method-assign]

    attribute_updates = Item.update_with_attribute_updates

    def attribute_updates_weighed(self: Any, updates: dict[str, Any]) -> None:
        before = _kept(self.attrs, list(updates))
        try:
            attribute_updates(self, updates)
            if self.size() > LIMIT:
                raise ItemSizeTooLarge
        except Exception:
            _put_back(self.attrs, before, False)
            raise

    Item.update_with_attribute_updates = attribute_updates_weighed  # type: ignore[method-assign]
    _installed = True


def _touched_attributes(update_ast: Any, names: dict[str, str]) -> set[str] | None:
    """The item's top-level attributes the update's actions write (their paths' first names), or
    None when one cannot be told (then the whole item is kept for putting back)."""
    from moto.dynamodb.parsing.ast_nodes import (
        ExpressionAttribute,
        ExpressionAttributeName,
        UpdateExpressionAddAction,
        UpdateExpressionDeleteAction,
        UpdateExpressionRemoveAction,
        UpdateExpressionSetAction,
    )

    touched = set()
    for action in update_ast.find_clauses([UpdateExpressionSetAction, UpdateExpressionAddAction,
                                           UpdateExpressionRemoveAction, UpdateExpressionDeleteAction]):
        first = action.children[0].children[0] if action.children and action.children[0].children else None
        if type(first) is ExpressionAttributeName and first.get_attribute_name_placeholder() in names:
            touched.add(names[first.get_attribute_name_placeholder()])
        elif type(first) is ExpressionAttribute:
            touched.add(first.get_attribute_name())
        else:
            return None
    return touched


def _kept(attrs: dict[str, Any], names: Any) -> dict[str, Any]:
    return {name: copy.deepcopy(attrs[name]) if name in attrs else _MISSING for name in names}


def _put_back(attrs: dict[str, Any], before: dict[str, Any], whole: bool) -> None:
    if whole:
        attrs.clear()
    for name, value in before.items():
        if value is _MISSING:
            attrs.pop(name, None)
        else:
            attrs[name] = value
