"""Completing a reconciliation of more transactions than one DynamoDB transaction holds (a
statement's month), in steps that can be re-run:

1. the draft is marked `completing` (a token) under its version: from then on nothing changes or
   deletes it (reconciliations.NOT_COMPLETING) and its cleared list is fixed;
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
from chalicelib.services.banking import cleared_transactions, reconciliations
from chalicelib.services.commands import Command
from chalicelib.store import keys
from chalicelib.store.transaction import Transaction

MARKED = "#status = :draft AND completing = :token"


def _mark(command: Command, reconciliation: dict[str, Any]) -> str:
    """The draft marked, its version unchanged (a client re-running with the version it read still
    matches); a lost race (a change meanwhile) runs the whole command again."""
    token = uuid.uuid4().hex
    transaction = Transaction(command.table)
    transaction.update(_key(command, reconciliation),
                       "SET completing = :token, completingSince = :now",
                       condition="#version = :seen AND #status = :draft AND attribute_not_exists(completing)",
                       names={"#version": "version", "#status": "status"},
                       values={":token": token, ":now": clock.now_iso(), ":seen": reconciliation["version"],
                               ":draft": reconciliations.DRAFT})
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
    for start in range(0, len(pending), reconciliations.MAX_CLEARED):
        claim_chunk(command, reconciliation, token, pending[start:start + reconciliations.MAX_CLEARED])
    return token


def claim_chunk(command: Command, reconciliation: dict[str, Any], token: str,
                chunk: list[tuple[int, dict[str, Any]]]) -> None:
    """One step: a chunk claimed while the draft carries the token (else the command runs again)."""
    transaction = Transaction(command.table)
    lines = reconciliations.cleared_lines(reconciliation)
    for index, item in chunk:
        reconciliations.claim(transaction, command.company_id, int(reconciliation["bankAccountId"]),
                              int(reconciliation["id"]), index, item, lines.get(int(item["id"])))
    transaction.check(_key(command, reconciliation), MARKED, names={"#status": "status"},
                      values={":draft": reconciliations.DRAFT, ":token": token})
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
    if not table.update_if(key, "REMOVE completing, completingSince", condition=MARKED,
                           names={"#status": "status"},
                           values={":draft": reconciliations.DRAFT, ":token": current["completing"]}):
        return
    ids = [int(tx_id) for tx_id in current["clearedTransactionIds"]]
    for tx_id, item in cleared_transactions.account_transactions(table, command.company_id, account_id, ids).items():
        if item.get("reconciled") and item.get("reconciliationId") == reconciliation_id:
            table.update_if(keys.bank_transaction(command.company_id, account_id, item["transactionDate"], tx_id),
                            "SET reconciled = :no REMOVE reconciliationId",
                            condition="reconciliationId = :this AND reconciled = :yes",
                            values={":no": False, ":yes": True, ":this": reconciliation_id})

