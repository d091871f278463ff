from __future__ import annotations

from typing import Any

from chalice import Blueprint

from chalicelib.api.routing import ACCOUNTING, Call, endpoint, page_body
from chalicelib.services.sales_purchases import partners

blueprint = Blueprint(__name__)
M = "chalicelib.models.partners:"
TAG = "Business partners"


@endpoint(blueprint, "GET", "/business-partners", summary="List business partners; `q` finds them by name, "
          "RTN/NIT or e-mail (an index: one Query per word)", tag=TAG,
          query=M + "PartnerListQuery", response=M + "PartnerList")
def list_partners(call: Call) -> Any:
    page = partners.list_partners(call.command.table, call.principal.company_id, call.query.page,
                                  call.query.limit, call.query.cursor, call.query.q)
    return page_body("businessPartners", page)


@endpoint(blueprint, "GET", "/business-partners/{id}", summary="One business partner", tag=TAG,
          response=M + "Partner")
def get_partner(call: Call) -> Any:
    return partners.get_partner(call.command.table, call.principal.company_id,
                                                       call.ids["id"])


@endpoint(blueprint, "POST", "/business-partners", summary="Create a business partner", tag=TAG,
          body=M + "PartnerCreate", response=M + "Partner")
def create_partner(call: Call) -> Any:
    return partners.create_partner(call.command, call.body.model_dump(by_alias=True))


@endpoint(blueprint, "PUT", "/business-partners/{id}", summary="Update a business partner (sparse)",
          tag=TAG, body=M + "PartnerUpdate", response=M + "Partner", versioned=True)
def update_partner(call: Call) -> Any:
    return partners.update_partner(call.command, call.ids["id"], call.changes(),
                                                          call.expected_version())


@endpoint(blueprint, "POST", "/business-partners/{id}/opening-balance", summary="Record what the partner owed or was "
          "owed before the books started here: an open item (document 900 or 901) payments settle", tag=TAG,
          body=M + "OpeningBalanceCreate", response="chalicelib.models.documents:Document", permission=ACCOUNTING)
def record_opening_balance(call: Call) -> Any:
    from chalicelib.services.sales_purchases import opening_balances

    return opening_balances.record_opening_balance(call.command, call.ids["id"], call.body.model_dump(by_alias=True))
