"""Web app session routes. Login and accepting an invitation run without a principal."""
from __future__ import annotations

from typing import Any

from chalice import Blueprint

from chalicelib.api.routing import READ, Access, Call, endpoint
from chalicelib.auth.authenticate import SESSION_COOKIE
from chalicelib.services.identity import sessions
from chalicelib.settings import get_settings
from chalicelib.store.table import get_table

blueprint = Blueprint(__name__)
M = "chalicelib.models.auth:"
TAG = "Web session"


def _cookie(value: str, max_age: int) -> str:
    secure = "; Secure" if get_settings().cookie_secure else ""
    return f"{SESSION_COOKIE}={value}; Path=/; Max-Age={max_age}; HttpOnly; SameSite=Lax{secure}"


@endpoint(blueprint, "POST", "/auth/login", summary="Log in; sets the accessToken cookie", tag=TAG,
          body=M + "LoginRequest", response=M + "SessionView", status=200, access=Access.PUBLIC, idempotent=False)
def login(call: Call) -> Any:
    token, view = sessions.login(get_table(), call.body.email, call.body.password, call.source_address)
    return _logged_in(call, token, view)


def _logged_in(call: Call, token: str, view: dict[str, Any]) -> Any:
    call.response_headers["Set-Cookie"] = _cookie(token, get_settings().session_ttl_hours * 3600)
    return view


@endpoint(blueprint, "POST", "/auth/accept-invitation", summary="Accept an invitation and log in; sets the "
          "accessToken cookie", tag=TAG, body="chalicelib.models.users:AcceptInvitationRequest", response=M + "SessionView",
          status=200, access=Access.PUBLIC, idempotent=False)
def accept_invitation(call: Call) -> Any:
    from chalicelib.services.identity import invitations

    token, view = invitations.accept(get_table(), call.body.token, call.body.password, call.body.name,
                                     call.source_address)
    return _logged_in(call, token, view)


@endpoint(blueprint, "POST", "/auth/password", summary="Change one's password; ends one's other sessions",
          tag=TAG, body="chalicelib.models.users:PasswordChangeRequest",
          response="chalicelib.models.users:PasswordChanged", status=200, access=Access.WEB_SESSION, permission=READ,
          idempotent=False)
def change_password(call: Call) -> dict[str, Any]:
    return sessions.change_password(call.command, call.body.current_password, call.body.new_password,
                                    call.source_address)


@endpoint(blueprint, "POST", "/auth/logout", summary="End the session", tag=TAG, response=M + "LogoutResult",
          status=200, access=Access.WEB_SESSION, permission=READ, idempotent=False)
def logout(call: Call) -> Any:
    sessions.logout(call.command.table, call.principal)
    call.response_headers["Set-Cookie"] = _cookie("", 0)
    return {"logged_out": True}


@endpoint(blueprint, "GET", "/auth/me", summary="The session's user, company and role", tag=TAG,
          response=M + "SessionView", access=Access.WEB_SESSION)
def me(call: Call) -> Any:
    return sessions.describe(call.command.table, call.principal)


@endpoint(blueprint, "GET", "/auth/companies", summary="The user's companies by name, searched and paged "
          "(one Query and a BatchGet per 50 companies)", tag=TAG, query=M + "CompanyMembershipQuery",
          response=M + "CompanyMembershipList", access=Access.WEB_SESSION)
def list_companies(call: Call) -> Any:
    return sessions.list_companies(call.command.table, call.principal, call.query.q, call.query.page, call.query.limit)


@endpoint(blueprint, "POST", "/auth/switch-company", summary="Work in another company of the user",
          tag=TAG, body=M + "SwitchCompanyRequest", response=M + "SessionView", status=200,
          access=Access.WEB_SESSION, permission=READ, idempotent=False, names_company=True)
def switch_company(call: Call) -> Any:
    view = sessions.switch_company(call.command.table, call.principal, call.body.company_id)
    return view
