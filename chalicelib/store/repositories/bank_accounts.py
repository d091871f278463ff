"""A bank account's item as the commands that move it write it: its balance and transaction count
(every bank transaction), its count of reconciliations, its reconciled balance (a completed
reconciliation) and its removal while unused."""
from __future__ import annotations

from decimal import Decimal

from chalicelib.errors import ApiError
from chalicelib.store import keys
from chalicelib.store.transaction import Guard, Transaction


def account_key(company_id: int, account_id: int) -> keys.Key:
    return keys.small_record(company_id, keys.BANK_ACCOUNT, account_id)


def move_balance(transaction: Transaction, company_id: int, account_id: int, signed_amount: Decimal, *,
                 require_active: bool, on_fail: ApiError) -> None:
    """The account's balance moves by `signed_amount` and counts one more transaction: the account
    must still exist, and be active when `require_active`. Several transactions of one command (a
    line paying several documents) move it once, by their sum."""
    condition, values = "attribute_exists(PK)", {}
    if require_active:
        condition, values[":yes"] = condition + " AND isActive = :yes", True
    transaction.accumulate(account_key(company_id, account_id), {"balance": signed_amount, "transactionCount": 1},
                           condition=condition, values=values, on_fail=on_fail)


def no_transaction_since(seen_count: int) -> Guard:
    """The guard (condition, names, values) of a change decided on the account's transaction count
    as read: no transaction may slip in between (services/records.update_item's `guard`)."""
    return Guard("transactionCount = :seen", {}, {":seen": seen_count})


def delete_unused(transaction: Transaction, company_id: int, account_id: int, on_fail: ApiError) -> None:
    """The account deleted while it has neither transactions nor reconciliations."""
    transaction.delete(account_key(company_id, account_id),
                       condition="transactionCount = :zero AND (attribute_not_exists(reconciliationCount) "
                                 "OR reconciliationCount = :zero)",
                       values={":zero": 0}, on_fail=on_fail)


def count_reconciliations(transaction: Transaction, company_id: int, account_id: int, delta: int, *,
                          on_missing: ApiError | None = None) -> None:
    """One reconciliation more (+1) or less (-1) on the account, which must exist."""
    transaction.update(account_key(company_id, account_id), "ADD reconciliationCount :delta",
                       condition="attribute_exists(PK)", values={":delta": delta}, on_fail=on_missing)


def move_reconciled_balance(transaction: Transaction, company_id: int, account_id: int, *, seen: Decimal,
                            new: Decimal, statement_date: str) -> None:
    """The account's reconciled balance from `seen` (the value the difference was computed from; an
    account from before reconciliations holds it as its opening balance) to `new`, and its last
    statement date to `statement_date`, never backwards. SET under a condition on the value read
    (ADD would need the attribute, which accounts from before reconciliations lack)."""
    transaction.update(
        account_key(company_id, account_id), "SET reconciledBalance = :new, lastReconciliationDate = :date",
        condition="(reconciledBalance = :seen OR (attribute_not_exists(reconciledBalance) AND openingBalance = :seen))"
                  " AND (attribute_not_exists(lastReconciliationDate) OR lastReconciliationDate <= :date)",
        values={":new": new, ":seen": seen, ":date": statement_date})
