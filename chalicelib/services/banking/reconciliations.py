"""Bank reconciliations. A draft names a bank statement (closing date and balance) and the
account's transactions the statement shows; completing it, once the cleared balance equals the
statement balance, marks those transactions reconciled and moves the account's reconciled
balance: each transaction is claimed under `reconciled = false` (two completions can never both
reconcile it) and the account's reconciled balance is set under a condition on the value the
difference was computed from. Up to MAX_CLEARED transactions this is one transaction; more (a
statement's month) complete in steps that can be re-run (reconciliation_steps.py). A draft can
start from an imported statement (`statementId`): its period end, closing balance and the bank
transactions of its matched lines.

    openingBalance = the account's reconciled balance (its opening balance plus every transaction
                     reconciled by a completed reconciliation); frozen at completion
    clearedBalance = openingBalance + the cleared transactions (money in +, money out -)
    difference     = statementBalance - clearedBalance

Keys: a reconciliation is `C#{c}#BANKREC#{account}` / 12-digit id (newest first by reversing the
partition); ids come from the company's `BANKREC` sequence; the account item counts them
(`reconciliationCount`, the list's total)."""
from __future__ import annotations

from decimal import Decimal
from typing import Any

from chalicelib import clock
from chalicelib.errors import ApiError, NotFound, ValidationFailed, VersionConflict
from chalicelib.messages.phrases import Phrase
from chalicelib.services import records
from chalicelib.services.banking import bank_transactions, banking
from chalicelib.services.banking import cleared_transactions as clearing
from chalicelib.services.banking.cleared_transactions import MAX_CLEARED, ReconciliationRefused, claim, cleared_lines
from chalicelib.services.commands import Command
from chalicelib.store import keys
from chalicelib.store.listing import Page
from chalicelib.store.repositories import bank_accounts
from chalicelib.store.repositories import reconciliations as reconciliation_store
from chalicelib.store.repositories import statements as statement_store
from chalicelib.store.table import Table

DRAFT, COMPLETED = reconciliation_store.DRAFT, reconciliation_store.COMPLETED
ZERO = Decimal("0.00")


# --- reading -----------------------------------------------------------------------------------------

def reconciled_balance(account: dict[str, Any]) -> Decimal:
    """Accounts created before reconciliations existed have reconciled nothing yet."""
    return Decimal(account.get("reconciledBalance", account["openingBalance"]))


def reconciliation_view(reconciliation: dict[str, Any], account: dict[str, Any]) -> dict[str, Any]:
    """The figures of a draft follow the account (its reconciled balance moves when another
    reconciliation completes); a completed reconciliation keeps the ones it was completed with."""
    if reconciliation["status"] == COMPLETED:
        return reconciliation
    opening = reconciled_balance(account)
    cleared = opening + Decimal(reconciliation.get("clearedTotal", ZERO))
    return {**reconciliation, "openingBalance": opening, "clearedBalance": cleared,
            "difference": Decimal(reconciliation["statementBalance"]) - cleared}


def _not_found() -> NotFound:
    return NotFound("Reconciliation not found.")


def _load(table: Table, company_id: int, account_id: int,
          reconciliation_id: int) -> tuple[dict[str, Any], dict[str, Any]]:
    """The account and the reconciliation, read together."""
    account_key = bank_accounts.account_key(company_id, account_id)
    key = keys.reconciliation(company_id, account_id, reconciliation_id)
    found = table.batch_get([account_key, key])
    account = found.get(keys.pair(account_key))
    if account is None:
        raise NotFound("Bank account not found.")
    reconciliation = found.get(keys.pair(key))
    if reconciliation is None:
        raise _not_found()
    return account, reconciliation


def list_reconciliations(table: Table, company_id: int, account_id: int, page: int, limit: int) -> Page:
    """Newest first; `total` is the account's own count."""
    account = banking.get_bank_account(table, company_id, account_id)
    skip = (page - 1) * limit
    items = reconciliation_store.newest_of_account(table, company_id, account_id, skip + limit)
    return Page(items=[reconciliation_view(item, account) for item in items[skip:skip + limit]],
                total=int(account.get("reconciliationCount", 0)), page=page, limit=limit, next_cursor=None)


def get_reconciliation(table: Table, company_id: int, account_id: int, reconciliation_id: int) -> dict[str, Any]:
    account, reconciliation = _load(table, company_id, account_id, reconciliation_id)
    return reconciliation_view(reconciliation, account)


# --- checks ------------------------------------------------------------------------------------------

def _require_draft(reconciliation: dict[str, Any], action: str) -> None:
    if reconciliation["status"] != DRAFT:
        raise ReconciliationRefused(Phrase("Only a draft reconciliation can be {}; this one is {}.",
                                           action, reconciliation['status']), code="INVALID_RECONCILIATION_STATUS")


def _require_not_completing(reconciliation: dict[str, Any]) -> None:
    """A draft being completed in steps is neither changed nor deleted: its completion is run again."""
    if reconciliation.get("completing"):
        raise ReconciliationRefused("The reconciliation is being completed: complete it again to finish.",
                                    code="INVALID_RECONCILIATION_STATUS")


def _check_statement_date(account: dict[str, Any], statement_date: str) -> None:
    """Statements follow one another: none before the account opened or before the last
    completed one (re-checked in the completing transaction)."""
    if statement_date < account["openingBalanceDate"]:
        raise ValidationFailed.for_field("statementDate", Phrase("must not be before the account's opening balance "
                                                                 "date ({})", account['openingBalanceDate']))
    last = account.get("lastReconciliationDate")
    if last and statement_date < last:
        raise ValidationFailed.for_field("statementDate", Phrase("must not be before the statement date of the last "
                                                                 "completed reconciliation ({})", last))


# --- commands ----------------------------------------------------------------------------------------

def _from_statement(table: Table, company_id: int, account_id: int, fields: dict[str, Any]) -> dict[str, Any]:
    """A draft's fields from an imported statement, where not sent: its period end, its closing
    balance, and every bank transaction its matched lines matched or created not yet reconciled
    (services/statements/__init__.py: a line's `match.transactionIds`)."""
    statement_id = int(fields["statementId"])
    statement = table.get(keys.bank_statement(company_id, account_id, statement_id))
    if statement is None:
        raise ValidationFailed.for_field("statementId", "no such statement on this bank account")
    fields = {**fields}
    if fields.get("statementDate") is None:
        fields["statementDate"] = statement["periodEnd"]
    if fields.get("statementBalance") is None:
        if statement.get("closingBalance") is None:
            raise ValidationFailed.for_field("statementBalance", "the statement states no closing balance: send it")
        fields["statementBalance"] = Decimal(statement["closingBalance"])
    if fields.get("clearedTransactionIds") is None:
        lines = statement_store.lines_of_statement(table, company_id, account_id, statement_id, "matched")
        named: dict[int, int] = {}   # each transaction by the line naming it, in the lines' order
        for line in sorted(lines, key=lambda line: (line["date"], int(line["id"]))):
            for tx_id in (line.get("match") or {}).get("transactionIds") or []:
                named.setdefault(int(tx_id), int(line["id"]))
        found = clearing.account_transactions(table, company_id, account_id, named)
        # each still backing its line (a draft of a transaction reversed before marks: the pair check)
        cleared = {tx_id: line_id for tx_id, line_id in named.items() if tx_id in found
                   and not found[tx_id].get("reconciled") and found[tx_id].get("statementLineId") == line_id
                   and not bank_transactions.is_reversal_pair(found[tx_id])}
        fields["clearedTransactionIds"] = list(cleared)
        fields["clearedLines"] = cleared
    return fields


def create_reconciliation(command: Command, account_id: int, fields: dict[str, Any]) -> dict[str, Any]:
    """`statementId`: from an imported statement (_from_statement); otherwise statementDate and
    statementBalance are required."""
    table, company_id = command.table, command.company_id
    account = banking.get_bank_account(table, company_id, account_id)
    if fields.get("statementId") is not None:
        fields = _from_statement(table, company_id, account_id, fields)
    for required in ("statementDate", "statementBalance"):
        if fields.get(required) is None:
            raise ValidationFailed.for_field(required, "required")
    statement_date, ids = fields["statementDate"], list(fields.get("clearedTransactionIds") or [])
    _check_statement_date(account, statement_date)
    lines = fields.get("clearedLines") or {}
    _, total = clearing.cleared_transactions(table, company_id, account_id, ids, statement_date, lines=lines)
    reconciliation_id = table.next_id(keys.id_sequence(company_id, keys.BANK_RECONCILIATION))
    now = clock.now_iso()
    item = {**keys.reconciliation(company_id, account_id, reconciliation_id), "itemType": keys.BANK_RECONCILIATION,
            "id": reconciliation_id, "bankAccountId": account_id, "statementDate": statement_date,
            "statementBalance": fields["statementBalance"], "clearedTransactionIds": ids, "clearedTotal": total,
            "status": DRAFT, "version": 1, "createdAt": now, "updatedAt": now}
    if fields.get("statementId") is not None:
        item["statementId"] = int(fields["statementId"])
    if lines:
        item["clearedLines"] = {str(tx_id): line_id for tx_id, line_id in lines.items() if tx_id in ids}
    transaction = command.transaction()
    transaction.put_new(item)
    bank_accounts.count_reconciliations(transaction, company_id, account_id, 1,
                                        on_missing=NotFound("Bank account not found."))
    return command.commit(transaction, reconciliation_view(item, account))


def update_reconciliation(command: Command, account_id: int, reconciliation_id: int, changes: dict[str, Any],
                          expected_version: int | None) -> dict[str, Any]:
    """A draft only. The whole draft is checked again (a new statement date can leave a cleared
    transaction after it); the cleared total is kept on the draft."""
    table, company_id = command.table, command.company_id
    account, current = _load(table, company_id, account_id, reconciliation_id)
    _require_draft(current, "changed")
    _require_not_completing(current)
    if expected_version is not None and expected_version != current["version"]:
        raise VersionConflict()
    merged = {**current, **changes}
    _check_statement_date(account, merged["statementDate"])
    ids = [int(tx_id) for tx_id in merged["clearedTransactionIds"]]
    _, total = clearing.cleared_transactions(table, company_id, account_id, ids, merged["statementDate"], reconciliation_id,
                                    cleared_lines(current))
    changes = {**changes, "clearedTotal": total}
    if "clearedTransactionIds" in changes:
        changes["clearedTransactionIds"] = ids
    updated = records.update_item(command, keys.reconciliation(company_id, account_id, reconciliation_id), current,
                                  changes, expected_version,
                                  guard=reconciliation_store.unmarked_draft())
    return reconciliation_view(updated, account)


def _figures(account: dict[str, Any], reconciliation: dict[str, Any], total: Decimal) -> tuple[Decimal, Decimal, Decimal]:
    """(opening, cleared, difference); a difference other than 0 refuses the completion."""
    opening = reconciled_balance(account)
    cleared = opening + total
    statement = Decimal(reconciliation["statementBalance"])
    difference = statement - cleared
    if difference != 0:
        raise ReconciliationRefused(
            Phrase("The cleared balance {} differs from the statement balance {} by {}.",
                   cleared, statement, difference),
            code="RECONCILIATION_UNBALANCED",
            details=[{"field": "difference",
                      "message": Phrase("{} (the bank statement's balance less the cleared balance); must be 0",
                                        difference)}])
    return opening, cleared, difference


def complete_reconciliation(command: Command, account_id: int, reconciliation_id: int,
                            expected_version: int | None) -> dict[str, Any]:
    """Up to MAX_CLEARED transactions, one transaction: every cleared transaction claimed
    (`reconciled = false`), the draft completed (its version, still a draft), the account's
    reconciled balance and last statement date set (conditioned on the balance the difference
    was computed from). More: the same in steps (reconciliation_steps.py), the last one being
    that final transaction without the claims. A lost race runs the command again on fresh data,
    which then reports what changed."""
    from chalicelib.services.banking import reconciliation_steps

    table, company_id = command.table, command.company_id
    account, current = _load(table, company_id, account_id, reconciliation_id)
    _require_draft(current, "completed")
    if expected_version is not None and expected_version != current["version"]:
        raise VersionConflict()
    statement_date = current["statementDate"]
    ids = [int(tx_id) for tx_id in current["clearedTransactionIds"]]
    try:
        _check_statement_date(account, statement_date)
        items, total = clearing.cleared_transactions(table, company_id, account_id, ids, statement_date, reconciliation_id,
                                            cleared_lines(current))
        opening, cleared, difference = _figures(account, current, total)
        in_steps = len(items) > MAX_CLEARED or bool(current.get("completing"))
        token = reconciliation_steps.claim_in_steps(command, current, items) if in_steps else None
    except ApiError:
        if current.get("completing") or len(ids) > MAX_CLEARED:  # a completion in steps gives up
            reconciliation_steps.release(command, account_id, reconciliation_id)
        raise
    now = clock.now_iso()
    transaction = command.transaction()
    if token is None:
        lines = cleared_lines(current)
        for index, item in enumerate(items):
            claim(transaction, company_id, account_id, reconciliation_id, index, item, lines.get(int(item["id"])))
    changes = {"status": COMPLETED, "openingBalance": opening, "clearedBalance": cleared, "difference": difference,
               "clearedTotal": total, "completedAt": now, "updatedAt": now, "completing": None}
    reconciliation_store.complete(transaction, keys.reconciliation(company_id, account_id, reconciliation_id), changes,
                                  current["version"], token)
    # the difference checked above still holds: the balance it was computed from is required
    bank_accounts.move_reconciled_balance(transaction, company_id, account_id, seen=opening, new=cleared,
                                          statement_date=statement_date)
    completed = {name: value for name, value in {**current, **changes, "version": current["version"] + 1}.items()
                 if value is not None}
    return command.commit(transaction, completed)


def delete_reconciliation(command: Command, account_id: int, reconciliation_id: int,
                          expected_version: int | None) -> dict[str, Any]:
    """Web app only; a draft only (a completed reconciliation is history)."""
    table, company_id = command.table, command.company_id
    _, current = _load(table, company_id, account_id, reconciliation_id)
    _require_draft(current, "deleted")
    _require_not_completing(current)
    if expected_version is not None and expected_version != current["version"]:
        raise VersionConflict()
    transaction = command.transaction()
    reconciliation_store.delete_draft(transaction, keys.reconciliation(company_id, account_id, reconciliation_id),
                                      current["version"])
    bank_accounts.count_reconciliations(transaction, company_id, account_id, -1)
    return command.commit(transaction, {"id": reconciliation_id, "deleted": True})
