"""Sales and purchase documents. Services are imported inside the handlers (cold start: see
infra/bench.py)."""
from __future__ import annotations

from chalice import Blueprint

from chalicelib.api.routing import Call, endpoint
from chalicelib.models.accounting import Deleted
from chalicelib.models.documents import (
    Document,
    DocumentCreate,
    DocumentList,
    DocumentListItem,
    DocumentListQuery,
    DocumentReverse,
    DocumentUpdate,
)

blueprint = Blueprint(__name__)
TAG = "Documents"


@endpoint(blueprint, "GET", "/documents", summary="List documents, newest first", tag=TAG,
          query=DocumentListQuery, response=DocumentList)
def list_documents(call: Call) -> DocumentList:
    from chalicelib.services import documents

    q = call.query
    page = documents.list_documents(call.command.table, call.principal.company_id, document_type=q.type,
                                     status=q.status, start_date=q.start_date, end_date=q.end_date,
                                     partner_id=q.business_partner_id, page=q.page, limit=q.limit, cursor=q.cursor)
    return DocumentList(documents=[DocumentListItem.model_validate(item) for item in page.items], total=page.total,
                        page=page.page, limit=page.limit, next_cursor=page.next_cursor)


@endpoint(blueprint, "GET", "/documents/{id}", summary="One document", tag=TAG, response=Document)
def get_document(call: Call) -> Document:
    from chalicelib.services import documents

    return Document.model_validate(documents.view(documents.get_document(call.command.table,
                                                                         call.principal.company_id, call.ids["id"])))


@endpoint(blueprint, "POST", "/documents", summary="Create a document (confirmed unless `status: draft`)", tag=TAG,
          body=DocumentCreate, response=Document)
def create_document(call: Call) -> Document:
    from chalicelib.services import documents

    return Document.model_validate(documents.create_document(call.command, call.body.model_dump(by_alias=True)))


@endpoint(blueprint, "PUT", "/documents/{id}", summary="Update a draft document (sparse)", tag=TAG,
          body=DocumentUpdate, response=Document)
def update_document(call: Call) -> Document:
    from chalicelib.services import documents

    return Document.model_validate(documents.update_document(call.command, call.ids["id"], call.changes(),
                                                             call.expected_version()))


@endpoint(blueprint, "POST", "/documents/{id}/confirm", summary="Confirm a draft document", tag=TAG,
          response=Document, status=200)
def confirm_document(call: Call) -> Document:
    from chalicelib.services import documents

    return Document.model_validate(documents.confirm_document(call.command, call.ids["id"]))


@endpoint(blueprint, "POST", "/documents/{id}/unconfirm", summary="Return a purchase invoice (103) to draft",
          tag=TAG, body=DocumentReverse, response=Document, status=200)
def unconfirm_document(call: Call) -> Document:
    from chalicelib.services import documents

    return Document.model_validate(documents.unconfirm_document(call.command, call.ids["id"], call.body.date))


@endpoint(blueprint, "POST", "/documents/{id}/cancel", summary="Cancel a note (06, 07, 105, 106) or import (104)",
          tag=TAG, body=DocumentReverse, response=Document, status=200)
def cancel_document(call: Call) -> Document:
    from chalicelib.services import documents

    return Document.model_validate(documents.cancel_document(call.command, call.ids["id"], call.body.date,
                                                             call.body.reason))


@endpoint(blueprint, "DELETE", "/documents/{id}", summary="Delete an unconfirmed purchase invoice (web app only)",
          tag=TAG, response=Deleted)
def delete_document(call: Call) -> Deleted:
    from chalicelib.services import documents

    return Deleted.model_validate(documents.delete_document(call.command, call.ids["id"]))
