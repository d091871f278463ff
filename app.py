"""The Chalice app: blueprints, the 405 fallbacks and the Lambda entry points. No logic here."""
from chalicelib.api import (
    accounting,
    api_keys,
    auth,
    banking,
    company,
    credits,
    documents,
    inventory,
    openapi,
    partners,
    payment_setup,
    payments,
    products,
)
from chalicelib.api.application import ThreadSafeChalice
from chalicelib.api.routing import add_method_fallbacks
from chalicelib.auth.authorizer import authorize
from chalicelib.store.table import get_table

app = ThreadSafeChalice(app_name="business-api")

for module in (auth, company, partners, products, documents, inventory, payment_setup, payments, banking,
               credits, accounting, api_keys, openapi):
    app.register_blueprint(module.blueprint)
add_method_fallbacks(app)


@app.lambda_function(name="authorizer")
def authorizer(event, context):
    return authorize(event, get_table())
