"""El Salvador's own routes: the DTE signing key and the authority's credentials of a company, a
document's DTE as transmitted and its invalidation, the IVA books. The same paths, models, tags and
permissions as the core's routes; app.py registers them through the registry (PACK.routes_module)."""
from __future__ import annotations

from typing import Any

from chalice.app import Blueprint, Response

from chalicelib.api.exports import report_answer
from chalicelib.api.routing import MANAGE, Call, endpoint
from chalicelib.exports import REPORT_TYPES

blueprint = Blueprint(__name__)
SV = "chalicelib.countries.sv.models:"
BOOKS = "chalicelib.countries.sv.book_models:"
DOCS = "chalicelib.models.documents:"
STATEMENTS = "chalicelib.models.statements:"
COMPANY, DOCUMENTS, REPORTS = "Company", "Documents", "Reports"
JOSE = "application/jose"  # a JWS in its compact form (RFC 7515)


@endpoint(blueprint, "PUT", "/companies/{id}/dte-signing-key", summary="El Salvador: upload the key DTEs are signed "
          "with (kept encrypted, never answered)", tag=COMPANY, body=SV + "DteSigningKeyUpload", response=SV + "DteSigningKey",
          permission=MANAGE)
def put_dte_signing_key(call: Call) -> Any:
    from chalicelib.countries.sv.services import dte_signing

    return dte_signing.store_key(call.command, call.ids["id"], call.body.private_key)


@endpoint(blueprint, "GET", "/companies/{id}/dte-signing-key", summary="El Salvador: the DTE signing key's public "
          "part and fingerprint", tag=COMPANY, response=SV + "DteSigningKey", permission=MANAGE)
def get_dte_signing_key(call: Call) -> Any:
    from chalicelib.countries.sv.services import dte_signing

    return dte_signing.key_info(call.command.table, call.principal.company_id, call.ids["id"])


@endpoint(blueprint, "PUT", "/companies/{id}/dte-authority-credentials", summary="El Salvador: the password of "
          "the tax authority's API (kept encrypted, never answered)", tag=COMPANY, body=SV + "DteAuthorityCredentialsUpload",
          response=SV + "DteAuthorityCredentials", permission=MANAGE)
def put_dte_authority_credentials(call: Call) -> Any:
    from chalicelib.countries.sv.services import dte_signing

    return dte_signing.store_password(call.command, call.ids["id"], call.body.password)


@endpoint(blueprint, "GET", "/companies/{id}/dte-authority-credentials", summary="El Salvador: the user the tax "
          "authority's API is called as", tag=COMPANY, response=SV + "DteAuthorityCredentials", permission=MANAGE)
def get_dte_authority_credentials(call: Call) -> Any:
    from chalicelib.countries.sv.services import dte_signing

    return dte_signing.credentials_info(call.command.table, call.principal.company_id, call.ids["id"])


@endpoint(blueprint, "GET", "/documents/{id}/dte", summary="El Salvador: the DTE as transmitted to the tax authority, "
          "with its seal and answer (Accept: application/jose: the signed JWS sent)", tag=DOCUMENTS,
          response=SV + "DteAsTransmitted", exports=(JOSE,))
def get_dte(call: Call) -> Response:
    from chalicelib.api.exports import requested_type
    from chalicelib.countries.sv.services import dte_delivery

    delivered = dte_delivery.delivery(call.command.table, call.principal.company_id, call.ids["id"])
    if requested_type(call.headers, (JOSE,)):
        return Response(body=delivered.jws.encode("ascii"), status_code=200, headers={
            "Content-Type": JOSE, "Vary": "Accept",
            "Content-Disposition": f'attachment; filename="{delivered.codigo_generacion}.jws"'})
    # the bytes as kept: rendering through a model would write the signed JSON anew
    return Response(body=delivered.json.decode("utf-8"), status_code=200, headers={
        "Content-Type": "application/json", "Vary": "Accept",
        "Content-Disposition": f'inline; filename="{delivered.json_filename}"'})


@endpoint(blueprint, "POST", "/documents/{id}/invalidate", summary="El Salvador: invalidate an accepted DTE at the "
          "tax authority and reverse it like a cancellation", tag=DOCUMENTS, body=SV + "DocumentInvalidate",
          response=DOCS + "Document", status=200)
def invalidate_document(call: Call) -> Any:
    from chalicelib.countries.sv.services import dte_invalidation

    return dte_invalidation.invalidate(call.command, call.ids["id"], call.body.model_dump(by_alias=True))


@endpoint(blueprint, "GET", "/reports/iva-sales-consumers", summary="El Salvador: the IVA book of sales to final "
          "consumers (daily totals per range of facturas)", tag=REPORTS, query=STATEMENTS + "BookQuery",
          response=BOOKS + "IvaConsumerBook", exports=REPORT_TYPES)
def iva_sales_consumers(call: Call) -> Any:
    return _iva_book(call, "consumers")


@endpoint(blueprint, "GET", "/reports/iva-sales-taxpayers", summary="El Salvador: the IVA book of sales to "
          "taxpayers (one row per crédito fiscal and its notes)", tag=REPORTS, query=STATEMENTS + "BookQuery",
          response=BOOKS + "IvaTaxpayerBook", exports=REPORT_TYPES)
def iva_sales_taxpayers(call: Call) -> Any:
    return _iva_book(call, "taxpayers")


@endpoint(blueprint, "GET", "/reports/iva-purchases", summary="El Salvador: the IVA purchase book", tag=REPORTS,
          query=STATEMENTS + "BookQuery", response=BOOKS + "IvaPurchaseBook", exports=REPORT_TYPES)
def iva_purchases(call: Call) -> Any:
    return _iva_book(call, "purchases")


def _iva_book(call: Call, which: str) -> Any:
    from chalicelib.countries.sv.services import iva_books

    report = iva_books.iva_book(call.command.table, call.principal.company_id, which, call.query.start_date,
                            call.query.end_date)
    return report_answer(call, report, iva_books.iva_book_table(which))
