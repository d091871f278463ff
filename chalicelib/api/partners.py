from __future__ import annotations

from chalice import Blueprint

from chalicelib.api.routing import Call, endpoint, page_body
from chalicelib.models.partners import Partner, PartnerCreate, PartnerList, PartnerListQuery, PartnerUpdate
from chalicelib.services import partners

blueprint = Blueprint(__name__)
TAG = "Business partners"


@endpoint(blueprint, "GET", "/business-partners", summary="List business partners", tag=TAG,
          query=PartnerListQuery, response=PartnerList)
def list_partners(call: Call) -> PartnerList:
    page = partners.list_partners(call.command.table, call.principal.company_id, call.query.page,
                                  call.query.limit, call.query.cursor)
    return page_body("businessPartners", page)


@endpoint(blueprint, "GET", "/business-partners/{id}", summary="One business partner", tag=TAG,
          response=Partner)
def get_partner(call: Call) -> Partner:
    return Partner.model_validate(partners.get_partner(call.command.table, call.principal.company_id,
                                                       call.ids["id"]))


@endpoint(blueprint, "POST", "/business-partners", summary="Create a business partner", tag=TAG,
          body=PartnerCreate, response=Partner)
def create_partner(call: Call) -> Partner:
    return Partner.model_validate(partners.create_partner(call.command, call.body.model_dump(by_alias=True)))


@endpoint(blueprint, "PUT", "/business-partners/{id}", summary="Update a business partner (sparse)",
          tag=TAG, body=PartnerUpdate, response=Partner)
def update_partner(call: Call) -> Partner:
    return Partner.model_validate(partners.update_partner(call.command, call.ids["id"], call.changes(),
                                                          call.expected_version()))
