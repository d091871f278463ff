"""Scheduled invoices: sales invoices (01) made by the hourly run on the dates a schedule names.
Models and services load on first use; handlers return plain records that the route's response
model renders."""
from __future__ import annotations

from typing import Any

from chalice import Blueprint

from chalicelib import messages
from chalicelib.api.routing import Call, endpoint, page_body

blueprint = Blueprint(__name__)
TAG = "Scheduled invoices"
M = "chalicelib.models.scheduled_invoices:"
PAGE = "chalicelib.models.base:PageQuery"


def _as_read(call: Call, schedule: dict[str, Any]) -> dict[str, Any]:
    """The schedule with its last failure in the caller's language (the hourly run stored it in English)."""
    return {**schedule, "lastError": messages.stored_error(schedule.get("lastError"), messages.language(call.headers))}


@endpoint(blueprint, "GET", "/scheduled-invoices", summary="List scheduled invoices", tag=TAG, query=PAGE,
          response=M + "ScheduledInvoiceList")
def list_schedules(call: Call) -> Any:
    from chalicelib.services.sales_purchases import scheduled_invoices

    page = scheduled_invoices.list_schedules(call.command.table, call.principal.company_id, call.query.page,
                                             call.query.limit)
    return {**page_body("scheduledInvoices", page), "scheduledInvoices": [_as_read(call, s) for s in page.items]}


@endpoint(blueprint, "GET", "/scheduled-invoices/{id}", summary="One scheduled invoice", tag=TAG,
          response=M + "ScheduledInvoice")
def get_schedule(call: Call) -> Any:
    from chalicelib.services.sales_purchases import scheduled_invoices

    return _as_read(call, scheduled_invoices.get_schedule(call.command.table, call.principal.company_id, call.ids["id"]))


@endpoint(blueprint, "POST", "/scheduled-invoices", summary="Schedule a recurring sales invoice", tag=TAG,
          body=M + "ScheduledInvoiceCreate", response=M + "ScheduledInvoice")
def create_schedule(call: Call) -> Any:
    from chalicelib.services.sales_purchases import scheduled_invoices

    return scheduled_invoices.create_schedule(call.command, call.body.model_dump(by_alias=True))


@endpoint(blueprint, "PUT", "/scheduled-invoices/{id}", summary="Update a scheduled invoice (sparse)", tag=TAG,
          body=M + "ScheduledInvoiceUpdate", response=M + "ScheduledInvoice", versioned=True)
def update_schedule(call: Call) -> Any:
    from chalicelib.services.sales_purchases import scheduled_invoices

    return _as_read(call, scheduled_invoices.update_schedule(call.command, call.ids["id"], call.changes(),
                                                             call.expected_version()))
