"""Scheduled invoices: sales invoices (01) made by the hourly run on the dates a schedule names.
Models and services load on first use; handlers return plain records that the route's response
model renders."""
from __future__ import annotations

from typing import Any

from chalice import Blueprint

from chalicelib.api.routing import Call, endpoint, page_body

blueprint = Blueprint(__name__)
TAG = "Scheduled invoices"
M = "chalicelib.models.scheduled_invoices:"
PAGE = "chalicelib.models.base:PageQuery"


@endpoint(blueprint, "GET", "/scheduled-invoices", summary="List scheduled invoices", tag=TAG, query=PAGE,
          response=M + "ScheduledInvoiceList")
def list_schedules(call: Call) -> Any:
    from chalicelib.services.sales_purchases import scheduled_invoices

    return page_body("scheduledInvoices", scheduled_invoices.list_schedules(
        call.command.table, call.principal.company_id, call.query.page, call.query.limit))


@endpoint(blueprint, "GET", "/scheduled-invoices/{id}", summary="One scheduled invoice", tag=TAG,
          response=M + "ScheduledInvoice")
def get_schedule(call: Call) -> Any:
    from chalicelib.services.sales_purchases import scheduled_invoices

    return scheduled_invoices.get_schedule(call.command.table, call.principal.company_id, call.ids["id"])


@endpoint(blueprint, "POST", "/scheduled-invoices", summary="Schedule a recurring sales invoice", tag=TAG,
          body=M + "ScheduledInvoiceCreate", response=M + "ScheduledInvoice")
def create_schedule(call: Call) -> Any:
    from chalicelib.services.sales_purchases import scheduled_invoices

    return scheduled_invoices.create_schedule(call.command, call.body.model_dump(by_alias=True))


@endpoint(blueprint, "PUT", "/scheduled-invoices/{id}", summary="Update a scheduled invoice (sparse)", tag=TAG,
          body=M + "ScheduledInvoiceUpdate", response=M + "ScheduledInvoice")
def update_schedule(call: Call) -> Any:
    from chalicelib.services.sales_purchases import scheduled_invoices

    return scheduled_invoices.update_schedule(call.command, call.ids["id"], call.changes(), call.expected_version())
