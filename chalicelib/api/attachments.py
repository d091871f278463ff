"""Attachments (issue 44): the papers behind a record, uploaded and downloaded through presigned
S3 links (services/attachments/attachments.py)."""
from __future__ import annotations

from typing import Any

from chalice import Blueprint, Response

from chalicelib.api.routing import Call, endpoint

blueprint = Blueprint(__name__)
TAG = "Attachments"
M = "chalicelib.models.attachments:"


@endpoint(blueprint, "POST", "/attachments", summary="Attach a file to a document, journal entry or statement line: "
          "answers a presigned upload (PUT the file there with its Content-Type and Content-Length); at most 10 "
          "per record, 10 MB each, PDF, JPEG, PNG or XML", tag=TAG, body=M + "AttachmentCreate",
          response=M + "AttachmentUpload")
def create_attachment(call: Call) -> Any:
    from chalicelib.services.attachments import attachments

    return attachments.create_attachment(call.command, call.body.model_dump(by_alias=True))


@endpoint(blueprint, "GET", "/attachments", summary="A record's attachments, each `pending` until its file arrives",
          tag=TAG, query=M + "AttachmentQuery", response=M + "AttachmentList")
def list_attachments(call: Call) -> Any:
    from chalicelib.services.attachments import attachments

    return attachments.list_attachments(call.command.table, call.principal.company_id, call.query.record_type,
                                        call.query.record_id)


@endpoint(blueprint, "GET", "/attachments/{id}", summary="One attachment with a presigned download link once "
          "uploaded", tag=TAG, response=M + "AttachmentDownload")
def get_attachment(call: Call) -> Any:
    from chalicelib.services.attachments import attachments

    return attachments.get_attachment(call.command.table, call.principal.company_id, call.ids["id"])


@endpoint(blueprint, "DELETE", "/attachments/{id}", summary="Delete an attachment and its file: an uploaded one "
          "only while its record is a draft (a document or journal entry in draft, a statement line not matched), "
          "one whose file never arrived (`pending`) always", tag=TAG,
          status=204)
def delete_attachment(call: Call) -> Any:
    from chalicelib.services.attachments import attachments

    attachments.delete_attachment(call.command, call.ids["id"])
    return Response(body="", status_code=204)
