"""The transactions a reconciliation clears: read by id from the account, checked (the account's,
dated by the statement, not reconciled elsewhere, a reversal never without what it reverses) and
added up, money in + and money out -; claimed when it completes (`claim`, at most MAX_CLEARED in one
transaction). services/banking/reconciliations.py and reconciliation_steps.py use them."""
from __future__ import annotations

from decimal import Decimal
from typing import Any

from chalicelib.errors import ApiError, ValidationFailed
from chalicelib.messages.phrases import Phrase
from chalicelib.services.banking import bank_transactions
from chalicelib.store import keys
from chalicelib.store.repositories import bank_transactions as bank_transaction_store
from chalicelib.store.table import Table
from chalicelib.store.transaction import MAX_ITEMS

ZERO = Decimal("0.00")
# Completing writes one item per cleared transaction besides the reconciliation, the account and
# the Idempotency-Key record: 95 keeps two items of DynamoDB's 100 spare (models/banking.py says
# the same to the request model, which takes at most that many ids in a list sent). More (a
# statement's matched lines) complete in steps of this many.
MAX_CLEARED = MAX_ITEMS - 5
# a draft made from a statement: every transaction of its matched lines (a busy account's month or
# two); the ids stay well inside an item's 400 KB
MAX_FROM_STATEMENT = 5000


class ReconciliationRefused(ApiError):
    """A refusal of the reconciliations' use cases: each raise names its code."""


def account_transactions(table: Table, company_id: int, account_id: int, ids: Any) -> dict[int, dict[str, Any]]:
    """The account's transactions of `ids` that exist, by id. Two BatchGetItems: the pointers,
    then the transactions."""
    pointers = get_each(table, {tx_id: keys.bank_transaction_pointer(company_id, account_id, tx_id) for tx_id in ids})
    return get_each(table, {tx_id: keys.bank_transaction(company_id, account_id, pointer["transactionDate"], tx_id)
                             for tx_id, pointer in pointers.items()})


def cleared_transactions(table: Table, company_id: int, account_id: int, ids: list[int],
                         statement_date: str, claimed_by: int | None = None,
                         lines: dict[int, int] | None = None) -> tuple[list[dict[str, Any]], Decimal]:
    """The transactions a reconciliation clears, in the order given, and their signed sum. Each
    must be a transaction of this account (by its pointer), named once, dated on or before the
    statement and not yet reconciled (`claimed_by`: other than by this reconciliation, whose
    completion in steps claims them before it completes); one a draft took from a statement's
    line (`lines`: transaction -> line) still matched to that line; a transaction reversed, or a
    reversal, only with the other of the two (or that one reconciled already): alone it would
    balance a statement on money the bank never moved."""
    field = "clearedTransactionIds"
    if len(ids) > MAX_FROM_STATEMENT:
        raise ValidationFailed.for_field(field, Phrase("at most {} transactions per reconciliation",
                                                       MAX_FROM_STATEMENT))
    problems: list[tuple[int, str]] = []
    first_seen: dict[int, int] = {}
    for index, tx_id in enumerate(ids):
        if tx_id in first_seen:
            problems.append((index, f"duplicate of {field}[{first_seen[tx_id]}]"))
        else:
            first_seen[tx_id] = index
    items = account_transactions(table, company_id, account_id, first_seen)
    reconciled: list[dict[str, str]] = []
    for tx_id, index in first_seen.items():
        item = items.get(tx_id)
        if item is None:
            problems.append((index, "no such transaction on this bank account"))
        elif item["transactionDate"] > statement_date:
            problems.append((index, f"dated {item['transactionDate']}, after statementDate"))
        elif item.get("reconciled") and (claimed_by is None or item.get("reconciliationId") != claimed_by):
            by = item.get("reconciliationId")
            reconciled.append({"field": f"{field}[{index}]", "message":
                    Phrase("already reconciled by reconciliation {}",
                           int(by)) if by is not None else "already reconciled"})
        elif lines and tx_id in lines and item.get("statementLineId") != lines[tx_id]:
            problem = (Phrase("no longer matched to statement line {}: remove it from the draft or match the line again",
                              lines[tx_id]))
            problems.append((index, problem))
    problems.extend(unpaired_reversals(table, company_id, account_id, items, first_seen))
    if problems:
        details = [{"field": f"{field}[{index}]", "message": message} for index, message in sorted(problems)]
        raise ValidationFailed(Phrase("{}: {}", details[0]['field'], details[0]['message']), details=details)
    if reconciled:
        raise transaction_reconciled(reconciled)
    ordered = [items[tx_id] for tx_id in first_seen]
    return ordered, sum((bank_transactions.signed(item) for item in ordered), ZERO)


def unpaired_reversals(table: Table, company_id: int, account_id: int, items: dict[int, dict[str, Any]],
                        first_seen: dict[int, int]) -> list[tuple[int, str]]:
    """A reversed transaction, or a reversal, cleared without the other of the two (which no
    reconciliation has either): the problem, by its index. One more read for the others."""
    partners = {tx_id: int(item.get("reversedBy") or item["reverses"]) for tx_id, item in items.items()
                if bank_transactions.is_reversal_pair(item)}
    outside = account_transactions(table, company_id, account_id,
                                   {other for other in partners.values() if other not in first_seen})
    problems: list[tuple[int, str]] = []
    for tx_id, other in partners.items():
        if other in first_seen or outside.get(other, {}).get("reconciled"):
            continue
        if items[tx_id].get("reversedBy") is not None:
            problem = Phrase("reversed by transaction {}: clear both or neither", other)
        else:
            problem = Phrase("the reversal of transaction {}: clear both or neither", other)
        problems.append((first_seen[tx_id], problem))
    return problems


def get_each(table: Table, wanted: dict[int, keys.Key]) -> dict[int, dict[str, Any]]:
    """One BatchGetItem (none for nothing): the items found, by the ids they were asked for."""
    found = table.batch_get(wanted.values())
    return {tx_id: found[keys.pair(key)] for tx_id, key in wanted.items() if keys.pair(key) in found}


def transaction_reconciled(details: list[dict[str, str]]) -> ReconciliationRefused:
    return ReconciliationRefused(Phrase("{}: the transaction is already reconciled.", details[0]['field']),
                                 code="BANK_TRANSACTION_RECONCILED", details=details)


def cleared_lines(reconciliation: dict[str, Any]) -> dict[int, int]:
    """A draft made from a statement: each cleared transaction's line (stored with string keys),
    which it must still back when the draft completes."""
    return {int(tx_id): int(line_id) for tx_id, line_id in (reconciliation.get("clearedLines") or {}).items()}


def claim(transaction: Any, company_id: int, account_id: int, reconciliation_id: int, index: int,
          item: dict[str, Any], line: int | None = None) -> None:
    """A cleared transaction becomes this reconciliation's: unless another reconciliation has it
    (a re-run of a completion in steps finds its own claims). `line`: the statement line it must
    still back (an unmatch meanwhile loses the race: the command runs again and names it)."""
    on_fail = None if line is not None else transaction_reconciled(
        [{"field": f"clearedTransactionIds[{index}]", "message": "already reconciled"}])
    bank_transaction_store.claim_for_reconciliation(
        transaction, keys.bank_transaction(company_id, account_id, item["transactionDate"], item["id"]),
        reconciliation_id, line_id=line, on_fail=on_fail)
