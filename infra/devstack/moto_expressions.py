"""moto's UpdateExpression work at the cost of the expression, not of moto's way of walking it.

What an UpdateItem (alone or in a transaction) paid in moto, measured: the expression parsed two or
three times per call (the handler's checks, the backend, each a tokenizer and a recursive-descent
parser); the tree then deep-copied by the generic `copy.deepcopy`; then ten validating passes, each
a depth-first walk that rebuilt its processor's map of node kinds at every node; two of them
(`ActionCountValidator`, `OverlappingPathsValidator`) re-examining, at every clause node, all the
clauses beneath it. Here, with the same processors in the same order and the same answers:

1. A parsed expression is kept by its string (the tree is never changed in place: the validator
   works on its own copy), so a string is tokenized and parsed once per process. A string that
   does not parse is not kept: each call raises moto's error again.
2. The validator's copy of the tree is made node by node (each node's attributes, its children
   copied, parents pointing into the copy), as `deepcopy` made it.
3. Each pass asks its processor for the node kinds it handles once per walk, not once per node.
4. The two counting checks hold for every clause beneath a node whenever they hold for the whole
   expression (a part's clauses are some of the whole's), so they run once, on the root; only an
   expression that fails there is walked as moto walks it, so the error raised is moto's own.

tests/test_moto_expressions.py runs the app's expressions (collected from the suite) and malformed
ones against plain moto in a subprocess: the same answers, errors and items."""
from __future__ import annotations

import copy
from typing import Any

_CACHE_SIZE = 4096
_installed = False


def install() -> None:
    global _installed
    if _installed:
        return
    _parse_each_expression_once()
    _copy_trees_node_by_node()
    _walk_with_one_map()
    _count_clauses_on_the_root()
    _installed = True


def _parse_each_expression_once() -> None:
    from moto.dynamodb.parsing.expressions import UpdateExpressionParser

    make = UpdateExpressionParser.make.__func__  # type: ignore[attr-defined]
    parsed: dict[str, Any] = {}

    def make_once(cls: Any, expression_str: str) -> Any:
        if type(expression_str) is not str:
            return make(cls, expression_str)
        tree = parsed.get(expression_str)
        if tree is None:
            tree = make(cls, expression_str)
            if len(parsed) >= _CACHE_SIZE:
                parsed.clear()
            parsed[expression_str] = tree
        return tree

    UpdateExpressionParser.make = classmethod(make_once)  # type: ignore[method-assign, assignment]


def copied_tree(node: Any, memo: dict[int, Any] | None = None) -> Any:
    """What copy.deepcopy(node) makes of a parsed expression's tree, made directly."""
    from moto.dynamodb.parsing.ast_nodes import Node

    memo = {} if memo is None else memo

    def copied(value: Any) -> Any:
        if id(value) in memo:
            return memo[id(value)]
        if isinstance(value, Node):
            new = object.__new__(type(value))
            memo[id(value)] = new
            attributes = {name: (copied(part) if name != "children" else None) for name, part in vars(value).items()}
            children = value.children
            attributes["children"] = None if children is None else [copied(child) for child in children]
            new.__dict__.update(attributes)
            return new
        if value is None or type(value) in (str, int, bool):
            return value
        return copy.deepcopy(value, memo)

    return copied(node)


def _copy_trees_node_by_node() -> None:
    from moto.dynamodb.parsing import validators
    from moto.dynamodb.parsing.ast_nodes import Node

    def deepcopy(value: Any, memo: dict[int, Any] | None = None) -> Any:
        if isinstance(value, Node):
            return copied_tree(value, memo)
        return copy.deepcopy(value, memo)

    validators.deepcopy = deepcopy  # type: ignore[attr-defined]


def _walk_with_one_map() -> None:
    from moto.dynamodb.parsing.ast_nodes import DepthFirstTraverser, Node

    own = {name: getattr(DepthFirstTraverser, name) for name in
           ("nodes_to_be_processed", "process", "traverse_node_recursively", "pre_processing_of_child")}
    moto_traverse = DepthFirstTraverser.traverse

    def traverse(self: Any, node: Any) -> Any:
        kind = type(self)
        if any(getattr(kind, name) is not method for name, method in own.items()
               if name != "pre_processing_of_child"):
            return moto_traverse(self, node)  # a processor that walks its own way
        processors = list(self._processing_map().items())
        kinds = tuple(kind for kind, _ in processors)
        hook = self.pre_processing_of_child if kind.pre_processing_of_child is not own["pre_processing_of_child"] \
            else None

        def walk(node: Any, child_id: int) -> Any:
            if isinstance(node, Node):
                parent_node = node.parent
                if node.children is not None:
                    for position, child in enumerate(node.children):
                        if hook is not None:
                            hook(node, position)
                        walk(child, position)
                if isinstance(node, kinds):
                    node = next(processor for handled, processor in processors if isinstance(node, handled))(node)
                    node.parent = parent_node
                    if parent_node:
                        parent_node.children[child_id] = node
            return node

        return walk(node, -1)

    DepthFirstTraverser.traverse = traverse  # type: ignore[method-assign]


def _count_clauses_on_the_root() -> None:
    from moto.dynamodb.parsing.ast_nodes import DepthFirstTraverser, UpdateExpression
    from moto.dynamodb.parsing.validators import ActionCountValidator, OverlappingPathsValidator

    fast_traverse = DepthFirstTraverser.traverse

    def checked_on_the_root(check: str) -> Any:
        def traverse(self: Any, node: Any) -> Any:
            if not isinstance(node, UpdateExpression) or node.parent is not None:
                return fast_traverse(self, node)
            try:
                getattr(self, check)(node)  # the whole expression's clauses: those of every part among them
            except Exception:
                return fast_traverse(self, node)  # the error of the first part that fails, as moto raises it
            return node
        return traverse

    ActionCountValidator.traverse = checked_on_the_root("verify_action_counts")  # type: ignore[method-assign]
    OverlappingPathsValidator.traverse = checked_on_the_root(  # type: ignore[method-assign]
        "check_for_overlapping_paths")
