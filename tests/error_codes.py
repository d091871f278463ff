"""Every error code the code can raise, found by reading the source
(tests/test_error_codes.py checks them against chalicelib/error_codes.py)."""
from __future__ import annotations

import ast
import builtins
import functools
import importlib
import pathlib
import re

ROOT = pathlib.Path(__file__).resolve().parents[1]
CODE = re.compile(r"^[A-Z][A-Z0-9_]{2,}$")


def _module_name(path: pathlib.Path) -> str:
    return ".".join(path.relative_to(ROOT).with_suffix("").parts)


def _strings(value: ast.expr, constants: dict[str, str]) -> list[str]:
    """The codes an expression can be: a literal, a module constant, either side of `a if c else b`."""
    if isinstance(value, ast.IfExp):
        return _strings(value.body, constants) + _strings(value.orelse, constants)
    code = value.value if isinstance(value, ast.Constant) else constants.get(getattr(value, "id", ""))
    return [code] if isinstance(code, str) and CODE.match(code) else []


def _resolve(module: object, func: ast.expr) -> object:
    """What `Name(...)` or `module.Name(...)` calls, in that module."""
    if isinstance(func, ast.Name):  # a builtin (ValueError) is no attribute of the module
        return getattr(module, func.id, None) or getattr(builtins, func.id, None)
    if isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name):
        return getattr(getattr(module, func.value.id, None), func.attr, None)
    return None


@functools.cache
def _parsed_source() -> tuple[tuple[pathlib.Path, ast.Module, tuple[ast.AST, ...]], ...]:
    """Each module of chalicelib parsed once per test process: its path, its syntax tree and the tree's
    nodes in `ast.walk`'s order (the walks below only read them)."""
    return tuple((path, tree, tuple(ast.walk(tree)))
                 for path in sorted((ROOT / "chalicelib").rglob("*.py")) for tree in [ast.parse(path.read_text())])


def _source_modules():
    """Each module of chalicelib: its path, the module, its syntax tree and its string constants."""
    for path, tree, _nodes in _parsed_source():
        constants = {node.targets[0].id: node.value.value for node in tree.body
                     if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name)
                     and isinstance(node.value, ast.Constant) and isinstance(node.value.value, str)}
        yield path, importlib.import_module(_module_name(path)), tree, constants


def _nodes(tree: ast.Module) -> tuple[ast.AST, ...]:
    """`tuple(ast.walk(tree))` of a module's tree from _parsed_source, walked once."""
    return _nodes_by_tree()[id(tree)]


@functools.cache
def _nodes_by_tree() -> dict[int, tuple[ast.AST, ...]]:
    return {id(tree): nodes for _path, tree, nodes in _parsed_source()}


def raised_codes() -> set[str]:
    """The codes the source raises: each refusal class's own, its (code, message) reasons, and every
    `code=` a call passes."""
    import app  # noqa: F401  (imports every route module)
    from chalicelib.errors import ApiError

    found: set[str] = set()
    for _path, module, tree, constants in _source_modules():
        for node in _nodes(tree):
            if isinstance(node, ast.ClassDef):
                cls = getattr(module, node.name, None)
                if isinstance(cls, type) and issubclass(cls, ApiError):
                    found.add(cls.code)
                    for item in node.body:  # (code, message) reasons of a refusal class
                        if (isinstance(item, ast.Assign) and isinstance(item.value, ast.Tuple) and item.value.elts
                                and isinstance(item.value.elts[0], ast.Constant)
                                and CODE.match(str(item.value.elts[0].value))):
                            found.add(item.value.elts[0].value)
            elif isinstance(node, ast.Call):
                keywords = {k.arg: k.value for k in node.keywords}
                if "code" in keywords:
                    found.update(_strings(keywords["code"], constants))
    return found


def _templates(value: ast.expr | None, constants: dict[str, str]) -> list[str]:
    """The texts an expression can be, each part filled in at run time written `{}`: a literal, an
    f-string, a module constant, either side of `a if c else b`, a `+` of those."""
    if value is None:
        return []
    if isinstance(value, ast.Constant):
        return [value.value] if isinstance(value.value, str) else []
    if _is_phrase(value):
        return [value.args[0].value]  # its id: the template (chalicelib/messages/phrases.py)
    if isinstance(value, ast.JoinedStr):
        return ["".join(part.value if isinstance(part, ast.Constant) else "{}" for part in value.values)]
    if isinstance(value, ast.IfExp):
        return _templates(value.body, constants) + _templates(value.orelse, constants)
    if isinstance(value, ast.BinOp) and isinstance(value.op, ast.Add):
        return [left + right for left in _templates(value.left, constants)
                for right in _templates(value.right, constants)]
    if isinstance(value, ast.Name) and value.id in constants:
        return [constants[value.id]]
    return []


def _is_phrase(node: ast.AST) -> bool:
    """`Phrase("<template>", part, ...)`: a message by its id."""
    return (isinstance(node, ast.Call) and getattr(node.func, "id", None) == "Phrase" and bool(node.args)
            and isinstance(node.args[0], ast.Constant) and isinstance(node.args[0].value, str))


def phrase_templates() -> set[str]:
    """Every message id chalicelib writes as a Phrase (the keyword extraction xgettext and
    `pybabel extract -k Phrase` do), those with no words of their own ("{}: {}") left out."""
    found = set()
    for _path, _tree, nodes in _parsed_source():
        found.update(node.args[0].value for node in nodes if _is_phrase(node))
    return {template for template in found if any(char.isalpha() for char in template)}


def raised_phrases() -> set[str]:
    """Every message and field problem the source writes for an error answer, as a template (see
    _templates): what refusals say (their `message`, a detail's "message", `for_field`'s problem,
    a refusal class's reasons), the ValueErrors of the request models (pydantic's value_error), an
    import's RowError messages, and the parts a DTE's field problem is written from (a `what` and the
    `_REMEDIES`)."""
    import app  # noqa: F401  (imports every route module)
    from chalicelib.domain.bank_statements import StatementInvalid
    from chalicelib.domain.import_rows import RowError
    from chalicelib.errors import ApiError

    found: set[str] = set()
    for path, module, tree, constants in _source_modules():
        # the request models: chalicelib/models/ and a country pack's models.py
        in_models = "models" in path.relative_to(ROOT).parts or path.stem == "models"
        for node in _nodes(tree):
            if isinstance(node, ast.ClassDef):
                cls = getattr(module, node.name, None)
                if not (isinstance(cls, type) and issubclass(cls, ApiError)):
                    continue
                for item in node.body:
                    if (isinstance(item, ast.Assign) and isinstance(item.targets[0], ast.Name)
                            and item.targets[0].id == "message"):
                        found.update(_templates(item.value, constants))
                    elif (isinstance(item, ast.Assign) and isinstance(item.value, ast.Tuple)
                          and len(item.value.elts) == 2 and isinstance(item.value.elts[0], ast.Constant)
                          and CODE.match(str(item.value.elts[0].value))):
                        found.update(_templates(item.value.elts[1], constants))
            elif isinstance(node, ast.Call):
                keywords = {k.arg: k.value for k in node.keywords}
                if isinstance(node.func, ast.Attribute) and node.func.attr == "for_field" and len(node.args) == 2:
                    found.update(_templates(node.args[1], constants))
                    continue
                cls = _resolve(module, node.func)
                if (isinstance(cls, type) and issubclass(cls, ApiError)) or (in_models and cls is ValueError):
                    found.update(_templates(node.args[0] if node.args else keywords.get("message"), constants))
                elif cls is RowError:  # an import's problem by row and column (domain/import_rows.py), read by a person
                    found.update(_templates(node.args[2] if len(node.args) > 2 else keywords.get("message"), constants))
                elif cls is StatementInvalid:  # a bank statement file refused by line and column (issue 42)
                    found.update(_templates(node.args[0] if node.args else keywords.get("message"), constants))
            elif isinstance(node, ast.Assign) and isinstance(node.targets[0], ast.Name) and (
                    node.targets[0].id in ("_REMEDIES", "_SUPPLIER_REMEDIES", "what", "CONTROLLED_OPERATIONS", "_BANK_LEDGER",
                                        "problem")):
                # a DTE's field problems, "<what>: <remedy>" (countries/sv/domain/dte_formats.py), Spanish part by part;
                # the subledgers a control account stands behind (domain/accounting.py, services/accounting/control_accounts.py), a part;
                # a `problem` a refusal quotes in its message and its detail
                parts = node.value.values if isinstance(node.value, ast.Dict) else [node.value]
                for part in parts:
                    found.update(_templates(part, constants))
            elif isinstance(node, ast.Dict):
                names = [key.value for key in node.keys if isinstance(key, ast.Constant)]
                if _is_detail(names):
                    found.update(_templates(node.values[names.index("message")], constants))
    return {phrase for phrase in found if phrase.strip() and any(char.isalpha() for char in phrase)
            } | phrase_templates()


def _field_parameters(modules: list) -> dict[str, int]:
    """Functions that take the field a refusal names as a parameter called `field`: name -> its position."""
    found = {}
    for _path, _module, tree, _constants in modules:
        for node in _nodes(tree):
            if isinstance(node, ast.FunctionDef):
                names = [a.arg for a in node.args.args if a.arg not in ("self", "cls")]
                if "field" in names:
                    found[node.name] = names.index("field")
    return found


def _is_detail(names: list) -> bool:
    """A dict written as an error's detail ({field, message}, perhaps row and column), not a
    catalogue that happens to label both names (messages/field_labels.py)."""
    return "field" in names and "message" in names and len(names) <= 6


def named_fields() -> set[str]:
    """Every field path the source names to a person, as a template (`{}` where a part is filled in):
    what `for_field` and `invalid_account` refuse, a detail's "field", a `field=` passed on, what a
    call gives a function's `field` parameter, and every field of the request models (a body or a
    query of any route), a list's items as "name[{}]" (pydantic's details name them so)."""
    import typing

    from pydantic import BaseModel

    import app  # noqa: F401  (imports every route module)
    from chalicelib.api.routing import ROUTES

    modules = list(_source_modules())
    takes_field = {"for_field": 0, "invalid_account": 0, **_field_parameters(modules)}
    found: set[str] = set()
    for _path, _module, tree, constants in modules:
        for node in _nodes(tree):
            if isinstance(node, ast.Call):
                name = node.func.attr if isinstance(node.func, ast.Attribute) else getattr(node.func, "id", "")
                keywords = {k.arg: k.value for k in node.keywords}
                position = takes_field.get(name)
                if position is not None and len(node.args) > position:
                    found.update(_templates(node.args[position], constants))
                found.update(_templates(keywords.get("field"), constants))
            elif isinstance(node, ast.Dict):
                names = [key.value for key in node.keys if isinstance(key, ast.Constant)]
                if _is_detail(names):
                    found.update(_templates(node.values[names.index("field")], constants))
            elif isinstance(node, ast.Assign) and isinstance(node.targets[0], ast.Name) and (
                    node.targets[0].id == "_REMEDIES") and isinstance(node.value, ast.Dict):
                # a DTE's fields the format refuses (countries/sv/domain/dte_formats.py), answered as "dte.<path>"
                found.update(f"dte.{key.value}" for key in node.value.keys if isinstance(key, ast.Constant))

    seen: set[type] = set()

    def models_in(annotation: object) -> list[type]:
        if isinstance(annotation, type) and issubclass(annotation, BaseModel):
            return [annotation]
        return [inner for argument in typing.get_args(annotation) for inner in models_in(argument)]

    def walk(model: type) -> None:
        if model in seen:
            return
        seen.add(model)
        for name, info in model.model_fields.items():
            alias = info.alias or name
            found.add(alias)
            if typing.get_origin(info.annotation) is list or any(
                    typing.get_origin(argument) is list for argument in typing.get_args(info.annotation)):
                found.add(f"{alias}[{{}}]")
            for inner in models_in(info.annotation):
                walk(inner)

    for spec in ROUTES:
        for model in (spec.body_model, spec.query_model):
            if model is not None:
                walk(model)
    return {field for field in found if field.strip() and not field.startswith(("#", "CAT-"))}


@functools.cache
def _raised_messages(cls: type) -> frozenset[str]:
    """Every message the source raises `cls` (or a subclass) with, as a template."""
    found: set[str] = set()
    for _path, module, tree, constants in _source_modules():
        for node in _nodes(tree):
            if isinstance(node, ast.Call):
                called = _resolve(module, node.func)
                if isinstance(called, type) and issubclass(called, cls):
                    keywords = {k.arg: k.value for k in node.keywords}
                    found.update(_templates(node.args[0] if node.args else keywords.get("message"), constants))
    return frozenset(found)


def stored_dte_errors() -> set[str]:
    """Every reason a DTE's `lastError` can hold, as a template: what the source passes to
    `unanswered` (countries/sv/domain/dte.py), a text it writes or the message of the refusal it
    caught (each message that refusal is raised with). A reason this walk cannot follow is returned
    as "<unfollowed ...>", which no catalogue knows."""
    import app  # noqa: F401  (imports every route module)

    found: set[str] = set()
    for _path, module, tree, constants in _source_modules():
        if not any(_calls_unanswered(node) for node in _nodes(tree)):
            continue
        for function in _nodes(tree):
            if not isinstance(function, ast.FunctionDef | ast.AsyncFunctionDef):
                continue
            if not any(_calls_unanswered(node) for node in ast.walk(function)):
                continue
            # each assignment with the refusal its `except ... as <name>` caught, where it is in one
            assigned: dict[str, list[tuple[ast.expr, dict[str, object]]]] = {}
            catching = {id(node): {handler.name: _resolve(module, handler.type)}
                        for handler in ast.walk(function) if isinstance(handler, ast.ExceptHandler) and handler.name
                        for inner in handler.body for node in ast.walk(inner)}
            for node in ast.walk(function):
                if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name):
                    assigned.setdefault(node.targets[0].id, []).append((node.value, catching.get(id(node), {})))
            for call in ast.walk(function):
                if not _calls_unanswered(call):
                    continue
                keywords = {k.arg: k.value for k in call.keywords}
                reason = call.args[1] if len(call.args) > 1 else keywords.get("error")
                sources = assigned.get(reason.id, []) if isinstance(reason, ast.Name) else []
                for source, caught in sources or [(reason, {})]:
                    refusal = caught.get(getattr(getattr(source, "value", None), "id", ""))
                    if isinstance(source, ast.Attribute) and source.attr == "message" and isinstance(refusal, type):
                        texts = _raised_messages(refusal)
                    else:
                        texts = _templates(source, constants)
                    found.update(texts or {f"<unfollowed {ast.unparse(source)}>"})
    return found


def _calls_unanswered(node: ast.AST) -> bool:
    return isinstance(node, ast.Call) and (getattr(node.func, "id", None) or getattr(node.func, "attr", None)) == "unanswered"
