"""The `partners` import kind run directly (rows as Row objects): each row checked as POST
/business-partners checks it, duplicates by tax id in the file and in the company, many partners a
transaction, a run again after a fault landing every row once, update mode, HN and SV tax ids."""
from __future__ import annotations

import base64

import pytest

from chalicelib.services.imports import partners as partners_kind
from chalicelib.services.sales_purchases import partners
from tests.import_jobs_support import invoke_worker, jobs_queue, receive  # noqa: F401 (jobs_queue: a fixture)
from tests.import_kinds_support import context, problems, rows, run, stop_at_call

pytestmark = pytest.mark.usefixtures("files_bucket")  # their jobs keep the uploaded file in S3

PARTNERS = "/business-partners"


def client_row(n: int) -> dict[str, str]:
    # RTN: 0801 1999 + the row's number in 6 digits = 14 digits
    return {"name": f"Cliente {n:03d}", "type": "customer", "taxId": f"0801-1999-{n:06d}", "email": f"c{n}@x.hn"}


def two_hundred(bad: bool) -> list[dict[str, str]]:
    values = [client_row(n) for n in range(1, 201)]
    if bad:
        # client n sits on line n + 1 (the heading is line 1)
        values[48]["email"] = "not-an-address"   # client 49, line 50
        values[118]["taxId"] = "0801-1999-12"    # client 119, line 120: 10 digits
        values[178]["type"] = "vendor"           # client 179, line 180
    return values


def listed(api, company, query: str = "") -> dict:
    reply = api.get(f"{PARTNERS}?limit=100{'&q=' + query if query else ''}", key=company.api_key)
    assert reply.status == 200, reply.text
    return reply.json


def test_a_200_row_file_with_3_bad_rows_names_exactly_those_and_stores_nothing(api, table, company_a):
    checked, applied = run("partners", context(table, company_a), rows(*two_hundred(bad=True)))
    assert applied is None
    assert [(row, column) for row, column, _ in problems(checked)] == [(50, "email"), (120, "taxId"), (180, "type")]
    assert "RTN of 14 digits" in checked.errors[1].message
    assert listed(api, company_a)["total"] == 0


def test_a_run_stopped_after_its_first_unit_lands_every_partner_once_when_run_again(api, table, company_a,
                                                                                      monkeypatch):
    ctx = context(table, company_a, job_id=7)
    checked = partners_kind.KIND.check(ctx, rows(*two_hundred(bad=False)))
    # a partner's items: itself, its RTN's reservation and 8 search terms ("cliente", "001",
    # "cliente001", the RTN's 14 digits, "c1", "x", "hn", "c1xhn") = 10; a unit adds the count item once:
    # 9 partners = 91 items <= 98, 10 = 101 > 98. 200 rows = 22 units of 9 (198) + 1 of 2 = 23 units
    assert [len(unit.entries) for unit in checked.plan.creates] == [9] * 22 + [2]

    real = partners.add_partner_batch
    stop_at_call(monkeypatch, partners, "add_partner_batch", 2, RuntimeError("the Lambda stopped"))
    with pytest.raises(RuntimeError):
        partners_kind.KIND.apply(ctx, checked.plan)
    assert listed(api, company_a)["total"] == 9  # the first unit only
    monkeypatch.setattr(partners, "add_partner_batch", real)

    # the run again: the 9 landed rows are this job's (not duplicates), their unit is skipped
    again, applied = run("partners", ctx, rows(*two_hundred(bad=False)))
    assert again.errors == [] and applied == {"created": 200, "updated": 0}
    everyone = listed(api, company_a)
    assert everyone["total"] == 200
    found = listed(api, company_a, "cliente 119")
    assert [(p["name"], p["taxId"], p["email"]) for p in found["businessPartners"]] == [
        ("Cliente 119", "08011999000119", "c119@x.hn")]
    assert found["total"] == 1
    one = api.get(f"{PARTNERS}/{found['businessPartners'][0]['id']}", key=company_a.api_key).json
    assert (one["type"], one["isActive"], one["receivableBalance"], one["version"]) == ("customer", True, 0, 1)
    # every RTN reserved once, each by its own partner
    assert len(partners.tax_id_holders(table, company_a.company_id)) == 200
    # an import announces nothing (docs/decisions.md, issue 41): no partner.created events
    assert table.query_all(partition=("PK", f"C#{company_a.company_id}#EVT")) == []


def test_a_tax_id_repeated_in_the_file_or_taken_by_an_existing_partner_is_reported_per_row(api, table, company_a):
    existing = api.post(PARTNERS, {"name": "Maya S.A.", "type": "customer", "taxId": "08011999123456"},
                        key=company_a.api_key)
    assert existing.status == 201
    checked, applied = run("partners", context(table, company_a), rows(
        {"name": "Uno", "type": "customer", "taxId": "0801-1999-000001"},        # line 2
        {"name": "Dos", "type": "supplier", "taxId": "08011999000001"},          # line 3: line 2's, typed otherwise
        {"name": "Maya proveedor", "type": "supplier", "taxId": "0801-1999-123456"},  # line 4: the existing one's
        {"name": "Tres", "type": "customer", "taxId": "0801 1999 000001"}))      # line 5: line 2's again
    assert applied is None
    assert problems(checked) == [(3, "taxId", "repeats the value of row 2"),
                                 (4, "taxId", "already used by another business partner"),
                                 (5, "taxId", "repeats the value of row 2")]
    assert listed(api, company_a)["total"] == 1


def test_update_mode_updates_the_existing_partner_with_the_rows_columns(api, table, company_a):
    made = api.post(PARTNERS, {"name": "Maya S.A.", "type": "customer", "taxId": "08011999123456",
                               "phone": "2234-0000", "credit_limit": "1000.00"}, key=company_a.api_key).json
    checked, applied = run("partners", context(table, company_a, update=True), rows(
        {"name": "Maya Nueva S.A.", "type": "ambos", "taxId": "0801-1999-123456", "credit_limit": "5,000.00"},
        {"name": "Otro", "type": "Proveedor", "taxId": "08011999000002", "isActive": "no"}))
    assert checked.errors == [] and applied == {"created": 1, "updated": 1}
    after = api.get(f"{PARTNERS}/{made['id']}", key=company_a.api_key).json
    # the row's columns changed; the phone, which the row leaves out, stays
    assert (after["name"], after["type"], after["credit_limit"], after["phone"], after["version"]) == (
        "Maya Nueva S.A.", "both", 5000, "2234-0000", 2)
    assert [p["id"] for p in listed(api, company_a, "nueva")["businessPartners"]] == [made["id"]]
    assert listed(api, company_a)["total"] == 2  # one partner added, the updated one counted once
    other = listed(api, company_a, "otro")["businessPartners"][0]
    assert (other["type"], other["isActive"]) == ("supplier", False)
    # without update mode, the same file refuses the first row
    refused, _ = run("partners", context(table, company_a, job_id=2), rows(
        {"name": "Maya", "type": "customer", "taxId": "08011999123456"}))
    assert problems(refused) == [(2, "taxId", "already used by another business partner")]


def test_honduran_rtn_and_salvadoran_nit_and_nrc_rows(api, table, company_a, company_b):
    checked, applied = run("partners", context(table, company_a), rows(
        {"name": "Maya S. de R.L.", "type": "customer", "taxId": "0801-1999-123456"},
        {"name": "Ana López", "type": "customer", "taxId": "0801 1985 12345"},          # a DNI: 13 digits
        {"name": "Empresa Beta S.A. de C.V.", "type": "customer", "country": "SV", "taxId": "0614-050707-104-8",
         "nrc": "123456-7", "economicActivityCode": "46510", "economicActivity": "Venta al por mayor",
         "department": "06", "municipality": "14", "personType": "Persona jurídica"}))
    assert checked.errors == [] and applied == {"created": 3, "updated": 0}
    by_name = {p["name"]: p for p in listed(api, company_a)["businessPartners"]}
    assert by_name["Maya S. de R.L."]["taxId"] == "08011999123456"
    assert by_name["Ana López"]["taxId"] == "0801198512345"
    beta = by_name["Empresa Beta S.A. de C.V."]
    assert (beta["country"], beta["nrc"], beta["personType"]) == ("SV", "123456-7", "legal")
    # the old municipio 14 of San Salvador stored under the 2024 division, as POST stores it
    posted = api.post(PARTNERS, {"name": "Beta", "type": "customer", "country": "SV", "department": "06",
                                 "municipality": "14"}, key=company_b.api_key).json
    assert (beta["department"], beta["municipality"], beta["district"]) == (
        posted["department"], posted["municipality"], posted["district"])
    assert beta["taxId"] == "06140507071048"  # the NIT as its 14 digits


def test_salvadoran_rows_checked_by_the_same_rules_as_the_api(table, company_a):
    checked, _ = run("partners", context(table, company_a), rows(
        {"name": "Beta", "type": "customer", "country": "SV", "taxId": "0614-050707-104-9"},  # wrong check digit
        {"name": "Gamma", "type": "customer", "country": "SV", "nrc": "12-34-56"},             # not an NRC
        {"name": "Delta", "type": "customer", "paymentConditionId": "999"}))
    assert [(row, column) for row, column, _ in problems(checked)] == [
        (2, "taxId"), (3, "nrc"), (4, "paymentConditionId")]


# --- through POST /imports (services/imports/jobs.py and runner.py run the kind) ---------------------
def partner_file(values: list[dict[str, str]], headings: tuple[str, ...] = ("name", "type", "taxId", "email")) -> str:
    columns = ("name", "type", "taxId", "email")
    lines = [",".join(headings)] + [",".join(row.get(column, "") for column in columns) for row in values]
    return base64.b64encode(("\n".join(lines) + "\n").encode()).decode()


def imported(api, company, content: str, **body) -> dict:
    reply = api.post("/imports", {"kind": "partners", "fileName": "clientes.csv", "content": content, **body},
                     key=company.api_key)
    assert reply.status == 202, reply.text
    return reply.json


def test_the_api_dry_run_of_200_rows_names_exactly_the_3_bad_rows_and_columns(api, company_a):
    job = imported(api, company_a, partner_file(two_hundred(bad=True)), dryRun=True)
    assert (job["status"], job["rows"], job["valid"], job["invalid"]) == ("failed", 200, 197, 3)
    assert [(error["row"], error["column"]) for error in job["errors"]] == [(50, "email"), (120, "taxId"),
                                                                          (180, "type")]
    assert listed(api, company_a)["total"] == 0
    spanish = api.get(f"/imports/{job['id']}", key=company_a.api_key, headers={"Accept-Language": "es"}).json
    assert spanish["errors"][1]["message"].startswith("debe ser un RTN de 14 dígitos")


def test_the_api_run_stopped_after_its_first_unit_then_delivered_again_lands_200_partners_once(
        api, table, company_a, jobs_queue, monkeypatch):  # noqa: F811 (the fixture imported above)
    calls = stop_at_call(monkeypatch, partners, "add_partner_batch", 2, ConnectionError("the Lambda stopped"),
                         lambda transaction, company_id, items: len(items))
    job_id = imported(api, company_a, partner_file(two_hundred(bad=False)))["id"]
    message = receive(jobs_queue)
    with pytest.raises(ConnectionError):
        invoke_worker(message, receive_count=1)
    stopped = api.get(f"/imports/{job_id}", key=company_a.api_key).json
    assert (stopped["status"], stopped["processed"]) == ("importing", 9)  # the first unit's 9 rows
    assert listed(api, company_a)["total"] == 9
    invoke_worker(message, receive_count=2)
    done = api.get(f"/imports/{job_id}", key=company_a.api_key).json
    assert (done["status"], done["processed"], done["result"]) == ("done", 200, {"created": 200, "updated": 0})
    # 23 units: the first once, then the second (failed), then 22 in the message again
    assert len(calls) == 1 + 1 + 22
    assert listed(api, company_a)["total"] == 200
    assert len(partners.tax_id_holders(table, company_a.company_id)) == 200


def test_the_api_in_update_mode_with_spanish_headings(api, company_a):
    made = api.post(PARTNERS, {"name": "Maya S.A.", "type": "customer", "taxId": "08011999123456"},
                    key=company_a.api_key).json
    content = partner_file([{"name": "Maya Honduras S.A.", "type": "Ambos", "taxId": "0801-1999-123456"},
                            {"name": "Nuevo", "type": "Proveedor", "taxId": "08011999000009"}],
                           headings=("Nombre", "Tipo", "RTN/NIT", "Correo"))
    refused = imported(api, company_a, content)
    assert (refused["status"], [(e["row"], e["column"]) for e in refused["errors"]]) == ("failed", [(2, "taxId")])
    job = imported(api, company_a, content, mapping={"existing": "update"})
    assert (job["status"], job["result"]) == ("done", {"created": 1, "updated": 1})
    after = api.get(f"{PARTNERS}/{made['id']}", key=company_a.api_key).json
    assert (after["name"], after["type"]) == ("Maya Honduras S.A.", "both")
    assert listed(api, company_a)["total"] == 2
