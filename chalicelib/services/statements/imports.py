"""Importing a bank statement file into a bank account: read it (domain/statement_formats), refuse
it whole or store every line it brings that the account does not have yet.

How a line lands exactly once, whatever happens (a second import of the file, an overlapping
file, two imports of it at once, a crash half-way):
- each line has an identity (domain/bank_statements.line_identity: the bank's id, else date,
  amount, reference, running balance and its occurrence that day), and the account keeps one
  item per identity ever imported (keys.statement_line_identity);
- the identities already there are read first (BatchGetItem) and those lines are skipped;
- a line is written in the same transaction as its identity, put only if the identity does not
  exist: the identities a concurrent import wrote in between fail that chunk's condition, the
  chunk's identities are read again and it is written without them;
- each chunk also adds its lines to the statement's `linesImported` and to the account's line
  counts, so that whatever committed is counted, and nothing else.
So after a crash, importing the file again lands every line the crash left out, once, and none
twice: the statement of the broken import stays `importing` with the lines it did land.

A preview (preview_statement) reads a file as an import would and stores nothing."""
from __future__ import annotations

from typing import Any

from chalicelib import clock
from chalicelib.domain import statement_formats
from chalicelib.domain.bank_statements import (
    ParsedStatement,
    StatementInvalid,
    StatementLine,
    check_text_lengths,
    identities,
)
from chalicelib.errors import ApiError, ValidationFailed
from chalicelib.events import outbox
from chalicelib.messages.phrases import Phrase
from chalicelib.services.banking import banking
from chalicelib.services.commands import Command
from chalicelib.services.imports.jobs import decoded_content
from chalicelib.services.statements import auto_rules, mapping
from chalicelib.services.statements.lines import UNMATCHED, count_changes
from chalicelib.services.statements.lines import statement_view as view
from chalicelib.store import keys
from chalicelib.store.repositories import statements as statement_store
from chalicelib.store.table import MAX_ITEM_BYTES, item_bytes
from chalicelib.store.transaction import LostRace, run_with_retries

IMPORTING, IMPORTED = "importing", "imported"
# a transaction holds at most 100 items: a line and its identity each, the statement and the
# account's line counts with them, and the idempotency record and the event in the last one
LINES_PER_TRANSACTION = 48
CHUNK_ATTEMPTS = 25
PREVIEW_LINES = 20  # a preview answers the file's first lines


class StatementRefused(ApiError):
    """A file refused whole: nothing of it is stored."""


def refused(problem: StatementInvalid) -> StatementRefused:
    """400 STATEMENT_INVALID naming the line and column of the file's problem (the message is a
    phrase of the catalogue: answered in the caller's language)."""
    return StatementRefused("The statement cannot be imported: the problem is named by its line and column.",
                            code="STATEMENT_INVALID", details=[{"field": "content", "line": problem.line,
                                                                "column": problem.column, "message": problem.message}])


def read_statement(command: Command, account: dict[str, Any], fields: dict[str, Any],
                   column_mapping: dict[str, Any] | None = None) -> ParsedStatement:
    """The file of a request (`fileName`, `content` in base64, `format`?) as a statement: 400
    when it cannot be read, 413 past the size limit. `column_mapping`: the mapping to read a
    CSV/XLSX with (the preview's), else the account's saved one."""
    content = decoded_content(fields["content"])
    file_name = fields["fileName"]
    try:
        format = fields.get("format") or statement_formats.detect(file_name, content)
        wanted = None
        if format in ("csv", "xlsx"):
            wanted = mapping.column_mapping(column_mapping) if column_mapping else \
                mapping.saved_column_mapping(command.table, command.company_id, account["id"])
            if wanted is None:
                raise ValidationFailed.for_field("mapping", "a CSV or XLSX statement needs the bank account's "
                                                            "column mapping: save it first (statement-mapping)")
        return statement_formats.parse(file_name, content, format, wanted)
    except StatementInvalid as problem:
        raise refused(problem) from None


def preview_statement(command: Command, account_id: int, fields: dict[str, Any]) -> dict[str, Any]:
    """The file read as an import would read it (the mapping sent, else the saved one), its first
    PREVIEW_LINES lines answered: nothing stored, nothing checked beyond reading."""
    account = banking.get_bank_account(command.table, command.company_id, account_id)
    statement = read_statement(command, account, fields, fields.get("mapping"))
    return {"format": statement.format, "currency": statement.currency,
            "openingBalance": statement.opening_balance, "closingBalance": statement.closing_balance,
            "periodStart": statement.period_start or min((line.date for line in statement.lines), default=None),
            "periodEnd": statement.period_end or max((line.date for line in statement.lines), default=None),
            "lineCount": len(statement.lines),
            "lines": [{"line": line.line, "date": line.date, "amount": line.amount, "description": line.description,
                       "reference": line.reference, "balance": line.balance}
                      for line in statement.lines[:PREVIEW_LINES]]}


def _checked(statement: ParsedStatement, account: dict[str, Any]) -> None:
    try:
        statement_formats.check_balances(statement)
    except StatementInvalid as problem:
        raise refused(problem) from None
    if statement.currency and statement.currency.upper() != account.get("currency", "HNL"):
        raise ValidationFailed.for_field(
            "content", Phrase("the file is in {}; the bank account is in {}",
                              statement.currency.upper(), account.get('currency', 'HNL')), code="STATEMENT_CURRENCY_MISMATCH")
    if not statement.lines:
        raise ValidationFailed.for_field("content", "the file has no statement lines")


def import_statement(command: Command, account_id: int, fields: dict[str, Any]) -> dict[str, Any]:
    """POST /bank-accounts/{accountId}/statements: the statement as answered (201). Refusals
    (bad base64, too large, unreadable, unbalanced, another currency, no mapping) come before
    anything is written."""
    table, company_id = command.table, command.company_id
    account = banking.get_bank_account(table, company_id, account_id)
    statement = read_statement(command, account, fields)
    _checked(statement, account)
    pending = list(zip(statement.lines, (keys.statement_line_identity(company_id, account_id, identity)
                                         for identity in identities(statement.lines)), strict=True))
    _check_each_line_fits(command, account_id, statement, pending)
    statement_id = table.next_id(keys.id_sequence(company_id, keys.BANK_STATEMENT))
    item = _statement_item(company_id, account, statement_id, fields["fileName"], statement)
    new = _without_existing(command, pending)
    line_ids = iter(table.next_ids(keys.id_sequence(company_id, keys.STATEMENT_LINE), len(new)))
    numbered = [(next(line_ids), line, identity) for line, identity in new]
    stored: list[dict[str, Any]] = []
    for start in range(0, len(numbered), LINES_PER_TRANSACTION):
        stored.extend(_store_chunk(command, account_id, item, numbered[start:start + LINES_PER_TRANSACTION],
                                   first=not stored))
    auto_matched = auto_rules.apply_auto_rules(command, account, stored) if stored else 0
    return _finish(command, account_id, item, imported=len(stored), skipped=len(statement.lines) - len(stored),
                   auto_matched=auto_matched, written=bool(stored))


def _check_each_line_fits(command: Command, account_id: int, statement: ParsedStatement,
                          pending: list[tuple[StatementLine, keys.Key]]) -> None:
    """Every line is checked before the first write (the lines are written in several
    transactions, so a line refused by DynamoDB would leave the ones before it stored): its texts
    within their limits, its item within DynamoDB's. A refusal names the line and its column."""
    columns = _columns(command, account_id, statement)
    largest_id = 10**12
    try:
        for line, identity in pending:
            check_text_lengths(line, columns)
            item = _line_item(command.company_id, account_id, largest_id, largest_id, line,
                              statement_store.line_identity(identity))
            if item_bytes(item) > MAX_ITEM_BYTES:
                raise StatementInvalid(Phrase("the line is larger than the {} KB a record holds",
                                              MAX_ITEM_BYTES // 1024),
                                       line.line)
    except StatementInvalid as problem:
        raise refused(problem) from None


def _columns(command: Command, account_id: int, statement: ParsedStatement) -> dict[str, str]:
    """Where a CSV/XLSX line's texts sit in the file: the saved mapping's headings (other formats:
    the field's name in the API)."""
    if statement.format not in ("csv", "xlsx"):
        return {}
    saved = mapping.saved_column_mapping(command.table, command.company_id, account_id)
    if saved is None:
        return {}
    return {field: heading for field, heading in (("description", saved.description_column),
                                                  ("reference", saved.reference_column)) if heading}


def _statement_item(company_id: int, account: dict[str, Any], statement_id: int, file_name: str,
                    statement: ParsedStatement) -> dict[str, Any]:
    dates = [line.date for line in statement.lines]
    return {**keys.bank_statement(company_id, account["id"], statement_id), "itemType": keys.BANK_STATEMENT,
            "id": statement_id, "bankAccountId": account["id"], "fileName": file_name, "format": statement.format,
            "status": IMPORTING, "linesImported": 0, "linesSkipped": 0, "linesAutoMatched": 0,
            "periodStart": statement.period_start or min(dates), "periodEnd": statement.period_end or max(dates),
            "openingBalance": statement.opening_balance, "closingBalance": statement.closing_balance,
            "currency": (statement.currency or account.get("currency", "HNL")).upper(),
            "accountNumber": statement.account_number, "createdAt": clock.now_iso()}


def _without_existing(command: Command, lines: list[Any]) -> list[Any]:
    """`lines` ((…, identity key) tuples) whose identity the account does not have yet, each
    identity once (a file that repeats a bank's line id holds that line once): one read per 100
    lines."""
    found = command.table.batch_get(entry[-1] for entry in lines)
    seen = set(found)
    new = []
    for entry in lines:
        if keys.pair(entry[-1]) not in seen:
            seen.add(keys.pair(entry[-1]))
            new.append(entry)
    return new


def _store_chunk(command: Command, account_id: int, statement: dict[str, Any],
                 chunk: list[tuple[int, StatementLine, keys.Key]], first: bool) -> list[dict[str, Any]]:
    """Writes one chunk of new lines with their identities (and, with the first, the statement):
    a line another import stored meanwhile is left out and the rest written again. Answers the
    lines written."""
    for _ in range(CHUNK_ATTEMPTS):
        if not chunk:
            return []
        transaction = command.transaction()
        items = [_line_item(command.company_id, account_id, statement["id"], line_id, line,
                            statement_store.line_identity(identity))
                 for line_id, line, identity in chunk]
        for line_item, (_, _, identity) in zip(items, chunk, strict=True):
            transaction.put_new(line_item)
            transaction.put_new({**identity, "itemType": keys.STATEMENT_LINE_IDENTITY, "lineId": line_item["id"]})
        if first:
            transaction.put_new({**statement, "linesImported": len(items)})
        else:
            statement_store.count_lines_imported(transaction, command.company_id, account_id, statement["id"],
                                                 len(items))
        transaction.add_counts(keys.statement_line_counts(command.company_id, account_id),
                               count_changes(statement["id"], None, UNMATCHED, len(items),
                                             statements=1 if first else 0))
        try:
            transaction.commit()
            return items
        except LostRace:
            chunk = _without_existing(command, chunk)
    raise ApiError("The statement kept colliding with another import of the same lines; import it again.",
                   code="CONCURRENT_UPDATE")


def _line_item(company_id: int, account_id: int, statement_id: int, line_id: int, line: StatementLine,
               identity: str) -> dict[str, Any]:
    item: dict[str, Any] = {
        **keys.statement_line(company_id, account_id, line_id),
        **keys.statement_line_index(company_id, account_id, UNMATCHED, line.date, line_id),
        "itemType": keys.STATEMENT_LINE, "id": line_id, "bankAccountId": account_id, "statementId": statement_id,
        "line": line.line, "date": line.date, "amount": line.amount, "description": line.description,
        "reference": line.reference or None, "bankId": line.bank_id, "balance": line.balance,
        "identity": identity, "status": UNMATCHED, "version": 1, "createdAt": clock.now_iso()}
    return {name: value for name, value in item.items() if value is not None}


def _finish(command: Command, account_id: int, statement: dict[str, Any], *, imported: int, skipped: int,
            auto_matched: int, written: bool) -> dict[str, Any]:
    """The last transaction: the statement imported, with its counts, and its event."""
    final = {**statement, "status": IMPORTED, "linesImported": imported, "linesSkipped": skipped,
             "linesAutoMatched": auto_matched}

    def commit() -> dict[str, Any]:
        transaction = command.transaction()
        if written:
            statement_store.finish_statement(transaction, command.company_id, account_id, statement["id"],
                                             {"status": IMPORTED, "linesSkipped": skipped,
                                              "linesAutoMatched": auto_matched})
        else:  # nothing new: the statement is written here, with the account's count of statements
            transaction.put_new(final)
            transaction.add_counts(keys.statement_line_counts(command.company_id, account_id), {"statements": 1})
        outbox.emit(transaction, outbox.STATEMENT_IMPORTED, command.company_id, "bank_statement", statement["id"],
                    view(final))
        return command.commit(transaction, view(final))

    return run_with_retries(commit)
