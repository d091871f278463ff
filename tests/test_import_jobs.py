"""Import jobs end to end (issue 41): POST /imports and its job's life (dry run -> ready -> run ->
done; bad rows -> failed, nothing written), the problems paged and in Spanish, the permissions by
kind, the template, the queue and its worker finishing a job. The fake kind:
tests/import_jobs_support.py."""
from __future__ import annotations

import json

import pytest

from chalicelib.services.imports import runner
from tests import import_jobs_support
from tests.import_jobs_support import FIVE_UNITS, SPANISH, csv_file, invoke_worker, post, receive, written
from tests.support import ORIGIN
from tests.users_support import member

pytestmark = pytest.mark.usefixtures("files_bucket")  # their jobs keep the uploaded file in S3

# the support's fixtures, here: fake_kind (autouse: the fake kind in kinds.KINDS), jobs_queue
fake_kind, jobs_queue = import_jobs_support.fake_kind, import_jobs_support.jobs_queue


def test_a_dry_run_stores_nothing_then_running_it_lands_every_row(api, table, company_a, fake_kind):
    reply = post(api, company_a, {"content": FIVE_UNITS, "dryRun": True})
    assert reply.status == 202, reply.text
    job = reply.json
    assert (job["status"], job["dryRun"], job["rows"], job["valid"], job["invalid"]) == ("ready", True, 10, 10, 0)
    assert job["errors"] == [] and job["result"] is None and job["finishedAt"]
    assert written(table, company_a.company_id) == [] and fake_kind.applies == 0

    ran = api.post(f"/imports/{job['id']}/run", key=company_a.api_key)
    assert ran.status == 202, ran.text
    # 10 rows in 5 units of 2; the fake kind answers created = the plan's 10 rows
    assert (ran.json["status"], ran.json["dryRun"], ran.json["processed"], ran.json["result"]) == (
        "done", False, 10, {"created": 10})
    rows = written(table, company_a.company_id)
    assert sorted(row["code"] for row in rows) == sorted(f"P-{n}" for n in range(1, 11))
    assert {row["importJob"] for row in rows} == {job["id"]}
    # done: running it again is refused, and a message again does nothing
    again = api.post(f"/imports/{job['id']}/run", key=company_a.api_key)
    assert (again.status, again.json["code"]) == (409, "IMPORT_NOT_READY")
    assert runner.run_import(table, company_a.company_id, job["id"]) == "done"
    assert fake_kind.applies == 1 and len(written(table, company_a.company_id)) == 10

    listed = api.get("/imports", key=company_a.api_key).json
    assert [item["id"] for item in listed["imports"]] == [job["id"]] and "errors" not in listed["imports"][0]


def test_bad_rows_fail_the_job_and_nothing_is_written_problems_paged_in_spanish(api, table, company_a, fake_kind):
    content = csv_file("code,name,qty", "A-1,Uno,1", ",Dos,2", "A-3,,3", "A-4,Cuatro,x", "A-5,Cinco,5")
    # lines: heading 1; A-1 line 2; line 3 has no code; line 4 no name; line 5 a qty "x"; A-5 line 6
    reply = post(api, company_a, {"content": content})
    assert reply.status == 202, reply.text
    job = reply.json
    # 5 rows, 3 with a problem (lines 3, 4, 5): valid 5 - 3 = 2
    assert (job["status"], job["rows"], job["valid"], job["invalid"]) == ("failed", 5, 2, 3)
    assert written(table, company_a.company_id) == [] and fake_kind.applies == 0

    first = api.get(f"/imports/{job['id']}?errorsLimit=2", key=company_a.api_key, headers=SPANISH).json
    assert [(error["row"], error["column"]) for error in first["errors"]] == [(3, "code"), (4, "name")]
    assert first["errors"][0]["message"] == "obligatorio: la celda está vacía"
    rest = api.get(f"/imports/{job['id']}?errorsLimit=2&errorsCursor={first['errorsNextCursor']}",
                   key=company_a.api_key).json
    assert [(error["row"], error["column"], error["message"]) for error in rest["errors"]] == [
        (5, "qty", "must be a whole number")]
    assert rest["errorsNextCursor"] is None


def test_at_most_1000_problems_are_kept_and_every_bad_row_counted(api, table, company_a):
    content = csv_file("code,name,qty", *(f"B-{n},Nombre,x" for n in range(1, 1006)))  # 1005 rows, each a bad qty
    job = post(api, company_a, {"content": content, "dryRun": True}).json
    assert (job["status"], job["rows"], job["valid"], job["invalid"]) == ("failed", 1005, 0, 1005)
    page = api.get(f"/imports/{job['id']}?errorsLimit=1000", key=company_a.api_key).json
    assert len(page["errors"]) == 1000 and page["errors"][-1]["row"] == 1001  # lines 2 .. 1001 kept
    if page["errorsNextCursor"]:
        tail = api.get(f"/imports/{job['id']}?errorsLimit=1000&errorsCursor={page['errorsNextCursor']}",
                       key=company_a.api_key).json
        assert tail["errors"] == []


def test_with_a_queue_the_post_answers_validating_and_the_worker_finishes_it(api, table, company_a, jobs_queue, fake_kind):
    reply = post(api, company_a, {"content": FIVE_UNITS})
    assert (reply.status, reply.json["status"]) == (202, "validating")
    message = receive(jobs_queue)
    assert json.loads(message["Body"]) == {"job": "import", "companyId": company_a.company_id, "id": reply.json["id"]}
    assert written(table, company_a.company_id) == []
    invoke_worker(message)
    job = api.get(f"/imports/{reply.json['id']}", key=company_a.api_key).json
    assert (job["status"], job["processed"], job["result"]) == ("done", 10, {"created": 10})
    assert len(written(table, company_a.company_id)) == 10
    invoke_worker(message)  # SQS delivers at least once: the same message again changes nothing
    assert len(written(table, company_a.company_id)) == 10 and fake_kind.applies == 1


def test_the_kind_says_which_role_may_import_and_a_job_is_its_companys(api, table, company_a, company_b):
    _, seller = member(api, table, company_a, "vendedor@alpha.example", "seller")
    chart = api.post("/imports", {"kind": "chart", "fileName": "c.csv", "content": FIVE_UNITS, "dryRun": True},
                     cookie=seller, origin=ORIGIN)
    assert (chart.status, chart.json["code"]) == (403, "PERMISSION_DENIED")
    partners = api.post("/imports", {"kind": "partners", "fileName": "p.csv", "content": FIVE_UNITS, "dryRun": True},
                        cookie=seller, origin=ORIGIN)
    assert (partners.status, partners.json["status"]) == (202, "ready")
    job_id = partners.json["id"]
    assert api.get(f"/imports/{job_id}", key=company_b.api_key).status == 404
    assert api.post(f"/imports/{job_id}/run", key=company_b.api_key).status == 404
    assert api.get("/imports", key=company_b.api_key).json["imports"] == []
    assert written(table, company_a.company_id) == []


def test_the_template_in_the_callers_language(api, company_a):
    columns = api.get("/imports/templates/partners?language=es", key=company_a.api_key).json
    assert [(column["name"], column["heading"], column["required"]) for column in columns["columns"]] == [
        ("code", "Código", True), ("name", "Nombre", True), ("qty", "Cantidad", False)]
    reply = api.get("/imports/templates/partners", key=company_a.api_key,
                    headers={"Accept": "text/csv", "Accept-Language": "es"})
    assert reply.status == 200 and reply.header("Content-Type").startswith("text/csv")
    assert reply.text.lstrip("\ufeff").splitlines()[0].startswith("Código")
    english = api.get("/imports/templates/partners?language=en", key=company_a.api_key, headers={"Accept": "text/csv"})
    assert english.text.lstrip("\ufeff").splitlines()[0].startswith("code")
    assert api.get("/imports/templates/company", key=company_a.api_key).status == 404
