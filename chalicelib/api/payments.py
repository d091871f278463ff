"""Payments of documents. Models and services load on first use; handlers return plain records
that the route's response model renders."""
from __future__ import annotations

from typing import Any

from chalice import Blueprint

from chalicelib.api.routing import Call, endpoint, page_body

blueprint = Blueprint(__name__)
TAG = "Payments"
M = "chalicelib.models.payments:"
BASE = "/payments/documents/{documentId}/payments"


@endpoint(blueprint, "GET", BASE, summary="Payments of a document", tag=TAG, query="chalicelib.models.base:PageQuery",
          response=M + "PaymentList")
def list_payments(call: Call) -> Any:
    from chalicelib.services.payments import payments

    return page_body("payments", payments.list_payments(call.command.table, call.principal.company_id,
                                                        call.ids["documentId"], call.query.page, call.query.limit))


@endpoint(blueprint, "POST", BASE, summary="Register a payment: by method, credit note or withholding certificate",
          tag=TAG, body=M + "PaymentCreate", response=M + "Payment", counts="PaymentsCreated")
def register_payment(call: Call) -> Any:
    from chalicelib.services.payments import payments

    return payments.register_payment(call.command, call.ids["documentId"], call.body.model_dump(by_alias=True))


@endpoint(blueprint, "POST", BASE + "/{paymentId}/confirm", summary="Confirm a pending payment", tag=TAG,
          response=M + "Payment", status=200)
def confirm_payment(call: Call) -> Any:
    from chalicelib.services.payments import payments

    return payments.confirm_payment(call.command, call.ids["documentId"], call.ids["paymentId"])


@endpoint(blueprint, "POST", BASE + "/{paymentId}/cancel", summary="Cancel a payment: entry and bank transaction "
          "reversed, pending restored", tag=TAG, body=M + "PaymentCancel", response=M + "Payment", status=200)
def cancel_payment(call: Call) -> Any:
    from chalicelib.services.payments import payments

    return payments.cancel_payment(call.command, call.ids["documentId"], call.ids["paymentId"], call.body.reason,
                                   call.body.date)


@endpoint(blueprint, "GET", "/payments/source-documents/{sourceDocumentId}/advance-availability",
          summary="Advances received on a quote or order, applied and available", tag=TAG,
          response=M + "AdvanceAvailability")
def advance_availability(call: Call) -> Any:
    from chalicelib.services.payments import advances

    return advances.advance_availability(call.command.table, call.principal.company_id, call.ids["sourceDocumentId"])


@endpoint(blueprint, "POST", "/payments/documents/{documentId}/apply-advances-from-source",
          summary="Apply advances of a quote or order to the document", tag=TAG, body=M + "AdvanceApply",
          response=M + "Payment")
def apply_advances(call: Call) -> Any:
    from chalicelib.services.payments import advances

    return advances.apply_advances(call.command, call.ids["documentId"], call.body.model_dump(by_alias=True))
