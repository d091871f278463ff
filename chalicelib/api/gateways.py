"""Payment gateways, payment links, and the gateways' inbound notifications under /webhooks/:
no API key and no origin check there, the gateway's HMAC signature authenticates them. Nothing
else lives under /webhooks/ (DESIGN 4). Models and services load on first use."""
from __future__ import annotations

from typing import Any

from chalice import Blueprint

from chalicelib.api.request_input import check_body_size
from chalicelib.api.routing import MANAGE, Access, Call, endpoint, page_body

blueprint = Blueprint(__name__)
TAG = "Payment gateways"
M = "chalicelib.models.gateways:"
BASE = "/payments/gateways"
DELETED = "chalicelib.models.accounting:Deleted"


@endpoint(blueprint, "GET", BASE, summary="List payment gateways", tag=TAG, query="chalicelib.models.base:PageQuery",
          response=M + "GatewayList")
def list_gateways(call: Call) -> Any:
    from chalicelib.services.integrations import gateways

    return page_body("paymentGateways", gateways.list_gateways(call.command.table, call.principal.company_id,
                                                               call.query.page, call.query.limit))


@endpoint(blueprint, "GET", BASE + "/{id}", summary="One payment gateway", tag=TAG, response=M + "Gateway")
def get_gateway(call: Call) -> Any:
    from chalicelib.services.integrations import gateways

    return gateways.get_gateway(call.command.table, call.principal.company_id, call.ids["id"])


@endpoint(blueprint, "GET", BASE + "/{id}/notifications", summary="The gateway's decided notifications, newest "
          "first (accepted with their payment; refused with the reason, to refund or register by hand)", tag=TAG,
          query="chalicelib.models.base:ListQuery", response=M + "GatewayDecisionList")
def list_gateway_notifications(call: Call) -> Any:
    from chalicelib.services.integrations import gateways

    return page_body("notifications", gateways.list_decisions(call.command.table, call.principal.company_id,
                                                              call.ids["id"], call.query.page, call.query.limit,
                                                              call.query.cursor))


@endpoint(blueprint, "POST", BASE, summary="Create a payment gateway (its secret is never answered)", tag=TAG,
          body=M + "GatewayCreate", response=M + "Gateway", permission=MANAGE)
def create_gateway(call: Call) -> Any:
    from chalicelib.services.integrations import gateways

    return gateways.create_gateway(call.command, call.body.model_dump(by_alias=True))


@endpoint(blueprint, "PUT", BASE + "/{id}", summary="Update a payment gateway (sparse; `secret` rotates it)", tag=TAG,
          body=M + "GatewayUpdate", response=M + "Gateway", permission=MANAGE)
def update_gateway(call: Call) -> Any:
    from chalicelib.services.integrations import gateways

    return gateways.update_gateway(call.command, call.ids["id"], call.changes(), call.expected_version())


@endpoint(blueprint, "DELETE", BASE + "/{id}", summary="Delete a payment gateway without unexpired links (web app "
          "only)", tag=TAG, response=DELETED, access=Access.WEB_SESSION, permission=MANAGE)
def delete_gateway(call: Call) -> Any:
    from chalicelib.services.integrations import gateways

    return gateways.delete_gateway(call.command, call.ids["id"])


@endpoint(blueprint, "POST", "/payments/generate-link", summary="Generate a payment link for a confirmed sales "
          "document", tag=TAG, body=M + "LinkCreate", response=M + "PaymentLink")
def generate_link(call: Call) -> Any:
    from chalicelib.services.integrations import gateways

    return gateways.generate_link(call.command, call.body.model_dump(by_alias=True))


def _notification(call: Call, provider: str) -> Any:
    from chalicelib.services.integrations import gateways
    from chalicelib.store.table import get_table

    # the signature covers the exact bytes sent, not the JSON parsed from them
    raw_body = blueprint.current_request.raw_body or b""
    check_body_size(raw_body)
    return gateways.receive_notification(get_table(), provider, raw_body, call.headers)


@endpoint(blueprint, "POST", "/webhooks/gateway-a", summary="Notification from gateway-a (signed; formats in "
          "docs/gateways.md)", tag=TAG, body=M + "GatewayANotification", response=M + "NotificationAnswer",
          status=200, access=Access.PUBLIC, idempotent=False)
def gateway_a_notification(call: Call) -> Any:
    return _notification(call, "gateway-a")


@endpoint(blueprint, "POST", "/webhooks/gateway-b", summary="Notification from gateway-b (signed; formats in "
          "docs/gateways.md)", tag=TAG, body=M + "GatewayBNotification", response=M + "NotificationAnswer",
          status=200, access=Access.PUBLIC, idempotent=False)
def gateway_b_notification(call: Call) -> Any:
    return _notification(call, "gateway-b")
