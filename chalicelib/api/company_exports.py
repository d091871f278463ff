"""Export everything (issue 41): POST /exports/company makes the company archive, GET /exports/{id}
answers its job with a download link once done."""
from __future__ import annotations

from typing import Any

from chalice import Blueprint

from chalicelib.api.routing import MANAGE, Call, endpoint

blueprint = Blueprint(__name__)
M = "chalicelib.models.company_exports:"
TAG = "Company"


@endpoint(blueprint, "POST", "/exports/company", summary="Export every record of the company: a ZIP of its items "
          "(JSON Lines per kind), readable CSV of the main tables and a manifest with counts and checksums; "
          "secrets never leave", tag=TAG, response=M + "CompanyExport", status=202, permission=MANAGE)
def export_company(call: Call) -> Any:
    from chalicelib.services.imports import company_export

    return company_export.start_export(call.command)


@endpoint(blueprint, "GET", "/exports/{id}", summary="A company export: its status, counts and, once done, "
          "a download link valid for one hour", tag=TAG, response=M + "CompanyExport", permission=MANAGE)
def get_export(call: Call) -> Any:
    from chalicelib.services.imports import company_export

    return company_export.get_export(call.command.table, call.principal.company_id, call.ids["id"])
