from typing import Annotated, List, Optional

from pydantic import Field, StringConstraints

from chalicelib.domain.mail import ONE_LINE_PATTERN
from chalicelib.models.base import EntityId, ListEnvelope, LongText, MailAddress, RequestModel, ResponseModel

Subject = Annotated[str, StringConstraints(max_length=200, pattern=ONE_LINE_PATTERN)]


class ReportTemplate(ResponseModel):
    id: int
    key: str
    name: str
    resource: str = Field(description="what it prints: `document` or `journal-entry`")
    page_format: str = Field(description="`letter`, or `roll-80mm` for an 80 mm roll printer")


class ReportTemplateList(ResponseModel):
    report_templates: List[ReportTemplate]


class PrintRequest(RequestModel):
    template_id: Optional[EntityId] = Field(
        None, description="a template of the printed resource (GET /report-templates); default: the invoice for "
                          "documents, the journal-entry template for entries")


class SendDocument(RequestModel):
    """The spec's Send-document body."""
    template_id: Optional[EntityId] = Field(None, description="a document template; default: the invoice")
    document_id: EntityId
    email: MailAddress
    subject: Optional[Subject] = Field(None, description="default: the document's title and number")
    message: Optional[LongText] = Field(None, description="the text of the e-mail; the PDF is attached (and an El "
                                                          "Salvador DTE's JSON as transmitted)")
    send_from: Annotated[str, StringConstraints(max_length=50)] = Field(
        "email", json_schema_extra={"enum": ["email"]}, description="the sending channel: only `email` exists (anything else: CHANNEL_UNSUPPORTED)")


class Sending(ResponseModel):
    document_id: int
    channel: str
    email: str
    subject: str
    template_id: int
    attachment: str = Field(description="the first attachment: the PDF")
    attachments: List[str] = Field(description="every attachment's file name: the PDF and, for an El Salvador DTE "
                                               "the tax authority answered, its JSON (both named by the generation "
                                               "code)")
    message_id: str
    sent_at: str
    sent_by: Optional[int] = None


class SendingList(ListEnvelope):
    sendings: List[Sending]
