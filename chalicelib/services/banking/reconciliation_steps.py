"""Completing a reconciliation of more transactions than one DynamoDB transaction holds (a
statement's month), in steps that can be re-run:

1. the draft is marked `completing` (a token) under its version: from then on nothing changes or
   deletes it (store/repositories/reconciliations.py) and its cleared list is fixed;
2. the cleared transactions are claimed in chunks of MAX_CLEARED, each chunk one transaction
   under `reconciled = false OR reconciliationId = this` and a check that the draft still carries
   the token;
3. the final transaction (reconciliations.complete_reconciliation) completes the draft under the
   token and moves the account's reconciled balance under its conditions.

A crash between steps leaves a draft marked `completing` whose transactions are partly claimed
(they show `reconciled`, locked as a reconciled one is): completing it again finds the token and
its own claims and finishes. A refusal on the way (a transaction another reconciliation took, a
difference no longer 0 because another reconciliation moved the account's reconciled balance)
gives up: the mark is removed first (so that a concurrent run's next chunk or final step fails
its check), then this reconciliation's claims are released; the draft is a plain draft again."""
from __future__ import annotations

import uuid
from typing import Any

from chalicelib import clock
from chalicelib.services.banking import cleared_transactions
from chalicelib.services.commands import Command
from chalicelib.store import keys
from chalicelib.store.repositories import bank_transactions as bank_transaction_store
from chalicelib.store.repositories import reconciliations as reconciliation_store
from chalicelib.store.transaction import Transaction


def _mark(command: Command, reconciliation: dict[str, Any]) -> str:
    """The draft marked, its version unchanged (a client re-running with the version it read still
    matches); a lost race (a change meanwhile) runs the whole command again."""
    token = uuid.uuid4().hex
    transaction = Transaction(command.table)
    reconciliation_store.mark_completing(transaction, _key(command, reconciliation), reconciliation["version"], token,
                                         clock.now_iso())
    transaction.commit()
    return token


def _key(command: Command, reconciliation: dict[str, Any]) -> keys.Key:
    return keys.reconciliation(command.company_id, int(reconciliation["bankAccountId"]), int(reconciliation["id"]))


def claim_in_steps(command: Command, reconciliation: dict[str, Any], items: list[dict[str, Any]]) -> str:
    """Steps 1 and 2: answers the token the final transaction requires."""
    token = reconciliation.get("completing") or _mark(command, reconciliation)
    reconciliation_id = int(reconciliation["id"])
    pending = [(index, item) for index, item in enumerate(items) if item.get("reconciliationId") != reconciliation_id
               or not item.get("reconciled")]
    for start in range(0, len(pending), cleared_transactions.MAX_CLEARED):
        claim_chunk(command, reconciliation, token, pending[start:start + cleared_transactions.MAX_CLEARED])
    return token


def claim_chunk(command: Command, reconciliation: dict[str, Any], token: str,
                chunk: list[tuple[int, dict[str, Any]]]) -> None:
    """One step: a chunk claimed while the draft carries the token (else the command runs again)."""
    transaction = Transaction(command.table)
    lines = cleared_transactions.cleared_lines(reconciliation)
    for index, item in chunk:
        cleared_transactions.claim(transaction, command.company_id, int(reconciliation["bankAccountId"]),
                                   int(reconciliation["id"]), index, item, lines.get(int(item["id"])))
    reconciliation_store.require_marked(transaction, _key(command, reconciliation), token)
    transaction.commit()


def release(command: Command, account_id: int, reconciliation_id: int) -> None:
    """Gives a completion in steps up: the mark removed, then every claim of this reconciliation
    released (read after the mark is gone: no chunk claims anything after it). Nothing to do for a
    draft without the mark, or one another run completed or released meanwhile."""
    table = command.table
    key = keys.reconciliation(command.company_id, account_id, reconciliation_id)
    current = table.get(key)
    if current is None or not current.get("completing"):
        return
    if not reconciliation_store.unmark(table, key, current["completing"]):
        return
    ids = [int(tx_id) for tx_id in current["clearedTransactionIds"]]
    for tx_id, item in cleared_transactions.account_transactions(table, command.company_id, account_id, ids).items():
        if item.get("reconciled") and item.get("reconciliationId") == reconciliation_id:
            bank_transaction_store.release_claim(
                table, keys.bank_transaction(command.company_id, account_id, item["transactionDate"], tx_id),
                reconciliation_id)

