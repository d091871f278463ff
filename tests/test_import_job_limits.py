"""Import jobs (issue 41): the limits and bad input a request is refused for, a 400 naming what
(the file's size, a heading or a file that cannot be read, the body's fields). The fake kind:
tests/import_jobs_support.py."""
from __future__ import annotations

import base64

import pytest

from tests import import_jobs_support
from tests.import_jobs_support import FIVE_UNITS, SPANISH, csv_file, kept_files, post, written

pytestmark = pytest.mark.usefixtures("files_bucket")  # their jobs keep the uploaded file in S3

# the support's autouse fixture, here: the fake kind in kinds.KINDS
fake_kind = import_jobs_support.fake_kind


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


def test_limits_and_bad_input(api, table, company_a, fake_kind):
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
    fake_kind.needs_date = True
    undated = post(api, company_a, {"content": FIVE_UNITS})
    assert (undated.status, undated.json["details"][0]["field"]) == (400, "date")
    # a browser's data URL and line breaks in the base64 are taken
    fake_kind.needs_date = False
    wrapped = "data:text/csv;base64," + "\n".join(FIVE_UNITS[i:i + 76] for i in range(0, len(FIVE_UNITS), 76))
    assert post(api, company_a, {"content": wrapped, "dryRun": True}).json["status"] == "ready"
    assert written(table, company_a.company_id) == []


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
