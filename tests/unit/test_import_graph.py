"""The import graph, read from the source with `ast` (nothing is imported): the layers only import
downwards, the core names no country outside the registry of packs (chalicelib/countries/__init__.py)
and no pack imports another (docs/decisions.md "Country packs").

Layers, lowest first: domain (chalicelib/domain, countries/<cc>/domain) < store < services
(chalicelib/services, countries/<cc>/services) < api (chalicelib/api, countries/<cc>/routes.py).
Every import counts, at module level or inside a function. Other packages (pdf, exports, models,
events, auth, ...) are outside the layers and are not ranked."""
from __future__ import annotations

import ast
import re
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
CHALICELIB = ROOT / "chalicelib"
COUNTRIES = CHALICELIB / "countries"
LAYERS = ("domain", "store", "services", "api")

@dataclass(frozen=True)
class Module:
    path: str          # relative to the repository, e.g. chalicelib/services/records.py
    name: str          # dotted, e.g. chalicelib.services.records
    tree: ast.Module


def _name_of(path: Path) -> str:
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


@lru_cache(maxsize=1)
def modules() -> tuple[Module, ...]:
    paths = sorted(CHALICELIB.rglob("*.py")) + [ROOT / "app.py"]
    return tuple(Module(str(path.relative_to(ROOT)), _name_of(path), ast.parse(path.read_text(), str(path)))
                 for path in paths)


@lru_cache(maxsize=1)
def pack_codes() -> dict[str, str]:
    """A pack is a package under chalicelib/countries: its directory name -> its country code."""
    return {path.parent.name: path.parent.name.upper() for path in COUNTRIES.glob("*/__init__.py")}


@lru_cache(maxsize=1)
def known_modules() -> frozenset[str]:
    return frozenset(module.name for module in modules())


def imports(module: Module) -> list[str]:
    """The modules it imports, anywhere in it (`from package import module` names the module)."""
    package = module.name if module.path.endswith("__init__.py") else module.name.rpartition(".")[0]
    found = []
    for node in ast.walk(module.tree):
        if isinstance(node, ast.Import):
            found += [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")[:len(package.split(".")) - node.level + 1]
                base = ".".join(anchor + ([base] if base else []))
            for alias in node.names:
                candidate = f"{base}.{alias.name}"
                found.append(candidate if candidate in known_modules() else base)
        elif isinstance(node, ast.Call) and _called(node) in ("import_module", "__import__") and node.args \
                and isinstance(node.args[0], ast.Constant) and isinstance(node.args[0].value, str):
            found.append(node.args[0].value)  # a module imported by its name, as the registry does
    return found


def _called(node: ast.Call) -> str | None:
    function = node.func
    return function.id if isinstance(function, ast.Name) else function.attr if isinstance(function, ast.Attribute) else None


def pack_of(name: str) -> str | None:
    """The pack a module belongs to (chalicelib.countries.<pack>...), None for the core and the registry."""
    parts = name.split(".")
    return parts[2] if len(parts) > 2 and parts[:2] == ["chalicelib", "countries"] and parts[2] in pack_codes() else None


def layer_of(name: str) -> int | None:
    parts = name.split(".")
    if parts[0] != "chalicelib" or len(parts) < 2:
        return None
    if pack_of(name):
        rest = parts[3:]
        if rest[:1] == ["routes"]:
            return LAYERS.index("api")
        return LAYERS.index(rest[0]) if rest[:1] and rest[0] in ("domain", "services") else None
    return LAYERS.index(parts[1]) if parts[1] in LAYERS else None


def test_every_module_is_read():
    names = known_modules()
    assert {"chalicelib.domain.taxes", "chalicelib.store.table", "chalicelib.api.routing", "chalicelib.countries",
            "chalicelib.countries.hn.routes", "app"} <= names
    assert layer_of("chalicelib.countries.hn.domain.numbering") == 0 and layer_of("chalicelib.countries.hn.routes") == 3
    assert layer_of("chalicelib.countries") is None and layer_of("chalicelib.countries.hn.hooks") is None


def test_no_module_imports_a_higher_layer():
    upward = []
    for module in modules():
        own = layer_of(module.name)
        if own is None:
            continue
        upward += [f"{module.path} ({LAYERS[own]}) imports {target} ({LAYERS[layer_of(target)]})"
                   for target in imports(module) if (layer_of(target) or 0) > own]
    assert upward == []


def test_services_and_domain_never_import_the_api():
    """The part of the rule a regression would most likely break: HTTP stays at the door."""
    inward = [f"{module.path} imports {target}" for module in modules()
              if layer_of(module.name) in (LAYERS.index("domain"), LAYERS.index("services"))
              for target in imports(module) if layer_of(target) == LAYERS.index("api")]
    assert inward == []


def _core_offences(module: Module) -> list[str]:
    offences = [f"imports {target}" for target in imports(module) if pack_of(target)]
    offences += [f"country code {node.value!r}" for node in ast.walk(module.tree)
                 if isinstance(node, ast.Constant) and isinstance(node.value, str) and _names_a_country(node.value)]
    return offences


def _names_a_country(text: str) -> bool:
    """A code as a whole string ("SV", "sv") or as a token of a string without spaces (a key, a
    locale, an f-string's part: "es-HN", f"SV-{n}"). Text with spaces is prose (descriptions,
    messages), which may name a country."""
    codes = set(pack_codes().values())
    if text in codes or text.upper() in codes and len(text) == 2:
        return True
    return not re.search(r"\s", text) and any(re.search(rf"(?<![A-Za-z]){code}(?![A-Za-z])", text) for code in codes)


def test_the_core_names_no_country():
    """Outside chalicelib/countries/ no module imports a pack (only the registry and its top-level
    modules) and no string is a country code: the core asks `countries.pack_of(company)`."""
    found = {(module.path, offence) for module in modules()
             if not module.path.startswith("chalicelib/countries/") for offence in _core_offences(module)}
    assert sorted(found) == []


def test_no_pack_imports_another():
    crossing = [f"{module.path} imports {target}" for module in modules() if pack_of(module.name)
                for target in imports(module) if pack_of(target) not in (None, pack_of(module.name))]
    assert crossing == []


def test_the_check_sees_each_way_of_naming_a_country():
    def offences(source: str) -> list[str]:
        return _core_offences(Module("chalicelib/services/example.py", "chalicelib.services.example", ast.parse(source)))

    named = ['from chalicelib.countries import sv', 'import chalicelib.countries.sv.domain.dte',
             'from chalicelib.countries.hn.domain import numbering',
             'importlib.import_module("chalicelib.countries.sv.services.dte")',
             '__import__("chalicelib.countries.hn.hooks")', 'if country == "SV": pass', 'RATES = {"HN": 1}',
             'Country = Literal["HN", "SV"]', 'code = f"SV-{number}"', 'locale = "es-HN"', 'code = "sv"']
    assert [source for source in named if not offences(source)] == []
    allowed = ['from chalicelib import countries', 'from chalicelib.countries.interface import DocumentHooks',
               'countries.pack(company["country"])', 'text = "El Salvador: a customer abroad (not SV)"',
               'name = "SVG"', 'word = "shn"']
    assert [source for source in allowed if offences(source)] == []


def circles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected groups of more than one module (Tarjan's algorithm, iteratively)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    found: list[list[str]] = []
    for root in sorted(graph):
        if root in index:
            continue
        work = [(root, iter(sorted(graph[root])))]
        index[root] = low[root] = len(index)
        stack.append(root)
        while work:
            node, targets = work[-1]
            target = next(targets, None)
            if target is not None:
                if target not in index:
                    index[target] = low[target] = len(index)
                    stack.append(target)
                    work.append((target, iter(sorted(graph.get(target, ())))))
                elif target in stack:
                    low[node] = min(low[node], index[target])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                group = []
                while True:
                    member = stack.pop()
                    group.append(member)
                    if member == node:
                        break
                if len(group) > 1:
                    found.append(sorted(group))
    return found


def import_graph() -> dict[str, set[str]]:
    """Each module -> the modules of chalicelib it imports, anywhere: at loading, for types, or
    inside a function (an import put off until a call is still a dependency: it only moves the
    circle from the loading to the first call)."""
    return {module.name: {target for target in imports(module) if target in known_modules() and target != module.name}
            for module in modules()}


def test_no_import_circle():
    """Two modules importing each other (at loading, for types, or inside a function) are one
    module split in two, or want a third for what they share (api/route_spec.py,
    services/sales_purchases/document_plan.py, the DTE's shared codes in countries/sv/domain/dte.py,
    its formats' editions in dte_editions.py, the card gateways' interface in
    providers/interface.py, the languages' codes in messages/languages.py). A registry that loads a
    module by a name it holds as data (countries.PACKAGES, imports/kinds.KINDS) is the one way
    round: the modules it loads import the registry's interface, not the other way."""
    assert circles(import_graph()) == []


def test_the_circle_check_finds_circles():
    assert circles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
    assert circles({"a": {"b"}, "b": set()}) == []

    def imported(source: str) -> list[str]:
        return imports(Module("chalicelib/services/example.py", "chalicelib.services.example", ast.parse(source)))

    assert imported("import typing\nif typing.TYPE_CHECKING:\n    from chalicelib.api import routing") \
        == ["typing", "chalicelib.api.routing"]
    assert imported("def later():\n    from chalicelib.api import routing") == ["chalicelib.api.routing"]
    assert imported("class Later:\n    def method(self):\n        import chalicelib.api.routing") \
        == ["chalicelib.api.routing"]
    assert imported("def later():\n    return importlib.import_module('chalicelib.api.routing')") \
        == ["chalicelib.api.routing"]


def test_no_public_service_function_name_twice():
    """A use case's name says which one it is: no two service modules (core or pack) define the same
    public function (`view` of what? `record` of what?), so a reader, a grep and a stack trace
    land on one place."""
    defined: dict[str, list[str]] = {}
    for module in modules():
        if layer_of(module.name) != LAYERS.index("services"):
            continue
        for node in module.tree.body:
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and not node.name.startswith("_"):
                defined.setdefault(node.name, []).append(module.path)
    assert {name: paths for name, paths in defined.items() if len(paths) > 1} == {}
