"""Attachments (issue 44): the papers behind a document, a journal entry or a bank statement line."""
from typing import List, Literal, Optional

from pydantic import Field, StringConstraints
from typing_extensions import Annotated

from chalicelib.domain.attachments import CONTENT_TYPES, MAX_SIZE
from chalicelib.models.base import FROM_JSON_NUMBER, EntityId, OneOf, QueryId, RequestModel, ResponseModel, WholeNumber

RecordType = Literal["document", "journalEntry", "statementLine"]
ContentType = Annotated[str, OneOf(CONTENT_TYPES)]
Size = Annotated[WholeNumber, Field(ge=1, le=MAX_SIZE), FROM_JSON_NUMBER]
AttachmentStatus = Literal["pending", "uploaded"]


class AttachmentCreate(RequestModel):
    record_type: RecordType
    record_id: EntityId
    file_name: Annotated[str, StringConstraints(min_length=1, max_length=1000)] = Field(
        description="kept without its path (the last part), control and reserved characters; at most 200 "
                    "characters, extension kept; the download's name")
    content_type: ContentType = Field(description="PDF, JPEG, PNG or XML: the upload must send this Content-Type")
    size: Size = Field(
        description="bytes, at most 10 MB (10,485,760): the upload must send exactly this Content-Length")


class AttachmentQuery(RequestModel):
    record_type: RecordType
    record_id: QueryId


class Attachment(ResponseModel):
    id: int
    record_type: RecordType
    record_id: int
    file_name: str
    content_type: str
    size: int
    status: AttachmentStatus = Field(description="`uploaded` once the file is in storage (asked of it on each read), "
                                                 "else `pending`")
    created_at: str


class AttachmentUpload(Attachment):
    upload_url: Optional[str] = Field(description="a presigned PUT (5 minutes): send the file as the body with "
                                                  "exactly this Content-Type and Content-Length, before "
                                                  "`uploadExpiresAt`. Shown once: null on an Idempotency-Key "
                                                  "replay (delete the pending attachment and attach again)")
    upload_expires_at: Optional[str] = None


class AttachmentDownload(Attachment):
    download_url: Optional[str] = Field(description="a presigned GET naming the file (Content-Disposition), "
                                                    "null while pending; each GET makes a new one")
    download_expires_at: Optional[str] = None


class AttachmentList(ResponseModel):
    data: List[Attachment]
