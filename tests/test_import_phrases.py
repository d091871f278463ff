"""A row problem the API's own model finds (pydantic's English, "Input should be ...") is stored with
its validation kind and read in the reader's language, worded as the API answers that field's
problem to a request; the service's own phrases are read in Spanish from the catalogue."""
from __future__ import annotations

import base64

import pytest

from chalicelib.domain.import_rows import Row
from chalicelib.messages import es, stored_problem
from chalicelib.models.partners import PartnerCreate
from chalicelib.services.imports import row_checks

pytestmark = pytest.mark.usefixtures("files_bucket")  # their jobs keep the uploaded file in S3

SPANISH = {"Accept-Language": "es"}
# line 2: a good row; line 3: an email without "@", a credit limit that is no number
CSV = ("name,type,email,creditLimit\n"
       "Maya S.A.,customer,compras@maya.hn,50000.00\n"
       "Beta S.A.,cliente,compras-en-beta,cincuenta mil\n")


def test_a_partners_row_with_a_bad_email_and_credit_limit_reads_in_spanish(api, company_a):
    content = base64.b64encode(CSV.encode()).decode()
    job = api.post("/imports", {"kind": "partners", "fileName": "clientes.csv", "content": content, "dryRun": True},
                   key=company_a.api_key)
    assert job.status == 202, job.text
    assert (job.json["status"], job.json["valid"], job.json["invalid"]) == ("failed", 1, 1)
    english = {error["column"]: error["message"] for error in job.json["errors"]}
    assert english["credit_limit"] == "Input should be a valid decimal"  # pydantic's, as the API writes it in English

    read = api.get(f"/imports/{job.json['id']}", key=company_a.api_key, headers=SPANISH)
    spanish = {error["column"]: error["message"] for error in read.json["errors"]}
    assert [(error["row"], error["column"]) for error in read.json["errors"]] == [(3, "credit_limit"), (3, "email")]
    assert spanish["credit_limit"] == es.KINDS["decimal_parsing"] == "debe ser un número decimal válido"
    assert spanish["email"].startswith("debe cumplir el formato '")
    assert not any(word in message for message in spanish.values() for word in ("Input", "should", "String", "match"))
    # the same words the API answers when the same values come in a request
    refused = api.post("/business-partners", {"name": "Beta S.A.", "type": "customer", "email": "compras-en-beta",
                                              "credit_limit": "cincuenta mil"}, key=company_a.api_key, headers=SPANISH)
    assert refused.status == 400
    assert {detail["field"]: detail["message"] for detail in refused.json["details"]} == spanish
    # English readers keep the API's English
    assert api.get(f"/imports/{job.json['id']}", key=company_a.api_key).json["errors"] == job.json["errors"]


def test_a_model_problem_keeps_its_kind_and_a_service_phrase_is_read_by_the_catalogue():
    _, errors = row_checks.validated(PartnerCreate, Row(3, {}), {"name": "Beta", "type": "customer",
                                                                 "credit_limit": "x", "email": "y"})
    assert {error.column: error.issue for error in errors} == {
        "credit_limit": ("decimal_parsing", {}),
        "email": ("string_pattern_mismatch", {"pattern": r"^[^@\s\x85]+@[^@\s\x85]+\.[^@\s\x85]+$"})}
    # as stored: {"type", "context"}
    assert stored_problem("Input should be a valid decimal", {"type": "decimal_parsing", "context": {}}, "es") == (
        "debe ser un número decimal válido")
    # a service's phrase is stored with its id and parts (issue 45), and read by that id
    kept = {"id": "is not a number: {}", "parts": ["12,5x"]}
    assert stored_problem("is not a number: 12,5x", None, "es", kept) == "no es un número: 12,5x"
    assert stored_problem("is not a number: 12,5x", None, "en", kept) == "is not a number: 12,5x"


def test_a_damaged_company_archive_reads_in_spanish(api, company_a):
    """The restore's problems are catalogue phrases too (they were the exception's English text)."""
    content = base64.b64encode(b"no es un ZIP").decode()
    # not a ZIP at all: the request's 400 (fixjobs), its problem in Spanish
    refused = api.post("/imports", {"kind": "company", "fileName": "respaldo.zip", "content": content},
                       key=company_a.api_key, headers=SPANISH)
    assert (refused.status, refused.json["code"]) == (400, "IMPORT_INVALID"), refused.text
    assert [detail["message"] for detail in refused.json["details"]] == [
        "no es un respaldo de empresa (un ZIP con manifest.json)"]
