from __future__ import annotations

from typing import Any

from chalice import Blueprint

from chalicelib.api.routing import MANAGE, READ, Access, Call, endpoint
from chalicelib.services.identity import accounts

blueprint = Blueprint(__name__)
M = "chalicelib.models.company:"
TAG = "Company"


@endpoint(blueprint, "GET", "/companies", summary="The company of the current context",
          tag=TAG, response=M + "Company")
def get_current_company(call: Call) -> Any:
    return accounts.get_company(call.command.table, call.principal.company_id)


@endpoint(blueprint, "PUT", "/companies/{id}", summary="Update the company (sparse)", tag=TAG,
          body=M + "CompanyUpdate", response=M + "Company", permission=MANAGE, versioned=True)
def update_company(call: Call) -> Any:
    company = accounts.update_company(call.command, call.ids["id"], call.changes(), call.expected_version())
    return company


@endpoint(blueprint, "POST", "/companies", summary="Create a company; the caller becomes its owner",
          tag=TAG, body=M + "CompanyCreate", response=M + "Company", access=Access.WEB_SESSION, permission=READ)
def create_company(call: Call) -> Any:
    # permission READ: a new company of one's own is not a write into the current one
    company = accounts.create_company_for(call.command, call.body.model_dump(by_alias=True, exclude_unset=True))
    return company
