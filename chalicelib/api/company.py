from __future__ import annotations

from chalice import Blueprint

from chalicelib.api.routing import MANAGE, READ, Access, Call, endpoint
from chalicelib.models.company import Company, CompanyCreate, CompanyUpdate
from chalicelib.services import accounts

blueprint = Blueprint(__name__)
TAG = "Company"


@endpoint(blueprint, "GET", "/companies", summary="The company of the current context",
          tag=TAG, response=Company)
def get_current_company(call: Call) -> Company:
    return Company.model_validate(accounts.get_company(call.command.table, call.principal.company_id))


@endpoint(blueprint, "PUT", "/companies/{id}", summary="Update the company (sparse)", tag=TAG,
          body=CompanyUpdate, response=Company, permission=MANAGE)
def update_company(call: Call) -> Company:
    company = accounts.update_company(call.command, call.ids["id"], call.changes(), call.expected_version())
    return Company.model_validate(company)


@endpoint(blueprint, "POST", "/companies", summary="Create a company; the caller becomes its owner",
          tag=TAG, body=CompanyCreate, response=Company, access=Access.WEB_SESSION, permission=READ)
def create_company(call: Call) -> Company:
    # permission READ: a new company of one's own is not a write into the current one
    company = accounts.create_company_for(call.command, call.body.model_dump(by_alias=True, exclude_unset=True))
    return Company.model_validate(company)
