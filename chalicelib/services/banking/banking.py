"""Bank accounts: their ledger account, opening balance (posted with the account) and counts. Their
transactions: services/banking/bank_transactions.py; the reconciled balance:
services/banking/reconciliations.py."""
from __future__ import annotations

from collections.abc import Mapping
from decimal import Decimal
from typing import Any

from chalicelib.domain.accounting import ASSET, CREDIT, DEBIT, Movement
from chalicelib.domain.currency import converted
from chalicelib.domain.money import Money
from chalicelib.domain.records import EntryRecord
from chalicelib.errors import ApiError, ValidationFailed
from chalicelib.messages.books import book_text
from chalicelib.messages.phrases import Phrase
from chalicelib.services import records
from chalicelib.services.accounting import chart, control_accounts
from chalicelib.services.accounting.posting import JournalWrites, Source, get_entry, load_rules
from chalicelib.services.banking import exchange_rates
from chalicelib.services.commands import Command
from chalicelib.store import keys
from chalicelib.store.listing import Page
from chalicelib.store.repositories import bank_accounts
from chalicelib.store.table import Table
from chalicelib.store.transaction import Transaction

RULE_MISSING = "ACCOUNT_RULE_MISSING"
MONEY_IN, MONEY_OUT = CREDIT, DEBIT  # the spec's bank directions: credit is money in
DIRECTION = {"deposit": MONEY_IN, "withdrawal": MONEY_OUT, "transfer_in": MONEY_IN, "transfer_out": MONEY_OUT}
# what undoes a transaction of each type: the opposite movement
REVERSED_TYPE = {"deposit": "withdrawal", "withdrawal": "deposit", "transfer_in": "transfer_out",
                 "transfer_out": "transfer_in", "payment_doc": "payment_doc"}
CENT = Decimal("0.01")


class BankRuleBroken(ApiError):
    """A refusal of this use case: each raise names its code."""


def list_bank_accounts(table: Table, company_id: int, page: int, limit: int) -> Page:
    return records.small_page(records.small_records(table, company_id, keys.BANK_ACCOUNT), page, limit)


def get_bank_account(table: Table, company_id: int, account_id: int) -> dict[str, Any]:
    return records.get_small_record(table, company_id, keys.BANK_ACCOUNT, account_id, "Bank account")


def _check_ledger_account(table: Table, company_id: int, ledger_id: int) -> dict[str, Any]:
    """An active asset account no subledger stands behind yet, with no postings."""
    ledger = chart.active_account_named_by(table, company_id, ledger_id, "chartOfAccountId")
    if ledger["type"] != ASSET:
        raise ValidationFailed.for_field("chartOfAccountId", "must be an active asset account")
    control_accounts.check_bank_ledger(table, company_id, ledger)
    return ledger


def create_bank_account(command: Command, fields: dict[str, Any]) -> dict[str, Any]:
    """The linked ledger account counts the bank account as a reference (it cannot be
    deactivated or deleted while linked). The opening balance, the balance before the first
    transaction, reaches the ledger in the same transaction: an automatic entry against the
    `opening_balance_equity` rule's account (the ledger is a control account: no manual entry
    could bring it in)."""
    table, company_id = command.table, command.company_id
    ledger = _check_ledger_account(table, company_id, fields["chartOfAccountId"])
    writes, opening = _opening_writes(command, fields, Decimal(fields["openingBalance"]))
    item = records.new_small_record(table, company_id, keys.BANK_ACCOUNT, {
        **fields, "balance": fields["openingBalance"], "transactionCount": 0,
        "reconciledBalance": fields["openingBalance"]})
    if opening is not None:
        item["openingJournalEntryId"] = opening(item["id"])["id"]
        # the link below counts the ledger's first posting (still none, as it checks)
        writes.know_accounts({ledger["id"]: {**ledger, "postingCount": 1}})
    transaction = command.transaction()
    transaction.put_new(item)
    chart.add_reference(transaction, company_id, fields["chartOfAccountId"], 1, "chartOfAccountId", unposted=True,
                        postings=1 if opening is not None else 0)
    writes.apply(transaction)
    return command.commit(transaction, item)


def _reopened(command: Command, current: dict[str, Any], changes: dict[str, Any],
              fixed: list[str]) -> tuple[JournalWrites, Any]:
    """A change of the opening balance, its date, currency or ledger (only without transactions)
    replaces the opening entry: the one posted is reversed on its own date and the new one posted.
    An account opened before openings posted (no entry recorded) posts the difference alone: its
    old opening was brought in by whatever entry the company made."""
    table = command.table
    if not fixed:
        return JournalWrites(command.company_id), None
    fields = {**current, **changes}
    posted = current.get("openingJournalEntryId")
    amount = Decimal(fields["openingBalance"])
    if posted is None:
        amount -= Decimal(current["openingBalance"])
    writes, opening = _opening_writes(command, fields, amount)
    if posted is not None:
        entry = get_entry(table, command.company_id, int(posted))
        writes.reverse(table, entry, entry["date"])
    return writes, opening


def _opening_writes(command: Command, fields: Mapping[str, Any], amount: Decimal) -> tuple[JournalWrites, Any]:
    """The entry that brings `amount` of opening balance (or a change of it) into the ledger, at
    the opening date and the company's rate for it: the ledger debited and the opening balance
    equity credited for money in, the reverse for an overdraft. Checked now (a missing rule is a
    400 naming openingBalance); written, through JournalWrites (closed periods and years refuse
    it), when the caller knows the bank account's id."""
    table, company_id = command.table, command.company_id
    writes = JournalWrites(company_id)
    if amount == 0:
        return writes, None
    rules = load_rules(table, company_id)
    if not any(rule.operation == "opening_balance_equity" for rule in rules):
        raise ValidationFailed.for_field("openingBalance", "no determination rule for `opening_balance_equity`: set "
                                                           "one (the equity account the opening balance is brought "
                                                           "against) or open the account at 0", code=RULE_MISSING)
    company = exchange_rates.company_of(table, company_id)
    own = exchange_rates.company_currency(company)
    rate = exchange_rates.rate_for(table, company, fields.get("currency"), fields["openingBalanceDate"], None,
                                   sender=None)
    base = converted(Money(abs(amount), fields.get("currency") or own), rate, own, "openingBalance").amount
    money_in = amount > 0

    def post(bank_id: int) -> EntryRecord:
        return writes.automatic_entry(
            table, rules, source=Source("bank_account", bank_id), date=fields["openingBalanceDate"],
            description=book_text("opening_balance_reference", reference=fields["name"]),
            movements=[Movement("bank", DEBIT if money_in else CREDIT, base, account_id=fields["chartOfAccountId"]),
                       Movement("opening_balance_equity", CREDIT if money_in else DEBIT, base)])
    return writes, post


def _has_transactions(account: dict[str, Any]) -> bool:
    return int(account.get("transactionCount", 0)) > 0


def update_bank_account(command: Command, account_id: int, changes: dict[str, Any],
                   expected_version: int | None) -> dict[str, Any]:
    table, company_id = command.table, command.company_id
    current = get_bank_account(table, company_id, account_id)
    fixed: list[str] = [name for name in ("chartOfAccountId", "openingBalance", "openingBalanceDate", "currency")
             if name in changes and changes[name] != current.get(name)]
    if fixed and _has_transactions(current):
        raise BankRuleBroken(Phrase("{} cannot change once the account has transactions.",
                                    fixed[0]), code="BANK_ACCOUNT_IN_USE",
                             details=[{"field": fixed[0], "message": "the account has transactions"}])
    if "openingBalance" in changes:
        # no transactions, so nothing reconciled either: both balances are the opening balance
        changes = {**changes, "balance": changes["openingBalance"], "reconciledBalance": changes["openingBalance"]}
    new_ledger = changes.get("chartOfAccountId")
    moves = new_ledger is not None and new_ledger != current["chartOfAccountId"]
    if moves and new_ledger is not None:
        ledger = _check_ledger_account(table, company_id, new_ledger)
        # what the old ledger holds would stay behind, no bank account's any more (an opening
        # balance posted there included: set it to 0 first)
        control_accounts.check_ledger_left(table, company_id,
                                           chart.get_account(table, company_id, current["chartOfAccountId"]))
    writes, opening = _reopened(command, current, changes, fixed)
    if fixed and current.get("openingJournalEntryId") is not None:
        changes = {**changes, "openingJournalEntryId": None}   # reversed above
    if opening is not None:
        changes = {**changes, "openingJournalEntryId": opening(account_id)["id"]}
        if moves:
            writes.know_accounts({ledger["id"]: {**ledger, "postingCount": 1}})

    def relink(transaction: Transaction, _: dict[str, Any]) -> None:
        if moves and new_ledger is not None:
            chart.add_reference(transaction, company_id, new_ledger, 1, "chartOfAccountId", unposted=True,
                                postings=1 if opening is not None else 0)
            chart.add_reference(transaction, company_id, current["chartOfAccountId"], -1, "chartOfAccountId")
        writes.apply(transaction)

    # no transaction may slip in between: the guard re-checks the count the decision used
    return records.update_item(command, bank_accounts.account_key(company_id, account_id), current, changes, expected_version,
                               relink, guard=bank_accounts.no_transaction_since(int(current.get("transactionCount", 0))))


def _in_use() -> BankRuleBroken:
    return BankRuleBroken("The account has transactions or reconciliations; deactivate it instead.",
                          code="BANK_ACCOUNT_IN_USE")


def delete_bank_account(command: Command, account_id: int) -> dict[str, Any]:
    """Web app only, and only an account without transactions or reconciliations."""
    current = get_bank_account(command.table, command.company_id, account_id)
    if _has_transactions(current) or int(current.get("reconciliationCount", 0)) > 0:
        raise _in_use()
    transaction = command.transaction()
    bank_accounts.delete_unused(transaction, command.company_id, account_id, _in_use())
    chart.add_reference(transaction, command.company_id, current["chartOfAccountId"], -1, "chartOfAccountId")
    if current.get("openingJournalEntryId") is not None:
        # its opening balance leaves the ledger with it
        writes = JournalWrites(command.company_id)
        entry = get_entry(command.table, command.company_id, int(current["openingJournalEntryId"]))
        writes.reverse(command.table, entry, entry["date"])
        writes.apply(transaction)
    return command.commit(transaction, {"id": account_id, "deleted": True})
