from __future__ import annotations

from typing import Any

from chalice import Blueprint

from chalicelib.api.routing import MANAGE, READ, Access, Call, endpoint
from chalicelib.services.identity import accounts

blueprint = Blueprint(__name__)
M = "chalicelib.models.company:"
TAG = "Company"


@endpoint(blueprint, "GET", "/companies", summary="The company of the current context",
          tag=TAG, response=M + "Company")
def get_current_company(call: Call) -> Any:
    return accounts.get_company(call.command.table, call.principal.company_id)


@endpoint(blueprint, "PUT", "/companies/{id}", summary="Update the company (sparse)", tag=TAG,
          body=M + "CompanyUpdate", response=M + "Company", permission=MANAGE)
def update_company(call: Call) -> Any:
    company = accounts.update_company(call.command, call.ids["id"], call.changes(), call.expected_version())
    return company


@endpoint(blueprint, "PUT", "/companies/{id}/dte-signing-key", summary="El Salvador: upload the key DTEs are signed "
          "with (kept encrypted, never answered)", tag=TAG, body=M + "DteSigningKeyUpload", response=M + "DteSigningKey",
          permission=MANAGE)
def put_dte_signing_key(call: Call) -> Any:
    from chalicelib.countries.sv.services import dte_signing

    return dte_signing.store_key(call.command, call.ids["id"], call.body.private_key)


@endpoint(blueprint, "GET", "/companies/{id}/dte-signing-key", summary="El Salvador: the DTE signing key's public "
          "part and fingerprint", tag=TAG, response=M + "DteSigningKey", permission=MANAGE)
def get_dte_signing_key(call: Call) -> Any:
    from chalicelib.countries.sv.services import dte_signing

    return dte_signing.key_info(call.command.table, call.principal.company_id, call.ids["id"])


@endpoint(blueprint, "PUT", "/companies/{id}/dte-authority-credentials", summary="El Salvador: the password of "
          "the tax authority's API (kept encrypted, never answered)", tag=TAG, body=M + "DteAuthorityCredentialsUpload",
          response=M + "DteAuthorityCredentials", permission=MANAGE)
def put_dte_authority_credentials(call: Call) -> Any:
    from chalicelib.countries.sv.services import dte_signing

    return dte_signing.store_password(call.command, call.ids["id"], call.body.password)


@endpoint(blueprint, "GET", "/companies/{id}/dte-authority-credentials", summary="El Salvador: the user the tax "
          "authority's API is called as", tag=TAG, response=M + "DteAuthorityCredentials", permission=MANAGE)
def get_dte_authority_credentials(call: Call) -> Any:
    from chalicelib.countries.sv.services import dte_signing

    return dte_signing.credentials_info(call.command.table, call.principal.company_id, call.ids["id"])


@endpoint(blueprint, "POST", "/companies", summary="Create a company; the caller becomes its owner",
          tag=TAG, body=M + "CompanyCreate", response=M + "Company", access=Access.WEB_SESSION, permission=READ)
def create_company(call: Call) -> Any:
    # permission READ: a new company of one's own is not a write into the current one
    company = accounts.create_company_for(call.command, call.body.model_dump(by_alias=True, exclude_unset=True))
    return company
