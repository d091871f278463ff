"""Importing a company's standard chart of accounts and determination rules: its country's
(`countries.pack_of(company).chart_module`: ACCOUNTS and RULES). Importing is idempotent: codes
already in the chart and rules already set are left as they are."""
from __future__ import annotations

from importlib import import_module
from types import ModuleType
from typing import Any

from chalicelib import countries
from chalicelib.domain import cash_flow, statements
from chalicelib.domain.accounting import CONTROLLED_OPERATIONS
from chalicelib.errors import ApiError
from chalicelib.messages.phrases import Phrase, stored
from chalicelib.services.accounting import account_determination, chart, control_accounts
from chalicelib.services.accounting.posting import invalid_account, rule_items
from chalicelib.services.commands import Command, Existing
from chalicelib.services.identity import accounts
from chalicelib.store import keys
from chalicelib.store.repositories import accounts as chart_store
from chalicelib.store.table import Table
from chalicelib.store.transaction import Transaction

# Two items per account (the account and its code reservation) and at most one parent update.
_ACCOUNTS_PER_TRANSACTION = 30


def _chart_of(country: str) -> ModuleType:
    """The module of the country's standard chart (ACCOUNTS, RULES and where the statements place them)."""
    name = countries.pack(country).chart_module
    if name is None:
        raise ValueError(f"the pack of {country} has no standard chart")
    return import_module(name)


def standard_chart(country: str) -> tuple[tuple[tuple[str, str, str, str | None], ...],
                                          tuple[tuple[str, str | None, str], ...]]:
    """The accounts and rules of the country's standard chart."""
    module = _chart_of(country)
    return module.ACCOUNTS, module.RULES


def standard_sections(country: str) -> dict[str, tuple[str, str, bool]]:
    """Where the country's standard chart places its income, cost and expense accounts in the
    income statement: code -> (type, section, whether the chart names it in `STATEMENT_SECTIONS`
    rather than the account following its parent or its type)."""
    module = _chart_of(country)
    return statements.standard_places(module.ACCOUNTS, getattr(module, "STATEMENT_SECTIONS", {}),
                                      statements.SECTION_BY_TYPE)


def standard_cash_flow_places(country: str) -> dict[str, tuple[str, str, bool]]:
    """Where the country's standard chart places its balance sheet accounts in the statement of
    cash flows: code -> (type, place, whether the chart names it in `CASH_FLOW_CATEGORIES`)."""
    module = _chart_of(country)
    return cash_flow.standard_places(module.ACCOUNTS, getattr(module, "CASH_FLOW_CATEGORIES", {}))


def import_default_chart(table: Table, company_id: int) -> tuple[dict[str, Any], Transaction]:
    """Creates the accounts and rules of the company's country's chart that it lacks. The chart
    is larger than one transaction: accounts are committed in batches of whole accounts (each
    batch all or nothing), and the rules go in the returned, not yet committed transaction,
    which the caller commits last. An interrupted import is completed by running it again."""
    country = accounts.company_country(table, company_id)
    chart_accounts, chart_rules = standard_chart(country)
    ids_by_code = chart_store.reserved_codes(table, company_id)
    missing = [account for account in chart_accounts if account[0] not in ids_by_code]
    new_ids = _take_ids(table, keys.id_sequence(company_id, keys.CHART_ACCOUNT), len(missing))
    planned: list[dict[str, Any]] = []
    for (code, name, account_type, parent_code), account_id in zip(missing, new_ids, strict=True):
        ids_by_code[code] = account_id
        planned.append({"id": account_id, "code": code, "name": name, "type": account_type,
                        "parentId": ids_by_code.get(parent_code) if parent_code else None})
    parents = _existing_parent_types(table, company_id, planned)
    for start in range(0, len(planned), _ACCOUNTS_PER_TRANSACTION):
        batch = planned[start:start + _ACCOUNTS_PER_TRANSACTION]
        _create_batch(Transaction(table), company_id, batch, parents).commit()
        parents.update({account["id"]: account["type"] for account in batch})

    existing_rules = {(rule["operationType"], rule.get("documentType")) for rule in rule_items(table, company_id)}
    wanted = [(operation, document_type, code) for operation, document_type, code in chart_rules
              if (operation, document_type) not in existing_rules and code in ids_by_code]
    wanted, skipped = _fit_rules(table, company_id, wanted, ids_by_code, {account["id"] for account in planned})
    rule_ids = _take_ids(table, keys.id_sequence(company_id, keys.DETERMINATION_RULE), len(wanted))
    new_rules = [account_determination.rule_item(company_id, rule_id, operation, document_type, ids_by_code[code])
                 for (operation, document_type, code), rule_id in zip(wanted, rule_ids, strict=True)]
    transaction = Transaction(table)
    account_determination.add_rules(transaction, company_id, new_rules, frozenset(
        int(rule["chartOfAccountId"]) for rule in new_rules if rule["operationType"] in CONTROLLED_OPERATIONS))
    return ({"accountsCreated": len(planned), "rulesCreated": len(new_rules),
             "accountsInChart": len(ids_by_code), "rulesSkipped": skipped}, transaction)


def _fit_rules(table: Table, company_id: int, wanted: list[tuple[str, str | None, str]],
               ids_by_code: dict[str, int], created: set[int]) -> tuple[list[tuple[str, str | None, str]],
                                                                         list[dict[str, Any]]]:
    """The standard rules whose account was already in the chart pass the checks a rule set by
    hand passes (control_accounts.check_rule_account: a subledger's account starts empty and is no
    other subledger's or bank's; no posting rule on a control account); one that fails is left
    out and reported, with why, for the accountant to point elsewhere. The rest of the chart is
    imported: refusing it all would leave a new company with no rules for one account it had."""
    existing = {ids_by_code[code] for _, _, code in wanted if ids_by_code[code] not in created}
    found = table.batch_get([chart.account_key(company_id, account_id) for account_id in existing]) if existing else {}
    accounts_by_id = {int(item["id"]): item for item in found.values()}
    fit, skipped = [], []
    for operation, document_type, code in wanted:
        account = accounts_by_id.get(ids_by_code[code])
        if account is None:
            fit.append((operation, document_type, code))
            continue
        try:
            if not account.get("isActive"):
                raise invalid_account("chartOfAccountId", Phrase("account {} is inactive", account['code']))
            control_accounts.check_rule_account(table, company_id, operation, None, account)
        except ApiError as refusal:
            reason = refusal.details[0]["message"] if refusal.details else refusal.message
            skipped.append({"operationType": operation, "documentType": document_type,
                            "chartOfAccountId": int(account["id"]), "accountCode": account["code"],
                            "code": refusal.code, "reason": reason, "reasonPhrase": stored(reason)})
        else:
            fit.append((operation, document_type, code))
    return fit, skipped


def _take_ids(table: Table, sequence: keys.Key, count: int) -> range:
    """`count` new ids of a sequence in one round trip, not one per id."""
    if not count:
        return range(0)
    last = table.add(sequence, "value", count)
    return range(last - count + 1, last + 1)


def _existing_parent_types(table: Table, company_id: int, planned: list[dict[str, Any]]) -> dict[int, str]:
    """Types of the accounts already in the chart that new accounts hang under; a new account
    goes to the top level when its parent code exists with another type."""
    new_ids = {account["id"] for account in planned}
    wanted = {account["parentId"] for account in planned
              if account["parentId"] is not None and account["parentId"] not in new_ids}
    found = table.batch_get([chart.account_key(company_id, parent_id) for parent_id in wanted]) if wanted else {}
    types = {item["id"]: item["type"] for item in found.values()}
    for account in planned:
        parent_id = account["parentId"]
        if parent_id is not None and parent_id not in new_ids and types.get(parent_id) != account["type"]:
            account["parentId"] = None
    return types


def _create_batch(transaction: Transaction, company_id: int, batch: list[dict[str, Any]],
                  parent_types: dict[int, str]) -> Transaction:
    in_batch = {account["id"] for account in batch}
    children_in_batch: dict[int, int] = {}
    children_outside: dict[int, int] = {}
    for account in batch:
        parent_id = account["parentId"]
        if parent_id is None:
            continue
        counts = children_in_batch if parent_id in in_batch else children_outside
        counts[parent_id] = counts.get(parent_id, 0) + 1
    for account in batch:
        fields = {name: account[name] for name in ("code", "name", "type", "parentId")}
        transaction.put_new(chart.new_account_item(company_id, account["id"], fields,
                                                   child_count=children_in_batch.get(account["id"], 0)))
        # a concurrent import took the code first: running again skips it (and answers 200)
        transaction.put_new({**chart.account_code_key(company_id, account["code"]), "accountId": account["id"]})
    for parent_id, count in children_outside.items():
        chart.add_child(transaction, company_id, parent_id, parent_types[parent_id], count)
    return transaction


def import_for_command(command: Command) -> dict[str, Any] | Existing[dict[str, Any]]:
    result, transaction = import_default_chart(command.table, command.company_id)
    if not result["accountsCreated"] and not result["rulesCreated"]:
        return command.commit(transaction, Existing(result))
    return command.commit(transaction, result)
