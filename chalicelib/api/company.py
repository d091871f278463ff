from __future__ import annotations

from chalice import Blueprint

from chalicelib.api.routing import MANAGE, Access, Call, endpoint
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
          tag=TAG, body=CompanyCreate, response=Company, access=Access.WEB_SESSION)
def create_company(call: Call) -> Company:
    company = accounts.create_company(call.command.table, call.principal.user_id,
                                      call.body.model_dump(by_alias=True, exclude_unset=True))
    return Company.model_validate(company)
