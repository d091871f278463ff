"""Routing without magic (issue 45): a route says whether it reads a version, Chalice is used
through its public API only, and the answer's status comes from what the service returned."""
from __future__ import annotations

import ast
from pathlib import Path

import pytest

from chalicelib.api.route_spec import RouteSpec
from chalicelib.api.routing import Call, answer
from chalicelib.auth.policy import Access
from chalicelib.services.commands import Existing, shown

ROOT = Path(__file__).resolve().parents[2]
ROUTE_FILES = sorted((ROOT / "chalicelib" / "api").glob("*.py")) + sorted((ROOT / "chalicelib" / "countries").glob("*/routes.py"))


def _spec(**declared: object) -> RouteSpec:
    fields: dict[str, object] = dict(method="POST", path="/things/{id}", summary="", tag="", body=None, query=None,
                                     response=None, status=201, access=Access.ANY, permission="write",
                                     idempotent=True)
    return RouteSpec(**{**fields, **declared})  # type: ignore[arg-type]


def test_an_existing_record_answers_200_and_a_new_one_the_routes_status():
    spec = _spec(also_answers=(200,))
    # the same body either way; only the status says whether the service created the record
    assert answer(spec, {"id": 7}) == (201, '{"id":7}')
    assert answer(spec, Existing({"id": 7})) == (200, '{"id":7}')
    assert shown(Existing({"id": 7}), lambda record: record["id"]) == Existing(7)
    assert shown({"id": 7}, lambda record: record["id"]) == 7


def test_a_route_reads_the_version_only_when_it_declares_it():
    headers = {"if-match": '"3"'}
    assert Call(_spec(versioned=True), headers, None, None, {}).expected_version() == 3
    with pytest.raises(RuntimeError, match="versioned=True"):
        Call(_spec(), headers, None, None, {}).expected_version()


def test_a_public_route_has_no_caller():
    call = Call(_spec(access=Access.PUBLIC), {}, None, None, {})
    with pytest.raises(RuntimeError):
        call.principal  # noqa: B018
    with pytest.raises(RuntimeError):
        call.command  # noqa: B018


def _handlers_reading_the_version() -> list[tuple[str, str, bool]]:
    """(file, handler, declared versioned) for every handler that calls call.expected_version()."""
    found = []
    for path in ROUTE_FILES:
        for node in ast.parse(path.read_text()).body:
            if not isinstance(node, ast.FunctionDef):
                continue
            reads = any(isinstance(n, ast.Attribute) and n.attr == "expected_version" for n in ast.walk(node))
            for decorator in node.decorator_list:
                if isinstance(decorator, ast.Call) and getattr(decorator.func, "id", None) == "endpoint":
                    declared = any(k.arg == "versioned" and isinstance(k.value, ast.Constant) and k.value.value is True
                                   for k in decorator.keywords)
                    if reads or declared:
                        found.append((path.name, node.name, reads and declared))
    return found


def test_every_handler_reading_a_version_declares_it_and_only_those():
    found = _handlers_reading_the_version()
    assert len(found) >= 20   # PUT of every versioned record, the reconciliation's steps
    assert [(file, handler) for file, handler, both in found if not both] == []


def test_routing_reads_no_code_objects_nor_private_chalice_attributes():
    offences = [f"{path.name}: {node.attr}" for path in ROUTE_FILES for node in ast.walk(ast.parse(path.read_text()))
                if isinstance(node, ast.Attribute) and node.attr in ("__code__", "co_names", "_deferred_registrations")]
    assert offences == []
