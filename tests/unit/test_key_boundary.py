"""Every key of the table is built in chalicelib/store/keys (issue 29 item 4): outside
chalicelib/store no code writes a key attribute ("PK", "SK", "GSI...") into a dict literal or
joins a key string with "#" (nor passes one to `dict(...)` or sets one on an item).
Expression attribute names ("#version", "#a{n}") and display text ("#{id}") are not keys: a key's
"#" sits between parts (an upper-case kind, a number, a value). The operator tools under infra/ops
rewrite legacy keys and copy raw items, and the benches write synthetic items: not held to it."""
from __future__ import annotations

import ast
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
KEY_ATTRIBUTE = re.compile(r"^(PK|SK|GSI\w*)$")
# a kind or number followed by '#', a "#~" range end, or a kind after a leading '#': "PAY#", "C#1#DOC", "#~"
KEY_TEXT = re.compile(r"[A-Z0-9~]#($|[A-Z0-9~])|^#[A-Z~]")


def _joins_in_fstring(node: ast.JoinedStr) -> bool:
    """A '#' between two parts of a key: after a kind, a number or a formatted value, and before
    one of those or a formatted value."""
    values = node.values
    for position, part in enumerate(values):
        if not (isinstance(part, ast.Constant) and isinstance(part.value, str)):
            continue
        text = part.value
        for found in re.finditer("#", text):
            at = found.start()
            before = text[at - 1] if at else ("{" if position else "")
            after = text[at + 1] if at + 1 < len(text) else ("}" if position + 1 < len(values) else "")
            if (before == "{" or before.isupper() or before.isdigit() or before == "~") and \
                    (after in ("}", "~") or after.isupper() or after.isdigit()):
                return True
    return False


def key_building(source: str) -> list[tuple[int, str]]:
    """(line, what) for each place this source builds a key."""
    tree = ast.parse(source)
    in_fstrings = {id(part) for node in ast.walk(tree) if isinstance(node, ast.JoinedStr) for part in node.values}
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Dict):
            found += [(node.lineno, f"key attribute {key.value}") for key in node.keys
                      if isinstance(key, ast.Constant) and isinstance(key.value, str) and KEY_ATTRIBUTE.match(key.value)]
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "dict":
            found += [(node.lineno, f"key attribute {keyword.arg}") for keyword in node.keywords
                      if keyword.arg and KEY_ATTRIBUTE.match(keyword.arg)]
        elif isinstance(node, ast.Subscript) and isinstance(node.ctx, ast.Store) \
                and isinstance(node.slice, ast.Constant) and isinstance(node.slice.value, str) \
                and KEY_ATTRIBUTE.match(node.slice.value):
            found.append((node.lineno, f"key attribute {node.slice.value} set"))
        elif isinstance(node, ast.JoinedStr) and _joins_in_fstring(node):
            found.append((node.lineno, ast.unparse(node)))
        elif isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in in_fstrings \
                and KEY_TEXT.search(node.value):
            found.append((node.lineno, repr(node.value)))
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "join" \
                and isinstance(node.func.value, ast.Constant) and node.func.value.value == "#":
            found.append((node.lineno, '"#".join'))
        elif isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add) and any(
                isinstance(side, ast.Constant) and side.value == "#" for side in (node.left, node.right)):
            found.append((node.lineno, ast.unparse(node)))
    return found


def outside_the_store(finder, paths) -> list[str]:
    """What `finder` finds in each of `paths` not under chalicelib/store, as "path:line: what"."""
    offending = []
    for path in paths:
        relative = path.relative_to(ROOT)
        if relative.parts[:2] != ("chalicelib", "store"):
            offending += [f"{relative}:{line}: {what}" for line, what in finder(path.read_text())]
    return offending


def test_no_key_is_built_outside_the_store():
    assert outside_the_store(key_building, sorted((ROOT / "chalicelib").rglob("*.py"))) == []


def test_the_check_sees_each_way_of_building_a_key():
    built = {
        'key = {"PK": f"C#{company_id}", "SK": "COMPANY"}': 3,  # two key attributes and "C#{...}"
        'index = {"GSI1PK": partition}': 1,
        'sort = f"{date}#{tx_id}"': 1,
        'partition = f"C#{company_id}#BANKTX#{account_id}"': 1,
        'high = f"{end_date}#~"': 1,
        'PREFIX = "PAY#"': 1,
        'END = "#~"': 1,
        'key = "#".join(parts)': 1,
        'key = kind + "#" + str(number)': 1,
        'key = dict(PK=partition, SK=sort)': 2,
        'item["GSI1SK"] = sort': 1,
    }
    for source, expected in built.items():
        assert len(key_building(source)) == expected, source
    not_keys = ['update = f"{update} ADD #version :one"', 'name = f"#a{position}"', 'label = f"#{account_id}"',
                'condition = "#version = :version AND " + more', 'url = f"{base}/app/#/accept?token={token}"',
                'names = {"#s": attribute}', 'ref = f"#/components/schemas/Error{status}"']
    for source in not_keys:
        assert key_building(source) == [], source


# issue 41: jobs. The files bucket has one door too: chalicelib/store/files.py. Outside chalicelib/store
# no code imports boto3 nor names the "s3" service (a client, a resource, a presigned URL built elsewhere).
def s3_speaking(source: str) -> list[tuple[int, str]]:
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            found += [(node.lineno, f"import {alias.name}") for alias in node.names if alias.name.split(".")[0] == "boto3"]
        elif isinstance(node, ast.ImportFrom) and (node.module or "").split(".")[0] == "boto3":
            found.append((node.lineno, f"from {node.module} import"))
        elif isinstance(node, ast.Call) and any(isinstance(argument, ast.Constant) and argument.value == "s3"
                                                for argument in [*node.args, *(k.value for k in node.keywords)]):
            found.append((node.lineno, ast.unparse(node)))
    return found


def test_only_the_store_speaks_to_s3():
    assert outside_the_store(s3_speaking, sorted((ROOT / "chalicelib").rglob("*.py")) + [ROOT / "app.py"]) == []


def test_the_s3_check_sees_each_way_of_reaching_s3():
    for source in ('client = make_client("s3")', 'import boto3', 'from boto3.s3.transfer import TransferConfig',
                   'bucket = boto3.resource(service_name="s3")'):
        assert s3_speaking(source), source
    for source in ('queue = make_client("sqs")', 'from botocore.exceptions import ClientError', 'name = "s3"'):
        assert s3_speaking(source) == [], source
