"""Attachments (issue 44): the papers behind a document, a journal entry or a bank statement line,
uploaded to S3 through a presigned PUT (requests.put: moto answers it, its signature checked as S3
does by infra/devstack/faithful_s3.py), listed, downloaded byte for byte, deleted only from drafts,
and never seen by another company."""
from __future__ import annotations

import boto3
import os

import pytest
import requests

from chalicelib.store import keys
from tests.statement_lines_support import put_lines
from tests.support import ORIGIN, Books
from tests.test_reconciliations import bank_account, opened_books
from tests.users_support import member

pytestmark = pytest.mark.usefixtures("attachments_bucket")

PDF = b"%PDF-1.4\n" + bytes(range(256)) * 40 + b"\n%%EOF\n"  # 9 + 10,240 + 7 = 10,256 bytes
assert len(PDF) == 10_256


@pytest.fixture
def books(api, company_a) -> Books:
    return opened_books(api, company_a)


def draft_entry(books: Books) -> int:
    return books.entry("2026-11-02", ("110101", 10, 0), ("3101", 0, 10), status="draft", description="Aporte")["id"]


def attach(api, key, record_id, record_type="journalEntry", *, file_name="Factura 0001.pdf",
           content_type="application/pdf", size=len(PDF), expect=201, **headers):
    reply = api.post("/attachments", {"recordType": record_type, "recordId": record_id, "fileName": file_name,
                                      "contentType": content_type, "size": size}, key=key, **headers)
    assert reply.status == expect, reply.text
    return reply.json


def upload(created, body=PDF, content_type=None):
    return requests.put(created["uploadUrl"], data=body,
                        headers={"Content-Type": content_type or created["contentType"]})


def stored_objects():
    s3 = boto3.client("s3")
    return [o["Key"] for o in s3.list_objects_v2(Bucket=os.environ["ATTACHMENTS_BUCKET"]).get("Contents", [])]


def test_an_attachment_is_uploaded_listed_and_downloaded_byte_for_byte(api, books, company_a):
    entry_id = draft_entry(books)
    created = attach(api, company_a.api_key, entry_id)
    assert (created["recordType"], created["recordId"], created["fileName"], created["size"], created["status"]) == (
        "journalEntry", entry_id, "Factura 0001.pdf", 10_256, "pending")
    # before the file arrives: pending, no download link
    pending = api.get(f"/attachments/{created['id']}", key=company_a.api_key).json
    assert (pending["status"], pending["downloadUrl"]) == ("pending", None)

    put = upload(created)
    assert put.status_code == 200, put.text

    listed = api.get(f"/attachments?recordType=journalEntry&recordId={entry_id}", key=company_a.api_key)
    assert listed.status == 200, listed.text
    assert [(a["id"], a["status"]) for a in listed.json["data"]] == [(created["id"], "uploaded")]
    one = api.get(f"/attachments/{created['id']}", key=company_a.api_key).json
    assert one["status"] == "uploaded" and one["downloadExpiresAt"]
    download = requests.get(one["downloadUrl"])
    assert download.status_code == 200
    assert download.content == PDF
    assert download.headers["Content-Type"] == "application/pdf"
    assert download.headers["Content-Disposition"] == (
        "attachment; filename=\"Factura 0001.pdf\"; filename*=UTF-8''Factura%200001.pdf")
