"""Control accounts: the ledger accounts a subledger stands behind (the accounts of the rules in
domain/accounting.py CONTROLLED_OPERATIONS: receivables, payables, inventory, advances, the sales
and purchase tax, withholdings; and each bank account's ledger account, which also carries a
gateway's money: a gateway's payments go through its payment method's bank account). Only
documents, payments, stock adjustments and opening balances move them: a manual entry or a manual
bank transaction against one would leave the subledger unequal to its account, whatever the role
of who sends it. For the same reason an account becomes a control account only while it is empty
(no postings), and a rule leaves its account only once nothing of its subledger is left there."""
from __future__ import annotations

from decimal import Decimal
from typing import Any, Iterable

from chalicelib.domain import accounting
from chalicelib.domain.accounting import CONTROLLED_OPERATIONS
from chalicelib.errors import ApiError, ValidationFailed
from chalicelib.messages.phrases import Phrase
from chalicelib.services import records
from chalicelib.services.accounting import reports
from chalicelib.services.accounting.posting import rule_items
from chalicelib.store import keys
from chalicelib.store.table import Table

CONTROL_ACCOUNT = "CONTROL_ACCOUNT"
HAS_POSTINGS = "ACCOUNT_HAS_POSTINGS"
HAS_BALANCE = "CONTROL_ACCOUNT_HAS_BALANCE"
# the subledger behind a bank account's ledger, named and as the one left (es.PHRASES words them)
_BANK_LEDGER = {"named": "bank account {}'s transactions (its opening balance: a deposit against the opening "
                         "balance equity account)",
                "left": "the bank account's transactions"}


# the rule whose operation posts nothing (a payment or bank transaction posts to its bank account's
# ledger, named by the bank account): its account may be anything
_POSTS_NOTHING = frozenset({"bank"})


class ControlAccountRefused(ApiError):
    """A refusal of this use case: each raise names its code."""


def control_accounts(table: Table, company_id: int, rules: list[dict[str, Any]] | None = None) -> dict[int, str]:
    """Account id -> the subledger behind it (two Queries: the rules, unless given, and the bank accounts)."""
    controlled = {int(rule["chartOfAccountId"]): CONTROLLED_OPERATIONS[rule["operationType"]]
                  for rule in (rule_items(table, company_id) if rules is None else rules)
                  if rule["operationType"] in CONTROLLED_OPERATIONS}
    for bank in records.small_records(table, company_id, keys.BANK_ACCOUNT):
        controlled[int(bank["chartOfAccountId"])] = _BANK_LEDGER["named"].format(bank.get("name", bank["id"]))
    return controlled


def refuse_control_accounts(table: Table, company_id: int, fields: Iterable[tuple[str, int]]) -> None:
    """400 CONTROL_ACCOUNT naming every field (path, account id) that points at a control account."""
    controlled = control_accounts(table, company_id)
    problems = [{"field": field, "message": Phrase("is a control account behind {}: only documents, payments, "
                                                   "adjustments and opening balances move it",
                                                   controlled[int(account_id)])}
                for field, account_id in fields if int(account_id) in controlled]
    if problems:
        raise ValidationFailed(Phrase("{}: {}", problems[0]['field'], problems[0]['message']), code=CONTROL_ACCOUNT,
                               details=problems)


def _has_postings(account: dict[str, Any]) -> bool:
    return int(account.get("postingCount", 0)) > 0


def check_bank_ledger(table: Table, company_id: int, ledger: dict[str, Any], field: str = "chartOfAccountId") -> None:
    """A bank account's ledger starts equal to its transactions: an account no other subledger
    stands behind and no rule posts to, with no postings."""
    rules = rule_items(table, company_id)
    controlled = control_accounts(table, company_id, rules)
    if int(ledger["id"]) in controlled:
        raise ValidationFailed.for_field(field, Phrase("is a control account behind {}: a bank account needs a ledger "
                                                       "account of its own",
                                                       controlled[int(ledger['id'])]), code=CONTROL_ACCOUNT)
    _refuse_a_rules_account(field, rules, int(ledger["id"]), None)
    if _has_postings(ledger):
        raise ValidationFailed.for_field(field, "has postings: a bank account's ledger account starts empty, so that it equals the "
                       "bank account's transactions", code=HAS_POSTINGS)


def check_ledger_left(table: Table, company_id: int, ledger: dict[str, Any], field: str = "chartOfAccountId") -> None:
    """A bank account leaves its ledger account only when nothing is left on it: a balance left
    behind would belong to no bank account, open to manual entries."""
    balance = reports.balance_of(table, company_id, ledger)
    if balance != 0:
        _has_balance(field, ledger, balance, _BANK_LEDGER["left"])


def check_rule_account(table: Table, company_id: int, operation: str, current: dict[str, Any] | None,
                       account: dict[str, Any], field: str = "chartOfAccountId") -> bool:
    """A rule points at `account` (`current`: the rule as it is, None for a new one). A rule of a
    controlled operation takes an account that is this subledger's already, or one that is empty and
    no other rule's or subledger's (else the control account would start unequal to its subledger);
    the account it leaves must hold none of the subledger any more, unless another rule of the
    operation keeps it. Any other rule that posts keeps off control accounts. True when the
    transaction must check that `account` is still without postings."""
    if operation in _POSTS_NOTHING:
        return False
    rules = [rule for rule in rule_items(table, company_id) if current is None or rule["id"] != current["id"]]
    if operation not in CONTROLLED_OPERATIONS:
        # what this rule posts would move a control account unseen by its subledger
        controlled = control_accounts(table, company_id, rules)
        if int(account["id"]) in controlled:
            raise ValidationFailed.for_field(field, Phrase("is a control account behind {}: what the {} rule posts "
                                                           "would move it without its subledger",
                                                           controlled[int(account['id'])], operation), code=CONTROL_ACCOUNT)
        return False
    subledger = CONTROLLED_OPERATIONS[operation]
    own = {int(rule["chartOfAccountId"]) for rule in rules if rule["operationType"] == operation}
    fresh = int(account["id"]) not in own
    if fresh:
        controlled = control_accounts(table, company_id, rules)
        if int(account["id"]) in controlled:
            raise ValidationFailed.for_field(field, Phrase("is a control account behind {}: the account of {} stands "
                                                           "behind nothing else",
                                                           controlled[int(account['id'])], subledger), code=CONTROL_ACCOUNT)
        _refuse_a_rules_account(field, rules, int(account["id"]), operation)
        if _has_postings(account):
            raise ValidationFailed.for_field(field, Phrase("has postings: the account of {} starts empty, so that it "
                                                           "equals its subledger", subledger), code=HAS_POSTINGS)
    if current is not None and int(current["chartOfAccountId"]) not in own | {int(account["id"])}:
        left = table.get(keys.chart_account(company_id, int(current["chartOfAccountId"])))
        balance = reports.balance_of(table, company_id, left) if left else accounting.ZERO
        if left and balance != 0:
            _has_balance(field, left, balance, subledger)
    return fresh


def _refuse_a_rules_account(field: str, rules: list[dict[str, Any]], account_id: int, operation: str | None) -> None:
    """An account becoming a control account must be no other operation's: what that rule posts
    would move it without its subledger."""
    for rule in rules:
        if (int(rule["chartOfAccountId"]) == account_id and rule["operationType"] not in _POSTS_NOTHING
                and rule["operationType"] != operation):
            raise ValidationFailed.for_field(field, Phrase("is the account of the {} rule: what that rule posts would "
                                                           "move a control account without its subledger",
                                                           rule['operationType']),
                                             code=CONTROL_ACCOUNT)


def _has_balance(field: str, account: dict[str, Any], balance: Decimal, subledger: str) -> None:
    raise ControlAccountRefused(
        Phrase("Account {} still holds {} of {}; it can be left only once nothing is left on it.",
               account['code'], accounting.round_money(balance), subledger), code=HAS_BALANCE,
        details=[{"field": field, "message": Phrase("account {} still holds {}",
                                                    account['code'], accounting.round_money(balance))}])
