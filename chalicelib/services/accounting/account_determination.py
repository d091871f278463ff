"""Account determination rules: which ledger account an operation type posts to, optionally
for one document type (the most specific rule wins)."""
from __future__ import annotations

from typing import Any

from chalicelib import clock
from chalicelib.domain import accounting
from chalicelib.messages.phrases import Phrase
from chalicelib.services.accounting import chart, control_accounts
from chalicelib.services.accounting.posting import invalid_account, load_rules, rule_items
from chalicelib.services.commands import Command, Existing
from chalicelib.store import keys
from chalicelib.store.table import Table
from chalicelib.store.transaction import Transaction


def list_rules(table: Table, company_id: int, *, operation: str | None, document_type: str | None,
               page: int, limit: int) -> tuple[list[dict[str, Any]], int]:
    matching = [item for item in rule_items(table, company_id)
                if (operation is None or item["operationType"] == operation)
                and (document_type is None or item.get("documentType") == document_type)]
    start = (page - 1) * limit
    return matching[start:start + limit], len(matching)


def rule_item(company_id: int, rule_id: int, operation: str, document_type: str | None,
              account_id: int) -> dict[str, Any]:
    now = clock.now_iso()
    item = {**keys.determination_rule(company_id, operation, document_type), "itemType": keys.DETERMINATION_RULE,
            "id": rule_id, "operationType": operation, "documentType": document_type,
            "chartOfAccountId": account_id, "version": 1, "createdAt": now, "updatedAt": now}
    return {name: value for name, value in item.items() if value is not None}


def upsert_rule(command: Command, operation: str, document_type: str | None,
                account_id: int) -> dict[str, Any] | Existing[dict[str, Any]]:
    """Creates the rule for (documentType, operationType) or points it at another account.
    Answers 201 when it created the rule, 200 when it changed or kept it."""
    company_id, table = command.company_id, command.table
    account = table.get(chart.account_key(company_id, account_id))
    if account is None or not account.get("isActive"):
        raise invalid_account("chartOfAccountId",
                              "no such account" if account is None else
                                      Phrase("account {} is inactive", account['code']))
    key = keys.determination_rule(company_id, operation, document_type)
    current = table.get(key)
    if current is not None:
        if current["chartOfAccountId"] == account_id:
            return Existing(current)
    # a subledger's rule: its new account must start empty, its old one be left with nothing of it
    must_be_empty = control_accounts.check_rule_account(table, company_id, operation, current, account)
    transaction = command.transaction()
    if current is None:
        rule = rule_item(company_id, table.next_id(keys.id_sequence(company_id, keys.DETERMINATION_RULE)),
                         operation, document_type, account_id)
        transaction.put_new(rule)
    else:
        rule = {**current, "chartOfAccountId": account_id, "version": current["version"] + 1,
                "updatedAt": clock.now_iso()}
        transaction.update_fields(key, {"chartOfAccountId": account_id, "updatedAt": rule["updatedAt"]},
                                  current["version"])
        chart.add_reference(transaction, company_id, current["chartOfAccountId"], -1, "chartOfAccountId")
    chart.add_reference(transaction, company_id, account_id, 1, "chartOfAccountId", unposted=must_be_empty)
    return command.commit(transaction, rule if current is None else Existing(rule))


def resolve(table: Table, company_id: int, operation: str, document_type: str | None) -> dict[str, Any]:
    rule = accounting.resolve_rule(load_rules(table, company_id), operation, document_type)
    return {"chartOfAccountId": rule.account_id, "ruleId": rule.id, "operationType": rule.operation,
            "documentType": rule.document_type}


def add_rules(transaction: Transaction, company_id: int, rules: list[dict[str, Any]],
              unposted: frozenset[int] = frozenset()) -> None:
    """Puts new rules and counts them on their accounts, one update per account (those in
    `unposted`, a subledger's new control accounts, still without postings)."""
    per_account: dict[int, int] = {}
    for rule in rules:
        transaction.put_new(rule)
        per_account[rule["chartOfAccountId"]] = per_account.get(rule["chartOfAccountId"], 0) + 1
    for account_id, count in per_account.items():
        chart.add_reference(transaction, company_id, account_id, count, "chartOfAccountId",
                            unposted=account_id in unposted)
