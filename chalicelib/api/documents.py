"""Sales and purchase documents. Models and services load on first use (cold start: see
infra/bench/); handlers return plain records that the route's response model renders."""
from __future__ import annotations

from typing import Any

from chalice import Blueprint, Response

from chalicelib.api.routing import Call, endpoint, page_body

blueprint = Blueprint(__name__)
TAG = "Documents"
M = "chalicelib.models.documents:"
JOSE = "application/jose"  # a JWS in its compact form (RFC 7515)


@endpoint(blueprint, "GET", "/documents", summary="List documents, newest first", tag=TAG,
          query=M + "DocumentListQuery", response=M + "DocumentList")
def list_documents(call: Call) -> Any:
    from chalicelib.services.sales_purchases import documents

    q = call.query
    return page_body("documents", documents.list_documents(
        call.command.table, call.principal.company_id, document_type=q.type, status=q.status,
        start_date=q.start_date, end_date=q.end_date, partner_id=q.business_partner_id, page=q.page,
        limit=q.limit, cursor=q.cursor, query=q.q))


@endpoint(blueprint, "GET", "/documents/{id}", summary="One document", tag=TAG, response=M + "Document")
def get_document(call: Call) -> Any:
    from chalicelib.services.sales_purchases import documents

    return documents.shown_document(call.command.table, call.principal.company_id, call.ids["id"])


@endpoint(blueprint, "GET", "/documents/{id}/dte", summary="El Salvador: the DTE as transmitted to the tax authority, "
          "with its seal and answer (Accept: application/jose: the signed JWS sent)", tag=TAG,
          response=M + "DteAsTransmitted", exports=(JOSE,))
def get_dte(call: Call) -> Response:
    from chalicelib.api.exports import requested_type
    from chalicelib.countries.sv.services import dte_delivery

    delivered = dte_delivery.delivery(call.command.table, call.principal.company_id, call.ids["id"])
    if requested_type(call.headers, (JOSE,)):
        return Response(body=delivered.jws.encode("ascii"), status_code=200, headers={
            "Content-Type": JOSE, "Vary": "Accept",
            "Content-Disposition": f'attachment; filename="{delivered.codigo_generacion}.jws"'})
    # the bytes as kept: rendering through a model would write the signed JSON anew
    return Response(body=delivered.json.decode("utf-8"), status_code=200, headers={
        "Content-Type": "application/json", "Vary": "Accept",
        "Content-Disposition": f'inline; filename="{delivered.json_filename}"'})


@endpoint(blueprint, "POST", "/documents", summary="Create a document (confirmed unless `status: draft`)", tag=TAG,
          body=M + "DocumentCreate", response=M + "Document", counts="DocumentsCreated")
def create_document(call: Call) -> Any:
    from chalicelib.services.sales_purchases import documents

    return documents.create_document(call.command, call.body.model_dump(by_alias=True))


@endpoint(blueprint, "PUT", "/documents/{id}", summary="Update a draft document (sparse)", tag=TAG,
          body=M + "DocumentUpdate", response=M + "Document")
def update_document(call: Call) -> Any:
    from chalicelib.services.sales_purchases import documents

    return documents.update_document(call.command, call.ids["id"], call.changes(), call.expected_version())


@endpoint(blueprint, "POST", "/documents/{id}/confirm", summary="Confirm a draft document", tag=TAG,
          response=M + "Document", status=200)
def confirm_document(call: Call) -> Any:
    from chalicelib.services.sales_purchases import documents

    return documents.confirm_document(call.command, call.ids["id"])


@endpoint(blueprint, "POST", "/documents/{id}/unconfirm", summary="Return a purchase invoice (103) to draft",
          tag=TAG, body=M + "DocumentReverse", response=M + "Document", status=200)
def unconfirm_document(call: Call) -> Any:
    from chalicelib.services.sales_purchases import document_reversals

    return document_reversals.unconfirm_document(call.command, call.ids["id"], call.body.date)


@endpoint(blueprint, "POST", "/documents/{id}/cancel", summary="Cancel a draft of any type, or a confirmed note (06, 07, 105, 106) or import (104)",
          tag=TAG, body=M + "DocumentReverse", response=M + "Document", status=200)
def cancel_document(call: Call) -> Any:
    from chalicelib.services.sales_purchases import document_reversals

    return document_reversals.cancel_document(call.command, call.ids["id"], call.body.date, call.body.reason)


@endpoint(blueprint, "POST", "/documents/{id}/invalidate", summary="El Salvador: invalidate an accepted DTE at the "
          "tax authority and reverse it like a cancellation", tag=TAG, body=M + "DocumentInvalidate",
          response=M + "Document", status=200)
def invalidate_document(call: Call) -> Any:
    from chalicelib.countries.sv.services import dte_invalidation

    return dte_invalidation.invalidate(call.command, call.ids["id"], call.body.model_dump(by_alias=True))


@endpoint(blueprint, "DELETE", "/documents/{id}", summary="Delete a draft that holds no advances (web app only)",
          tag=TAG, response="chalicelib.models.accounting:Deleted")
def delete_document(call: Call) -> Any:
    from chalicelib.services.sales_purchases import document_reversals

    return document_reversals.delete_document(call.command, call.ids["id"])
