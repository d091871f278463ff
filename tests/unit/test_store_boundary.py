"""Only chalicelib/store speaks DynamoDB (issue 45 item 1): outside it no code writes an update or
condition expression, names an index or an index's attributes, or reads a key apart. Services
call the store's intention-named functions (chalicelib/store/repositories) instead.
The key boundary (test_key_boundary.py) keeps key building in the store; this keeps the language."""
from __future__ import annotations

import ast
import re

from tests.unit.test_key_boundary import ROOT, outside_the_store

# DynamoDB's expression language: its functions, its clauses, a placeholder compared or assigned
EXPRESSION = re.compile(
    r"\b(attribute_(not_)?exists|attribute_type|begins_with|if_not_exists|list_append)\s*\("
    r"|^\s*(SET|ADD|REMOVE|DELETE)\s+([#\w.\[\]]+\s*(=|,|$|\s[:#])|$)|^\s*(SET|ADD|REMOVE)\s*$"
    r"|[#:]\w+\s*(=|<>|<=|>=|<|>)\s*[#:(]\w*"
    r"|\b(AND|OR)\s+(NOT\s+)?(attribute_|[#:(])"
    r"|:\w+\s*(AND|OR|BETWEEN)\b"
)
# The table's key and index attributes, and the expression keywords boto3 takes
KEY_OR_INDEX_ATTRIBUTE = re.compile(r"^(PK|SK|GSI\d+(PK|SK)?)$")
EXPRESSION_KEYWORD = re.compile(r"^(UpdateExpression|ConditionExpression|KeyConditionExpression|FilterExpression"
                                 r"|ProjectionExpression|ExpressionAttributeNames|ExpressionAttributeValues"
                                 r"|IndexName)$")
STORE_ARGUMENTS = {"condition", "update", "names", "values", "index", "also_require"}


def dynamodb_speaking(source: str) -> list[tuple[int, str]]:
    """(line, what) for each place this source speaks DynamoDB's language."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            if EXPRESSION.search(node.value):
                found.append((node.lineno, f"expression {node.value!r}"))
            elif KEY_OR_INDEX_ATTRIBUTE.match(node.value) or EXPRESSION_KEYWORD.match(node.value):
                found.append((node.lineno, f"attribute {node.value!r}"))
        elif isinstance(node, ast.keyword) and node.arg in STORE_ARGUMENTS:
            found.append((node.value.lineno, f"{node.arg}= given to the store"))
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr in ("split", "rsplit") \
                and node.args and isinstance(node.args[0], ast.Constant) and node.args[0].value == "#":
            found.append((node.lineno, "a key read apart (split on '#')"))
        elif isinstance(node, ast.Subscript) and isinstance(node.value, ast.Call) \
                and getattr(node.value.func, "attr", getattr(node.value.func, "id", None)) == "pair":
            found.append((node.lineno, "a key read apart (keys.pair(...)[i])"))
        elif isinstance(node, (ast.ImportFrom,)) and node.module == "chalicelib.store.listing" and any(
                re.fullmatch(r"GSI\d+", alias.name) for alias in node.names):
            found.append((node.lineno, "an index imported"))
    return found


def test_no_dynamodb_language_outside_the_store():
    assert outside_the_store(dynamodb_speaking, sorted((ROOT / "chalicelib").rglob("*.py")) + [ROOT / "app.py"]) == []


def test_the_check_hears_each_way_of_speaking_dynamodb():
    spoken = {
        'transaction.update(key, "ADD childCount :delta", condition="attribute_exists(PK)")': 3,
        'NOT_COMPLETING = "#status = :draft AND attribute_not_exists(completing)"': 1,
        'condition = "(reconciledBalance = :seen OR x)"': 1,
        'expression = "SET reconciled = :yes"': 1,
        'expression = "SET " + ", ".join(assignments)': 1,
        'expression = "REMOVE #f0"': 1,
        'table.query_all(partition=("GSI1PK", partition), index=GSI1)': 2,
        'number = int(document["PK"].split("#")[1])': 2,
        'from chalicelib.store.listing import GSI1': 1,
        'request = {"ConditionExpression": text}': 1,
        'transaction.update_fields(key, changes, version, also_require="x")': 1,
        'family = keys.small_collection(0, kind).split("#")[-1]': 1,
        'bank = int(record["PK"].rsplit("#", 1)[1])': 2,
        'reservation = keys.pair(key)[1]': 1,
    }
    for source, expected in spoken.items():
        assert len(dynamodb_speaking(source)) == expected, (source, dynamodb_speaking(source))
    plain = ['message = "Set the account: the amount must be positive"', 'label = "ADD a line"',
             'text = f"{code} = {name}"', 'phrase = "and or not"', 'url = "https://x/#/a?b=c"',
             'transaction.update_fields(key, changes, version)', 'note = "Partner: PK"', 'method = "DELETE"',
             'words = text.split(" ")', 'first, second = keys.pair(key)']
    for source in plain:
        assert dynamodb_speaking(source) == [], source
