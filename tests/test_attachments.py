"""Attachments (issue 44): the papers behind a document, a journal entry or a bank statement line,
uploaded to S3 through a presigned PUT (requests.put: moto answers it, its signature checked as S3
does by infra/devstack/faithful_s3.py), listed, downloaded byte for byte, deleted only from drafts,
and never seen by another company."""
from __future__ import annotations

import os
import re

import boto3
import pytest
import requests

from chalicelib.store import keys
from tests.statement_lines_support import put_lines
from tests.support import ORIGIN, Books
from tests.test_reconciliations import bank_account, opened_books
from tests.users_support import member

pytestmark = pytest.mark.usefixtures("attachments_bucket")

PDF = b"%PDF-1.4\n" + bytes(range(256)) * 40 + b"\n%%EOF\n"  # 9 + 10,240 + 7 = 10,256 bytes
PDF_SIZE = 10_256
assert len(PDF) == PDF_SIZE


@pytest.fixture
def books(api, company_a) -> Books:
    return opened_books(api, company_a)


def draft_entry(books: Books) -> int:
    return books.entry("2026-11-02", ("110101", 10, 0), ("3101", 0, 10), status="draft", description="Aporte")["id"]


def attach(api, key, record_id, record_type="journalEntry", *, file_name="Factura 0001.pdf",
           content_type="application/pdf", size=PDF_SIZE, expect=201, **headers):
    reply = api.post("/attachments", {"recordType": record_type, "recordId": record_id, "fileName": file_name,
                                      "contentType": content_type, "size": size}, key=key, **headers)
    assert reply.status == expect, reply.text
    return reply.json


def upload(created, body=PDF, content_type=None):
    return requests.put(created["uploadUrl"], data=body,
                        headers={"Content-Type": content_type or created["contentType"]})


def web(api, company):
    """DELETE is the web app's (an API key gets 403 API_KEY_DELETE_FORBIDDEN, as for every DELETE)."""
    return {"cookie": api.login(company.email), "origin": ORIGIN}


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


def test_s3_refuses_another_type_or_size_than_the_link_signed(api, books, company_a):
    created = attach(api, company_a.api_key, draft_entry(books))
    # another Content-Type: the signed header differs, S3 computes another signature
    assert upload(created, content_type="image/png").status_code == 403
    # one byte more (10,257) or less (10,255): the signed Content-Length differs
    assert upload(created, body=PDF + b"x").status_code == 403
    assert upload(created, body=PDF[:-1]).status_code == 403
    assert stored_objects() == []  # nothing arrived
    assert api.get(f"/attachments/{created['id']}", key=company_a.api_key).json["status"] == "pending"
    assert upload(created).status_code == 200  # as signed


def test_an_expired_upload_link_is_refused(api, books, company_a, monkeypatch):
    import datetime

    from infra.devstack import faithful_s3

    created = attach(api, company_a.api_key, draft_entry(books))
    # the link lasts 5 minutes (300 seconds), not the download's 15
    made, expires = (datetime.datetime.fromisoformat(created[name].replace("Z", "+00:00"))
                     for name in ("createdAt", "uploadExpiresAt"))
    assert 299 <= (expires - made).total_seconds() <= 301
    real = faithful_s3.refusal
    # 5 minutes and one second later
    later = datetime.datetime.now(datetime.timezone.utc) + datetime.timedelta(minutes=5, seconds=1)
    monkeypatch.setattr(faithful_s3, "refusal", lambda *args, **kw: real(*args, now=later))
    assert upload(created).status_code == 403


@pytest.mark.parametrize("field, value, problem", [
    ("size", 10_485_761, "less than or equal to 10485760"),  # 10 MB = 10 x 1,048,576 = 10,485,760 bytes
    ("size", 0, "greater than or equal to 1"),
    ("contentType", "application/zip", "application/pdf"),
    ("contentType", "text/html", "application/pdf"),
    ("fileName", "../..", "must name a file"),
    ("fileName", "   ", None),
    ("recordType", "payment", "document"),
])
def test_the_api_refuses_what_the_bucket_does_not_take(api, books, company_a, field, value, problem):
    body = {"recordType": "journalEntry", "recordId": draft_entry(books), "fileName": "recibo.pdf",
            "contentType": "application/pdf", "size": 1000, field: value}
    reply = api.post("/attachments", body, key=company_a.api_key)
    assert (reply.status, reply.json["code"]) == (400, "VALIDATION_ERROR"), reply.text
    assert reply.json["details"][0]["field"] == field
    if problem:
        assert problem in reply.json["details"][0]["message"]
    spanish = api.post("/attachments", body, key=company_a.api_key, headers={"Accept-Language": "es"})
    assert spanish.status == 400 and spanish.json["message"] != reply.json["message"]
    assert stored_objects() == []


def test_the_largest_file_and_every_type_are_taken(api, books, company_a):
    entry_id = draft_entry(books)
    for content_type in ("application/pdf", "image/jpeg", "image/png", "application/xml", "text/xml"):
        created = attach(api, company_a.api_key, entry_id, content_type=content_type, size=10_485_760)
        # 10 MB exactly (10 x 1,048,576 bytes), signed into its upload link
        assert (created["contentType"], created["size"], created["uploadUrl"] is not None) == (
            content_type, 10_485_760, True)


def test_a_file_name_keeps_no_path_nor_syntax(api, books, company_a):
    entry_id = draft_entry(books)
    names = {r"C:\fakepath\Recibo de caja.jpg": "Recibo de caja.jpg",
             "../../etc/passwd": "passwd",
             'factura "marzo";\r\n.pdf': "factura _marzo__.pdf",
             "Factura año 2026.pdf": "Factura año 2026.pdf",
             # invisible format characters (Unicode Cf): the right-to-left override would show "fdp.exe.png"
             "\u202egnp.exe.pdf": "gnp.exe.pdf", "reci\u200bbo\u2066.pdf": "recibo.pdf"}
    for sent, kept in names.items():
        created = attach(api, company_a.api_key, entry_id, file_name=sent, content_type="image/jpeg", size=3)
        assert created["fileName"] == kept, sent
    created = attach(api, company_a.api_key, entry_id, file_name="Factura año 2026.pdf", size=3)
    assert upload(created, body=b"abc").status_code == 200
    download = requests.get(api.get(f"/attachments/{created['id']}", key=company_a.api_key).json["downloadUrl"])
    assert download.content == b"abc"
    assert download.headers["Content-Disposition"] == (
        "attachment; filename=\"Factura ano 2026.pdf\"; filename*=UTF-8''Factura%20a%C3%B1o%202026.pdf")


def test_the_eleventh_attachment_of_a_record_is_refused(api, books, company_a):
    entry_id, other = draft_entry(books), draft_entry(books)
    made = [attach(api, company_a.api_key, entry_id, file_name=f"hoja {n}.png", content_type="image/png", size=n)
            for n in range(1, 11)]
    refused = attach(api, company_a.api_key, entry_id, expect=409)
    assert refused["code"] == "ATTACHMENT_LIMIT_REACHED"
    spanish = api.post("/attachments", {"recordType": "journalEntry", "recordId": entry_id, "fileName": "x.pdf",
                                        "contentType": "application/pdf", "size": 1},
                       key=company_a.api_key, headers={"Accept-Language": "es"})
    assert spanish.json["message"].startswith("Un registro admite como máximo 10 adjuntos")
    attach(api, company_a.api_key, other)  # another record has its own ten
    # one deleted (the entry is a draft): room for one more, and again no more
    assert api.delete(f"/attachments/{made[0]['id']}", **web(api, company_a)).status == 204
    attach(api, company_a.api_key, entry_id)
    attach(api, company_a.api_key, entry_id, expect=409)
    listed = api.get(f"/attachments?recordType=journalEntry&recordId={entry_id}", key=company_a.api_key).json["data"]
    assert len(listed) == 10


def test_announced_uploads_never_made_do_not_block_a_posted_record(api, books, company_a, monkeypatch):
    import datetime

    from chalicelib import clock

    posted = books.entry("2026-11-02", ("110101", 10, 0), ("3101", 0, 10), description="Aporte")["id"]
    made = [attach(api, company_a.api_key, posted, file_name=f"hoja {n}.png", content_type="image/png", size=n)
            for n in range(1, 11)]
    assert upload(made[0], body=b"x").status_code == 200  # 1 byte, as announced: the one uploaded
    # a pending one (its file never arrived) goes even from a posted entry; the uploaded one stays
    assert api.delete(f"/attachments/{made[1]['id']}", **web(api, company_a)).status == 204
    assert api.delete(f"/attachments/{made[0]['id']}", **web(api, company_a)).json["code"] == (
        "ATTACHMENT_RECORD_NOT_DRAFT")
    attach(api, company_a.api_key, posted)  # 10 - 1 deleted + 1 = 10 again
    # full while the links can still be used: 1 uploaded + 9 pending
    assert attach(api, company_a.api_key, posted, expect=409)["code"] == "ATTACHMENT_LIMIT_REACHED"
    # 6 minutes later (the 5-minute links and the 1-minute margin for clocks gone): the 9 pending ones
    # are abandoned, removed to make room; 10 - 9 + 1 = 2 left, the uploaded one and the new one
    later = clock.now() + datetime.timedelta(minutes=6, seconds=1)
    monkeypatch.setattr(clock, "now", lambda: later)
    new = attach(api, company_a.api_key, posted, file_name="recibo.pdf")
    listed = api.get(f"/attachments?recordType=journalEntry&recordId={posted}", key=company_a.api_key).json["data"]
    assert [(a["id"], a["status"]) for a in listed] == [(made[0]["id"], "uploaded"), (new["id"], "pending")]
    # and the count followed: 8 more fit (2 + 8 = 10), the next does not (the new one's link is fresh)
    for n in range(8):
        attach(api, company_a.api_key, posted, file_name=f"otra {n}.pdf")
    assert attach(api, company_a.api_key, posted, expect=409)["code"] == "ATTACHMENT_LIMIT_REACHED"


def test_a_posted_entrys_attachment_stays_and_a_drafts_goes_with_its_file(api, books, company_a):
    posted = books.entry("2026-11-02", ("110101", 10, 0), ("3101", 0, 10), description="Aporte")["id"]
    kept = attach(api, company_a.api_key, posted)
    assert upload(kept).status_code == 200
    refused = api.delete(f"/attachments/{kept['id']}", **web(api, company_a))
    assert (refused.status, refused.json["code"]) == (409, "ATTACHMENT_RECORD_NOT_DRAFT")
    assert api.get(f"/attachments/{kept['id']}", key=company_a.api_key).json["status"] == "uploaded"

    draft = draft_entry(books)
    gone = attach(api, company_a.api_key, draft)
    assert upload(gone).status_code == 200
    # the key: the id, then a random part of this attachment's own (16 hex digits)
    [object_key] = [key for key in stored_objects() if key.startswith(f"companies/{company_a.company_id}/JE/{draft}/")]
    assert re.fullmatch(rf"companies/{company_a.company_id}/JE/{draft}/{gone['id']}-[0-9a-f]{{16}}", object_key)
    reply = api.delete(f"/attachments/{gone['id']}", **web(api, company_a))
    assert (reply.status, reply.text) == (204, "")
    assert object_key not in stored_objects()
    assert api.get(f"/attachments/{gone['id']}", key=company_a.api_key).status == 404
    assert api.get(f"/attachments?recordType=journalEntry&recordId={draft}", key=company_a.api_key).json == {"data": []}
    assert api.delete(f"/attachments/{gone['id']}", **web(api, company_a)).status == 404


def test_a_document_takes_papers_deleted_only_while_draft(api, company_a):
    from tests.documents_support import Shop

    shop = Shop(api, company_a)
    draft = shop.document("103", supplierDocumentNumber="000-001-01-00000077", status="draft")
    assert draft["status"] == "draft", draft["status"]
    first = attach(api, company_a.api_key, draft["id"], "document", file_name="factura proveedor.pdf")
    second = attach(api, company_a.api_key, draft["id"], "document", file_name="factura.xml",
                    content_type="application/xml", size=5)
    third = attach(api, company_a.api_key, draft["id"], "document", file_name="nunca subido.pdf")
    assert api.delete(f"/attachments/{first['id']}", **web(api, company_a)).status == 204
    assert upload(second, body=b"<a/>\n").status_code == 200  # 5 bytes, as announced
    shop.action(draft["id"], "confirm")
    refused = api.delete(f"/attachments/{second['id']}", **web(api, company_a))
    assert (refused.status, refused.json["code"]) == (409, "ATTACHMENT_RECORD_NOT_DRAFT")
    # a file that never arrived (pending) goes whatever the record's state
    assert api.delete(f"/attachments/{third['id']}", **web(api, company_a)).status == 204
    assert attach(api, company_a.api_key, 999_999, "document", expect=404)["code"] == "NOT_FOUND"


def test_a_statement_line_takes_papers_deleted_only_while_not_matched(api, table, books, company_a):
    account = bank_account(books)["id"]
    matched_line, open_line = put_lines(table, company_a.company_id, account, [
        ("2026-11-03", "-10.00", "Comisión", None), ("2026-11-04", "-20.00", "Cargo", None)])
    on_open = attach(api, company_a.api_key, open_line, "statementLine", file_name="aviso.png",
                     content_type="image/png", size=4)
    on_matched = attach(api, company_a.api_key, matched_line, "statementLine", file_name="aviso.png",
                        content_type="image/png", size=4)
    table.client.update_item(TableName=table.name, Key={"PK": {"S": keys.statement_line(
        company_a.company_id, account, matched_line)["PK"]}, "SK": {"S": keys.statement_line(
            company_a.company_id, account, matched_line)["SK"]}}, UpdateExpression="SET #s = :m",
        ExpressionAttributeNames={"#s": "status"}, ExpressionAttributeValues={":m": {"S": "matched"}})
    assert upload(on_matched, body=b"\x89PNG").status_code == 200
    assert api.delete(f"/attachments/{on_matched['id']}", **web(api, company_a)).json["code"] == \
        "ATTACHMENT_RECORD_NOT_DRAFT"
    assert api.delete(f"/attachments/{on_open['id']}", **web(api, company_a)).status == 204
    listed = api.get(f"/attachments?recordType=statementLine&recordId={matched_line}", key=company_a.api_key)
    assert [a["id"] for a in listed.json["data"]] == [on_matched["id"]]


def test_another_companys_attachment_is_not_found(api, books, company_a, company_b):
    entry_id = draft_entry(books)
    created = attach(api, company_a.api_key, entry_id)
    assert upload(created).status_code == 200
    b = company_b.api_key
    for reply in (api.get(f"/attachments/{created['id']}", key=b),
                  api.get(f"/attachments?recordType=journalEntry&recordId={entry_id}", key=b),
                  api.delete(f"/attachments/{created['id']}", **web(api, company_b))):
        assert (reply.status, reply.json["code"]) == (404, "NOT_FOUND"), reply.text
    # nor can it attach to company A's entry
    assert attach(api, b, entry_id, expect=404)["code"] == "NOT_FOUND"
    assert api.get(f"/attachments/{created['id']}", key=company_a.api_key).json["status"] == "uploaded"


def test_a_viewer_reads_but_does_not_attach_or_delete(api, table, books, company_a):
    entry_id = draft_entry(books)
    created = attach(api, company_a.api_key, entry_id)
    _, viewer = member(api, table, company_a, "lector@alpha.example", "viewer")
    body = {"recordType": "journalEntry", "recordId": entry_id, "fileName": "x.pdf", "contentType": "application/pdf",
            "size": 1}
    assert api.post("/attachments", body, cookie=viewer, origin=ORIGIN).status == 403
    assert api.delete(f"/attachments/{created['id']}", cookie=viewer, origin=ORIGIN).status == 403
    assert api.get(f"/attachments/{created['id']}", cookie=viewer).status == 200
    assert api.get(f"/attachments?recordType=journalEntry&recordId={entry_id}", cookie=viewer).status == 200


@pytest.mark.smoke
def test_the_local_stack_takes_a_browsers_upload_on_its_own_moto(tmp_path):
    """`make run`: the presigned URLs name the stack's moto (AWS_ENDPOINT_URL), which answers the
    browser's CORS preflight from the bucket's rules (the console's origin) and checks the signature."""
    from tests.test_local_stack import call, fresh_stack

    with fresh_stack(tmp_path) as (stack, credentials):
        key = {"X-API-Key": credentials["apiKey"]}
        by_code, page = {}, 1
        while True:
            status, _, chart = call("GET", f"{stack.base}/chart-of-accounts?limit=100&page={page}", headers=key)
            assert status == 200, chart
            by_code.update({a["code"]: a["id"] for a in chart["accounts"]})
            if page * 100 >= chart["total"]:
                break
            page += 1
        status, _, entry = call("POST", f"{stack.base}/journal-entries", {
            "date": "2026-11-02", "status": "draft", "description": "Aporte", "lines": [
                {"chartOfAccountId": by_code["6199"], "debit": 10, "credit": 0},
                {"chartOfAccountId": by_code["3101"], "debit": 0, "credit": 10}]}, headers=key)
        assert status == 201, entry
        status, _, created = call("POST", f"{stack.base}/attachments", {
            "recordType": "journalEntry", "recordId": entry["id"], "fileName": "recibo.pdf",
            "contentType": "application/pdf", "size": len(PDF)}, headers=key)
        assert status == 201, created
        assert created["uploadUrl"].startswith(f"http://127.0.0.1:{stack.moto_port}/")
        browser = {"Origin": stack.base}
        preflight = requests.options(created["uploadUrl"], headers={
            **browser, "Access-Control-Request-Method": "PUT", "Access-Control-Request-Headers": "content-type"})
        assert preflight.status_code == 200
        assert preflight.headers["Access-Control-Allow-Origin"] == stack.base
        assert "PUT" in preflight.headers["Access-Control-Allow-Methods"]
        wrong = requests.put(created["uploadUrl"], data=PDF, headers={**browser, "Content-Type": "image/png"})
        assert wrong.status_code == 403
        put = requests.put(created["uploadUrl"], data=PDF, headers={**browser, "Content-Type": "application/pdf"})
        assert put.status_code == 200 and put.headers["Access-Control-Allow-Origin"] == stack.base
        status, _, one = call("GET", f"{stack.base}/attachments/{created['id']}", headers=key)
        assert one["status"] == "uploaded"
        assert requests.get(one["downloadUrl"], headers=browser).content == PDF
