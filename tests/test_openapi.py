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
    assert {p["name"] for p in listing["parameters"]} == {"page", "limit", "cursor", "q"}
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
    assert schemas["ProductCreate"]["properties"]["unitPrice"]["default"] == 0
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
    assert str(schemas["ProductCreate"]["properties"]["unitPrice"]["multipleOf"]) == "0.01"
    assert schemas["PaymentCreate"]["properties"]["amount"]["exclusiveMinimum"] == 0
    assert schemas["EntryCreate"]["properties"]["date"]["pattern"].startswith("^(19|2\\d)")
    assert len(schemas["PaymentCreate"]["oneOf"]) == 3
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
