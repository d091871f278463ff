"""Control accounts: the ledger accounts a subledger stands behind (the receivable and payable
accounts behind the partners' balances, the inventory account behind the stock's value, each bank
account's ledger account behind its transactions). Only documents, payments, stock adjustments
and opening balances move them: a manual entry or a manual bank transaction against one would
leave the subledger unequal to its account, whatever the role of who sends it."""
from __future__ import annotations

from typing import Iterable

from chalicelib.errors import ValidationFailed
from chalicelib.services import records
from chalicelib.services.accounting.posting import rule_items
from chalicelib.store import keys
from chalicelib.store.table import Table

CONTROL_ACCOUNT = "CONTROL_ACCOUNT"
# the determination rules' operations whose accounts a subledger stands behind
# (each in words of its own: es.PHRASES has them, so a Spanish refusal names them in Spanish)
_CONTROLLED = {"receivable": "the customers' balances", "payable": "the suppliers' balances",
               "inventory": "the stock's value",
               "bank": "bank account {}'s transactions (its opening balance: a deposit against the opening balance "
                       "equity account)"}


def control_accounts(table: Table, company_id: int) -> dict[int, str]:
    """Account id -> the subledger behind it (two Queries: the rules and the bank accounts)."""
    controlled = {rule["chartOfAccountId"]: _CONTROLLED[rule["operationType"]]
                  for rule in rule_items(table, company_id) if rule["operationType"] in _CONTROLLED.keys() - {"bank"}}
    for bank in records.small_records(table, company_id, keys.BANK_ACCOUNT):
        controlled[bank["chartOfAccountId"]] = _CONTROLLED["bank"].format(bank.get("name", bank["id"]))
    return controlled


def refuse_control_accounts(table: Table, company_id: int, fields: Iterable[tuple[str, int]]) -> None:
    """400 CONTROL_ACCOUNT naming every field (path, account id) that points at a control account."""
    controlled = control_accounts(table, company_id)
    problems = [{"field": field, "message": f"is a control account behind {controlled[account_id]}: only "
                                            "documents, payments, adjustments and opening balances move it"}
                for field, account_id in fields if int(account_id) in controlled]
    if problems:
        raise ValidationFailed(f"{problems[0]['field']}: {problems[0]['message']}", code=CONTROL_ACCOUNT,
                               details=problems)
