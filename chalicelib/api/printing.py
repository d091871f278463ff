"""Report templates, printing documents and journal entries as PDF, and e-mailing a document.
A print is a read sent as POST (the spec's route): it needs only the `read` permission, answers
200 with the PDF and is not kept for Idempotency-Key replays (the bytes are not stored)."""
from __future__ import annotations

from typing import Any

from chalice import Blueprint, Response

from chalicelib.api.routing import READ, Call, endpoint, page_body

blueprint = Blueprint(__name__)
TAG = "Printing and sending"
M = "chalicelib.models.printing:"
PDF = "application/pdf"


def _pdf_response(printout: Any) -> Response:
    return Response(body=printout.content, status_code=200,
                    headers={"Content-Type": PDF, "Content-Disposition": f'inline; filename="{printout.filename}"'})


@endpoint(blueprint, "GET", "/report-templates", summary="Report templates for printing and sending", tag=TAG,
          response=M + "ReportTemplateList")
def list_templates(call: Call) -> Any:
    from chalicelib.services.sales_purchases import printing

    return {"reportTemplates": printing.list_templates()}


@endpoint(blueprint, "POST", "/documents/{id}/print", summary="The document as a PDF (send Accept: application/pdf)",
          tag=TAG, body=M + "PrintRequest", status=200, permission=READ, idempotent=False, produces=PDF)
def print_document(call: Call) -> Response:
    from chalicelib.services.sales_purchases import printing

    return _pdf_response(printing.print_document(call.command.table, call.principal.company_id, call.ids["id"],
                                                 call.body.template_id))


@endpoint(blueprint, "POST", "/journal-entries/{id}/print", summary="The journal entry as a PDF (send Accept: "
          "application/pdf)", tag=TAG, body=M + "PrintRequest", status=200, permission=READ, idempotent=False,
          produces=PDF)
def print_entry(call: Call) -> Response:
    from chalicelib.services.sales_purchases import printing

    return _pdf_response(printing.print_entry(call.command.table, call.principal.company_id, call.ids["id"],
                                              call.body.template_id))


@endpoint(blueprint, "POST", "/send-document", summary="E-mail a document's PDF (Amazon SES)", tag=TAG,
          body=M + "SendDocument", response=M + "Sending")
def send_document(call: Call) -> Any:
    from chalicelib.services.sales_purchases import printing

    return printing.send_document(call.command, call.body.model_dump(by_alias=True))


@endpoint(blueprint, "GET", "/documents/{id}/sendings", summary="A document's sendings, newest first", tag=TAG,
          query="chalicelib.models.base:ListQuery", response=M + "SendingList")
def list_sendings(call: Call) -> Any:
    from chalicelib.services.sales_purchases import printing

    return page_body("sendings", printing.list_sendings(call.command.table, call.principal.company_id, call.ids["id"],
                                                        call.query.page, call.query.limit, call.query.cursor))
