"""The Chalice app: blueprints, the 405 fallbacks and the Lambda entry points. No logic here."""
from typing import Any

from chalice.app import CloudWatchEvent, DynamoDBEvent, Rate, SQSEvent

from chalicelib import countries
from chalicelib.api import (
    accounting,
    api_keys,
    attachments,
    auth,
    bank_rules,
    bank_statements,
    banking,
    budgets,
    company,
    company_exports,
    console,
    credits,
    dimensions,
    documents,
    exchange_rates,
    gateway_payouts,
    gateways,
    imports,
    inventory,
    openapi,
    partners,
    payment_setup,
    payments,
    printing,
    products,
    revaluations,
    scheduled_invoices,
    statement_lines,
    statements,
    users,
    webhooks,
)
from chalicelib.api.application import ThreadSafeChalice
from chalicelib.api.routing import add_method_fallbacks, declare_binary_types
from chalicelib.auth.authorizer import authorize
from chalicelib.events.handlers import (
    IMPORT_QUEUE_ARN_PLACEHOLDER,
    STREAM_ARN_PLACEHOLDER,
    WEBHOOK_QUEUE_ARN_PLACEHOLDER,
)
from chalicelib.observability import traced
from chalicelib.store.table import get_table

app = ThreadSafeChalice(app_name="business-api")

for module in (auth, company, partners, products, documents, exchange_rates, inventory, payment_setup, payments, gateways,
               gateway_payouts,
               banking, credits, accounting, statements, printing, scheduled_invoices, api_keys, users, webhooks, imports,
               company_exports, bank_statements, statement_lines, bank_rules, dimensions, budgets, attachments,
               revaluations,
               openapi, console):
    app.register_blueprint(module.blueprint)
for blueprint in countries.blueprints():
    app.register_blueprint(blueprint)
add_method_fallbacks(app)
declare_binary_types(app)


@app.lambda_function(name="authorizer")
def authorizer(event: dict[str, Any], context: Any) -> dict[str, Any]:
    with traced("## authorizer"):
        return authorize(event, get_table())


# The merged template (infra/deploy/resources.json) points these at the table's stream and the
# delivery queue; the names here are what `chalice package` needs to generate them. No batching
# window on either: an event goes out as soon as Lambda's pollers see it (docs/architecture.md
# says what latency that gives).
@app.on_dynamodb_record(stream_arn=STREAM_ARN_PLACEHOLDER, name="webhook_fanout", batch_size=100,
                        maximum_batching_window_in_seconds=0)
def webhook_fanout(event: DynamoDBEvent) -> None:
    from chalicelib.events.handlers import fan_out_records

    with traced("## webhook_fanout"):
        fan_out_records(event)


@app.on_sqs_message(queue_arn=WEBHOOK_QUEUE_ARN_PLACEHOLDER, name="webhook_deliverer", batch_size=1,
                    maximum_batching_window_in_seconds=0)
def webhook_deliverer(event: SQSEvent) -> dict[str, list[dict[str, str]]]:
    from chalicelib.events.handlers import deliver_messages

    with traced("## webhook_deliverer"):
        return deliver_messages(event)


# Import and export jobs, one message a call: a fault raises, and the queue delivers the message again
# (after the visibility timeout, six times the function's 900 s) up to its redrive's four receives.
@app.on_sqs_message(queue_arn=IMPORT_QUEUE_ARN_PLACEHOLDER, name="import_worker", batch_size=1,
                    maximum_batching_window_in_seconds=0)
def import_worker(event: SQSEvent) -> None:
    from chalicelib.services.imports.worker import run_messages

    with traced("## import_worker"):
        run_messages(event)


@app.schedule(Rate(1, unit=Rate.HOURS), name="scheduled_invoices")
def scheduled_invoices_run(event: CloudWatchEvent) -> dict[str, Any]:
    from chalicelib.events.handlers import run_scheduled_invoices

    with traced("## scheduled_invoices"):
        return run_scheduled_invoices(event)
