"""Every error code the code can raise, with its HTTP status, found by reading the source
(tests/test_error_codes.py checks them against chalicelib/error_codes.py)."""
from __future__ import annotations

import ast
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
    if isinstance(func, ast.Name):
        return getattr(module, func.id, None)
    if isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name):
        return getattr(getattr(module, func.value.id, None), func.attr, None)
    return None


def raised_codes() -> dict[str, set[int]]:
    import app  # noqa: F401  (imports every route module)
    from chalicelib.errors import ApiError

    found: dict[str, set[int]] = {}

    def add(code: str, status: int) -> None:
        found.setdefault(code, set()).add(int(status))

    for path in sorted((ROOT / "chalicelib").rglob("*.py")):
        module = importlib.import_module(_module_name(path))
        tree = ast.parse(path.read_text())
        constants = {node.targets[0].id: node.value.value for node in tree.body
                     if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name)
                     and isinstance(node.value, ast.Constant) and isinstance(node.value.value, str)}
        for node in ast.walk(tree):
            if isinstance(node, ast.ClassDef):
                cls = getattr(module, node.name, None)
                if isinstance(cls, type) and issubclass(cls, ApiError):
                    add(cls.code, cls.status)
                    for item in node.body:  # (code, message) reasons of a refusal class
                        if (isinstance(item, ast.Assign) and isinstance(item.value, ast.Tuple) and item.value.elts
                                and isinstance(item.value.elts[0], ast.Constant)
                                and CODE.match(str(item.value.elts[0].value))):
                            add(item.value.elts[0].value, cls.status)
            elif isinstance(node, ast.Call):
                keywords = {k.arg: k.value for k in node.keywords}
                if "code" not in keywords:
                    continue
                status = keywords.get("status")
                cls = _resolve(module, node.func)
                for code in _strings(keywords["code"], constants):
                    if isinstance(status, ast.Constant):
                        add(code, status.value)
                    elif isinstance(cls, type) and issubclass(cls, ApiError):
                        add(code, cls.status)
                    else:
                        add(code, 0)  # unknown: the test reports it
    return found
