"""DynamoDB's expressions parsed for the in-memory engine (infra/devstack/memory_dynamodb.py):
condition, filter and key-condition expressions, update expressions and projections, each text
once, into trees of tuples that memory_expressions.py evaluates. A syntax error, a reserved word
used as a name or an unknown function is refused as DynamoDB refuses it (a ValidationException)."""
from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

COMPARATORS = ("=", "<>", "<=", ">=", "<", ">")
_TOKEN = re.compile(r"\s*(?:(?P<name>#[A-Za-z0-9_]+)|(?P<value>:[A-Za-z0-9_]+)|(?P<number>\d+)"
                    r"|(?P<word>[A-Za-z_][A-Za-z0-9_]*)|(?P<symbol><>|<=|>=|[=<>(),.\[\]+-]))")


class ExpressionError(Exception):
    """What DynamoDB answers with a ValidationException."""


@lru_cache(maxsize=1)
def _reserved_words() -> frozenset[str]:
    from moto.dynamodb.parsing.reserved_keywords import ReservedKeywords

    return frozenset(word.upper() for word in ReservedKeywords.get_reserved_keywords())


# --- the parsed forms ----------------------------------------------------------------------------

Path = tuple[Any, ...]  # names ("#n" or a bare name) and list positions (int)


@dataclass(frozen=True)
class Parsed:
    """A parsed expression: its tree and the placeholders it uses."""
    tree: Any
    names: frozenset[str]
    values: frozenset[str]


class _Tokens:
    def __init__(self, text: str, kind: str) -> None:
        self.kind = kind
        self.items: list[tuple[str, str]] = []
        position = 0
        text = text.rstrip()
        while position < len(text):
            found = _TOKEN.match(text, position)
            if not found or found.end() == position:
                raise ExpressionError(f"Invalid {kind}: Syntax error; token: \"{text[position:].strip()[:1]}\", "
                                      f"near: \"{text[max(0, position - 5):position + 5].strip()}\"")
            group = found.lastgroup or ""
            self.items.append((group, found.group(group)))
            position = found.end()
        self.at = 0
        self.names: set[str] = set()
        self.values: set[str] = set()

    def peek(self, offset: int = 0) -> tuple[str, str]:
        index = self.at + offset
        return self.items[index] if index < len(self.items) else ("end", "")

    def word(self, *words: str) -> bool:
        group, text = self.peek()
        return group == "word" and text.upper() in words

    def take(self) -> tuple[str, str]:
        token = self.peek()
        if token[0] == "end":
            raise ExpressionError(f"Invalid {self.kind}: Syntax error; token: <EOF>, near: \"\"")
        self.at += 1
        return token

    def expect(self, symbol: str) -> None:
        group, text = self.take()
        if text.upper() != symbol:
            raise ExpressionError(f"Invalid {self.kind}: Syntax error; token: \"{text}\", near: \"{text}\"")

    def done(self) -> None:
        if self.peek()[0] != "end":
            raise ExpressionError(f"Invalid {self.kind}: Syntax error; token: \"{self.peek()[1]}\", "
                                  f"near: \"{self.peek()[1]}\"")

    def path(self) -> Path:
        parts: list[Any] = [self._name()]
        while self.peek()[1] in (".", "["):
            if self.take()[1] == ".":
                parts.append(self._name())
            else:
                group, text = self.take()
                if group != "number":
                    raise ExpressionError(f"Invalid {self.kind}: Syntax error; token: \"{text}\", near: \"[{text}\"")
                parts.append(int(text))
                self.expect("]")
        return tuple(parts)

    def _name(self) -> str:
        group, text = self.take()
        if group == "name":
            self.names.add(text)
            return text
        if group == "word":
            if text.upper() in _reserved_words():
                raise ExpressionError(f"Invalid {self.kind}: Attribute name is a reserved keyword; "
                                      f"reserved keyword: {text}")
            return text
        raise ExpressionError(f"Invalid {self.kind}: Syntax error; token: \"{text}\", near: \"{text}\"")

    def value(self) -> tuple[str, str]:
        group, text = self.take()
        if group != "value":
            raise ExpressionError(f"Invalid {self.kind}: Syntax error; token: \"{text}\", near: \"{text}\"")
        self.values.add(text)
        return ("value", text)


# --- conditions (ConditionExpression, FilterExpression, KeyConditionExpression) -------------------

@lru_cache(maxsize=4096)
def parse_condition(text: str, kind: str = "ConditionExpression") -> Parsed:
    tokens = _Tokens(text, kind)
    if not tokens.items:
        raise ExpressionError(f"Invalid {kind}: The expression can not be empty;")
    tree = _or(tokens)
    tokens.done()
    return Parsed(tree, frozenset(tokens.names), frozenset(tokens.values))


def _or(tokens: _Tokens) -> Any:
    return _joined(tokens, "OR", _and)


def _and(tokens: _Tokens) -> Any:
    return _joined(tokens, "AND", _not)


def _joined(tokens: _Tokens, word: str, operand: Any) -> Any:
    """Operands joined by a logical word, left to right (NOT binds tighter than AND, AND than OR)."""
    tree = operand(tokens)
    while tokens.word(word):
        tokens.take()
        tree = (word.lower(), tree, operand(tokens))
    return tree


def _not(tokens: _Tokens) -> Any:
    if tokens.word("NOT"):
        tokens.take()
        return ("not", _not(tokens))
    if tokens.peek()[1] == "(":
        tokens.take()
        tree = _or(tokens)
        tokens.expect(")")
        return tree
    group, text = tokens.peek()
    if group == "word" and tokens.peek(1)[1] == "(" and text.lower() != "size":
        return _function(tokens)
    left = _operand(tokens)
    if tokens.word("BETWEEN"):
        tokens.take()
        low = _operand(tokens)
        if not tokens.word("AND"):
            raise ExpressionError(f"Invalid {tokens.kind}: Syntax error; token: \"{tokens.peek()[1]}\"")
        tokens.take()
        return ("between", left, low, _operand(tokens))
    if tokens.word("IN"):
        tokens.take()
        tokens.expect("(")
        options = [_operand(tokens)]
        while tokens.peek()[1] == ",":
            tokens.take()
            options.append(_operand(tokens))
        tokens.expect(")")
        return ("in", left, tuple(options))
    group, symbol = tokens.take()
    if symbol not in COMPARATORS:
        raise ExpressionError(f"Invalid {tokens.kind}: Syntax error; token: \"{symbol}\", near: \"{symbol}\"")
    return ("compare", symbol, left, _operand(tokens))


def _function(tokens: _Tokens) -> Any:
    name = tokens.take()[1]
    known = {"attribute_exists": 1, "attribute_not_exists": 1, "attribute_type": 2, "begins_with": 2, "contains": 2}
    if name not in known:
        raise ExpressionError(f"Invalid {tokens.kind}: Invalid function name; function: {name}")
    tokens.expect("(")
    arguments = [("path", tokens.path())]
    for _ in range(known[name] - 1):
        tokens.expect(",")
        arguments.append(_operand(tokens))
    tokens.expect(")")
    return ("function", name, tuple(arguments))


def _operand(tokens: _Tokens) -> Any:
    group, text = tokens.peek()
    if group == "value":
        return tokens.value()
    if group == "word" and text.lower() == "size" and tokens.peek(1)[1] == "(":
        tokens.take()
        tokens.expect("(")
        path = tokens.path()
        tokens.expect(")")
        return ("size", path)
    return ("path", tokens.path())


# --- update expressions ---------------------------------------------------------------------------

@lru_cache(maxsize=4096)
def parse_update(text: str) -> Parsed:
    kind = "UpdateExpression"
    tokens = _Tokens(text, kind)
    actions: list[Any] = []
    seen: set[str] = set()
    if not tokens.items:
        raise ExpressionError(f"Invalid {kind}: The expression can not be empty;")
    while tokens.peek()[0] != "end":
        if not tokens.word("SET", "REMOVE", "ADD", "DELETE"):
            raise ExpressionError(f"Invalid {kind}: Syntax error; token: \"{tokens.peek()[1]}\", "
                                  f"near: \"{tokens.peek()[1]}\"")
        clause = tokens.take()[1].upper()
        if clause in seen:
            raise ExpressionError(f"Invalid {kind}: The \"{clause}\" section can only be used once in an "
                                  "update expression;")
        seen.add(clause)
        while True:
            path = tokens.path()
            if clause == "SET":
                tokens.expect("=")
                actions.append(("SET", path, _set_value(tokens)))
            elif clause == "REMOVE":
                actions.append(("REMOVE", path, None))
            else:
                actions.append((clause, path, tokens.value()))
            if tokens.peek()[1] != ",":
                break
            tokens.take()
    return Parsed(tuple(actions), frozenset(tokens.names), frozenset(tokens.values))


def _set_value(tokens: _Tokens) -> Any:
    left = _set_operand(tokens)
    if tokens.peek()[1] in ("+", "-"):
        sign = tokens.take()[1]
        return ("arithmetic", sign, left, _set_operand(tokens))
    return left


def _set_operand(tokens: _Tokens) -> Any:
    group, text = tokens.peek()
    if group == "value":
        return tokens.value()
    if group == "word" and tokens.peek(1)[1] == "(":
        name = tokens.take()[1]
        tokens.expect("(")
        if name == "if_not_exists":
            path = tokens.path()
            tokens.expect(",")
            fallback = _set_operand(tokens)
            tokens.expect(")")
            return ("if_not_exists", path, fallback)
        if name == "list_append":
            first = _set_operand(tokens)
            tokens.expect(",")
            second = _set_operand(tokens)
            tokens.expect(")")
            return ("list_append", first, second)
        raise ExpressionError(f"Invalid UpdateExpression: Invalid function name; function: {name}")
    return ("path", tokens.path())


@lru_cache(maxsize=1024)
def parse_projection(text: str) -> Parsed:
    tokens = _Tokens(text, "ProjectionExpression")
    paths = [tokens.path()]
    while tokens.peek()[1] == ",":
        tokens.take()
        paths.append(tokens.path())
    tokens.done()
    return Parsed(tuple(paths), frozenset(tokens.names), frozenset(tokens.values))
