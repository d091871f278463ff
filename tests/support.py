"""Test helpers: an HTTP-ish client over the Chalice app and ready-made companies."""
from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from chalice.test import Client, HTTPResponse, TestHTTPClient

from chalicelib import jsoncodec
from chalicelib.services import accounts, api_keys
from infra.gateway import MISSING_ROUTE, gateway_response

ORIGIN = "http://localhost:8000"
PASSWORD = "correct horse battery"


@dataclass
class Reply:
    status: int
    headers: dict[str, str]
    text: str

    @property
    def json(self) -> Any:
        return jsoncodec.loads(self.text) if self.text else None

    def header(self, name: str) -> str | None:
        return next((v for k, v in self.headers.items() if k.lower() == name.lower()), None)


class GatewayHTTPClient(TestHTTPClient):
    """chalice.test's HTTP client, answering an unknown path as the deployed gateway does."""

    def _error_response(self, e: Any) -> HTTPResponse:
        return HTTPResponse.create_from_dict(gateway_response(MISSING_ROUTE))


class ApiClient:
    def __init__(self, app: Any) -> None:
        self.http = GatewayHTTPClient(app, Client(app)._chalice_config)

    def request(self, method: str, path: str, *, body: Any = None, raw: bytes | None = None,
                key: str | None = None, cookie: str | None = None, origin: str | None = None,
                headers: dict[str, str] | None = None, bearer: bool = True) -> Reply:
        sent = {"content-type": "application/json"}
        if key:
            sent["authorization" if bearer else "x-api-key"] = f"Bearer {key}" if bearer else key
        if cookie:
            sent["cookie"] = f"accessToken={cookie}"
        if origin:
            sent["origin"] = origin
        sent.update(headers or {})
        payload = raw if raw is not None else (json.dumps(body).encode() if body is not None else b"")
        response = self.http.request(method, path, headers=sent, body=payload)
        return Reply(response.status_code, dict(response.headers), response.body.decode())

    def get(self, path: str, **kwargs: Any) -> Reply:
        return self.request("GET", path, **kwargs)

    def post(self, path: str, body: Any = None, **kwargs: Any) -> Reply:
        return self.request("POST", path, body=body, **kwargs)

    def put(self, path: str, body: Any = None, **kwargs: Any) -> Reply:
        return self.request("PUT", path, body=body, **kwargs)

    def delete(self, path: str, **kwargs: Any) -> Reply:
        return self.request("DELETE", path, **kwargs)

    def login(self, email: str, password: str = PASSWORD) -> str:
        reply = self.post("/auth/login", {"email": email, "password": password}, origin=ORIGIN)
        assert reply.status == 200, reply.text
        cookie = reply.header("Set-Cookie") or ""
        return cookie.split(";")[0].split("=", 1)[1]


@dataclass
class CompanyFixture:
    company_id: int
    user_id: int
    email: str
    api_key: str


def make_company(table: Any, name: str, email: str, password: str = PASSWORD) -> CompanyFixture:
    user = accounts.create_user(table, email, password, name=f"Owner of {name}")
    company = accounts.create_company(table, user["id"], {"name": name, "country": "HN"})
    item, secret, transaction = api_keys.issue_key(table, company["id"], user["id"], "test key")
    transaction.commit()
    return CompanyFixture(company["id"], user["id"], email, f"{item['id']}:{secret}")
