"""Chart of accounts and account determination rules through the API: the default Honduran
chart, codes, the account tree, the counters that guard type changes, deactivation and
deletion, and rule upsert and resolution."""
from __future__ import annotations

import pytest

from chalicelib.domain.accounting import ACCOUNT_TYPES, OPERATION_TYPES
from chalicelib.services.identity import accounts as users
from tests.support import ORIGIN, RACES, Books


@pytest.fixture
def books(api, company_a):
    return Books(api, company_a, full=False)


def create(api, company, **fields):
    return api.post("/chart-of-accounts", {"code": "1999", "name": "Cuenta", "type": "asset", **fields},
                    key=company.api_key)


# --- the default chart ---------------------------------------------------------------------------

def test_import_default_is_a_usable_honduran_chart_and_idempotent(api, company_a):
    first = api.post("/chart-of-accounts/import-default", key=company_a.api_key)
    assert first.status == 201, first.text
    assert first.json["accountsCreated"] > 80 and first.json["rulesCreated"] >= len(OPERATION_TYPES)
    again = api.post("/chart-of-accounts/import-default", key=company_a.api_key)
    assert again.status == 200
    assert again.json == {"accountsCreated": 0, "rulesCreated": 0,
                          "accountsInChart": first.json["accountsInChart"], "rulesSkipped": []}
    listed = []
    for page in (1, 2):
        listed += api.get(f"/chart-of-accounts?limit=100&page={page}", key=company_a.api_key).json["accounts"]
    assert len(listed) == first.json["accountsCreated"]
    assert [a["code"] for a in listed] == sorted(a["code"] for a in listed)
    assert {a["type"] for a in listed} == set(ACCOUNT_TYPES)
    names = " | ".join(a["name"].lower() for a in listed)
    for needed in ("caja", "bancos", "clientes", "isv por pagar", "isv crédito fiscal", "retenciones",
                   "inventario", "anticipos de clientes", "anticipos a proveedores", "ventas",
                   "costo de mercadería vendida", "compras", "gastos"):
        assert needed in names, needed
    by_id = {a["id"]: a for a in listed}
    for account in listed:
        if account["parentId"] is not None:
            assert by_id[account["parentId"]]["type"] == account["type"]
            assert account["code"].startswith(by_id[account["parentId"]]["code"])


def test_the_default_rules_cover_every_operation_type(api, company_a):
    Books(api, company_a)
    for operation in OPERATION_TYPES:
        reply = api.post("/account-determination-rules/resolve", {"operationType": operation, "documentType": "01"},
                         key=company_a.api_key)
        assert reply.status == 200, (operation, reply.text)
        account = api.get(f"/chart-of-accounts/{reply.json['chartOfAccountId']}", key=company_a.api_key).json
        assert account["isActive"]
    sales = api.post("/account-determination-rules/resolve", {"operationType": "withholding", "documentType": "01"},
                     key=company_a.api_key).json
    purchases = api.post("/account-determination-rules/resolve",
                         {"operationType": "withholding", "documentType": "103"}, key=company_a.api_key).json
    assert sales["documentType"] is None and purchases["documentType"] == "103"
    assert sales["chartOfAccountId"] != purchases["chartOfAccountId"]


def test_import_completes_a_partial_chart_and_keeps_what_exists(api, company_a):
    mine = create(api, company_a, code="110101", name="Caja de la tienda").json
    reply = api.post("/chart-of-accounts/import-default", key=company_a.api_key)
    assert reply.status == 201
    kept = api.get(f"/chart-of-accounts/{mine['id']}", key=company_a.api_key).json
    assert kept["name"] == "Caja de la tienda"
    cash = api.post("/account-determination-rules/resolve", {"operationType": "cash"}, key=company_a.api_key).json
    assert cash["chartOfAccountId"] == mine["id"]


# --- create, list, get ---------------------------------------------------------------------------

def test_create_list_and_filter(api, company_a, books):
    created = create(api, company_a, code="110104", name="Caja dólares", description="USD en efectivo")
    assert created.status == 201, created.text
    assert created.json["normalBalance"] == "debit" and created.json["hasPostings"] is False
    listed = api.get("/chart-of-accounts", key=company_a.api_key).json
    assert listed["total"] == 7 and listed["page"] == 1 and listed["limit"] == 20
    assert [a["code"] for a in listed["accounts"]][:3] == ["110101", "110103", "110104"]
    assets = api.get("/chart-of-accounts?type=asset", key=company_a.api_key).json
    assert assets["total"] == 3 and {a["type"] for a in assets["accounts"]} == {"asset"}
    api.put(f"/chart-of-accounts/{created.json['id']}", {"isActive": False}, key=company_a.api_key)
    inactive = api.get("/chart-of-accounts?isActive=false", key=company_a.api_key).json
    assert [a["code"] for a in inactive["accounts"]] == ["110104"]
    paged = api.get("/chart-of-accounts?limit=2&page=2", key=company_a.api_key).json
    assert [a["code"] for a in paged["accounts"]] == ["110104", "210101"] and paged["total"] == 7
    bad = api.get("/chart-of-accounts?type=gold", key=company_a.api_key)
    assert bad.status == 400 and bad.json["details"][0]["field"] == "type"


def test_codes_are_unique_per_company(api, company_a, company_b, books):
    taken = create(api, company_a, code="110101")
    assert taken.status == 409 and taken.json["code"] == "ACCOUNT_CODE_TAKEN"
    assert taken.json["details"] == [{"field": "code", "message": "already used by another account"}]
    assert create(api, company_b, code="110101").status == 201
    assert api.get("/chart-of-accounts", key=company_a.api_key).json["total"] == 6


def test_a_parent_must_exist_and_share_the_type(api, company_a, books):
    missing = create(api, company_a, parentId=999)
    assert missing.status == 400 and missing.json["details"][0]["field"] == "parentId"
    other_type = create(api, company_a, parentId=books["410101"])
    assert other_type.status == 400 and "income" in other_type.json["details"][0]["message"]
    child = create(api, company_a, code="11010101", parentId=books["110101"])
    assert child.status == 201 and child.json["parentId"] == books["110101"]


def test_bad_codes_and_types_are_validation_errors(api, company_a):
    for fields in ({"code": ""}, {"code": "a#b"}, {"code": "x" * 31}, {"type": "gold"}, {"name": ""},
                   {"color": "red"}, {"parentId": "1"}):
        reply = create(api, company_a, **fields)
        assert reply.status == 400 and reply.json["code"] == "VALIDATION_ERROR", fields


# --- update --------------------------------------------------------------------------------------

def test_rename_and_recode_frees_the_old_code(api, company_a, books):
    path = f"/chart-of-accounts/{books['110101']}"
    renamed = api.put(path, {"code": "110100", "name": "Caja principal"}, key=company_a.api_key)
    assert renamed.status == 200, renamed.text
    assert renamed.json["code"] == "110100" and renamed.json["version"] == 2
    assert create(api, company_a, code="110101").status == 201
    assert create(api, company_a, code="110100").json["code"] == "ACCOUNT_CODE_TAKEN"
    codes = [a["code"] for a in api.get("/chart-of-accounts", key=company_a.api_key).json["accounts"]]
    assert codes[:2] == ["110100", "110101"]
    stale = api.put(path, {"name": "Otra", "version": 1}, key=company_a.api_key)
    assert stale.status == 409 and stale.json["code"] == "VERSION_CONFLICT"


def test_an_account_with_postings_keeps_its_type(api, company_a, books):
    books.entry("2026-11-02", ("110101", 10, 0), ("410101", 0, 10))
    reply = api.put(f"/chart-of-accounts/{books['110101']}", {"type": "expense"}, key=company_a.api_key)
    assert reply.status == 400 and reply.json["code"] == "ACCOUNT_HAS_POSTINGS"
    assert api.get(f"/chart-of-accounts/{books['110101']}", key=company_a.api_key).json["hasPostings"] is True
    unused = api.put(f"/chart-of-accounts/{books['110103']}", {"type": "expense"}, key=company_a.api_key)
    assert unused.status == 200 and unused.json["normalBalance"] == "debit"


def test_a_parent_keeps_its_type_and_the_tree_has_no_cycles(api, company_a, books):
    child = create(api, company_a, code="11010101", parentId=books["110101"]).json
    grandchild = create(api, company_a, code="1101010101", parentId=child["id"]).json
    retype = api.put(f"/chart-of-accounts/{books['110101']}", {"type": "expense"}, key=company_a.api_key)
    assert retype.status == 400 and retype.json["code"] == "ACCOUNT_HAS_CHILDREN"
    cycle = api.put(f"/chart-of-accounts/{books['110101']}", {"parentId": grandchild["id"]}, key=company_a.api_key)
    assert cycle.status == 400 and cycle.json["details"][0]["field"] == "parentId"
    itself = api.put(f"/chart-of-accounts/{child['id']}", {"parentId": child["id"]}, key=company_a.api_key)
    assert itself.status == 400
    moved = api.put(f"/chart-of-accounts/{grandchild['id']}", {"parentId": books["110103"]}, key=company_a.api_key)
    assert moved.status == 200 and moved.json["parentId"] == books["110103"]
    top = api.put(f"/chart-of-accounts/{grandchild['id']}", {"parentId": None}, key=company_a.api_key)
    assert top.status == 200 and top.json["parentId"] is None


def test_the_tree_is_bounded_so_no_deep_move_makes_a_cycle(api, company_a, books):
    chain = [books["110101"]]
    for level in range(2, 20):
        reply = create(api, company_a, code=f"L{level:02d}", parentId=chain[-1])
        if reply.status == 400:
            assert "levels" in reply.json["details"][0]["message"]
            break
        chain.append(reply.json["id"])
    assert len(chain) == 12  # the chart is at most twelve levels deep
    cycle = api.put(f"/chart-of-accounts/{chain[0]}", {"parentId": chain[-1]}, key=company_a.api_key)
    assert cycle.status == 400 and cycle.json["details"][0]["field"] == "parentId"
    assert api.get(f"/chart-of-accounts/{chain[0]}", key=company_a.api_key).json["parentId"] is None


@RACES
def test_concurrent_imports_all_succeed_and_create_each_account_once(api, company_a):
    from concurrent.futures import ThreadPoolExecutor

    with ThreadPoolExecutor(3) as pool:
        replies = list(pool.map(lambda _: api.post("/chart-of-accounts/import-default", key=company_a.api_key),
                                range(3)))
    assert sorted(r.status for r in replies) in ([200, 200, 201], [200, 201, 201], [201, 201, 201]), \
        [r.text for r in replies]
    # every account once; the counts are each request's last attempt's: a request whose batch collided
    # runs again and no longer counts the batches it had committed (seen on a loaded machine)
    created = sum(r.json["accountsCreated"] for r in replies)
    listed = api.get("/chart-of-accounts?limit=100&page=2", key=company_a.api_key).json
    assert listed["total"] == replies[0].json["accountsInChart"] >= created
    codes = [account["code"] for page in (1, 2) for account in api.get(
        f"/chart-of-accounts?limit=100&page={page}", key=company_a.api_key).json["accounts"]]
    assert len(codes) == len(set(codes)) == listed["total"]
    assert api.get("/account-determination-rules", key=company_a.api_key).json["total"] == \
        sum(r.json["rulesCreated"] for r in replies)


def test_an_account_a_rule_points_at_stays_active(api, company_a, books):
    api.post("/account-determination-rules", {"operationType": "cash", "chartOfAccountId": books["110101"]},
             key=company_a.api_key)
    reply = api.put(f"/chart-of-accounts/{books['110101']}", {"isActive": False}, key=company_a.api_key)
    assert reply.status == 400 and reply.json["code"] == "ACCOUNT_IN_USE"
    api.post("/account-determination-rules", {"operationType": "cash", "chartOfAccountId": books["110103"]},
             key=company_a.api_key)
    freed = api.put(f"/chart-of-accounts/{books['110101']}", {"isActive": False}, key=company_a.api_key)
    assert freed.status == 200 and freed.json["isActive"] is False


# --- postings against changes of the account ------------------------------------------------------

def chart_items_written(table, send):
    """The chart items a request's transactions write (the accounts' `postingCount`)."""
    written = []

    def record(params, **_):
        for operation in params["TransactItems"]:
            request = next(iter(operation.values()))
            if request["Key" if "Key" in request else "Item"]["PK"]["S"].endswith("#CHART"):
                written.append(int(request["Key" if "Key" in request else "Item"]["SK"]["S"]))
    table.client.meta.events.register("before-parameter-build.dynamodb.TransactWriteItems", record)
    try:
        reply = send()
    finally:
        table.client.meta.events.unregister("before-parameter-build.dynamodb.TransactWriteItems", record)
    assert reply.status < 300, reply.text
    return sorted(written)


def test_only_an_account_s_first_postings_write_its_chart_item(api, table, company_a, books):
    cash, sales = books["110101"], books["410101"]
    first = chart_items_written(table, lambda: api.post("/journal-entries", {
        "date": "2026-11-02", "status": "posted", "lines": [{"chartOfAccountId": cash, "debit": 10, "credit": 0},
                                                            {"chartOfAccountId": sales, "debit": 0, "credit": 10}]},
        key=company_a.api_key))
    assert first == sorted([cash, sales])  # from 0 postings to some: the guard is written
    again = chart_items_written(table, lambda: api.post("/journal-entries", {
        "date": "2026-11-03", "status": "posted", "lines": [{"chartOfAccountId": cash, "debit": 5, "credit": 0},
                                                            {"chartOfAccountId": sales, "debit": 0, "credit": 5}]},
        key=company_a.api_key))
    assert again == []  # both already have postings: nothing to guard, no chart item written
    assert api.get(f"/chart-of-accounts/{cash}", key=company_a.api_key).json["hasPostings"] is True
    # cash: 10 + 5 debited
    assert books.ledger("110101")["closingBalance"] == 15


@RACES
def test_an_account_s_first_posting_and_its_deletion_never_both_happen(api, monkeypatch, company_a, books):
    from tests.race_support import hold_at_commit

    cookie = api.login(company_a.email)
    unused, sales = books["110103"], books["410101"]
    race = hold_at_commit(
        monkeypatch,
        lambda: api.post("/journal-entries", {"date": "2026-11-02", "status": "posted", "lines": [
            {"chartOfAccountId": unused, "debit": 10, "credit": 0},
            {"chartOfAccountId": sales, "debit": 0, "credit": 10}]}, key=company_a.api_key),
        lambda: api.delete(f"/chart-of-accounts/{unused}", cookie=cookie, origin=ORIGIN))
    assert race.other.status == 200  # deleted while the entry was in flight
    assert race.lost == 1  # the entry's condition on the account failed...
    assert race.held.status == 400 and race.held.json["code"] == "INVALID_ACCOUNT"  # ...and it was refused
    assert books.trial_balance()["accounts"] == []  # nothing posted, to the deleted account or any


@RACES
def test_a_posting_beside_a_deactivation_of_an_account_with_postings_is_as_if_it_came_first(
        api, monkeypatch, company_a, books):
    from tests.race_support import hold_at_commit

    books.entry("2026-11-02", ("110101", 10, 0), ("410101", 0, 10))
    path = f"/chart-of-accounts/{books['110101']}"
    race = hold_at_commit(
        monkeypatch, lambda: books.entry("2026-11-03", ("110101", 5, 0), ("410101", 0, 5)),
        lambda: api.put(path, {"isActive": False}, key=company_a.api_key))
    assert race.other.status == 200 and race.lost == 0  # neither waits on the other
    assert race.held["status"] == "posted"
    # 10 + 5: the entry read the account active, and the deactivation changed nothing it wrote
    assert books.ledger("110101")["closingBalance"] == 15
    # from now on the account takes no posting, and it still has postings
    refused = books.entry("2026-11-04", ("110101", 1, 0), ("410101", 0, 1), expect=400)
    assert refused["code"] == "INVALID_ACCOUNT"
    assert api.put(path, {"type": "expense"}, key=company_a.api_key).json["code"] == "ACCOUNT_HAS_POSTINGS"


# --- delete (web app only) -----------------------------------------------------------------------

def test_delete_is_web_only_and_guarded(api, company_a, books):
    assert api.delete(f"/chart-of-accounts/{books['6199']}", key=company_a.api_key).json["code"] == \
        "API_KEY_DELETE_FORBIDDEN"
    cookie = api.login(company_a.email)

    def delete(account_id):
        return api.delete(f"/chart-of-accounts/{account_id}", cookie=cookie, origin=ORIGIN)

    books.entry("2026-11-02", ("110101", 10, 0), ("410101", 0, 10))
    assert delete(books["110101"]).json["code"] == "ACCOUNT_HAS_POSTINGS"
    child = create(api, company_a, code="619901", name="Sub", type="expense", parentId=books["6199"]).json
    assert delete(books["6199"]).json["code"] == "ACCOUNT_HAS_CHILDREN"
    api.post("/account-determination-rules", {"operationType": "bank", "chartOfAccountId": books["110103"]},
             key=company_a.api_key)
    assert delete(books["110103"]).json["code"] == "ACCOUNT_IN_USE"
    gone = delete(child["id"])
    assert gone.status == 200 and gone.json == {"id": child["id"], "deleted": True}
    assert api.get(f"/chart-of-accounts/{child['id']}", key=company_a.api_key).status == 404
    assert delete(books["6199"]).status == 200   # its last sub-account is gone
    assert create(api, company_a, code="6199", type="expense").status == 201  # the code is free again


# --- determination rules -------------------------------------------------------------------------

def test_rules_upsert_on_document_and_operation_type(api, company_a, books):
    created = api.post("/account-determination-rules", {"operationType": "revenue", "chartOfAccountId":
                                                        books["410101"]}, key=company_a.api_key)
    assert created.status == 201, created.text
    specific = api.post("/account-determination-rules", {"operationType": "revenue", "documentType": "06",
                                                         "chartOfAccountId": books["6199"]}, key=company_a.api_key)
    assert specific.status == 201 and specific.json["id"] != created.json["id"]
    moved = api.post("/account-determination-rules", {"operationType": "revenue", "documentType": "06",
                                                      "chartOfAccountId": books["110103"]}, key=company_a.api_key)
    assert moved.status == 200 and moved.json["id"] == specific.json["id"]
    assert moved.json["chartOfAccountId"] == books["110103"] and moved.json["version"] == 2
    listed = api.get("/account-determination-rules", key=company_a.api_key).json
    assert listed["total"] == 2 and len(listed["rules"]) == 2
    only = api.get("/account-determination-rules?documentType=06", key=company_a.api_key).json
    assert [r["id"] for r in only["rules"]] == [specific.json["id"]]

    def resolve(**body):
        return api.post("/account-determination-rules/resolve", body, key=company_a.api_key)

    assert resolve(operationType="revenue", documentType="06").json["chartOfAccountId"] == books["110103"]
    assert resolve(operationType="revenue", documentType="01").json["chartOfAccountId"] == books["410101"]
    assert resolve(operationType="revenue").json["ruleId"] == created.json["id"]
    missing = resolve(operationType="inventory", documentType="01")
    assert missing.status == 400 and missing.json["code"] == "ACCOUNT_RULE_MISSING"
    bad_type = resolve(operationType="revenue", documentType="99")
    assert bad_type.status == 400 and bad_type.json["details"][0]["field"] == "documentType"


def test_a_rule_needs_an_active_account_of_the_company(api, company_a, company_b, books):
    other = Books(api, company_b, full=False)
    foreign = api.post("/account-determination-rules", {"operationType": "cash",
                                                        "chartOfAccountId": other["110101"] + 100},
                       key=company_a.api_key)
    assert foreign.status == 400 and foreign.json["code"] == "INVALID_ACCOUNT"
    api.put(f"/chart-of-accounts/{books['110103']}", {"isActive": False}, key=company_a.api_key)
    inactive = api.post("/account-determination-rules", {"operationType": "bank",
                                                         "chartOfAccountId": books["110103"]}, key=company_a.api_key)
    assert inactive.status == 400 and inactive.json["code"] == "INVALID_ACCOUNT"
    assert api.get("/account-determination-rules", key=company_a.api_key).json["total"] == 0


# --- who may change the books ----------------------------------------------------------------------

def test_sellers_read_the_books_but_do_not_change_them(api, table, company_a, books):
    seller = users.create_user(table, "vendedor@alpha.hn", "correct horse battery")
    users.add_member(table, company_a.company_id, seller["id"], "seller")
    cookie = api.login("vendedor@alpha.hn")
    assert api.get("/chart-of-accounts", cookie=cookie).status == 200
    for path, body in (("/chart-of-accounts", {"code": "9", "name": "X", "type": "asset"}),
                       ("/accounting-periods", {"name": "P", "startDate": "2026-01-01", "endDate": "2026-01-31"}),
                       ("/journal-entries", {"date": "2026-01-01", "lines": []})):
        reply = api.post(path, body, cookie=cookie, origin=ORIGIN)
        assert reply.status == 403 and reply.json["code"] == "PERMISSION_DENIED", path


def test_another_companys_accounts_are_404(api, company_a, company_b, books):
    key_b = company_b.api_key
    assert api.get(f"/chart-of-accounts/{books['110101']}", key=key_b).status == 404
    assert api.put(f"/chart-of-accounts/{books['110101']}", {"name": "Mía"}, key=key_b).status == 404
    assert api.get(f"/journal-entries/ledger?chartOfAccountId={books['110101']}", key=key_b).status == 404
    assert api.get("/chart-of-accounts", key=key_b).json["total"] == 0
