"""The API Gateway REQUEST authorizer: the shared `authenticate` decides; the answer is an IAM
policy. A denial carries {code, message} in its context, which the ACCESS_DENIED gateway
response renders as the spec's JSON 401. A store failure raises, which API Gateway answers
with the AUTHORIZER_FAILURE gateway response (403 CSRF_API_KEY_ERROR): never an Allow."""
from __future__ import annotations

from typing import Any

from chalicelib.auth.authenticate import CredentialCheckFailed, authenticate
from chalicelib.errors import ApiError
from chalicelib.store.table import Table


def _policy(principal_id: str, effect: str, method_arn: str, context: dict[str, Any]) -> dict[str, Any]:
    return {"principalId": principal_id,
            "policyDocument": {"Version": "2012-10-17", "Statement": [
                {"Action": "execute-api:Invoke", "Effect": effect, "Resource": method_arn}]},
            "context": context}


def request_headers(event: dict[str, Any]) -> dict[str, str]:
    """Lower-case header names; repeated Cookie headers are joined as browsers would."""
    headers = {name.lower(): value for name, value in (event.get("headers") or {}).items()
               if isinstance(value, str)}
    cookies = [value for name, values in (event.get("multiValueHeaders") or {}).items()
               if name.lower() == "cookie" for value in values or []]
    if len(cookies) > 1:
        headers["cookie"] = "; ".join(cookies)
    return headers


def authorize(event: dict[str, Any], table: Table) -> dict[str, Any]:
    method_arn = event.get("methodArn", "*")
    try:
        principal = authenticate(request_headers(event), table)
    except CredentialCheckFailed:
        raise
    except ApiError as denied:
        return _policy("anonymous", "Deny", method_arn,
                       {"code": denied.code, "message": denied.message})
    return _policy(f"{principal.kind}:{principal.user_id}", "Allow", method_arn, principal.to_context())
