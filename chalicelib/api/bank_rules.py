"""Bank rules (issue 42): the company's conditions on statement lines and what each creates;
permissions as for bank transactions. See services/statements/bank_rules.py."""
from __future__ import annotations

from typing import Any

from chalice import Blueprint

from chalicelib.api.routing import Access, Call, endpoint, page_body

blueprint = Blueprint(__name__)
TAG = "Bank statements"
M = "chalicelib.models.bank_rules:"
BASE = "/bank-rules"
ONE = BASE + "/{ruleId}"


@endpoint(blueprint, "GET", BASE, summary="The company's bank rules in priority order", tag=TAG,
          query="chalicelib.models.base:PageQuery", response=M + "BankRuleList")
def list_rules(call: Call) -> Any:
    from chalicelib.services.statements import bank_rules

    return page_body("bankRules", bank_rules.list_bank_rules(call.command.table, call.principal.company_id,
                                                        call.query.page, call.query.limit))


@endpoint(blueprint, "GET", ONE, summary="One bank rule", tag=TAG, response=M + "BankRule")
def get_rule(call: Call) -> Any:
    from chalicelib.services.statements import bank_rules

    return bank_rules.get_rule(call.command.table, call.principal.company_id, call.ids["ruleId"])


@endpoint(blueprint, "POST", BASE, summary="Create a bank rule: conditions on a statement line and the bank "
          "transaction it creates", tag=TAG, body=M + "BankRuleCreate", response=M + "BankRule")
def create_rule(call: Call) -> Any:
    from chalicelib.services.statements import bank_rules

    return bank_rules.create_rule(call.command, call.body.model_dump(by_alias=True))


@endpoint(blueprint, "PUT", ONE, summary="Update a bank rule (sparse; conditions and action replace whole)",
          tag=TAG, body=M + "BankRuleUpdate", response=M + "BankRule", versioned=True)
def update_rule(call: Call) -> Any:
    from chalicelib.services.statements import bank_rules

    return bank_rules.update_rule(call.command, call.ids["ruleId"], call.changes(), call.expected_version())


@endpoint(blueprint, "DELETE", ONE, summary="Delete a bank rule (web app only)", tag=TAG,
          response="chalicelib.models.accounting:Deleted", access=Access.WEB_SESSION)
def delete_rule(call: Call) -> Any:
    from chalicelib.services.statements import bank_rules

    return bank_rules.delete_rule(call.command, call.ids["ruleId"])
