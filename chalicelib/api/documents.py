"""Sales and purchase documents. Models and services load on first use (cold start: see
infra/bench/); handlers return plain records that the route's response model renders."""
from __future__ import annotations

from typing import Any

from chalice import Blueprint

from chalicelib import messages
from chalicelib.api.routing import Call, endpoint, page_body

blueprint = Blueprint(__name__)
TAG = "Documents"
M = "chalicelib.models.documents:"


def _as_read(call: Call, document: Any) -> Any:
    """The document with its DTE's last failure in the caller's language: the transmission, which
    may run in the hourly retry with no caller, stored it in the API's English."""
    dte = document.get("dte") if isinstance(document, dict) else None
    if not dte or not dte.get("lastError"):
        return document
    return {**document, "dte": {**dte, "lastError": messages.stored_phrase(dte["lastError"],
                                                                            messages.language(call.headers))}}


@endpoint(blueprint, "GET", "/documents", summary="List documents, newest first", tag=TAG,
          query=M + "DocumentListQuery", response=M + "DocumentList")
def list_documents(call: Call) -> Any:
    from chalicelib.services.sales_purchases import document_list

    q = call.query
    listed = page_body("documents", document_list.list_documents(
        call.command.table, call.principal.company_id, document_type=q.type, status=q.status,
        start_date=q.start_date, end_date=q.end_date, partner_id=q.business_partner_id, page=q.page,
        limit=q.limit, cursor=q.cursor, query=q.q, paid=q.payment_status))
    return {**listed, "documents": [_as_read(call, document) for document in listed["documents"]]}


@endpoint(blueprint, "GET", "/documents/{id}", summary="One document", tag=TAG, response=M + "Document")
def get_document(call: Call) -> Any:
    from chalicelib.services.sales_purchases import documents

    return _as_read(call, documents.shown_document(call.command.table, call.principal, call.ids["id"]))


@endpoint(blueprint, "POST", "/documents", summary="Create a document (confirmed unless `status: draft`)", tag=TAG,
          body=M + "DocumentCreate", response=M + "Document", counts="DocumentsCreated")
def create_document(call: Call) -> Any:
    from chalicelib.services.sales_purchases import documents

    return _as_read(call, documents.create_document(call.command, call.body.model_dump(by_alias=True)))


@endpoint(blueprint, "PUT", "/documents/{id}", summary="Update a draft document (sparse)", tag=TAG,
          body=M + "DocumentUpdate", response=M + "Document", versioned=True)
def update_document(call: Call) -> Any:
    from chalicelib.services.sales_purchases import documents

    return _as_read(call, documents.update_document(call.command, call.ids["id"], call.changes(), call.expected_version()))


@endpoint(blueprint, "POST", "/documents/{id}/confirm", summary="Confirm a draft document", tag=TAG,
          response=M + "Document", status=200)
def confirm_document(call: Call) -> Any:
    from chalicelib.services.sales_purchases import documents

    return _as_read(call, documents.confirm_document(call.command, call.ids["id"]))


@endpoint(blueprint, "POST", "/documents/{id}/unconfirm", summary="Return a purchase invoice (103) to draft",
          tag=TAG, body=M + "DocumentReverse", response=M + "Document", status=200)
def unconfirm_document(call: Call) -> Any:
    from chalicelib.services.sales_purchases import document_reversals

    return _as_read(call, document_reversals.unconfirm_document(call.command, call.ids["id"], call.body.date))


@endpoint(blueprint, "POST", "/documents/{id}/cancel", summary="Cancel a draft of any type, or a confirmed note (06, 07, 105, 106) or import (104)",
          tag=TAG, body=M + "DocumentReverse", response=M + "Document", status=200)
def cancel_document(call: Call) -> Any:
    from chalicelib.services.sales_purchases import document_reversals

    return _as_read(call, document_reversals.cancel_document(call.command, call.ids["id"], call.body.date, call.body.reason))


@endpoint(blueprint, "DELETE", "/documents/{id}", summary="Delete a draft that holds no advances (web app only)",
          tag=TAG, response="chalicelib.models.accounting:Deleted")
def delete_document(call: Call) -> Any:
    from chalicelib.services.sales_purchases import document_reversals

    return document_reversals.delete_document(call.command, call.ids["id"])
