"""Payment gateways (PixelPay, Wompi), payment links, and the providers' inbound notifications
under /webhooks/ (gateway-a = PixelPay, gateway-b = Wompi): no API key and no origin check there,
the provider's signature or hash authenticates them. Nothing else lives under /webhooks/
(DESIGN 4). Models and services load on first use."""
from __future__ import annotations

from typing import Any

from chalice import Blueprint

from chalicelib.api.request_input import check_body_size
from chalicelib.api.routing import MANAGE, WRITE, Access, Call, endpoint, page_body

blueprint = Blueprint(__name__)
TAG = "Payment gateways"
M = "chalicelib.models.gateways:"
BASE = "/payments/gateways"
DELETED = "chalicelib.models.accounting:Deleted"


@endpoint(blueprint, "GET", BASE, summary="List payment gateways", tag=TAG, query="chalicelib.models.base:PageQuery",
          response=M + "GatewayList")
def list_gateways(call: Call) -> Any:
    from chalicelib.services.integrations import gateway_config

    return page_body("paymentGateways", gateway_config.list_gateways(call.command.table, call.principal.company_id,
                                                                     call.query.page, call.query.limit))


@endpoint(blueprint, "GET", BASE + "/{id}", summary="One payment gateway", tag=TAG, response=M + "Gateway")
def get_gateway(call: Call) -> Any:
    from chalicelib.services.integrations import gateway_config

    return gateway_config.get_gateway(call.command.table, call.principal.company_id, call.ids["id"])


@endpoint(blueprint, "GET", BASE + "/{id}/notifications", summary="The gateway's decided notifications, newest "
          "first (accepted with their payment; refused with the reason, to refund or register by hand; pending a "
          "confirmation)", tag=TAG, query="chalicelib.models.base:ListQuery", response=M + "GatewayDecisionList")
def list_gateway_notifications(call: Call) -> Any:
    from chalicelib.services.integrations import gateway_notifications

    return page_body("notifications", gateway_notifications.list_decisions(
        call.command.table, call.principal.company_id, call.ids["id"], call.query.page, call.query.limit,
        call.query.cursor))


@endpoint(blueprint, "POST", BASE + "/{id}/notifications/{transactionId}/recheck", summary="Confirm a pending "
          "notification with the provider again (its status call); a decided one is answered as decided", tag=TAG,
          response=M + "NotificationAnswer", status=200, permission=WRITE, idempotent=False,
          string_ids=("transactionId",))
def recheck_notification(call: Call) -> Any:
    from chalicelib.services.integrations import gateway_notifications

    return gateway_notifications.recheck(call.command.table, call.principal.company_id, call.ids["id"],
                                         call.ids["transactionId"])


@endpoint(blueprint, "POST", BASE, summary="Create a payment gateway (its secret is never answered)", tag=TAG,
          body=M + "GatewayCreate", response=M + "Gateway", permission=MANAGE)
def create_gateway(call: Call) -> Any:
    from chalicelib.services.integrations import gateway_config

    return gateway_config.create_gateway(call.command, call.body.model_dump(by_alias=True))


@endpoint(blueprint, "PUT", BASE + "/{id}", summary="Update a payment gateway (sparse; `secret` rotates it)", tag=TAG,
          body=M + "GatewayUpdate", response=M + "Gateway", permission=MANAGE, versioned=True)
def update_gateway(call: Call) -> Any:
    from chalicelib.services.integrations import gateway_config

    return gateway_config.update_gateway(call.command, call.ids["id"], call.changes(), call.expected_version())


@endpoint(blueprint, "DELETE", BASE + "/{id}", summary="Delete a payment gateway without unexpired links (web app "
          "only)", tag=TAG, response=DELETED, access=Access.WEB_SESSION, permission=MANAGE)
def delete_gateway(call: Call) -> Any:
    from chalicelib.services.integrations import gateway_config

    return gateway_config.delete_gateway(call.command, call.ids["id"])


@endpoint(blueprint, "POST", "/payments/generate-link", summary="Generate a payment link for a confirmed sales "
          "document: the provider's page, with its QR code", tag=TAG, body=M + "LinkCreate", response=M + "PaymentLink")
def generate_link(call: Call) -> Any:
    from chalicelib.services.integrations import payment_links

    return payment_links.generate_link(call.command, call.body.model_dump(by_alias=True))


@endpoint(blueprint, "GET", "/payments/links/{linkId}", summary="One payment link of the company", tag=TAG,
          response=M + "PaymentLink", string_ids=("linkId",))
def get_link(call: Call) -> Any:
    from chalicelib.services.integrations import payment_links

    return payment_links.get_link(call.command.table, call.principal.company_id, call.ids["linkId"])


@endpoint(blueprint, "GET", "/payments/documents/{documentId}/links", summary="A document's payment links, newest "
          "first", tag=TAG, query="chalicelib.models.base:PageQuery", response=M + "PaymentLinkList")
def document_links(call: Call) -> Any:
    from chalicelib.services.integrations import payment_links

    return page_body("paymentLinks", payment_links.document_links(call.command.table, call.principal.company_id,
                                                                  call.ids["documentId"], call.query.page,
                                                                  call.query.limit))


def _notification(call: Call, provider: str) -> Any:
    from chalicelib.services.integrations import gateway_notifications
    from chalicelib.store.table import get_table

    # the signature covers the exact bytes sent, not the JSON parsed from them
    sent = blueprint.current_request.raw_body or b""
    raw_body = sent.encode() if isinstance(sent, str) else sent
    check_body_size(raw_body)
    return gateway_notifications.receive_notification(get_table(), provider, raw_body, call.headers)


@endpoint(blueprint, "POST", "/webhooks/gateway-a", summary="PixelPay's payment notification (verified by its "
          "payment_hash, confirmed with its status call; docs/gateways.md)", tag=TAG, body=M + "PixelPayCallback",
          response=M + "NotificationAnswer", status=200, access=Access.PUBLIC, idempotent=False,
          raw_body_types=("application/json", "application/x-www-form-urlencoded"))
def gateway_a_notification(call: Call) -> Any:
    return _notification(call, "pixelpay")


@endpoint(blueprint, "POST", "/webhooks/gateway-b", summary="Wompi's webhook (signed in wompi_hash, confirmed with "
          "GET /TransaccionCompra; docs/gateways.md)", tag=TAG, body=M + "WompiWebhook",
          response=M + "NotificationAnswer", status=200, access=Access.PUBLIC, idempotent=False,
          raw_body_types=("application/json",))
def gateway_b_notification(call: Call) -> Any:
    return _notification(call, "wompi")
