"""Bank reconciliations. A draft names a bank statement (closing date and balance) and the
account's transactions the statement shows; completing it, once the cleared balance equals the
statement balance, marks those transactions reconciled and moves the account's reconciled
balance, all in one transaction: each transaction is claimed under `reconciled = false` (two
completions can never both reconcile it) and the account's reconciled balance is set under a
condition on the value the difference was computed from.

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
from chalicelib.services import records
from chalicelib.services.banking import banking
from chalicelib.services.commands import Command
from chalicelib.store import keys
from chalicelib.store.listing import Page
from chalicelib.store.table import Table
from chalicelib.store.transaction import MAX_ITEMS

DRAFT, COMPLETED = "draft", "completed"
# Completing writes one item per cleared transaction besides the reconciliation, the account and
# the Idempotency-Key record: 95 keeps two items of DynamoDB's 100 spare (models/banking.py says
# the same to the request model).
MAX_CLEARED = MAX_ITEMS - 5
ZERO = Decimal("0.00")


class ReconciliationRefused(ApiError):
    """A refusal of this use case: each raise names its code."""


# --- reading -----------------------------------------------------------------------------------------

def reconciled_balance(account: dict[str, Any]) -> Decimal:
    """Accounts created before reconciliations existed have reconciled nothing yet."""
    return Decimal(account.get("reconciledBalance", account["openingBalance"]))


def view(reconciliation: dict[str, Any], account: dict[str, Any]) -> dict[str, Any]:
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
    account_key = banking.account_key(company_id, account_id)
    key = keys.reconciliation(company_id, account_id, reconciliation_id)
    found = table.batch_get([account_key, key])
    account = found.get((account_key["PK"], account_key["SK"]))
    if account is None:
        raise NotFound("Bank account not found.")
    reconciliation = found.get(keys.pair(key))
    if reconciliation is None:
        raise _not_found()
    return account, reconciliation


def list_reconciliations(table: Table, company_id: int, account_id: int, page: int, limit: int) -> Page:
    """Newest first; `total` is the account's own count."""
    account = banking.get_account(table, company_id, account_id)
    skip = (page - 1) * limit
    items, _ = table.query(partition=("PK", keys.reconciliations_partition(company_id, account_id)), forward=False,
                           limit=skip + limit, consistent=True)
    return Page(items=[view(item, account) for item in items[skip:skip + limit]],
                total=int(account.get("reconciliationCount", 0)), page=page, limit=limit, next_cursor=None)


def get_reconciliation(table: Table, company_id: int, account_id: int, reconciliation_id: int) -> dict[str, Any]:
    account, reconciliation = _load(table, company_id, account_id, reconciliation_id)
    return view(reconciliation, account)


# --- checks ------------------------------------------------------------------------------------------

def _require_draft(reconciliation: dict[str, Any], action: str) -> None:
    if reconciliation["status"] != DRAFT:
        raise ReconciliationRefused(f"Only a draft reconciliation can be {action}; this one is "
                                    f"{reconciliation['status']}.", code="INVALID_RECONCILIATION_STATUS")


def _check_statement_date(account: dict[str, Any], statement_date: str) -> None:
    """Statements follow one another: none before the account opened or before the last
    completed one (re-checked in the completing transaction)."""
    if statement_date < account["openingBalanceDate"]:
        raise ValidationFailed.for_field("statementDate", "must not be before the account's opening balance date "
                                                          f"({account['openingBalanceDate']})")
    last = account.get("lastReconciliationDate")
    if last and statement_date < last:
        raise ValidationFailed.for_field("statementDate", "must not be before the statement date of the last "
                                                          f"completed reconciliation ({last})")


def _signed(item: dict[str, Any]) -> Decimal:
    amount = Decimal(item["amount"])
    return amount if item["direction"] == banking.MONEY_IN else -amount


def cleared_transactions(table: Table, company_id: int, account_id: int, ids: list[int],
                         statement_date: str) -> tuple[list[dict[str, Any]], Decimal]:
    """The transactions a reconciliation clears, in the order given, and their signed sum. Each
    must be a transaction of this account (by its pointer), named once, dated on or before the
    statement and not yet reconciled. Two BatchGetItems: the pointers, then the transactions."""
    field = "clearedTransactionIds"
    if len(ids) > MAX_CLEARED:
        raise ValidationFailed.for_field(field, f"at most {MAX_CLEARED} transactions per reconciliation")
    problems: list[tuple[int, str]] = []
    first_seen: dict[int, int] = {}
    for index, tx_id in enumerate(ids):
        if tx_id in first_seen:
            problems.append((index, f"duplicate of {field}[{first_seen[tx_id]}]"))
        else:
            first_seen[tx_id] = index
    pointers = _get_each(table, {tx_id: keys.bank_transaction_pointer(company_id, account_id, tx_id)
                                 for tx_id in first_seen})
    items = _get_each(table, {tx_id: keys.bank_transaction(company_id, account_id, pointer["transactionDate"], tx_id)
                              for tx_id, pointer in pointers.items()})
    reconciled: list[dict[str, str]] = []
    for tx_id, index in first_seen.items():
        item = items.get(tx_id)
        if item is None:
            problems.append((index, "no such transaction on this bank account"))
        elif item["transactionDate"] > statement_date:
            problems.append((index, f"dated {item['transactionDate']}, after statementDate"))
        elif item.get("reconciled"):
            by = item.get("reconciliationId")
            reconciled.append({"field": f"{field}[{index}]", "message": "already reconciled"
                               + (f" by reconciliation {int(by)}" if by is not None else "")})
    if problems:
        details = [{"field": f"{field}[{index}]", "message": message} for index, message in sorted(problems)]
        raise ValidationFailed(f"{details[0]['field']}: {details[0]['message']}", details=details)
    if reconciled:
        raise transaction_reconciled(reconciled)
    ordered = [items[tx_id] for tx_id in first_seen]
    return ordered, sum((_signed(item) for item in ordered), ZERO)


def _get_each(table: Table, wanted: dict[int, keys.Key]) -> dict[int, dict[str, Any]]:
    """One BatchGetItem (none for nothing): the items found, by the ids they were asked for."""
    found = table.batch_get(wanted.values())
    return {tx_id: found[keys.pair(key)] for tx_id, key in wanted.items() if keys.pair(key) in found}


def transaction_reconciled(details: list[dict[str, str]]) -> ReconciliationRefused:
    return ReconciliationRefused(f"{details[0]['field']}: the transaction is already reconciled.",
                                 code="BANK_TRANSACTION_RECONCILED", details=details)


# --- commands ----------------------------------------------------------------------------------------

def create_reconciliation(command: Command, account_id: int, fields: dict[str, Any]) -> dict[str, Any]:
    table, company_id = command.table, command.company_id
    account = banking.get_account(table, company_id, account_id)
    statement_date, ids = fields["statementDate"], list(fields.get("clearedTransactionIds") or [])
    _check_statement_date(account, statement_date)
    _, total = cleared_transactions(table, company_id, account_id, ids, statement_date)
    reconciliation_id = table.next_id(keys.id_sequence(company_id, keys.BANK_RECONCILIATION))
    now = clock.now_iso()
    item = {**keys.reconciliation(company_id, account_id, reconciliation_id), "itemType": keys.BANK_RECONCILIATION,
            "id": reconciliation_id, "bankAccountId": account_id, "statementDate": statement_date,
            "statementBalance": fields["statementBalance"], "clearedTransactionIds": ids, "clearedTotal": total,
            "status": DRAFT, "version": 1, "createdAt": now, "updatedAt": now}
    transaction = command.transaction()
    transaction.put_new(item)
    transaction.update(banking.account_key(company_id, account_id), "ADD reconciliationCount :one",
                       condition="attribute_exists(PK)", values={":one": 1},
                       on_fail=NotFound("Bank account not found."))
    return command.commit(transaction, view(item, account))


def update_reconciliation(command: Command, account_id: int, reconciliation_id: int, changes: dict[str, Any],
                          expected_version: int | None) -> dict[str, Any]:
    """A draft only. The whole draft is checked again (a new statement date can leave a cleared
    transaction after it); the cleared total is kept on the draft."""
    table, company_id = command.table, command.company_id
    account, current = _load(table, company_id, account_id, reconciliation_id)
    _require_draft(current, "changed")
    if expected_version is not None and expected_version != current["version"]:
        raise VersionConflict()
    merged = {**current, **changes}
    _check_statement_date(account, merged["statementDate"])
    ids = [int(tx_id) for tx_id in merged["clearedTransactionIds"]]
    _, total = cleared_transactions(table, company_id, account_id, ids, merged["statementDate"])
    changes = {**changes, "clearedTotal": total}
    if "clearedTransactionIds" in changes:
        changes["clearedTransactionIds"] = ids
    updated = records.update_item(command, keys.reconciliation(company_id, account_id, reconciliation_id), current,
                                  changes, expected_version,
                                  guard=("#status = :draft", {"#status": "status"}, {":draft": DRAFT}))
    return view(updated, account)


def complete_reconciliation(command: Command, account_id: int, reconciliation_id: int,
                            expected_version: int | None) -> dict[str, Any]:
    """One transaction: every cleared transaction claimed (`reconciled = false`), the draft
    completed (its version, still a draft), the account's reconciled balance and last statement
    date set (conditioned on the balance the difference was computed from). A lost race runs the
    command again on fresh data, which then reports what changed."""
    table, company_id = command.table, command.company_id
    account, current = _load(table, company_id, account_id, reconciliation_id)
    _require_draft(current, "completed")
    if expected_version is not None and expected_version != current["version"]:
        raise VersionConflict()
    statement_date = current["statementDate"]
    _check_statement_date(account, statement_date)
    ids = [int(tx_id) for tx_id in current["clearedTransactionIds"]]
    items, total = cleared_transactions(table, company_id, account_id, ids, statement_date)
    opening = reconciled_balance(account)
    cleared = opening + total
    statement = Decimal(current["statementBalance"])
    difference = statement - cleared
    if difference != 0:
        raise ReconciliationRefused(
            f"The cleared balance {cleared} differs from the statement balance {statement} by {difference}.",
            code="RECONCILIATION_UNBALANCED",
            details=[{"field": "difference",
                      "message": f"{difference} (the bank statement's balance less the cleared balance); must be 0"}])
    now = clock.now_iso()
    transaction = command.transaction()
    for index, item in enumerate(items):
        transaction.update(keys.bank_transaction(company_id, account_id, item["transactionDate"], item["id"]),
                           "SET reconciled = :yes, reconciliationId = :reconciliation",
                           condition="reconciled = :no",
                           values={":yes": True, ":no": False, ":reconciliation": reconciliation_id},
                           on_fail=transaction_reconciled([{"field": f"clearedTransactionIds[{index}]",
                                                            "message": "already reconciled"}]))
    changes = {"status": COMPLETED, "openingBalance": opening, "clearedBalance": cleared, "difference": difference,
               "clearedTotal": total, "completedAt": now, "updatedAt": now}
    transaction.update_fields(keys.reconciliation(company_id, account_id, reconciliation_id), changes,
                              current["version"], also_require="#status = :draft",
                              names={"#status": "status"}, values={":draft": DRAFT})
    # SET under a condition on the value read (ADD would need the attribute, which accounts from
    # before reconciliations lack): the same effect, and the difference checked above still holds
    transaction.update(
        banking.account_key(company_id, account_id), "SET reconciledBalance = :new, lastReconciliationDate = :date",
        condition="(reconciledBalance = :seen OR (attribute_not_exists(reconciledBalance) AND openingBalance = :seen))"
                  " AND (attribute_not_exists(lastReconciliationDate) OR lastReconciliationDate <= :date)",
        values={":new": cleared, ":seen": opening, ":date": statement_date})
    completed = {**current, **changes, "version": current["version"] + 1}
    return command.commit(transaction, completed)


def delete_reconciliation(command: Command, account_id: int, reconciliation_id: int,
                          expected_version: int | None) -> dict[str, Any]:
    """Web app only; a draft only (a completed reconciliation is history)."""
    table, company_id = command.table, command.company_id
    _, current = _load(table, company_id, account_id, reconciliation_id)
    _require_draft(current, "deleted")
    if expected_version is not None and expected_version != current["version"]:
        raise VersionConflict()
    transaction = command.transaction()
    transaction.delete(keys.reconciliation(company_id, account_id, reconciliation_id),
                       condition="#version = :seen AND #status = :draft",
                       names={"#version": "version", "#status": "status"},
                       values={":seen": current["version"], ":draft": DRAFT})
    transaction.update(banking.account_key(company_id, account_id), "ADD reconciliationCount :minus",
                       condition="attribute_exists(PK)", values={":minus": -1})
    return command.commit(transaction, {"id": reconciliation_id, "deleted": True})
