"""What the import job tests share (tests/test_import_jobs.py, test_import_job_limits.py,
test_import_job_faults.py): a fake kind, the file and request helpers, the queue and its worker.

The kind is a fake of this module (KIND), registered for "partners" and "chart" in kinds.KINDS by the
autouse fixture `fake_kind` (imported into a test module, it is there; a test reaches the kind
through it):
rows `code, name, qty`, written two rows a unit, each row an item with a fresh random sort key
(so a row written twice would show as two items)."""
from __future__ import annotations

import base64
import uuid

import boto3
import pytest

from chalicelib.domain.import_rows import Column, RowError
from chalicelib.errors import ApiError, ValidationFailed
from chalicelib.events import queue as queue_module
from chalicelib.services.imports import kinds
from chalicelib.services.imports.kinds import Checked
from chalicelib.store.transaction import Transaction
from infra.deploy.resources import create_queues

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
