"""Helpers of the users-and-roles tests: invitations through the HTTP routes, the links moto's SES
captured, and members made quickly for the tests whose subject is elsewhere."""
from __future__ import annotations

import email
import re
from email import policy
from typing import Any

from chalicelib.services.identity import accounts
from tests.support import ORIGIN, PASSWORD, ApiClient, CompanyFixture, Reply

USERS = "/settings/users"
_TOKEN = re.compile(r"/app/#/accept-invitation\?token=([\w-]+)")


def invite(api: ApiClient, cookie: str, email_address: str, role: str = "seller", name: str = "Ana López",
           expect: int = 201, **kwargs: Any) -> Any:
    reply = api.post(USERS, {"email": email_address, "name": name, "role": role}, cookie=cookie, origin=ORIGIN,
                     **kwargs)
    assert reply.status == expect, reply.text
    return reply.json


def mailed_text(ses: Any, to: str) -> str:
    """The text of the last message SES took for `to`."""
    raw = next(message for message in reversed(ses) if to in message.destinations)
    return email.message_from_string(raw.raw_data, policy=policy.default).get_body(("plain",)).get_content()


def mailed_token(ses: Any, to: str) -> str:
    found = _TOKEN.search(mailed_text(ses, to))
    assert found, mailed_text(ses, to)
    return found.group(1)


def accept(api: ApiClient, token: str, password: str = PASSWORD, name: str | None = None) -> Reply:
    body = {"token": token, "password": password, **({"name": name} if name else {})}
    return api.post("/auth/accept-invitation", body, origin=ORIGIN)


def session_of(reply: Reply) -> str:
    return (reply.header("Set-Cookie") or "").split(";")[0].split("=", 1)[1]


def member(api: ApiClient, table: Any, company: CompanyFixture, email_address: str, role: str) -> tuple[int, str]:
    """A user of `role` in the company and a session of theirs (set up directly: not under test)."""
    user = accounts.create_user(table, email_address, PASSWORD)
    accounts.add_member(table, company.company_id, int(user["id"]), role)
    return int(user["id"]), api.login(email_address)


def users_by_email(api: ApiClient, cookie: str) -> dict[str, Any]:
    reply = api.get(USERS, cookie=cookie)
    assert reply.status == 200, reply.text
    assert reply.json["total"] == len(reply.json["users"])
    return {user["email"]: user for user in reply.json["users"]}


def update(api: ApiClient, cookie: str, user_id: int, body: dict[str, Any], version: int | None = None) -> Reply:
    headers = {"If-Match": str(version)} if version is not None else None
    return api.put(f"{USERS}/{user_id}", body, cookie=cookie, origin=ORIGIN, headers=headers)


def remove(api: ApiClient, cookie: str, user_id: int) -> Reply:
    return api.delete(f"{USERS}/{user_id}", cookie=cookie, origin=ORIGIN)


def scan(table: Any) -> list[dict[str, Any]]:
    """Every item of the test table (tests only: no request path scans)."""
    from chalicelib.store.table import from_attributes

    items, start = [], None
    while True:
        page = table.client.scan(TableName=table.name, **({"ExclusiveStartKey": start} if start else {}))
        items += [from_attributes(raw) for raw in page["Items"]]
        start = page.get("LastEvaluatedKey")
        if not start:
            return items
