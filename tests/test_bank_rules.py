"""Bank rules (issue 42): CRUD with their checks, priority order, the auto-create selection (which
rule, which account, one failure not stopping the others), tenant isolation and roles."""
from __future__ import annotations

from decimal import Decimal

import pytest

from chalicelib.auth.principal import API_KEY, Principal
from chalicelib.services.commands import Command
from chalicelib.services.statements import auto_rules, matching
from chalicelib.store import keys
from tests.statement_lines_support import put_lines
from tests.support import ORIGIN
from tests.test_reconciliations import bank_account, opened_books
from tests.users_support import member

D = Decimal


@pytest.fixture
def books(api, company_a):
    return opened_books(api, company_a)


def commission_rule(books, **fields) -> dict:
    return {"name": "Comisiones BAC", "conditions": [{"field": "description", "operator": "contains",
                                                      "value": "comision"}],
            "action": {"chartOfAccountId": books["6199"], "taxRate": "0.15", "description": "Comisión bancaria"},
            **fields}


def create(books, body: dict, expect: int = 201) -> dict:
    reply = books.api.post("/bank-rules", body, key=books.key)
    assert reply.status == expect, reply.text
    return reply.json


def test_create_read_list_update_delete(api, books, company_a):
    first = create(books, commission_rule(books))
    assert (first["priority"], first["match"], first["autoCreate"], first["isActive"]) == (10, "all", False, True)
    assert first["action"] == {"chartOfAccountId": books["6199"], "businessPartnerId": None, "taxRate": D("0.15"),
                               "description": "Comisión bancaria"}
    # default priority: after the last (10 + 10)
    second = create(books, commission_rule(books, name="Depósitos", priority=None,
                                           conditions=[{"field": "direction", "operator": "equals", "value": "in"},
                                                       {"field": "amount", "operator": "between",
                                                        "value": ["100", 2500.5]}], match="any"))
    assert second["priority"] == 20
    assert second["conditions"][1]["value"] == [D("100"), D("2500.5")]
    early = create(books, commission_rule(books, name="Primero", priority=5))
    listed = api.get("/bank-rules", key=books.key).json
    assert [r["id"] for r in listed["bankRules"]] == [early["id"], first["id"], second["id"]]  # 5, 10, 20
    assert (listed["total"], listed["page"]) == (3, 1)
    assert api.get(f"/bank-rules/{first['id']}", key=books.key).json == first
    # sparse PUT, under the version when one is sent
    changed = api.put(f"/bank-rules/{first['id']}", {"priority": 30, "autoCreate": True, "version": 1}, key=books.key)
    assert changed.status == 200, changed.text
    assert (changed.json["priority"], changed.json["autoCreate"], changed.json["name"], changed.json["version"]) == \
        (30, True, "Comisiones BAC", 2)
    stale = api.put(f"/bank-rules/{first['id']}", {"name": "Otra", "version": 1}, key=books.key)
    assert stale.status == 409, stale.text
    order = [r["id"] for r in api.get("/bank-rules", key=books.key).json["bankRules"]]
    assert order == [early["id"], second["id"], first["id"]]  # 5, 20, 30
    assert api.delete(f"/bank-rules/{early['id']}", key=books.key).status == 403  # web app only
    gone = api.delete(f"/bank-rules/{early['id']}", cookie=api.login(company_a.email), origin=ORIGIN)
    assert gone.status == 200, gone.text
    assert api.get(f"/bank-rules/{early['id']}", key=books.key).status == 404
    assert api.get("/bank-rules", key=books.key).json["total"] == 2


@pytest.mark.parametrize("change, field", [
    ({"conditions": []}, "conditions"),
    ({"conditions": [{"field": "description", "operator": "contains", "value": "x"}] * 11}, "conditions"),
    ({"conditions": [{"field": "amount", "operator": "between", "value": [30, 20]}]}, "conditions[0]"),
    ({"conditions": [{"field": "amount", "operator": "between", "value": 20}]}, "conditions[0]"),
    ({"conditions": [{"field": "amount", "operator": "contains", "value": 20}]}, "conditions[0]"),
    ({"conditions": [{"field": "description", "operator": "between", "value": "x"}]}, "conditions[0]"),
    ({"conditions": [{"field": "direction", "operator": "equals", "value": "sideways"}]}, "conditions[0]"),
    ({"conditions": [{"field": "memo", "operator": "equals", "value": "x"}]}, "conditions[0].field"),
    ({"match": "most"}, "match"),
    ({"action": {"chartOfAccountId": 999999}}, "action.chartOfAccountId"),
    ({"action": {"chartOfAccountId": "BANK"}}, "action.chartOfAccountId"),         # the bank's ledger: control
    ({"action": {"chartOfAccountId": "6199", "businessPartnerId": 999999}}, "action.businessPartnerId"),
    ({"action": {"chartOfAccountId": "6199", "taxRate": "0.13"}}, "action.taxRate"),  # El Salvador's, not HN's
    ({"bankAccountId": 999999}, "bankAccountId"),
])
def test_refusals_name_the_field_and_store_nothing(api, books, change, field):
    bank_account(books)  # its ledger 110103 is a control account
    if "action" in change:
        action = dict(change["action"])
        code = {"BANK": "110103", "6199": "6199"}.get(action["chartOfAccountId"])
        if code:
            action["chartOfAccountId"] = books[code]
        change = {"action": action}
    reply = api.post("/bank-rules", {**commission_rule(books), **change}, key=books.key)
    assert reply.status == 400, reply.text
    assert any(detail["field"] == field for detail in reply.json["details"]), reply.text
    assert api.get("/bank-rules", key=books.key).json["total"] == 0


def test_an_inactive_account_is_refused_on_create_and_update(api, books):
    rule = create(books, commission_rule(books))
    made = api.put(f"/chart-of-accounts/{books['6199']}", {"isActive": False}, key=books.key)
    assert made.status == 200, made.text
    refused = api.post("/bank-rules", commission_rule(books), key=books.key)
    assert (refused.status, refused.json["details"][0]["field"]) == (400, "action.chartOfAccountId"), refused.text
    refused = api.put(f"/bank-rules/{rule['id']}", {"action": {"chartOfAccountId": books["6199"]}}, key=books.key)
    assert (refused.status, refused.json["details"][0]["field"]) == (400, "action.chartOfAccountId"), refused.text


def test_another_companys_rule_is_not_found(api, books, company_b):
    mine = create(books, commission_rule(books))
    theirs = opened_books(api, company_b)
    assert api.get(f"/bank-rules/{mine['id']}", key=theirs.key).status == 404
    assert api.put(f"/bank-rules/{mine['id']}", {"name": "x"}, key=theirs.key).status == 404
    their_session = api.login(company_b.email)
    assert api.delete(f"/bank-rules/{mine['id']}", cookie=their_session, origin=ORIGIN).status == 404
    assert api.get("/bank-rules", key=theirs.key).json["total"] == 0
    # B's own bank account does not exist for A
    other_account = bank_account(theirs)["id"]
    own = [a["id"] for a in api.get("/bank-accounts", key=books.key).json["bankAccounts"]]
    if other_account not in own:
        refused = api.post("/bank-rules", commission_rule(books, bankAccountId=other_account), key=books.key)
        assert refused.status == 400 and refused.json["details"][0]["field"] == "bankAccountId", refused.text
    assert api.get(f"/bank-rules/{mine['id']}", key=books.key).json == mine


def test_roles_as_for_bank_transactions(api, table, books, company_a):
    rule = create(books, commission_rule(books))
    _, viewer = member(api, table, company_a, "lector@alpha.example", "viewer")
    _, seller = member(api, table, company_a, "vendedor@alpha.example", "seller")
    assert api.get("/bank-rules", cookie=viewer).status == 200
    assert api.get(f"/bank-rules/{rule['id']}", cookie=viewer).status == 200
    assert api.post("/bank-rules", commission_rule(books), cookie=viewer, origin=ORIGIN).status == 403
    assert api.put(f"/bank-rules/{rule['id']}", {"name": "x"}, cookie=viewer, origin=ORIGIN).status == 403
    assert api.delete(f"/bank-rules/{rule['id']}", cookie=viewer, origin=ORIGIN).status == 403
    # a seller records bank transactions: it keeps rules too
    made = api.post("/bank-rules", commission_rule(books, name="Del vendedor"), cookie=seller, origin=ORIGIN)
    assert made.status == 201, made.text


# --- applying: which rule, which account ------------------------------------------------------------

def test_auto_rules_apply_the_first_in_priority_to_their_account_only(api, table, books, company_a, monkeypatch):
    """The selection alone (match_line faked: the match helper's part): one call per line the
    first active autoCreate rule covers; a line whose match fails stays and the others go on."""
    checking = bank_account(books)["id"]
    savings = bank_account(books, name="Ahorros", code="110101", opening="0.00")["id"]
    broad = create(books, commission_rule(books, name="Toda salida", priority=50, autoCreate=True,
                                          conditions=[{"field": "direction", "operator": "equals", "value": "out"}]))
    narrow = create(books, commission_rule(books, name="Comisión", priority=10, autoCreate=True))
    create(books, commission_rule(books, name="Solo ahorros", priority=1, autoCreate=True, bankAccountId=savings))
    create(books, commission_rule(books, name="Sin crear", priority=2))                       # proposes only
    create(books, commission_rule(books, name="Inactiva", priority=3, autoCreate=True, isActive=False))
    ids = put_lines(table, company_a.company_id, checking, [
        ("2026-11-03", "-25.30", "COMISIÓN POR MANEJO", "CM1"),   # narrow (10) before broad (50)
        ("2026-11-04", "-100.00", "Pago proveedor", None),        # broad only
        ("2026-11-05", "1500.00", "Depósito", None),              # none: money in, no commission
        ("2026-11-06", "-5.00", "comision cheque", None),         # narrow, but its match fails
    ])
    calls = []

    def fake_match(command, account_id, line_id, body):
        calls.append((account_id, line_id, body["ruleId"]))
        assert command.idempotency is None and command.company_id == company_a.company_id
        if line_id == ids[3]:
            from chalicelib.errors import ValidationFailed
            raise ValidationFailed.for_field("create.chartOfAccountId", "the account is inactive")
        assert body["create"]["chartOfAccountId"] == books["6199"]
        return {}

    monkeypatch.setattr(matching, "match_line", fake_match)
    lines = [table.get({"PK": f"C#{company_a.company_id}#BANKLINE#{checking}", "SK": f"{i:012d}"}) for i in ids]
    command = Command(principal=_principal(company_a), table=table)
    account = api.get(f"/bank-accounts/{checking}", key=books.key).json
    created = auto_rules.apply_auto_rules(command, account, lines)
    assert calls == [(checking, ids[0], narrow["id"]), (checking, ids[1], broad["id"]),
                     (checking, ids[3], narrow["id"])]
    assert created == 2  # the fourth failed


def _principal(company) -> Principal:
    return Principal(kind=API_KEY, company_id=company.company_id, user_id=company.user_id, role="owner")


# --- applying for real (matching.match_line, merged from i42-match) -----------------------------------

def test_an_auto_create_rule_creates_the_commission_with_its_tax_and_not_on_another_account(api, table, company_a):
    from tests.bank_matching_support import balance_of, second_ledger
    from tests.bank_matching_support import bank_account as shop_bank_account
    from tests.documents_support import Shop

    shop = Shop(api, company_a)
    checking = shop_bank_account(shop)
    second_ledger(shop)
    savings = shop_bank_account(shop, code="110104", opening="0.00", name="Ahorro")
    rule = create(shop.books, {"name": "Comisiones", "autoCreate": True, "priority": 10, "conditions": [
        {"field": "description", "operator": "contains", "value": "comision"},
        {"field": "direction", "operator": "equals", "value": "out"}],
        "action": {"chartOfAccountId": shop.books["6199"], "taxRate": "0.15"}})
    create(shop.books, {"name": "Solo ahorro", "autoCreate": True, "priority": 1, "bankAccountId": savings["id"],
                        "conditions": [{"field": "amount", "operator": "between", "value": [1, 100]}],
                        "action": {"chartOfAccountId": shop.books["410101"]}})
    fee, deposit = put_lines(table, company_a.company_id, checking["id"], [
        ("2026-11-06", "-57.50", "COMISIÓN MANEJO CUENTA", "COM-11"), ("2026-11-07", "80.00", "Depósito", None)])
    lines = [table.get(keys.statement_line(company_a.company_id, checking["id"], i)) for i in (fee, deposit)]
    owner = Command(principal=_principal(company_a), table=table)
    assert auto_rules.apply_auto_rules(owner, checking, lines) == 1  # the savings rule does not touch checking
    def stored(line_id):  # the lines' GET route is another helper's: the stored line
        return table.get(keys.statement_line(company_a.company_id, checking["id"], line_id))

    matched = stored(fee)
    assert (matched["status"], matched["match"]["kind"], matched["match"]["ruleId"]) == ("matched", "create", rule["id"])
    # 57.50 includes 15%: base 57.50 / 1.15 = 50.00 to 6199, tax 57.50 - 50.00 = 7.50 to input tax 110401
    assert shop.entry_lines(matched["match"]["journalEntryId"]) == {
        "6199": (D("50.00"), 0), "110401": (D("7.50"), 0), "110103": (0, D("57.50"))}
    assert balance_of(shop, checking["id"]) == D("942.50")  # 1,000.00 - 57.50
    assert stored(deposit)["status"] == "unmatched"
    # run again (a re-delivered import): the matched line refuses, nothing is created twice
    assert auto_rules.apply_auto_rules(owner, checking, lines) == 0
    assert balance_of(shop, checking["id"]) == D("942.50")


def test_a_race_lost_by_an_auto_rule_reruns_that_line_only_never_the_import(books, monkeypatch):
    from chalicelib.store.transaction import LostRace
    from tests.test_bank_statement_imports import bac_csv, lines_of, save_mapping, statements_path, upload

    account = bank_account(books, opening="1000.00")
    save_mapping(books, account["id"])
    # no tax rate: these books have no account for input tax
    create(books, commission_rule(books, autoCreate=True, action={"chartOfAccountId": books["6199"]}))
    real, raised = matching.match_line, []

    def loses_once(*args, **kwargs):
        if not raised:
            raised.append(1)
            raise LostRace()   # e.g. the journal entry's number taken by another command meanwhile
        return real(*args, **kwargs)

    monkeypatch.setattr(matching, "match_line", loses_once)
    statement = upload(books, account["id"], bac_csv()).json
    # the file's 4 lines, the commission (line 2, "Comisión por manejo de cuenta") matched on the second try
    assert (statement["linesImported"], statement["linesSkipped"], statement["linesAutoMatched"]) == (4, 0, 1)
    statements = books.api.get(statements_path(account["id"]), key=books.key).json["statements"]
    assert [(each["id"], each["status"]) for each in statements] == [(statement["id"], "imported")]
    assert lines_of(books, account["id"], "status=matched")["total"] == 1


def test_a_race_lost_on_every_attempt_leaves_the_line_unmatched_and_the_import_done(books, monkeypatch):
    from chalicelib.store import transaction
    from chalicelib.store.transaction import LostRace
    from tests.test_bank_statement_imports import bac_csv, lines_of, save_mapping, statements_path, upload

    account = bank_account(books, opening="1000.00")
    save_mapping(books, account["id"])
    create(books, commission_rule(books, autoCreate=True))
    monkeypatch.setattr(transaction, "back_off", lambda *args: None)

    def always_loses(*args, **kwargs):
        raise LostRace()

    monkeypatch.setattr(matching, "match_line", always_loses)
    statement = upload(books, account["id"], bac_csv()).json
    assert (statement["linesImported"], statement["linesAutoMatched"]) == (4, 0)
    assert len(books.api.get(statements_path(account["id"]), key=books.key).json["statements"]) == 1
    assert lines_of(books, account["id"], "status=unmatched")["total"] == 4
