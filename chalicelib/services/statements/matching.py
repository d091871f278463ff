"""Acting on a statement line: match (to a bank transaction, to documents it pays, to a new bank
transaction, to a transfer between own accounts), unmatch, ignore and restore. Each one command,
one transaction: the line changes status under a condition on its version and status, and what
the match touches is written beside it (a transaction matched only while no line holds it:
store/repositories/bank_transactions.match_to_line), so of two racing commands exactly one lands and the other gets the precise 409
of the condition it broke. What each kind builds and undoes: services/statements/match_kinds.py."""
from __future__ import annotations

from decimal import Decimal
from typing import Any

from chalicelib import clock
from chalicelib.errors import ApiError, NotFound, ValidationFailed
from chalicelib.events import outbox
from chalicelib.services.accounting.posting import JournalWrites
from chalicelib.services.banking import banking
from chalicelib.services.commands import Command
from chalicelib.services.identity import accounts
from chalicelib.services.statements import bank_rules, match_kinds
from chalicelib.services.statements.lines import IGNORED, MATCHED, UNMATCHED, count_status_change, get_line
from chalicelib.store.repositories import statements as statement_store
from chalicelib.store.transaction import Transaction


class LineRefused(ApiError):
    """A refusal of this use case: each raise names its code."""


def not_unmatched() -> LineRefused:
    return LineRefused("Only an unmatched statement line can be matched or ignored.",
                       code="STATEMENT_LINE_NOT_UNMATCHED")


def _not_matched() -> LineRefused:
    return LineRefused("Only a matched statement line can be unmatched.", code="STATEMENT_LINE_NOT_MATCHED")


def _not_ignored() -> LineRefused:
    return LineRefused("Only an ignored statement line can be restored.", code="STATEMENT_LINE_NOT_IGNORED")


_REFUSAL = {UNMATCHED: not_unmatched, MATCHED: _not_matched, IGNORED: _not_ignored}


def _line_moved(transaction: Transaction, company_id: int, line: dict[str, Any], status: str,
                match: dict[str, Any] | None) -> dict[str, Any]:
    """The line to `status` (its GSI1 entry with it), from the status and version read: a command
    that changed it meanwhile makes this one's transaction fail with the refusal of the status it
    required. Answers the line as it will be stored."""
    count_status_change(transaction, company_id, line, status)   # before: the line's update stays the last operation
    changes = statement_store.move_line(transaction, company_id, line, status, {"match": match},
                                        _REFUSAL[line["status"]]())
    moved = {**line, **changes, "version": line["version"] + 1}
    return {name: value for name, value in moved.items() if value is not None}


def _account_and_line(command: Command, account_id: int, line_id: int,
                      status: str) -> tuple[dict[str, Any], dict[str, Any]]:
    """The account (another company's: 404) and its line, which must be in `status`."""
    account = banking.get_bank_account(command.table, command.company_id, account_id)
    line = get_line(command.table, command.company_id, account_id, line_id)
    if line["status"] != status:
        raise _REFUSAL[status]()
    return account, line


def match_line(command: Command, account_id: int, line_id: int, body: dict[str, Any]) -> dict[str, Any]:
    """`body` is the match request as the API takes it (camelCase): exactly one of `transactionId`,
    `documents` (+ `paymentMethodId`?), `create`, `transferToAccountId`; `ruleId` when a bank rule
    creates it. Answers the line as stored after the match."""
    account, line = _account_and_line(command, account_id, line_id, UNMATCHED)
    if body.get("ruleId") is not None:
        _check_rule(command, int(body["ruleId"]))
    transaction, writes = command.transaction(), JournalWrites(command.company_id)
    # the line first: of two matches of one line, the loser is told the line's story, not a part's
    position = len(transaction.operations)
    if body.get("transactionId") is not None:
        match = match_kinds.to_transaction(command, transaction, account, line, int(body["transactionId"]))
    elif body.get("documents") is not None:
        match = match_kinds.to_documents(command, transaction, writes, account, line, body["documents"],
                                         body.get("paymentMethodId"))
    elif body.get("create") is not None:
        match = match_kinds.to_new_transaction(command, transaction, writes, account, line, body["create"])
    else:
        match = match_kinds.to_transfer(command, transaction, writes, account, line, int(body["transferToAccountId"]))
    if body.get("ruleId") is not None:
        match["ruleId"] = int(body["ruleId"])
    match["matchedAt"] = clock.now_iso()
    matched = _line_moved(transaction, command.company_id, line, MATCHED, match)
    transaction.move_last_to(position)
    writes.apply(transaction)
    outbox.emit(transaction, outbox.STATEMENT_LINE_MATCHED, command.company_id, "statement_line", line_id,
                match_event_data(matched))
    return command.commit(transaction, matched)


def _check_rule(command: Command, rule_id: int) -> None:
    """The rule that proposed the match: one of the company's (deactivated or changed since is
    fine: it names where the proposal came from)."""
    try:
        bank_rules.get_rule(command.table, command.company_id, rule_id)
    except NotFound:
        raise ValidationFailed.for_field("ruleId", "no such bank rule") from None


def unmatch_line(command: Command, account_id: int, line_id: int) -> dict[str, Any]:
    """Undoes the match exactly, on the later of today and the line's date: a transaction matched
    is free again; the payments a match made are cancelled (entries and bank transactions
    reversed, pendings and balances restored); a transaction or transfer it created is reversed.
    Nothing of it may be reconciled yet. The line is unmatched again."""
    _, line = _account_and_line(command, account_id, line_id, MATCHED)
    today = clock.today_in(accounts.company_country(command.table, command.company_id))
    date = max(today, line["date"])
    transaction, writes = command.transaction(), JournalWrites(command.company_id)
    position = len(transaction.operations)
    match_kinds.undo(command, transaction, writes, line, date)
    unmatched = _line_moved(transaction, command.company_id, line, UNMATCHED, None)
    transaction.move_last_to(position)
    writes.apply(transaction)
    return command.commit(transaction, unmatched)


def ignore_line(command: Command, account_id: int, line_id: int) -> dict[str, Any]:
    """A line nothing in the books stands for (a bank's own correction): out of the unmatched list."""
    return _moved_alone(command, _account_and_line(command, account_id, line_id, UNMATCHED)[1], IGNORED)


def unignore_line(command: Command, account_id: int, line_id: int) -> dict[str, Any]:
    return _moved_alone(command, _account_and_line(command, account_id, line_id, IGNORED)[1], UNMATCHED)


def _moved_alone(command: Command, line: dict[str, Any], status: str) -> dict[str, Any]:
    transaction = command.transaction()
    return command.commit(transaction, _line_moved(transaction, command.company_id, line, status, None))


def match_event_data(line: dict[str, Any]) -> dict[str, Any]:
    """The company's own: the line, its statement and account, what the match matched or made."""
    match = line["match"]
    data = {"id": line["id"], "statementId": line["statementId"], "bankAccountId": line["bankAccountId"],
            "date": line["date"], "amount": Decimal(line["amount"]), "kind": match["kind"],
            "transactionIds": match["transactionIds"]}
    if match.get("paymentIds"):
        data["paymentIds"] = match["paymentIds"]
    if match.get("documents"):
        data["documents"] = [{"documentId": part["documentId"], "amount": Decimal(part["amount"]),
                              "paymentId": part["paymentId"]} for part in match["documents"]]
    if match.get("ruleId") is not None:
        data["ruleId"] = match["ruleId"]
    return data
