"""The Lambda entry points of webhook delivery, between the AWS event shapes and the service:
stream records of new outbox items in, queue messages out with partial batch failures."""
from __future__ import annotations

import json
from typing import Any

# Replaced in the deployed template by the table's StreamArn and the queue's Arn
# (infra/deploy/resources.json); the local stack's pollers find both by themselves.
STREAM_ARN_PLACEHOLDER = "arn:aws:dynamodb:us-east-1:000000000000:table/business-api/stream/replaced-at-deploy"
WEBHOOK_QUEUE_ARN_PLACEHOLDER = "arn:aws:sqs:us-east-1:000000000000:WebhookDeliveriesQueue"
IMPORT_QUEUE_ARN_PLACEHOLDER = "arn:aws:sqs:us-east-1:000000000000:ImportJobsQueue"


def fan_out_records(event: Any) -> int:
    from chalicelib.events.queue import get_queue
    from chalicelib.services.integrations import webhooks
    from chalicelib.store.table import from_attributes, get_table

    new_events = []
    for record in event:
        if record.event_name != "INSERT" or not record.new_image:
            continue
        item = from_attributes(record.new_image)
        if item.get("itemType") == "EVENT":
            new_events.append(item)
    return webhooks.fan_out(get_table(), get_queue(), new_events) if new_events else 0


def deliver_messages(event: Any) -> dict[str, list[dict[str, str]]]:
    """Each message on its own; the ones to try again are reported as batch item failures
    (the template enables ReportBatchItemFailures), so a delivered neighbour is never resent."""
    from chalicelib.events.queue import get_queue
    from chalicelib.services.integrations import webhooks
    from chalicelib.store.table import get_table

    failures = []
    for record in event:
        raw = record.to_dict()
        receive_count = int((raw.get("attributes") or {}).get("ApproximateReceiveCount", "1"))
        done = webhooks.deliver(get_table(), get_queue(), json.loads(record.body), receive_count=receive_count,
                                receipt_handle=record.receipt_handle)
        if not done:
            failures.append({"itemIdentifier": raw["messageId"]})
    return {"batchItemFailures": failures}


def run_scheduled_invoices(event: Any) -> dict[str, Any]:
    """The hourly EventBridge rule: every company's due scheduled invoices, the card payments pending
    their provider's confirmation, then each country's own hourly work (El Salvador: the DTEs whose
    transmission got no answer). Returns the runs' summaries."""
    from chalicelib import countries
    from chalicelib.observability import publish_counts
    from chalicelib.services.sales_purchases import scheduled_invoices
    from chalicelib.store.table import get_table

    table = get_table()
    summary = {"scheduledInvoices": scheduled_invoices.run_due(table)}
    # issue 43: card payments whose confirmation the provider did not answer, asked again (bounded)
    from chalicelib.services.integrations import gateway_notifications

    summary["gatewayRechecks"] = gateway_notifications.run_pending_rechecks(table)
    # what the alarms watch (infra/deploy/resources.json): runs stopped by an error, DTEs past the authority's
    # window (a schedule the company must fix fails every hour: counted, charted, not alarmed)
    counts = {"ScheduledInvoicesCreated": summary["scheduledInvoices"]["created"],
              "ScheduledInvoicesFailed": summary["scheduledInvoices"]["failed"],
              "ScheduledInvoicesErrored": summary["scheduledInvoices"].get("errored", 0)}
    for pack in countries.packs():
        summaries, watched = pack.hooks.hourly(table)
        summary.update(summaries)
        counts.update(watched)
    publish_counts(counts)
    return summary
