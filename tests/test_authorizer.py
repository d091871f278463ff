"""The REQUEST Lambda authorizer fed real API Gateway REQUEST events, and the API Lambda's
trust of its context when deployed behind it (AUTH_AT_GATEWAY=1)."""
from __future__ import annotations

import copy

import pytest

METHOD_ARN = "arn:aws:execute-api:us-east-1:123456789012:abcdef1234/api/GET/business-partners"

# The shape API Gateway sends a REQUEST authorizer (REST API, payload as documented).
REQUEST_EVENT = {
    "type": "REQUEST",
    "methodArn": METHOD_ARN,
    "resource": "/business-partners",
    "path": "/business-partners",
    "httpMethod": "GET",
    "headers": {"Accept": "application/json", "Host": "abcdef1234.execute-api.us-east-1.amazonaws.com",
                "User-Agent": "curl/8.5.0", "X-Forwarded-Proto": "https"},
    "multiValueHeaders": {"Accept": ["application/json"],
                          "Host": ["abcdef1234.execute-api.us-east-1.amazonaws.com"],
                          "User-Agent": ["curl/8.5.0"], "X-Forwarded-Proto": ["https"]},
    "queryStringParameters": {}, "multiValueQueryStringParameters": {},
    "pathParameters": {}, "stageVariables": {},
    "requestContext": {"resourcePath": "/business-partners", "httpMethod": "GET", "stage": "api",
                       "requestId": "c6af9ac6-7b61-11e6-9a41-93e8deadbeef", "accountId": "123456789012",
                       "apiId": "abcdef1234", "identity": {"sourceIp": "203.0.113.7"}},
}


def event_with(**headers):
    event = copy.deepcopy(REQUEST_EVENT)
    for name, value in headers.items():
        event["headers"][name] = value
        event["multiValueHeaders"][name] = [value]
    return event


def invoke(event):
    from app import authorizer
    return authorizer(event, None)


def statement(policy):
    return policy["policyDocument"]["Statement"][0]


def test_valid_bearer_key_is_allowed_with_the_principal_in_context(table, company_a):
    policy = invoke(event_with(Authorization=f"Bearer {company_a.api_key}"))
    assert statement(policy) == {"Action": "execute-api:Invoke", "Effect": "Allow", "Resource": METHOD_ARN}
    assert policy["context"] == {"kind": "api_key", "companyId": company_a.company_id,
                                 "userId": company_a.user_id, "role": "owner",
                                 "keyId": company_a.api_key.split(":")[0]}
    assert all(isinstance(v, (str, int, bool)) for v in policy["context"].values())


def test_x_api_key_header_is_allowed(table, company_a):
    assert statement(invoke(event_with(**{"X-API-Key": company_a.api_key})))["Effect"] == "Allow"


def test_session_cookie_is_allowed(api, table, company_a):
    token = api.login(company_a.email)
    policy = invoke(event_with(Cookie=f"theme=dark; accessToken={token}"))
    assert statement(policy)["Effect"] == "Allow"
    assert policy["context"]["kind"] == "session"


@pytest.mark.parametrize("headers,code", [
    ({}, "AUTHENTICATION_REQUIRED"),
    ({"Authorization": "Bearer ak_AAAAAAAAAAAAAAAA:sk_nope"}, "INVALID_API_KEY"),
    ({"Cookie": "accessToken=forged"}, "INVALID_SESSION"),
])
def test_failures_are_denied_with_code_and_message(table, company_a, headers, code):
    policy = invoke(event_with(**headers))
    assert statement(policy)["Effect"] == "Deny"
    assert policy["context"]["code"] == code and policy["context"]["message"]


def test_key_without_owner_is_denied_api_key_no_user(table, company_a):
    from chalicelib.store import keys
    from chalicelib.store.transaction import Transaction
    Transaction(table).update(keys.membership(company_a.company_id, company_a.user_id),
                              "SET isActive = :f", values={":f": False}).commit()
    policy = invoke(event_with(Authorization=f"Bearer {company_a.api_key}"))
    assert statement(policy)["Effect"] == "Deny" and policy["context"]["code"] == "API_KEY_NO_USER"


def test_store_failure_raises_instead_of_allowing(table, company_a, monkeypatch):
    from botocore.exceptions import EndpointConnectionError

    from chalicelib.auth.authenticate import CredentialCheckFailed
    from chalicelib.store.table import Table

    def down(self, key, consistent=True):
        raise EndpointConnectionError(endpoint_url="https://dynamodb")

    monkeypatch.setattr(Table, "get", down)
    with pytest.raises(CredentialCheckFailed):
        invoke(event_with(Authorization=f"Bearer {company_a.api_key}"))


# --- the API Lambda behind the authorizer --------------------------------------------------------

def gateway_request(api, path, context, **kwargs):
    """A request as API Gateway forwards it after the authorizer allowed it."""
    original = api.http._local_gateway._generate_lambda_event

    def with_context(*args, **kw):
        event = original(*args, **kw)
        event["requestContext"]["authorizer"] = context
        return event

    api.http._local_gateway._generate_lambda_event = with_context
    try:
        return api.get(path, **kwargs)
    finally:
        api.http._local_gateway._generate_lambda_event = original


def test_behind_the_gateway_the_authorizer_context_is_the_principal(api, table, company_a, settings_env):
    settings_env(AUTH_AT_GATEWAY="1")
    context = invoke(event_with(Authorization=f"Bearer {company_a.api_key}"))["context"]
    # API Gateway passes context values as strings
    context = {name: str(value) for name, value in context.items()}
    reply = gateway_request(api, "/companies", context)
    assert reply.status == 200, reply.text
    assert reply.json["id"] == company_a.company_id


def test_behind_the_gateway_a_missing_context_is_401(api, table, company_a, settings_env):
    settings_env(AUTH_AT_GATEWAY="1")
    # even a valid key is not looked at: only the authorizer decides
    reply = gateway_request(api, "/companies", None, key=company_a.api_key)
    assert reply.status == 401


def test_without_gateway_mode_a_forged_context_is_ignored(api, table, company_a):
    forged = {"kind": "api_key", "companyId": str(company_a.company_id), "userId": "1", "role": "owner"}
    reply = gateway_request(api, "/companies", forged)
    assert reply.status == 401
