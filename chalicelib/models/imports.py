"""Import jobs (issue 41): the upload, the job as it runs, its problems by row and column, and a
kind's template."""
from typing import Annotated, Dict, List, Literal, Optional

from pydantic import Field, StrictBool, StringConstraints

from chalicelib.models.base import Date, Name, OneOf, RequestModel, ResponseModel
from chalicelib.services.imports.jobs import MAX_REQUEST_BYTES
from chalicelib.services.imports.kinds import KINDS, TABLE_KINDS

BASE64_PATTERN = r"^(?:[A-Za-z0-9+/]{4})+(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$|^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)$"
ImportKindName = Annotated[str, OneOf(KINDS)]
TemplateKindName = Annotated[str, OneOf(TABLE_KINDS)]
JobStatus = Literal["validating", "ready", "importing", "done", "failed"]
Heading = Annotated[str, StringConstraints(min_length=1, max_length=200)]
FieldName = Annotated[str, StringConstraints(min_length=1, max_length=100)]


class ImportMapping(RequestModel):
    columns: Optional[Dict[Heading, Optional[FieldName]]] = Field(
        None, max_length=200, description="the file's heading -> the template column (field) it holds, or null to "
                                          "leave it out, for a file that is not the template")
    existing: Literal["error", "update"] = Field(
        "error", description="a row whose natural key (tax id, code) exists already: a problem of the row, or an update")


class ImportCreate(RequestModel):
    kind: ImportKindName
    file_name: Name = Field(description="the file's name: its extension (.csv, .xlsx, .zip) says how to read it")
    # the document states plain base64 (what a client sends); the service also takes line breaks and a
    # browser's `data:...;base64,` prefix
    content: str = Field(max_length=MAX_REQUEST_BYTES,
                         description="the file, base64-encoded; at most 4 MB decoded (413 PAYLOAD_TOO_LARGE above)",
                         json_schema_extra={"minLength": 4, "pattern": BASE64_PATTERN, "contentEncoding": "base64"})
    mapping: Optional[ImportMapping] = None
    # strict: "yes" or "false" in quotes is a client's mistake, not a choice (a real import would follow)
    dry_run: StrictBool = Field(False, description="check every row and store nothing: the job ends `ready` or "
                                                   "`failed`")
    date: Optional[Date] = Field(None, description="the changeover date: required by the opening kinds, refused by "
                                                   "the others")


class ImportJobQuery(RequestModel):
    errors_limit: int = Field(100, ge=1, le=1000)
    errors_cursor: Optional[Annotated[str, StringConstraints(max_length=1000)]] = None


class ImportListQuery(RequestModel):
    limit: int = Field(20, ge=1, le=100)
    cursor: Optional[Annotated[str, StringConstraints(max_length=1000)]] = None


class ImportProblem(ResponseModel):
    row: int = Field(description="the file's line (the heading is line 1); 0 for the file as a whole")
    column: Optional[str] = Field(None, description="the template column (field name); null for the whole row or file")
    message: str


class ImportJobSummary(ResponseModel):
    id: int
    kind: ImportKindName
    file_name: str
    status: JobStatus
    dry_run: bool
    date: Optional[str] = None
    rows: int
    valid: int
    invalid: int = Field(description="rows with a problem, every one counted (at most 1000 problems are kept)")
    processed: int = Field(description="rows landed so far")
    result: Optional[Dict[str, int]] = Field(None, description="what the import did: created, updated, ...")
    created_at: str
    finished_at: Optional[str] = None


class ImportJob(ImportJobSummary):
    errors: List[ImportProblem] = Field(description="a page of the problems, in the file's order")
    errors_next_cursor: Optional[str] = None


class ImportJobList(ResponseModel):
    imports: List[ImportJobSummary]
    limit: int
    next_cursor: Optional[str] = None


class TemplateQuery(RequestModel):
    language: Optional[Literal["es", "en"]] = Field(None, description="the headings' language; else Accept-Language")


class TemplateColumn(ResponseModel):
    name: str = Field(description="the field: the English heading")
    heading: str = Field(description="the heading in the language asked")
    required: bool
    example: str


class ImportTemplate(ResponseModel):
    kind: TemplateKindName
    needs_date: bool
    columns: List[TemplateColumn]
