"""GET /openapi.json covers every declared route with its models."""
from __future__ import annotations


def test_openapi_covers_every_route(api, company_a):
    from app import app
    from chalicelib.api.routing import ROUTES

    reply = api.get("/openapi.json", key=company_a.api_key)
    assert reply.status == 200
    document = reply.json
    assert document["openapi"].startswith("3.1")
    declared = {(spec.path, spec.method.lower()) for spec in ROUTES}
    documented = {(path, method) for path, methods in document["paths"].items() for method in methods}
    assert documented == declared
    # every real route of the app is declared (the rest are the 405 fallbacks and the console's static files)
    served = {(path, method.lower()) for path, methods in app.routes.items() for method, entry in methods.items()
              if not entry.view_name.startswith(("method_not_allowed_", "console_"))}
    assert served == declared


def test_openapi_describes_bodies_responses_and_errors(api, company_a):
    document = api.get("/openapi.json", key=company_a.api_key).json
    create = document["paths"]["/business-partners"]["post"]
    body_ref = create["requestBody"]["content"]["application/json"]["schema"]["$ref"]
    body = document["components"]["schemas"][body_ref.split("/")[-1]]
    assert {"name", "type", "credit_limit", "credit_block_days", "taxId"} <= set(body["properties"])
    assert set(body["required"]) == {"name", "type"}
    assert body.get("additionalProperties") is False
    assert "201" in create["responses"] and "400" in create["responses"]
    assert any(p["name"] == "Idempotency-Key" for p in create["parameters"])
    listing = document["paths"]["/business-partners"]["get"]
    assert {p["name"] for p in listing["parameters"]} == {"page", "limit", "cursor", "q", "Accept-Language"}
    assert document["paths"]["/auth/login"]["post"]["security"] == []
    assert document["paths"]["/settings/api-keys"]["get"]["security"] == [{"session": []}]


def test_openapi_document_is_valid_openapi_3_1(api, company_a):
    from openapi_spec_validator import OpenAPIV31SpecValidator

    document = api.get("/openapi.json", key=company_a.api_key).json
    errors = [str(error)[:300] for error in OpenAPIV31SpecValidator(document).iter_errors()]
    assert errors == []


def test_money_is_a_number_in_the_document_as_on_the_wire(api, company_a):
    schemas = api.get("/openapi.json", key=company_a.api_key).json["components"]["schemas"]
    assert schemas["Partner"]["properties"]["receivableBalance"]["type"] == "number"
    unit_price = schemas["ProductCreate"]["properties"]["unitPrice"]
    assert "default" not in unit_price and unit_price["description"].endswith("Default: 0.00.")
    assert "default" not in schemas["PartnerUpdate"]["properties"]["name"]


def test_print_routes_are_described_as_pdf(api, company_a):
    paths = api.get("/openapi.json", key=company_a.api_key).json["paths"]
    for path in ("/documents/{id}/print", "/journal-entries/{id}/print"):
        responses = paths[path]["post"]["responses"]
        assert list(responses["200"]["content"]) == ["application/pdf"], path
        assert "406" in responses
        accept = [p for p in paths[path]["post"]["parameters"] if p["name"] == "Accept"]
        assert accept == [{"name": "Accept", "in": "header", "required": True, "schema": {
            "type": "string", "pattern": "^ *application/pdf *(;[^,]*)?(,.*)?$"},
            "description": "the first value must be the route's media type"}]
    reports = paths["/reports/sales-book"]["get"]
    assert set(reports["responses"]["200"]["content"]) == {
        "application/json", "text/csv", "application/pdf",
        "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"}


def test_the_document_states_the_rules_the_validation_applies(api, company_a):
    """What a generated client needs to send requests that pass (tests/test_fuzz_contract.py
    measures it): cents, the year range, integer ids, the Idempotency-Key alphabet, the rules
    between fields that JSON Schema can state."""
    document = api.get("/openapi.json", key=company_a.api_key).json
    schemas = document["components"]["schemas"]
    unit_price = schemas["ProductCreate"]["properties"]["unitPrice"]
    assert unit_price["x-decimal-places"] == 2 and "At most 2 decimal places" in unit_price["description"]
    assert schemas["PaymentCreate"]["properties"]["amount"]["exclusiveMinimum"] == 0
    assert schemas["EntryCreate"]["properties"]["date"]["pattern"].startswith("^(19|2\\d)")
    assert len(schemas["PaymentCreate"]["allOf"][0]["oneOf"]) == 3
    by_types = {tuple(rule["if"]["properties"]["type"]["enum"]): rule["then"]["properties"]
                for rule in schemas["DocumentCreate"]["allOf"] if "type" in rule["if"]["properties"]}
    assert by_types[("06", "07", "105", "106")] == {"sourceDocumentId": {"type": "integer"}}
    # the fiscal fields of other types: a supplier's number on a sale, a withholding on an invoice
    assert next(then for types, then in by_types.items() if "supplierCai" in then and "01" in types and
                "103" not in types) == {"supplierDocumentNumber": {"type": "null"}, "supplierCai": {"type": "null"}}
    assert next(then for types, then in by_types.items() if "withholding" in then and "05" not in types)
    line_rules = schemas["LineInput"]["allOf"]
    assert line_rules[1]["then"] == {"properties": {"taxRate": {"enum": [0, None]}}}
    assert schemas["WebhookCreate"]["properties"]["url"]["pattern"].startswith("^[Hh][Tt][Tt][Pp][Ss]://")
    key = next(p for p in document["paths"]["/products"]["post"]["parameters"] if p["name"] == "Idempotency-Key")
    assert key["schema"]["pattern"] == "^[!-~]{1,255}$"


def test_each_error_status_lists_its_codes(api, company_a):
    from chalicelib.error_codes import ERROR_CODES

    document = api.get("/openapi.json", key=company_a.api_key).json
    schemas = document["components"]["schemas"]
    listed = {code for name, schema in schemas.items() if name.startswith("Error4") or name.startswith("Error5")
              for code in schema["properties"]["code"]["enum"]}
    assert listed == set(ERROR_CODES)
    assert "VERSION_CONFLICT" in schemas["Error409"]["properties"]["code"]["enum"]
    assert "VERSION_CONFLICT" not in schemas["Error400"]["properties"]["code"]["enum"]
    create = document["paths"]["/products"]["post"]["responses"]
    assert create["409"]["content"]["application/json"]["schema"] == {"$ref": "#/components/schemas/Error409"}
    assert "422" in create and "406" not in create
    assert "409" not in document["paths"]["/products"]["get"]["responses"]


def test_a_created_record_links_to_the_operations_on_it(api, company_a):
    paths = api.get("/openapi.json", key=company_a.api_key).json["paths"]
    created = paths["/documents"]["post"]["responses"]["201"]["links"]
    assert created["get_documents_id"] == {"operationId": "get_documents_id", "parameters": {"id": "$response.body#/id"}}
    assert {"post_documents_id_confirm", "put_documents_id", "post_documents_id_print"} <= set(created)
    payment = paths["/payments/documents/{documentId}/payments"]["post"]["responses"]["201"]["links"]
    assert payment["post_payments_documents_documentId_payments_paymentId_confirm"]["parameters"] == {
        "documentId": "$request.path.documentId", "paymentId": "$response.body#/id"}
    assert "links" not in paths["/business-partners"]["get"]["responses"]["200"]


def test_create_or_update_posts_list_both_of_their_answers(api, company_a):
    """The second import of the standard chart creates nothing and answers 200: the document says so,
    as it does for the rules' and the exchange rates' upserts."""
    first = api.post("/chart-of-accounts/import-default", key=company_a.api_key)
    again = api.post("/chart-of-accounts/import-default", key=company_a.api_key)
    assert (first.status, again.status) == (201, 200)
    paths = api.get("/openapi.json", key=company_a.api_key).json["paths"]
    for path in ("/chart-of-accounts/import-default", "/account-determination-rules", "/exchange-rates"):
        responses = paths[path]["post"]["responses"]
        assert responses["200"] == responses["201"], path


def _reachable(document, schema, seen=None):
    """The names of the component schemas a schema refers to, directly or not."""
    seen = set() if seen is None else seen
    if isinstance(schema, dict):
        ref = schema.get("$ref", "")
        if ref.startswith("#/components/schemas/") and ref.split("/")[-1] not in seen:
            seen.add(ref.split("/")[-1])
            _reachable(document, document["components"]["schemas"][ref.split("/")[-1]], seen)
        for value in schema.values():
            _reachable(document, value, seen)
    elif isinstance(schema, list):
        for item in schema:
            _reachable(document, item, seen)
    return seen


def _keys(node):
    if isinstance(node, dict):
        yield from node
        for value in node.values():
            yield from _keys(value)
    elif isinstance(node, list):
        for item in node:
            yield from _keys(item)


def test_request_fields_with_defaults_are_optional_and_responses_carry_every_field(api, company_a):
    """openapi-typescript makes a property with a `default` required: a request's schemas carry
    none (the description says it), so a body that leaves the field out compiles; a response's
    every field is required, as the service always sends it."""
    document = api.get("/openapi.json", key=company_a.api_key).json
    schemas = document["components"]["schemas"]
    requests = {name for methods in document["paths"].values() for operation in methods.values()
                for name in _reachable(document, operation.get("requestBody", {}))}
    assert {"ProductCreate", "LineInput", "DocumentCreate", "PaymentCreate"} <= requests
    assert [name for name in requests if "default" in set(_keys(schemas[name]["properties"]))] == []
    assert schemas["ProductCreate"]["properties"]["isActive"]["description"] == "Default: true."
    assert set(schemas["Product"]["required"]) == set(schemas["Product"]["properties"])
    unconfirm = document["paths"]["/documents/{id}/unconfirm"]["post"]["requestBody"]
    assert unconfirm["required"] is False  # no body reads as {}
    assert document["paths"]["/products"]["post"]["requestBody"]["required"] is True


def test_amounts_in_cents_pass_a_binary_float_validator(api, company_a):
    """multipleOf 0.01 would refuse 19.99 (19.99 / 0.01 is no whole float): decimal places are an
    extension and a sentence, and the service refuses a third decimal itself."""
    from jsonschema import Draft202012Validator

    document = api.get("/openapi.json", key=company_a.api_key).json
    assert "multipleOf" not in set(_keys(document))

    def errors(schema_name, body):
        schema = {"$ref": f"#/components/schemas/{schema_name}", "components": document["components"]}
        return [error.message for error in Draft202012Validator(schema).iter_errors(body)]

    assert errors("ProductCreate", {"code": "CAF-1", "name": "Café", "unitPrice": 19.99, "cost": 0.07}) == []
    assert errors("PaymentCreate", {"paymentMethodId": 1, "amount": 1234.57}) == []
    refused = api.post("/products", {"code": "CAF-1", "name": "Café", "unitPrice": 19.999}, key=company_a.api_key)
    assert (refused.status, refused.json["details"][0]["field"]) == (400, "unitPrice")


def test_response_dates_and_timestamps_say_their_format(api, company_a):
    schemas = api.get("/openapi.json", key=company_a.api_key).json["components"]["schemas"]
    document = schemas["Document"]["properties"]
    assert document["date"]["format"] == "date" and document["createdAt"]["format"] == "date-time"
    assert {"type": "string", "format": "date-time"} in document["confirmedAt"]["anyOf"]
    assert schemas["CaiRange"]["properties"]["deadline"]["format"] == "date"
    assert "format" not in schemas["IsvSummary"]["properties"]["month"]  # YYYY-MM


def test_tags_are_declared_with_what_they_group(api, company_a):
    document = api.get("/openapi.json", key=company_a.api_key).json
    used = {operation["tags"][0] for methods in document["paths"].values() for operation in methods.values()}
    declared = {tag["name"]: tag["description"] for tag in document["tags"]}
    assert set(declared) == used and all(declared.values())


def test_a_route_that_takes_a_body_lists_its_size_and_media_type_refusals(api, company_a):
    paths = api.get("/openapi.json", key=company_a.api_key).json["paths"]
    assert {"413", "415"} <= set(paths["/documents"]["post"]["responses"])
    assert "413" not in paths["/documents"]["get"]["responses"]
    too_large = api.post("/documents", raw=b"[" + b" " * (1024 * 1024) + b"]", key=company_a.api_key)
    assert (too_large.status, too_large.json["code"]) == (413, "REQUEST_TOO_LARGE")


def test_the_version_header_is_declared_where_a_route_reads_it(api, company_a):
    from chalicelib.api.openapi import build_document

    paths = build_document()["paths"]

    def headers(method, path):
        return {p["name"] for p in paths[path][method].get("parameters", []) if p["in"] == "header"}

    # a PUT that checks the version it is sent declares If-Match; a read or a create does not
    assert "If-Match" in headers("put", "/products/{id}") and "If-Match" in headers("put", "/documents/{id}")
    assert "If-Match" not in headers("get", "/products/{id}") | headers("post", "/products")
    # every operation takes Accept-Language (errors in Spanish)
    assert all("Accept-Language" in headers(method, path) for path, operations in paths.items()
               for method in operations)
    created = api.post("/products", {"code": "V-1", "name": "Silla", "unitPrice": 10, "taxRate": 0.15},
                       key=company_a.api_key).json
    stale = api.put(f"/products/{created['id']}", {"unitPrice": 11}, key=company_a.api_key,
                    headers={"If-Match": str(created["version"] + 1)})
    assert stale.status == 409 and stale.json["code"] == "VERSION_CONFLICT"
