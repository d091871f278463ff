"""Payment conditions and payment methods. Models and services load on first use; handlers
return plain records that the route's response model renders."""
from __future__ import annotations

from typing import Any

from chalice import Blueprint

from chalicelib.api.routing import MANAGE, Access, Call, endpoint, page_body

blueprint = Blueprint(__name__)
TAG = "Payment conditions and methods"
M = "chalicelib.models.payment_setup:"
PAGE = "chalicelib.models.base:PageQuery"
DELETED = "chalicelib.models.accounting:Deleted"


@endpoint(blueprint, "GET", "/payment-conditions", summary="List payment conditions", tag=TAG, query=PAGE,
          response=M + "ConditionList")
def list_conditions(call: Call) -> Any:
    from chalicelib.services.payments import payment_setup

    return page_body("paymentConditions", payment_setup.list_conditions(
        call.command.table, call.principal.company_id, call.query.page, call.query.limit))


@endpoint(blueprint, "GET", "/payment-conditions/{id}", summary="One payment condition", tag=TAG,
          response=M + "Condition")
def get_condition(call: Call) -> Any:
    from chalicelib.services.payments import payment_setup

    return payment_setup.get_condition(call.command.table, call.principal.company_id, call.ids["id"])


@endpoint(blueprint, "POST", "/payment-conditions", summary="Create a payment condition", tag=TAG,
          body=M + "ConditionCreate", response=M + "Condition", permission=MANAGE)
def create_condition(call: Call) -> Any:
    from chalicelib.services.payments import payment_setup

    return payment_setup.create_condition(call.command, call.body.model_dump(by_alias=True))


@endpoint(blueprint, "PUT", "/payment-conditions/{id}", summary="Update a payment condition (sparse)", tag=TAG,
          body=M + "ConditionUpdate", response=M + "Condition", permission=MANAGE, versioned=True)
def update_condition(call: Call) -> Any:
    from chalicelib.services.payments import payment_setup

    return payment_setup.update_condition(call.command, call.ids["id"], call.changes(), call.expected_version())


@endpoint(blueprint, "DELETE", "/payment-conditions/{id}", summary="Delete an unused payment condition (web app "
          "only)", tag=TAG, response=DELETED, access=Access.WEB_SESSION, permission=MANAGE)
def delete_condition(call: Call) -> Any:
    from chalicelib.services.payments import payment_setup

    return payment_setup.delete_condition(call.command, call.ids["id"])


@endpoint(blueprint, "GET", "/payments/methods", summary="List payment methods", tag=TAG, query=PAGE,
          response=M + "MethodList")
def list_methods(call: Call) -> Any:
    from chalicelib.services.payments import payment_setup

    return page_body("paymentMethods", payment_setup.list_methods(
        call.command.table, call.principal.company_id, call.query.page, call.query.limit))


@endpoint(blueprint, "GET", "/payments/methods/{id}", summary="One payment method", tag=TAG, response=M + "Method")
def get_method(call: Call) -> Any:
    from chalicelib.services.payments import payment_setup

    return payment_setup.get_method(call.command.table, call.principal.company_id, call.ids["id"])


@endpoint(blueprint, "POST", "/payments/methods", summary="Create a payment method", tag=TAG,
          body=M + "MethodCreate", response=M + "Method", permission=MANAGE)
def create_method(call: Call) -> Any:
    from chalicelib.services.payments import payment_setup

    return payment_setup.create_method(call.command, call.body.model_dump(by_alias=True))


@endpoint(blueprint, "PUT", "/payments/methods/{id}", summary="Update a payment method (sparse)", tag=TAG,
          body=M + "MethodUpdate", response=M + "Method", permission=MANAGE, versioned=True)
def update_method(call: Call) -> Any:
    from chalicelib.services.payments import payment_setup

    return payment_setup.update_method(call.command, call.ids["id"], call.changes(), call.expected_version())


@endpoint(blueprint, "DELETE", "/payments/methods/{id}", summary="Delete a payment method (web app only)",
          tag=TAG, response=DELETED, access=Access.WEB_SESSION, permission=MANAGE)
def delete_method(call: Call) -> Any:
    from chalicelib.services.payments import payment_setup

    return payment_setup.delete_method(call.command, call.ids["id"])
