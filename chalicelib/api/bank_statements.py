"""Bank statements (issue 42): imported into a bank account, read with the account's column mapping,
their lines listed with suggestions. See services/statements/."""
from __future__ import annotations

from typing import Any

from chalice import Blueprint

from chalicelib.api.routing import Call, endpoint, page_body
from chalicelib.services.imports.jobs import MAX_REQUEST_BYTES

blueprint = Blueprint(__name__)
TAG = "Bank statements"
M = "chalicelib.models.bank_statements:"
PAGE = "chalicelib.models.base:PageQuery"
STATEMENTS = "/bank-accounts/{accountId}/statements"
MAPPING = "/bank-accounts/{accountId}/statement-mapping"
LINES = "/bank-accounts/{accountId}/statement-lines"


@endpoint(blueprint, "POST", STATEMENTS, summary="Import a bank statement file (CSV, XLSX, OFX, CAMT.053, MT940): "
          "each line the account does not have yet", tag=TAG, body=M + "StatementImport", response=M + "BankStatement",
          max_body_bytes=MAX_REQUEST_BYTES)
def import_statement(call: Call) -> Any:
    from chalicelib.services.statements import imports

    return imports.import_statement(call.command, call.ids["accountId"], call.body.model_dump(by_alias=True))


@endpoint(blueprint, "GET", STATEMENTS, summary="The account's imported statements, newest first", tag=TAG,
          query=PAGE, response=M + "BankStatementList")
def list_statements(call: Call) -> Any:
    from chalicelib.services.statements import lines

    return page_body("statements", lines.list_statements(call.command.table, call.principal.company_id,
                                                         call.ids["accountId"], call.query.page, call.query.limit))


@endpoint(blueprint, "GET", STATEMENTS + "/{statementId}", summary="One imported statement", tag=TAG,
          response=M + "BankStatement")
def get_statement(call: Call) -> Any:
    from chalicelib.services.statements import lines

    return lines.get_statement(call.command.table, call.principal.company_id, call.ids["accountId"],
                               call.ids["statementId"])


@endpoint(blueprint, "GET", MAPPING, summary="The account's column mapping for CSV/XLSX statements", tag=TAG,
          response=M + "SavedStatementMapping")
def get_mapping(call: Call) -> Any:
    from chalicelib.services.statements import mapping

    return mapping.get_mapping(call.command.table, call.principal.company_id, call.ids["accountId"])


@endpoint(blueprint, "PUT", MAPPING, summary="Save the account's column mapping for CSV/XLSX statements", tag=TAG,
          body=M + "StatementMapping", response=M + "SavedStatementMapping")
def put_mapping(call: Call) -> Any:
    from chalicelib.services.statements import mapping

    return mapping.put_mapping(call.command, call.ids["accountId"], call.body.model_dump(by_alias=True))


@endpoint(blueprint, "POST", MAPPING + "/preview", summary="Read a statement file as an import would (its first 20 "
          "lines): stores nothing", tag=TAG, body=M + "StatementPreviewRequest", response=M + "StatementPreview",
          status=200, idempotent=False, max_body_bytes=MAX_REQUEST_BYTES)
def preview(call: Call) -> Any:
    from chalicelib.services.statements import imports

    return imports.preview_statement(call.command, call.ids["accountId"], call.body.model_dump(by_alias=True))


@endpoint(blueprint, "GET", LINES, summary="The account's statement lines by date, of one status or all; unmatched "
          "ones with their suggestions", tag=TAG, query=M + "StatementLineQuery", response=M + "StatementLineList")
def list_lines(call: Call) -> Any:
    from chalicelib.services.statements import lines

    query = call.query
    return page_body("statementLines", lines.list_lines(
        call.command.table, call.principal.company_id, call.ids["accountId"], status=query.status,
        statement_id=query.statement_id, page=query.page, limit=query.limit, cursor=query.cursor))


@endpoint(blueprint, "GET", LINES + "/{lineId}", summary="One statement line (with its suggestions while unmatched)",
          tag=TAG, response=M + "StatementLine")
def get_line(call: Call) -> Any:
    from chalicelib.services.statements import lines

    return lines.read_line(call.command.table, call.principal.company_id, call.ids["accountId"], call.ids["lineId"])
