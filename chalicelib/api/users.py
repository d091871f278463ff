"""Users and roles of the company, and its audit log: web app only, owners and administrators."""
from __future__ import annotations

from typing import Any

from chalice import Blueprint

from chalicelib.api.routing import WEB_MANAGERS, Call, endpoint, page_body

blueprint = Blueprint(__name__)
TAG = "Settings: users"
M = "chalicelib.models.users:"
WEB = WEB_MANAGERS
USER = "/settings/users/{id}"


@endpoint(blueprint, "GET", "/settings/users", summary="The company's users and pending invitations", tag=TAG,
          response=M + "CompanyUserList", **WEB)
def list_users(call: Call) -> Any:
    from chalicelib.services.identity import users

    found = users.list_users(call.command.table, call.principal.company_id)
    return {"users": found, "total": len(found)}


@endpoint(blueprint, "POST", "/settings/users", summary="Invite a user by e-mail (a new one or a user of another "
          "company)", tag=TAG, body=M + "UserInvite", response=M + "UserInvited", **WEB)
def invite_user(call: Call) -> Any:
    from chalicelib.services.identity import invitations

    return invitations.invite(call.command, call.body.email, call.body.name, call.body.role)


@endpoint(blueprint, "POST", USER + "/resend-invitation", summary="Send a new invitation; the previous link "
          "stops working", tag=TAG, response=M + "UserInvited", status=200, **WEB)
def resend_invitation(call: Call) -> Any:
    from chalicelib.services.identity import invitations

    return invitations.resend(call.command, call.ids["id"])


@endpoint(blueprint, "PUT", USER, summary="Change a user's role or access (If-Match: version)", tag=TAG,
          body=M + "UserUpdate", response=M + "CompanyUser", **WEB, versioned=True)
def update_user(call: Call) -> Any:
    from chalicelib.services.identity import users

    return users.update_member(call.command, call.ids["id"], call.changes(), call.expected_version())


@endpoint(blueprint, "DELETE", USER, summary="Remove a user from the company", tag=TAG,
          response="chalicelib.models.accounting:Deleted", **WEB)
def remove_user(call: Call) -> Any:
    from chalicelib.services.identity import users

    return users.remove_member(call.command, call.ids["id"])


@endpoint(blueprint, "GET", "/settings/audit-log", summary="Changes of users, passwords and API keys, newest "
          "first", tag=TAG, query="chalicelib.models.base:ListQuery", response=M + "AuditLog", **WEB)
def audit_log(call: Call) -> Any:
    from chalicelib.services.identity import audit

    page = audit.list_audit_entries(call.command.table, call.principal.company_id, call.query.page, call.query.limit,
                              call.query.cursor)
    return page_body("entries", page)
