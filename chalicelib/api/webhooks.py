"""Outbound webhook subscriptions, their delivery history, redelivery and the test send: web
app only (Settings, Integrations, Webhooks)."""
from __future__ import annotations

from typing import Any

from chalice import Blueprint

from chalicelib.api.routing import WEB_MANAGERS, Call, endpoint, page_body

blueprint = Blueprint(__name__)
TAG = "Webhooks"
M = "chalicelib.models.webhooks:"
BASE = "/settings/webhooks"
WEB = WEB_MANAGERS


@endpoint(blueprint, "GET", BASE, summary="List webhook subscriptions", tag=TAG,
          query="chalicelib.models.base:PageQuery", response=M + "WebhookList", **WEB)
def list_webhooks(call: Call) -> Any:
    from chalicelib.services.integrations import webhooks

    return page_body("webhooks", webhooks.list_webhooks(call.command.table, call.principal.company_id,
                                                        call.query.page, call.query.limit))


@endpoint(blueprint, "GET", BASE + "/{id}", summary="One webhook subscription", tag=TAG, response=M + "Webhook",
          **WEB)
def get_webhook(call: Call) -> Any:
    from chalicelib.services.integrations import webhooks

    return webhooks.get_webhook(call.command.table, call.principal.company_id, call.ids["id"])


@endpoint(blueprint, "POST", BASE, summary="Create a webhook subscription (signing secret shown once)", tag=TAG,
          body=M + "WebhookCreate", response=M + "WebhookCreated", **WEB)
def create_webhook(call: Call) -> Any:
    from chalicelib.services.integrations import webhooks

    return webhooks.create_webhook(call.command, call.body.model_dump(by_alias=True))


@endpoint(blueprint, "PUT", BASE + "/{id}", summary="Update a webhook subscription (sparse)", tag=TAG,
          body=M + "WebhookUpdate", response=M + "Webhook", **WEB, versioned=True)
def update_webhook(call: Call) -> Any:
    from chalicelib.services.integrations import webhooks

    return webhooks.update_webhook(call.command, call.ids["id"], call.changes(), call.expected_version())


@endpoint(blueprint, "DELETE", BASE + "/{id}", summary="Delete a webhook subscription", tag=TAG,
          response="chalicelib.models.accounting:Deleted", **WEB)
def delete_webhook(call: Call) -> Any:
    from chalicelib.services.integrations import webhooks

    return webhooks.delete_webhook(call.command, call.ids["id"])


@endpoint(blueprint, "GET", BASE + "/{id}/deliveries", summary="Deliveries of a subscription with their attempts, "
          "newest first", tag=TAG, query=M + "DeliveryQuery", response=M + "DeliveryList", **WEB)
def list_deliveries(call: Call) -> Any:
    from chalicelib.services.integrations import webhooks

    return webhooks.list_deliveries(call.command.table, call.principal.company_id, call.ids["id"], call.query.limit,
                                    call.query.cursor)


@endpoint(blueprint, "POST", BASE + "/{id}/deliveries/{deliveryId}/redeliver", summary="Send a delivery again",
          tag=TAG, response=M + "Delivery", status=200, string_ids=("deliveryId",), idempotent=False, **WEB)
def redeliver(call: Call) -> Any:
    from chalicelib.events.queue import get_queue
    from chalicelib.services.integrations import webhooks

    return webhooks.redeliver(call.command.table, get_queue, call.principal.company_id, call.ids["id"],
                              call.ids["deliveryId"])


@endpoint(blueprint, "POST", BASE + "/{id}/test", summary="Send a webhook.test event to this subscription", tag=TAG,
          response=M + "Delivery", idempotent=False, **WEB)
def send_test(call: Call) -> Any:
    from chalicelib.events.queue import get_queue
    from chalicelib.services.integrations import webhooks

    return webhooks.send_test(call.command.table, get_queue, call.principal.company_id, call.ids["id"])
