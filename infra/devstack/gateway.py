"""What API Gateway does in front of the Lambda, played locally (the local stack and the tests):
routing, and the gateway response for a path no route matches. The deployed gateway gets the
same answer from infra/deploy/resources.json (MISSING_AUTHENTICATION_TOKEN -> 404 NOT_FOUND)."""
from __future__ import annotations

import json
from typing import Any

from chalice.config import Config
from chalice.local import LocalGateway, LocalGatewayException

from chalicelib.api.routing import HTTP_METHODS
from infra.deploy.resources import template

MISSING_ROUTE = "MISSING_AUTHENTICATION_TOKEN"


def gateway_response(response_type: str) -> dict[str, Any]:
    """The status and JSON body the deployed gateway renders for `response_type`."""
    definition = template()["Resources"]["RestAPI"]["Properties"]["DefinitionBody"][
        "x-amazon-apigateway-gateway-responses"][response_type]
    return {"statusCode": int(definition["statusCode"]),
            "headers": {"Content-Type": "application/json"},
            "multiValueHeaders": {},
            "body": json.dumps(json.loads(definition["responseTemplates"]["application/json"]))}


class LocalApiGateway:
    def __init__(self, app: Any) -> None:
        self._gateway = LocalGateway(app, Config.create(chalice_app=app, stage="dev"))

    def handle(self, method: str, path: str, headers: dict[str, str], body: bytes) -> dict[str, Any]:
        if method not in HTTP_METHODS:  # API Gateway has no resource method for TRACE, QUERY, ...
            return gateway_response(MISSING_ROUTE)
        try:
            return self._gateway.handle_request(method=method, path=path, headers=headers, body=body)
        except LocalGatewayException:
            return gateway_response(MISSING_ROUTE)
