"""Import jobs (issue 41): the queue's faults (a fault mid-import and the message delivered again:
every unit lands once; the last receive), a rule's refusals (in check or apply, naming its rows or
not: the job fails, never retried) and the lease that keeps a second run out. The fake kind:
tests/import_jobs_support.py."""
from __future__ import annotations

import json

import pytest

from chalicelib.services.imports import runner, worker
from chalicelib.store import keys
from tests import import_jobs_support
from tests.import_jobs_support import FIVE_UNITS, SPANISH, invoke_worker, post, receive, written

pytestmark = pytest.mark.usefixtures("files_bucket")  # their jobs keep the uploaded file in S3

# the support's fixtures, here: fake_kind (autouse: the fake kind in kinds.KINDS), jobs_queue
fake_kind, jobs_queue = import_jobs_support.fake_kind, import_jobs_support.jobs_queue


def test_a_fault_mid_import_then_the_message_again_lands_every_unit_once(api, table, company_a, jobs_queue, fake_kind):
    fake_kind.fail_after_units, fake_kind.fail_runs = 2, 1  # units 1 and 2 of 5 land, then the first run fails
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


def test_the_last_receive_marks_a_stuck_job_failed_and_it_can_be_run_again(api, table, company_a, jobs_queue, fake_kind):
    fake_kind.fail_after_units, fake_kind.fail_runs = 3, worker.LAST_RECEIVE  # fails on every receive the queue makes
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


def test_the_lease_keeps_a_second_run_out_while_the_first_runs(api, table, company_a, jobs_queue, fake_kind):
    job_id = post(api, company_a, {"content": FIVE_UNITS}).json["id"]
    message = receive(jobs_queue)
    seen = []
    fake_kind.during_apply = lambda: seen.append(runner.run_import(table, company_a.company_id, job_id))
    invoke_worker(message)
    assert seen == ["busy"] and fake_kind.applies == 1
    assert len(written(table, company_a.company_id)) == 10
    # a holder that died leaves the lease to expire: then another run may take the job
    item = table.get(keys.import_job(company_a.company_id, job_id))
    assert "leaseHolder" not in item  # given back when the run ended


def test_the_worker_and_the_queue_agree_on_the_last_receive():
    from infra.deploy.resources import template

    queue = template()["Resources"]["ImportJobsQueue"]["Properties"]
    assert queue["RedrivePolicy"]["maxReceiveCount"] == worker.LAST_RECEIVE


def test_a_rule_refusing_a_unit_after_the_check_fails_the_job_naming_its_rows(api, table, company_a, jobs_queue, fake_kind):
    """Review: a 4xx refusal in apply (another writer took a code between check and write) left the job
    importing, retried 4 times, then "stopped ... run it again", which meets the same refusal."""
    fake_kind.refuse_unit = 3                       # rows 6 and 7 (P-5, P-6): units 1 and 2 (rows 2 to 5) landed
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


def test_a_rule_refusal_from_a_kind_that_does_not_name_its_rows_is_the_files_problem(api, table, company_a, fake_kind):
    fake_kind.refuse_unit, fake_kind.names_rows = 1, False
    job = post(api, company_a, {"content": FIVE_UNITS}).json   # no queue: runs inline
    assert (job["status"], job["processed"], job["invalid"]) == ("failed", 0, 0)
    assert [(e["row"], e["column"]) for e in job["errors"]] == [(0, None), (0, "code")]
    assert written(table, company_a.company_id) == []


@pytest.mark.parametrize("phase", ["check", "apply"])
def test_a_rules_refusal_fails_the_job_at_once_inline(api, table, company_a, phase, fake_kind):
    fake_kind.refuse_in = phase
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
def test_a_rules_refusal_is_not_retried_by_the_worker(api, table, company_a, jobs_queue, phase, fake_kind):
    fake_kind.refuse_in = phase
    job_id = post(api, company_a, {"content": FIVE_UNITS}).json["id"]
    invoke_worker(receive(jobs_queue), receive_count=1)  # does not raise: the message is done
    job = api.get(f"/imports/{job_id}", key=company_a.api_key).json
    assert job["status"] == "failed"
    assert [error["column"] for error in job["errors"]] == (["operationType"] if phase == "check" else [None, None])
    assert not any("failed 4 times" in error["message"] for error in job["errors"])
    again = {"MessageId": "m", "ReceiptHandle": "r",
             "Body": json.dumps({"job": "import", "companyId": company_a.company_id, "id": job_id})}
    invoke_worker(again, receive_count=2)
    assert fake_kind.applies == (1 if phase == "apply" else 0)  # the message again finds it failed: nothing runs
