"""Import jobs end to end (issue 41): POST /imports and its job's life (dry run -> ready -> run ->
done; bad rows -> failed, nothing written), the problems paged and in Spanish, the limits, the
permissions by kind, the queue and its worker, a fault mid-import and the message delivered again
(every unit lands once), the last receive, and the lease that keeps a second run out.

The kind is a fake of this module (KIND), registered for "partners" and "chart" in kinds.KINDS:
rows `code, name, qty`, written two rows a unit, each row an item with a fresh random sort key
(so a row written twice would show as two items)."""
from __future__ import annotations

import base64
import json
import uuid

import boto3
import pytest

from chalicelib.domain.import_rows import Column, RowError
from chalicelib.errors import ApiError, ValidationFailed
from chalicelib.events import queue as queue_module
from chalicelib.services.imports import kinds, runner, worker
from chalicelib.services.imports.kinds import Checked
from chalicelib.store import keys
from chalicelib.store.transaction import Transaction
from infra.deploy.resources import create_queues
from tests.support import ORIGIN
from tests.users_support import member

SPANISH = {"Accept-Language": "es"}


class FakeKind:
    name = "partners"
    columns = (Column("code", "Código", required=True, example="C-1"), Column("name", "Nombre", required=True,
                                                                              example="Uno"),
               Column("qty", "Cantidad", example="1"))
    needs_date = False
    ROWS_A_UNIT = 2

    def __init__(self) -> None:
        self.fail_after_units: int | None = None  # raise after this many units landed in a run
        self.fail_runs = 0                         # ... in this many runs (then it works)
        self.applies = 0
        self.during_apply = None                   # called inside apply, before the first unit
        self.refuse_unit: int | None = None        # a rule refuses this unit's write (a race after the check)
        self.names_rows = True                     # ... and the kind names the unit's rows (kinds.refused_rows)
        self.refuse_in: str | None = None          # "check" or "apply": a rule refuses there (a 4xx ApiError)

    def refuse(self, phase):
        if self.refuse_in == phase:
            raise ApiError("No account determination rule for operation opening_balance_equity.",
                           code="ACCOUNT_RULE_MISSING",
                           details=[{"field": "operationType", "message": "no rule for opening_balance_equity"}])

    def check(self, context, rows):
        self.refuse("check")
        errors = []
        for row in rows:
            if "qty" in row.values and not row.values["qty"].isdigit():
                errors.append(RowError(row.line, "qty", "must be a whole number"))
        return Checked(errors, None if errors else [dict(row.values) for row in rows])

    def check_archive(self, context, content):  # kind "company", for the fuzzing run with every kind faked
        return Checked([RowError(0, None, "the fake reads no archive")])

    def apply(self, context, plan):
        self.applies += 1
        self.refuse("apply")
        if self.during_apply:
            self.during_apply()
        units = [plan[start:start + self.ROWS_A_UNIT] for start in range(0, len(plan), self.ROWS_A_UNIT)]
        landed = 0
        for number, unit in enumerate(units, start=1):
            name = f"unit-{number}"
            if not context.is_done(name):
                if self.fail_runs and self.fail_after_units is not None and number > self.fail_after_units:
                    self.fail_runs -= 1
                    raise ConnectionError("the table went away mid-import")
                if number == self.refuse_unit:
                    taken = ValidationFailed.for_field("code", f"the code {unit[0]['code']} is taken")
                    if not self.names_rows:
                        raise taken
                    first_line = 2 + (number - 1) * self.ROWS_A_UNIT  # the heading is line 1
                    with kinds.refused_rows(range(first_line, first_line + len(unit))):
                        raise taken
                transaction = Transaction(context.table)
                for row in unit:
                    transaction.put({"PK": f"C#{context.company_id}#FAKE", "SK": uuid.uuid4().hex, **row,
                                     "importJob": context.job_id})
                context.mark_done(transaction, name)
                transaction.commit()
            landed += len(unit)
            context.progress(landed)
        return {"created": len(plan)}


KIND = FakeKind()


@pytest.fixture(autouse=True)
def fake_kind(monkeypatch):
    global KIND
    KIND = FakeKind()
    monkeypatch.setitem(kinds.KINDS, "partners", __name__)
    monkeypatch.setitem(kinds.KINDS, "chart", __name__)
    queue_module.reset_jobs_queue()
    yield KIND
    queue_module.reset_jobs_queue()


def csv_file(*lines: str) -> str:
    return base64.b64encode(("\n".join(lines) + "\n").encode()).decode()


FIVE_UNITS = csv_file("code,name,qty", *(f"P-{n},Partner {n},{n}" for n in range(1, 11)))  # 10 rows: 5 units of 2


def post(api, company, body, **kwargs):
    return api.post("/imports", {"kind": "partners", "fileName": "partners.csv", **body}, key=company.api_key,
                    **kwargs)


def kept_files():
    import os

    return boto3.client("s3").list_objects_v2(Bucket=os.environ["FILES_BUCKET"]).get("Contents", [])


def written(table, company_id):
    return table.query_all(partition=("PK", f"C#{company_id}#FAKE"), consistent=True)


def test_a_dry_run_stores_nothing_then_running_it_lands_every_row(api, table, company_a):
    reply = post(api, company_a, {"content": FIVE_UNITS, "dryRun": True})
    assert reply.status == 202, reply.text
    job = reply.json
    assert (job["status"], job["dryRun"], job["rows"], job["valid"], job["invalid"]) == ("ready", True, 10, 10, 0)
    assert job["errors"] == [] and job["result"] is None and job["finishedAt"]
    assert written(table, company_a.company_id) == [] and KIND.applies == 0

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
    assert KIND.applies == 1 and len(written(table, company_a.company_id)) == 10

    listed = api.get("/imports", key=company_a.api_key).json
    assert [item["id"] for item in listed["imports"]] == [job["id"]] and "errors" not in listed["imports"][0]


def test_bad_rows_fail_the_job_and_nothing_is_written_problems_paged_in_spanish(api, table, company_a):
    content = csv_file("code,name,qty", "A-1,Uno,1", ",Dos,2", "A-3,,3", "A-4,Cuatro,x", "A-5,Cinco,5")
    # lines: heading 1; A-1 line 2; line 3 has no code; line 4 no name; line 5 a qty "x"; A-5 line 6
    reply = post(api, company_a, {"content": content})
    assert reply.status == 202, reply.text
    job = reply.json
    # 5 rows, 3 with a problem (lines 3, 4, 5): valid 5 - 3 = 2
    assert (job["status"], job["rows"], job["valid"], job["invalid"]) == ("failed", 5, 2, 3)
    assert written(table, company_a.company_id) == [] and KIND.applies == 0

    first = api.get(f"/imports/{job['id']}?errorsLimit=2", key=company_a.api_key, headers=SPANISH).json
    assert [(error["row"], error["column"]) for error in first["errors"]] == [(3, "code"), (4, "name")]
    assert first["errors"][0]["message"] == "obligatorio: la celda está vacía"
    rest = api.get(f"/imports/{job['id']}?errorsLimit=2&errorsCursor={first['errorsNextCursor']}",
                   key=company_a.api_key).json
    assert [(error["row"], error["column"], error["message"]) for error in rest["errors"]] == [
        (5, "qty", "must be a whole number")]
    assert rest["errorsNextCursor"] is None


def test_a_problem_of_the_heading_line_is_the_requests_400_and_nothing_is_stored(api, table, company_a):
    content = csv_file("code,name,qty,colour", "A-1,Uno,1,red", ",Dos,2,blue", "A-3,Tres,3,green")
    # an unknown heading (line 1): the file cannot be read as the kind's table, so the request is refused
    # naming it; the blank code on line 3 is a row's problem, left to a job (none is made)
    reply = post(api, company_a, {"content": content, "dryRun": True}, headers=SPANISH)
    assert (reply.status, reply.json["code"]) == (400, "IMPORT_INVALID")
    assert [(d["field"], d["row"], d["column"]) for d in reply.json["details"]] == [("content", 1, "colour")]
    assert reply.json["details"][0]["message"].startswith("columna desconocida colour")
    assert reply.json["message"] == "El archivo no se puede importar: cada problema indica su fila y su columna."
    assert api.get("/imports", key=company_a.api_key).json["imports"] == []
    assert kept_files() == []  # no file kept either


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


def test_limits_and_bad_input(api, table, company_a):
    # 4 MB = 4,194,304 bytes decoded is taken; one byte more is 413 (its base64: 5,592,408 characters, under the
    # route's 5.5 MB = 5,767,168 byte body limit, so the service, not the pipeline, refuses it)
    over = base64.b64encode(b"a" * (4 * 1024 * 1024 + 1)).decode()
    reply = post(api, company_a, {"content": over})
    assert (reply.status, reply.json["code"]) == (413, "PAYLOAD_TOO_LARGE")
    # a body over 5.5 MB is the pipeline's 413; any other route still refuses a body over 1 MB
    huge = post(api, company_a, {"content": "A" * 5_800_000})
    assert (huge.status, huge.json["code"]) == (413, "REQUEST_TOO_LARGE")
    other = api.post("/business-partners", {"name": "x" * 1_100_000}, key=company_a.api_key)
    assert (other.status, other.json["code"]) == (413, "REQUEST_TOO_LARGE")
    # over 1 MB is fine for an import: a 1.5 MB file that is not a table is refused for what it is, not its size
    pdf = base64.b64encode(b"%PDF-1.4\n" + b"0" * 1_500_000).decode()
    refused = post(api, company_a, {"content": pdf})
    assert (refused.status, refused.json["code"], refused.json["details"][0]["row"]) == (400, "IMPORT_INVALID", 0)

    bad = post(api, company_a, {"content": "not base64!"}, headers=SPANISH)
    assert (bad.status, bad.json["code"], bad.json["details"][0]["field"]) == (400, "VALIDATION_ERROR", "content")
    assert bad.json["details"][0]["message"] == "debe ser el contenido del archivo en base64"
    empty = post(api, company_a, {"content": ""})
    assert (empty.status, empty.json["details"][0]["field"]) == (400, "content")
    unknown = api.post("/imports", {"kind": "recipes", "fileName": "r.csv", "content": FIVE_UNITS},
                       key=company_a.api_key)
    assert (unknown.status, unknown.json["details"][0]["field"]) == (400, "kind")
    KIND.needs_date = True
    undated = post(api, company_a, {"content": FIVE_UNITS})
    assert (undated.status, undated.json["details"][0]["field"]) == (400, "date")
    # a browser's data URL and line breaks in the base64 are taken
    KIND.needs_date = False
    wrapped = "data:text/csv;base64," + "\n".join(FIVE_UNITS[i:i + 76] for i in range(0, len(FIVE_UNITS), 76))
    assert post(api, company_a, {"content": wrapped, "dryRun": True}).json["status"] == "ready"
    assert written(table, company_a.company_id) == []


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


# --- the queue and its worker -----------------------------------------------------------------------
@pytest.fixture
def jobs_queue(aws, settings_env):
    urls = create_queues(boto3.client("sqs"), "test")
    settings_env(IMPORT_QUEUE_URL=urls["ImportJobsQueue"])
    queue_module.reset_jobs_queue()
    yield urls["ImportJobsQueue"]
    queue_module.reset_jobs_queue()


def receive(url):
    messages = boto3.client("sqs").receive_message(QueueUrl=url, MaxNumberOfMessages=10,
                                                   AttributeNames=["All"]).get("Messages", [])
    assert len(messages) == 1, messages
    return messages[0]


def invoke_worker(message, receive_count=None):
    """The import_worker Lambda as SQS invokes it (batch size 1)."""
    from app import app

    attributes = {**message.get("Attributes", {}),
                  **({"ApproximateReceiveCount": str(receive_count)} if receive_count else {})}
    event = {"Records": [{"messageId": message["MessageId"], "receiptHandle": message["ReceiptHandle"],
                          "body": message["Body"], "attributes": attributes, "messageAttributes": {},
                          "eventSource": "aws:sqs", "eventSourceARN": "arn:aws:sqs:us-east-1:123456789012:q",
                          "awsRegion": "us-east-1"}]}
    return app.handler_map["import_worker"](event, None)


def test_with_a_queue_the_post_answers_validating_and_the_worker_finishes_it(api, table, company_a, jobs_queue):
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
    assert len(written(table, company_a.company_id)) == 10 and KIND.applies == 1


def test_a_fault_mid_import_then_the_message_again_lands_every_unit_once(api, table, company_a, jobs_queue):
    KIND.fail_after_units, KIND.fail_runs = 2, 1  # units 1 and 2 of 5 land, then the first run fails
    job_id = post(api, company_a, {"content": FIVE_UNITS}).json["id"]
    message = receive(jobs_queue)
    with pytest.raises(ConnectionError):
        invoke_worker(message, receive_count=1)
    stopped = api.get(f"/imports/{job_id}", key=company_a.api_key).json
    # 2 units of 2 rows landed: 4 processed; the job waits for the message again, still importing
    assert (stopped["status"], stopped["processed"]) == ("importing", 4)
    assert len(written(table, company_a.company_id)) == 4
    invoke_worker(message, receive_count=2)
    done = api.get(f"/imports/{job_id}", key=company_a.api_key).json
    assert (done["status"], done["processed"]) == ("done", 10)
    codes = [row["code"] for row in written(table, company_a.company_id)]
    assert sorted(codes) == sorted(f"P-{n}" for n in range(1, 11))  # 10 items: each row exactly once
    markers = table.query_all(partition=("PK", keys.import_unit(company_a.company_id, job_id, "x")["PK"]),
                              consistent=True)
    assert sorted(marker["SK"] for marker in markers) == [f"unit-{n}" for n in range(1, 6)]


def test_the_last_receive_marks_a_stuck_job_failed_and_it_can_be_run_again(api, table, company_a, jobs_queue):
    KIND.fail_after_units, KIND.fail_runs = 3, worker.LAST_RECEIVE  # fails on every receive the queue makes
    job_id = post(api, company_a, {"content": FIVE_UNITS}).json["id"]
    message = receive(jobs_queue)
    for receive_count in range(1, worker.LAST_RECEIVE):
        with pytest.raises(ConnectionError):
            invoke_worker(message, receive_count=receive_count)
        assert api.get(f"/imports/{job_id}", key=company_a.api_key).json["status"] == "importing"
    with pytest.raises(ConnectionError):  # raised still: the message goes to the DLQ, where an alarm sees it
        invoke_worker(message, receive_count=worker.LAST_RECEIVE)
    failed = api.get(f"/imports/{job_id}", key=company_a.api_key, headers=SPANISH).json
    assert (failed["status"], failed["processed"]) == ("failed", 6)  # 3 units of 2 landed
    assert [(error["row"], error["column"]) for error in failed["errors"]] == [(0, None)]
    assert failed["errors"][0]["message"].startswith("La importación se detuvo antes de terminar: falló 4 veces")

    ran = api.post(f"/imports/{job_id}/run", key=company_a.api_key)  # the fault is gone: the run resumes
    assert ran.status == 202, ran.text
    invoke_worker(receive(jobs_queue))
    done = api.get(f"/imports/{job_id}", key=company_a.api_key).json
    assert (done["status"], done["processed"], done["errors"]) == ("done", 10, [])
    assert len(written(table, company_a.company_id)) == 10


def test_the_lease_keeps_a_second_run_out_while_the_first_runs(api, table, company_a, jobs_queue):
    job_id = post(api, company_a, {"content": FIVE_UNITS}).json["id"]
    message = receive(jobs_queue)
    seen = []
    KIND.during_apply = lambda: seen.append(runner.run_import(table, company_a.company_id, job_id))
    invoke_worker(message)
    assert seen == ["busy"] and KIND.applies == 1
    assert len(written(table, company_a.company_id)) == 10
    # a holder that died leaves the lease to expire: then another run may take the job
    item = table.get(keys.import_job(company_a.company_id, job_id))
    assert "leaseHolder" not in item  # given back when the run ended


def test_the_worker_and_the_queue_agree_on_the_last_receive():
    from infra.deploy.resources import template

    queue = template()["Resources"]["ImportJobsQueue"]["Properties"]
    assert queue["RedrivePolicy"]["maxReceiveCount"] == worker.LAST_RECEIVE


def test_a_rule_refusing_a_unit_after_the_check_fails_the_job_naming_its_rows(api, table, company_a, jobs_queue):
    """Review: a 4xx refusal in apply (another writer took a code between check and write) left the job
    importing, retried 4 times, then "stopped ... run it again", which meets the same refusal."""
    KIND.refuse_unit = 3                       # rows 6 and 7 (P-5, P-6): units 1 and 2 (rows 2 to 5) landed
    job_id = post(api, company_a, {"content": FIVE_UNITS}).json["id"]
    invoke_worker(receive(jobs_queue), receive_count=1)   # no fault: the message is not delivered again
    job = api.get(f"/imports/{job_id}", key=company_a.api_key).json
    # 10 rows, 2 refused: 8 valid; 2 units of 2 rows landed: processed 4, and they stay
    assert (job["status"], job["processed"], job["valid"], job["invalid"], job["result"]) == ("failed", 4, 8, 2, None)
    assert [(e["row"], e["column"], e["message"]) for e in job["errors"]] == [
        (0, None, "The import stopped at rows a rule refused after the check: someone changed the records meanwhile. "
                  "The 4 rows before them landed and stay: import the others in a new file."),
        (6, "code", "the code P-5 is taken"), (7, "code", "the code P-5 is taken")]
    assert sorted(row["code"] for row in written(table, company_a.company_id)) == ["P-1", "P-2", "P-3", "P-4"]
    assert runner.run_import(table, company_a.company_id, job_id) == "failed"  # a message again: nothing to do
    spanish = api.get(f"/imports/{job_id}", key=company_a.api_key, headers=SPANISH).json
    assert spanish["errors"][0]["message"].startswith("La importación se detuvo en filas que una regla rechazó")


def test_a_rule_refusal_from_a_kind_that_does_not_name_its_rows_is_the_files_problem(api, table, company_a):
    KIND.refuse_unit, KIND.names_rows = 1, False
    job = post(api, company_a, {"content": FIVE_UNITS}).json   # no queue: runs inline
    assert (job["status"], job["processed"], job["invalid"]) == ("failed", 0, 0)
    assert [(e["row"], e["column"]) for e in job["errors"]] == [(0, None), (0, "code")]
    assert written(table, company_a.company_id) == []
@pytest.mark.parametrize("phase", ["check", "apply"])
def test_a_rules_refusal_fails_the_job_at_once_inline(api, table, company_a, phase):
    KIND.refuse_in = phase
    reply = post(api, company_a, {"content": FIVE_UNITS})
    # a refusal is the job's answer, not the request's: 202 and the job failed, naming it (row 0: the file);
    # in apply, after the notice of what landed (nothing: the refusal came before the first unit), the
    # refusal's detail (operationType is no column of the kind's)
    assert (reply.status, reply.json["status"]) == (202, "failed"), reply.text
    named = [(error["row"], error["column"], error["message"]) for error in reply.json["errors"]]
    if phase == "check":
        assert named == [(0, "operationType", "No account determination rule for operation opening_balance_equity.")]
    else:
        assert [(row, column) for row, column, _ in named] == [(0, None), (0, None)]
        assert named[0][2].startswith("The import stopped") and named[1][2] == "no rule for opening_balance_equity"
    assert "leaseHolder" not in table.get(keys.import_job(company_a.company_id, reply.json["id"]))


@pytest.mark.parametrize("phase", ["check", "apply"])
def test_a_rules_refusal_is_not_retried_by_the_worker(api, table, company_a, jobs_queue, phase):
    KIND.refuse_in = phase
    job_id = post(api, company_a, {"content": FIVE_UNITS}).json["id"]
    invoke_worker(receive(jobs_queue), receive_count=1)  # does not raise: the message is done
    job = api.get(f"/imports/{job_id}", key=company_a.api_key).json
    assert job["status"] == "failed"
    assert [error["column"] for error in job["errors"]] == (["operationType"] if phase == "check" else [None, None])
    assert not any("failed 4 times" in error["message"] for error in job["errors"])
    again = {"MessageId": "m", "ReceiptHandle": "r",
             "Body": json.dumps({"job": "import", "companyId": company_a.company_id, "id": job_id})}
    invoke_worker(again, receive_count=2)
    assert KIND.applies == (1 if phase == "apply" else 0)  # the message again finds it failed: nothing runs


def test_the_file_problems_a_request_can_see_are_its_400_naming_row_and_column(api, table, company_a):
    cases = {
        # a heading missing (the required name) and one written twice: line 1, each named
        "missing and twice": (csv_file("code,qty,qty", "A-1,1,2"),
                              [(1, "qty"), (1, "name")]),
        # a quote never closed on line 3: the rest of the file cannot be read
        "quote": (csv_file("code,name", "A-1,Uno", '"A-2,Dos'), [(3, None)]),
        # a zip that is not a workbook: the file as a whole
        "zip": (base64.b64encode(b"PK\x03\x04garbage").decode(), [(0, None)]),
    }
    # UTF-8 text (its ñ on line 2) with a Windows-1252 ñ on line 3: line 3 cannot be read as text
    cases["undecodable"] = (base64.b64encode("code,name\nA-1,Niño\n".encode() + b"A-2,Ni\xf1o\n").decode(),
                            [(3, None)])
    for name, (content, named) in cases.items():
        reply = post(api, company_a, {"content": content, "dryRun": True})
        assert (reply.status, reply.json["code"]) == (400, "IMPORT_INVALID"), name
        assert [(d["row"], d["column"]) for d in reply.json["details"]] == named, name
    # a company archive that is no ZIP, or a ZIP without its manifest: the file as a whole
    for content in (FIVE_UNITS, base64.b64encode(b"PK\x03\x04garbage").decode()):
        archive = api.post("/imports", {"kind": "company", "fileName": "a.zip", "content": content},
                           key=company_a.api_key)
        assert (archive.status, archive.json["code"], archive.json["details"][0]["message"]) == (
            400, "IMPORT_INVALID", "not a company archive (a ZIP with manifest.json)")
    assert api.get("/imports", key=company_a.api_key).json["imports"] == [] and kept_files() == []
    # a row's own problem (a blank required cell, a value under no heading) is still the job's
    job = post(api, company_a, {"content": csv_file("code,name", ",Uno"), "dryRun": True})
    assert (job.status, job.json["status"], job.json["errors"][0]["row"]) == (202, "failed", 2)


def test_strict_request_fields(api, company_a):
    refused = post(api, company_a, {"content": FIVE_UNITS, "dryRun": "yes"})
    assert (refused.status, refused.json["details"][0]["field"]) == (400, "dryRun")
    # a date for a kind that takes none is not silently kept
    dated = post(api, company_a, {"content": FIVE_UNITS, "dryRun": True, "date": "2026-01-31"})
    assert (dated.status, dated.json["details"][0]["field"]) == (400, "date")
    job_id = post(api, company_a, {"content": FIVE_UNITS, "dryRun": True}).json["id"]
    cursor = api.get(f"/imports/{job_id}?errorsCursor=%25%25%25", key=company_a.api_key)
    assert (cursor.status, cursor.json["details"][0]["field"]) == (400, "errorsCursor")
    api.post(f"/imports/{job_id}/run", key=company_a.api_key)
    again = api.post(f"/imports/{job_id}/run", key=company_a.api_key, headers=SPANISH)
    assert (again.status, again.json["code"]) == (409, "IMPORT_NOT_READY")
    assert again.json["message"].startswith("El estado de la importación es done: ")
    english = api.post(f"/imports/{job_id}/run", key=company_a.api_key)
    assert english.json["message"].startswith("The import's status is done: ")
