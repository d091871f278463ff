"""Every non-2xx answer is JSON {message, code, details?}; bad input changes nothing."""
from __future__ import annotations

import pytest

from chalicelib.store import keys


def count_partners(table, company_id):
    item = table.get(keys.entity_count(company_id, keys.PARTNER))
    return int(item["total"]) if item else 0


def test_validation_error_lists_each_field(api, table, company_a):
    reply = api.post("/business-partners", {"type": "alien", "credit_limit": -5, "email": "x"},
                     key=company_a.api_key)
    assert reply.status == 400
    assert reply.json["code"] == "VALIDATION_ERROR"
    fields = {d["field"]: d["message"] for d in reply.json["details"]}
    assert fields["name"] == "required"
    assert {"type", "credit_limit", "email"} <= set(fields)
    assert count_partners(table, company_a.company_id) == 0


def test_unknown_fields_are_rejected_not_stored(api, table, company_a):
    reply = api.post("/business-partners", {"name": "X", "type": "customer", "nickname": "y"},
                     key=company_a.api_key)
    assert reply.status == 400
    assert reply.json["details"] == [{"field": "nickname", "message": "unknown field"}]
    assert count_partners(table, company_a.company_id) == 0


def test_nested_field_paths_use_json_names(api, company_a):
    reply = api.post("/products", {"code": "P1", "name": "Widget", "unitPrice": "abc", "taxRate": 0.3},
                     key=company_a.api_key)
    fields = {d["field"] for d in reply.json["details"]}
    assert fields == {"unitPrice", "taxRate"}


@pytest.mark.parametrize("raw", [b"{", b"{'a': 1}", b"NaN", b'{"name": NaN}', b"\xff\xfe",
                                 b'{"name": "A", "type": "customer", "credit_block_days": 1e999999999999999999999}'])
def test_malformed_json_is_400(api, company_a, raw):
    """The last: an exponent beyond Decimal's range was a 500 (found by review)."""
    reply = api.request("POST", "/business-partners", raw=raw, key=company_a.api_key)
    assert reply.status == 400
    assert reply.json["code"] == "MALFORMED_JSON"
    gateway = api.request("POST", "/webhooks/gateway-b", raw=raw)  # public: the gateway's notification
    assert (gateway.status, gateway.json["code"]) == (400, "MALFORMED_JSON")


@pytest.mark.parametrize("body", [[], "text", 5, None])
def test_body_must_be_an_object(api, company_a, body):
    reply = api.request("POST", "/business-partners", raw=__import__("json").dumps(body).encode(),
                        key=company_a.api_key)
    assert reply.status == 400
    assert reply.json["code"] == "VALIDATION_ERROR"


@pytest.mark.parametrize("content_type", ["application/x-www-form-urlencoded", "application/xml", "text/csv",
                                          "application/vnd.api+xml"])
def test_wrong_content_type_is_a_json_415(api, company_a, content_type):
    reply = api.request("POST", "/business-partners", raw=b"name=x",
                        headers={"content-type": content_type}, key=company_a.api_key)
    assert reply.status == 415
    assert reply.json["code"] == "UNSUPPORTED_MEDIA_TYPE" and reply.json["message"]


def test_a_read_ignores_the_content_type_of_its_empty_body(api, company_a):
    reply = api.request("GET", "/business-partners", headers={"content-type": "text/xml"}, key=company_a.api_key)
    assert reply.status == 200


@pytest.mark.parametrize("body", [
    {"name": "X", "type": "customer", "credit_limit": 10 ** 20},
    {"name": "X" * 5000, "type": "customer"},
    {"name": "X", "type": "customer", "credit_block_days": "7"},
    {"name": "X", "type": "customer", "credit_block_days": True},
    {"name": "X", "type": "customer", "credit_limit": "1e400"},
    {"name": "X", "type": "customer", "credit_limit": 1.005},
    {"name": "X", "type": "customer", "paymentConditionId": "1"},
    {"name": None, "type": "customer"},
    {"name": "X", "type": ["customer"]},
])
def test_wrong_types_and_huge_values_are_400(api, company_a, body):
    reply = api.post("/business-partners", body, key=company_a.api_key)
    assert reply.status == 400, reply.text
    assert reply.json["code"] == "VALIDATION_ERROR"


def test_query_parameters_are_validated(api, company_a):
    for query in ("limit=0", "limit=101", "page=0", "page=x", "color=blue", "cursor=%%%"):
        reply = api.get(f"/business-partners?{query}", key=company_a.api_key)
        assert reply.status == 400, query
        assert reply.json["code"] == "VALIDATION_ERROR"


def test_unknown_route_is_404_json(api, company_a):
    reply = api.get("/no-such-thing", key=company_a.api_key)
    assert reply.status == 404
    assert reply.json == {"message": "Route not found.", "code": "NOT_FOUND"}


def test_wrong_method_is_405_with_allow(api, company_a):
    reply = api.request("PATCH", "/business-partners", key=company_a.api_key)
    assert reply.status == 405
    assert reply.json["code"] == "METHOD_NOT_ALLOWED"
    assert reply.header("Allow") == "GET, POST"


@pytest.mark.parametrize("path", ["/business-partners/abc", "/business-partners/0",
                                  "/business-partners/99999", "/products/-1", "/products/1.5"])
def test_bad_or_missing_ids_are_404(api, company_a, path):
    reply = api.get(path, key=company_a.api_key)
    assert reply.status == 404
    assert reply.json["code"] == "NOT_FOUND"


def test_unexpected_exception_is_500_without_internals(api, company_a, monkeypatch):
    import io
    import logging

    from chalicelib.observability import logger
    from chalicelib.services.sales_purchases import partners

    stream = io.StringIO()
    handler = logging.StreamHandler(stream)
    handler.setFormatter(logger.registered_formatter)
    logging.getLogger(logger.service).addHandler(handler)

    def explode(*args, **kwargs):
        raise RuntimeError("secret internal detail")

    monkeypatch.setattr(partners, "list_partners", explode)
    reply = api.get("/business-partners", key=company_a.api_key)
    assert reply.status == 500
    assert reply.json == {"message": "An internal error occurred.", "code": "INTERNAL_ERROR"}
    assert "secret internal detail" not in reply.text
    logging.getLogger(logger.service).removeHandler(handler)
    logged = stream.getvalue()
    assert "secret internal detail" in logged and "Traceback" in logged
    assert f'"correlation_id":"{reply.header("X-Request-Id")}"' in logged


def test_correlation_id_is_echoed(api, company_a):
    reply = api.get("/business-partners", key=company_a.api_key, headers={"x-request-id": "trace-123"})
    assert reply.header("X-Request-Id") == "trace-123"


def test_every_other_method_is_405_json(api, company_a):
    for method in ("HEAD", "PATCH", "DELETE", "PUT", "OPTIONS"):
        reply = api.request(method, "/products", key=company_a.api_key, bearer=False)
        if method == "DELETE":
            assert reply.json["code"] == "API_KEY_DELETE_FORBIDDEN"
            continue
        assert reply.status == 405, method
        assert reply.json["code"] == "METHOD_NOT_ALLOWED"


def test_a_body_above_a_megabyte_is_refused_before_it_is_read(api, company_a):
    big = {"name": "x" * 50, "type": "customer", "notes": "n" * (1024 * 1024)}
    reply = api.post("/business-partners", big, key=company_a.api_key)
    assert (reply.status, reply.json["code"]) == (413, "REQUEST_TOO_LARGE")
    assert "1024 KB" in reply.json["message"]
    assert api.get("/business-partners", key=company_a.api_key).json["total"] == 0
