"""The `chart` import kind run directly (rows as Row objects): accounts merged into the company's
chart, parents in the file (in any order) or in the chart, the chart's tree rules, update mode, a
run again after a fault."""
from __future__ import annotations

import pytest

from chalicelib.services.accounting import chart
from chalicelib.services.imports import chart as chart_kind
from tests.import_kinds_support import context, problems, rows, run, stop_at_call

CHART = "/chart-of-accounts"


def accounts(api, company) -> dict[str, dict]:
    listed = api.get(f"{CHART}?limit=100", key=company.api_key).json
    return {account["code"]: account for account in listed["accounts"]}


def children(table, company, account_id: int) -> int:
    return int(chart.get_account(table, company.company_id, account_id)["childCount"])


def post(api, company, code: str, name: str, account_type: str, parent: int | None = None) -> dict:
    reply = api.post(CHART, {"code": code, "name": name, "type": account_type, "parentId": parent},
                     key=company.api_key)
    assert reply.status == 201, reply.text
    return reply.json


def test_accounts_in_any_order_are_merged_under_their_parents_in_the_file_or_the_chart(api, table, company_a):
    assets = post(api, company_a, "1", "Activo", "asset")
    checked, applied = run("chart", context(table, company_a), rows(
        {"code": "110101", "name": "Caja general", "type": "Activo", "parentCode": "1101"},  # before its parent
        {"code": "1101", "name": "Efectivo", "type": "asset", "parentCode": "1"},            # under the chart's
        {"code": "110102", "name": "Caja chica", "type": "asset", "parentCode": "1101"},
        {"code": "2", "name": "Pasivo", "type": "pasivo"}))
    assert checked.errors == [] and applied == {"created": 4, "updated": 0}
    chart_now = accounts(api, company_a)
    assert sorted(chart_now) == ["1", "1101", "110101", "110102", "2"]
    assert chart_now["1101"]["parentId"] == assets["id"]
    assert [chart_now[code]["parentId"] for code in ("110101", "110102")] == [chart_now["1101"]["id"]] * 2
    assert (chart_now["2"]["parentId"], chart_now["2"]["type"]) == (None, "liability")
    # the parents count their sub-accounts (PUT and DELETE read these counts): "1" has 1101 (1),
    # 1101 has 110101 and 110102 (2), the leaves none
    assert {code: children(table, company_a, chart_now[code]["id"]) for code in chart_now} == {
        "1": 1, "1101": 2, "110101": 0, "110102": 0, "2": 0}
    retyped = api.put(f"{CHART}/{chart_now['1101']['id']}", {"type": "liability"}, key=company_a.api_key)
    assert retyped.json["code"] == "ACCOUNT_HAS_CHILDREN"


def test_the_trees_rules_and_duplicates_are_reported_per_row(api, table, company_a):
    post(api, company_a, "1", "Activo", "asset")
    checked, applied = run("chart", context(table, company_a), rows(
        {"code": "11", "name": "Corriente", "type": "asset", "parentCode": "1"},       # line 2: fine
        {"code": "11", "name": "Otra", "type": "asset"},                              # line 3: line 2's code
        {"code": "1", "name": "Activo", "type": "asset"},                             # line 4: in the chart
        {"code": "21", "name": "Proveedores", "type": "liability", "parentCode": "1"},  # line 5: asset parent
        {"code": "99", "name": "Huérfana", "type": "asset", "parentCode": "98"},      # line 6: no such parent
        {"code": "A", "name": "A", "type": "asset", "parentCode": "B"},                # lines 7 and 8: a cycle
        {"code": "B", "name": "B", "type": "asset", "parentCode": "A"},
        {"code": "X", "name": "X", "type": "otro"}))                                   # line 9: no such type
    assert applied is None
    assert problems(checked)[:4] == [
        (3, "code", "repeats the value of row 2"), (4, "code", "already used by another account"),
        (5, "parentCode", "a sub-account has its parent's type (asset)"), (6, "parentCode", "no such account")]
    assert [(row, column) for row, column, _ in problems(checked)[4:]] == [(7, "parentCode"), (8, "parentCode"),
                                                                           (9, "type")]
    assert sorted(accounts(api, company_a)) == ["1"]


def test_update_mode_renames_and_retypes_where_the_chart_allows(api, table, company_a):
    top = post(api, company_a, "6", "Gastos", "expense")
    post(api, company_a, "61", "Gastos de venta", "expense", top["id"])
    loose = post(api, company_a, "7", "Otros", "expense")
    checked, applied = run("chart", context(table, company_a, update=True), rows(
        {"code": "7", "name": "Otros ingresos", "type": "income"},              # no postings, no children: allowed
        {"code": "61", "name": "Gastos de ventas", "type": "expense", "parentCode": "6"}))
    assert checked.errors == [] and applied == {"created": 0, "updated": 2}
    now = accounts(api, company_a)
    assert (now["7"]["id"], now["7"]["name"], now["7"]["type"]) == (loose["id"], "Otros ingresos", "income")
    assert now["61"]["name"] == "Gastos de ventas"
    refused, _ = run("chart", context(table, company_a, job_id=2, update=True), rows(
        {"code": "6", "name": "Gastos", "type": "cost"},                 # it has a sub-account
        {"code": "61", "name": "Gastos de ventas", "type": "expense"}))  # moved to the top: not by an import
    assert [(row, column) for row, column, _ in problems(refused)] == [(2, "type"), (3, "parentCode")]
    assert problems(refused)[0][2] == "The account has sub-accounts: they share its type, so it cannot change."


def test_a_run_stopped_after_its_first_unit_lands_every_account_once(api, table, company_a, monkeypatch):
    # 40 accounts: "1" and 39 under it, listed children first
    file_rows = rows(*({"code": f"1{n:02d}", "name": f"Cuenta {n}", "type": "asset", "parentCode": "1"}
                       for n in range(1, 40)), {"code": "1", "name": "Activo", "type": "asset"})
    ctx = context(table, company_a, job_id=4)
    checked = chart_kind.KIND.check(ctx, file_rows)
    # 98 items // 3 a account = 32 accounts a unit: the parent (depth 1) first, then 31 + 8 children
    assert [len(unit.entries) for unit in checked.plan.creates] == [32, 8]
    assert checked.plan.creates[0].entries[0].fields["code"] == "1"
    real = chart.add_account
    # the 33rd account: the first of the second unit
    stop_at_call(monkeypatch, chart, "add_account", 33, RuntimeError("the Lambda stopped"))
    with pytest.raises(RuntimeError):
        chart_kind.KIND.apply(ctx, checked.plan)
    assert len(accounts(api, company_a)) == 32
    monkeypatch.setattr(chart, "add_account", real)
    again, applied = run("chart", ctx, file_rows)
    assert again.errors == [] and applied == {"created": 40, "updated": 0}
    now = accounts(api, company_a)
    assert len(now) == 40 and {now[f"1{n:02d}"]["parentId"] for n in range(1, 40)} == {now["1"]["id"]}
    # the parent counts 39 sub-accounts: 31 made with it in the first unit, 8 added by the second
    assert children(table, company_a, now["1"]["id"]) == 39
