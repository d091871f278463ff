"""The company's bank rules: conditions on a statement line and what to create for it. A handful
per company: small records (one partition read whole). Each rule is checked when it is written
(its accounts, partner, rate, bank account); a rule that went stale since (an account made
inactive) fails only the lines it is applied to, each in its own transaction."""
from __future__ import annotations

from typing import Any

from chalicelib.domain import taxes
from chalicelib.errors import NotFound, ValidationFailed
from chalicelib.messages.phrases import Phrase
from chalicelib.services import records
from chalicelib.services.accounting import chart, control_accounts
from chalicelib.services.commands import Command
from chalicelib.services.identity import accounts as company_accounts
from chalicelib.store import keys
from chalicelib.store.listing import Page
from chalicelib.store.repositories import statements as statement_store
from chalicelib.store.table import Table

LABEL = "Bank rule"


def _in_order(rules: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return sorted(rules, key=lambda rule: (int(rule["priority"]), int(rule["id"])))


def all_rules(table: Table, company_id: int) -> list[dict[str, Any]]:
    """Every rule of the company in priority order (lower first, then the older)."""
    return _in_order(records.small_records(table, company_id, keys.BANK_RULE))


def active_rules(table: Table, company_id: int) -> list[dict[str, Any]]:
    """The company's active rules in priority order (first wins)."""
    return [rule for rule in all_rules(table, company_id) if rule.get("isActive", True)]


def rules_for_account(rules: list[dict[str, Any]], account_id: int) -> list[dict[str, Any]]:
    """Those of `rules` that apply to a bank account's lines (a rule naming another account does not)."""
    return [rule for rule in rules if rule.get("bankAccountId") is None or int(rule["bankAccountId"]) == account_id]


def list_bank_rules(table: Table, company_id: int, page: int, limit: int) -> Page:
    return records.small_page(all_rules(table, company_id), page, limit)


def get_rule(table: Table, company_id: int, rule_id: int) -> dict[str, Any]:
    return records.get_small_record(table, company_id, keys.BANK_RULE, rule_id, LABEL)


# --- checks ------------------------------------------------------------------------------------------

def _check_action(table: Table, company_id: int, action: dict[str, Any]) -> None:
    """The account an action posts to is the company's, active and no control account; the
    partner exists; the rate is one the company's country has."""
    account = chart.active_account_named_by(table, company_id, action["chartOfAccountId"], "action.chartOfAccountId")
    control_accounts.refuse_control_accounts(table, company_id, [("action.chartOfAccountId", account["id"])])
    if action.get("businessPartnerId") is not None:
        if table.get(keys.entity(company_id, keys.PARTNER, int(action["businessPartnerId"]))) is None:
            raise ValidationFailed.for_field("action.businessPartnerId", "no such business partner")
    if action.get("taxRate") is not None:
        taxes.check_rate_for_country(company_accounts.company_country(table, company_id), action["taxRate"],
                                     "action.taxRate")


def _check_bank_account(table: Table, company_id: int, account_id: Any) -> None:
    if account_id is not None and table.get(keys.small_record(company_id, keys.BANK_ACCOUNT, int(account_id))) is None:
        raise ValidationFailed.for_field("bankAccountId", "no such bank account")


def _clean_action(action: dict[str, Any]) -> dict[str, Any]:
    return {name: value for name, value in action.items() if value is not None}


# --- commands ----------------------------------------------------------------------------------------

def create_rule(command: Command, fields: dict[str, Any]) -> dict[str, Any]:
    table, company_id = command.table, command.company_id
    _check_action(table, company_id, fields["action"])
    _check_bank_account(table, company_id, fields.get("bankAccountId"))
    if fields.get("priority") is None:
        existing = records.small_records(table, company_id, keys.BANK_RULE)
        fields = {**fields, "priority": max((int(rule["priority"]) for rule in existing), default=0) + 10}
    fields = {**fields, "action": _clean_action(fields["action"])}
    return records.create_small_record(command, keys.BANK_RULE, fields)


def update_rule(command: Command, rule_id: int, changes: dict[str, Any], expected_version: int | None) -> dict[str, Any]:
    """Sparse: what is sent replaces (a whole `conditions` list, a whole `action`); under the
    version read (If-Match or `version`: 409 when stale)."""
    table, company_id = command.table, command.company_id
    current = get_rule(table, company_id, rule_id)
    if changes.get("action") is not None:
        _check_action(table, company_id, changes["action"])
        changes = {**changes, "action": _clean_action(changes["action"])}
    if "bankAccountId" in changes:
        _check_bank_account(table, company_id, changes["bankAccountId"])
    for required in ("name", "priority", "conditions", "match", "action", "autoCreate", "isActive"):
        if required in changes and changes[required] is None:
            raise ValidationFailed.for_field(required, "required")
    return records.update_item(command, keys.small_record(company_id, keys.BANK_RULE, rule_id), current, changes,
                               expected_version)


def delete_rule(command: Command, rule_id: int) -> dict[str, Any]:
    """Lines it matched keep their `ruleId` (history)."""
    get_rule(command.table, command.company_id, rule_id)
    transaction = command.transaction()
    statement_store.delete_rule(transaction, command.company_id, rule_id, NotFound(Phrase("{} not found.", LABEL)))
    return command.commit(transaction, {"id": rule_id, "deleted": True})

