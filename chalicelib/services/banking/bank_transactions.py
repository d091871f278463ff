"""A bank account's transactions: each moves the account's balance and posts its journal entry
in the same transaction (manual deposits and withdrawals, transfers writing both sides and one
entry, reversals); the *_into functions build into a caller's transaction (a statement line's
match, services/statements/match_kinds.py). The accounts themselves: services/banking/banking.py."""
from __future__ import annotations

from collections.abc import Mapping
from decimal import ROUND_HALF_UP, Decimal
from typing import Any

from chalicelib import clock
from chalicelib.domain.accounting import CREDIT, DEBIT, ZERO, Movement
from chalicelib.domain.currency import converted
from chalicelib.domain.money import Money
from chalicelib.errors import ApiError, ValidationFailed
from chalicelib.messages.books import book_text, with_reference
from chalicelib.services import document_names
from chalicelib.services.accounting import chart, control_accounts
from chalicelib.services.accounting.posting import JournalWrites, Source, get_entry, load_rules
from chalicelib.services.banking import exchange_rates
from chalicelib.services.banking.banking import (
    CENT,
    DIRECTION,
    MONEY_IN,
    MONEY_OUT,
    REVERSED_TYPE,
    get_bank_account,
)
from chalicelib.services.commands import Command
from chalicelib.store import keys
from chalicelib.store.listing import Page
from chalicelib.store.repositories import bank_accounts
from chalicelib.store.repositories import bank_transactions as bank_transaction_store
from chalicelib.store.table import Table
from chalicelib.store.transaction import Transaction


def signed(item: Mapping[str, Any]) -> Decimal:
    """A transaction's amount as a statement shows it: money in +, money out -."""
    amount = Decimal(item["amount"])
    return amount if item["direction"] == MONEY_IN else -amount


def next_transaction_id(table: Table, company_id: int) -> int:
    return table.next_id(keys.id_sequence(company_id, keys.BANK_TRANSACTION))


def add_transaction(transaction: Transaction, company_id: int, account: dict[str, Any], *, tx_id: int,
                    tx_type: str, amount: Decimal, date: str, reference: str | None, journal_entry_id: int | None,
                    document: Mapping[str, Any] | None = None, payment_id: int | None = None,
                    direction: str | None = None, require_active: bool = True,
                    statement_line_id: int | None = None, reverses: int | None = None) -> dict[str, Any]:
    """One bank transaction: its item, its pointer by id and the account's balance and count, in
    the caller's transaction. The account must still exist, and be active unless this undoes an
    earlier transaction (`require_active` False). `direction` defaults to the type's own (payments
    give theirs: it depends on the document). A payment's transaction names its `document` by
    number beside its id, so the account's page reads no document. A reversal names the
    transaction it `reverses` (the original names it back: mark_reversed)."""
    direction = direction or DIRECTION[tx_type]
    linked = {"documentId": document["id"], **document_names.names(document)} if document else {}
    item = {**keys.bank_transaction(company_id, account["id"], date, tx_id), "itemType": keys.BANK_TRANSACTION,
            "id": tx_id, "bankAccountId": account["id"], "type": tx_type,
            "direction": direction, "amount": amount, "transactionDate": date, "reference": reference,
            **linked, "paymentId": payment_id, "journalEntryId": journal_entry_id,
            "reconciled": False, "statementLineId": statement_line_id, "reverses": reverses,
            "createdAt": clock.now_iso()}
    transaction.put_new({name: value for name, value in item.items() if value is not None})
    transaction.put_new({**keys.bank_transaction_pointer(company_id, account["id"], tx_id),
                         "itemType": keys.BANK_TRANSACTION_POINTER, "transactionDate": date})
    bank_accounts.move_balance(transaction, company_id, account["id"], amount if direction == MONEY_IN else -amount,
                               require_active=require_active,
                               on_fail=ValidationFailed.for_field("bankAccountId", "the bank account is inactive"))
    return {name: value for name, value in item.items() if value is not None}


def list_transactions(table: Table, company_id: int, account_id: int, page: int, limit: int) -> Page:
    """Newest first; `total` is the account's own count."""
    account = get_bank_account(table, company_id, account_id)
    skip = (page - 1) * limit
    items = bank_transaction_store.newest_of_account(table, company_id, account_id, skip + limit)
    return Page(items=document_names.completed(table, company_id, items[skip:skip + limit]),
                total=int(account.get("transactionCount", 0)), page=page,
                limit=limit, next_cursor=None)


def _positive(amount: Decimal) -> Decimal:
    if amount <= 0:
        raise ValidationFailed.for_field("amount", "must be greater than 0")
    return amount


def _active_account(table: Table, company_id: int, account_id: int, field: str) -> dict[str, Any]:
    account = get_bank_account(table, company_id, account_id)
    if not account.get("isActive", True):
        raise ValidationFailed.for_field(field, "the bank account is inactive")
    return account


def record_manual(command: Command, account_id: int, fields: dict[str, Any]) -> dict[str, Any]:
    """A manual deposit or withdrawal against a counter account (income, capital, expense...):
    the bank's ledger account moves the other way."""
    _positive(fields["amount"])
    account = _active_account(command.table, command.company_id, account_id, "bankAccountId")
    transaction, writes = command.transaction(), JournalWrites(command.company_id)
    item = manual_into(command, transaction, writes, account, fields)
    writes.apply(transaction)
    return command.commit(transaction, item)


def manual_into(command: Command, transaction: Transaction, writes: JournalWrites, account: dict[str, Any],
                fields: dict[str, Any], *, field: str = "chartOfAccountId", tax_rate: Decimal | None = None,
                tax: Decimal | None = None, description: str | None = None,
                statement_line_id: int | None = None) -> dict[str, Any]:
    """The manual transaction and its entry, built into the caller's transaction and journal
    writes (a statement line matched by creating one). With `tax_rate` the amount includes the
    tax: the counter account takes the base, the tax goes to the account the determination rules
    give for tax on purchases (money out: input tax, a debit) or on sales (money in: output tax,
    a credit). `tax` instead: the amount includes exactly this much tax, as an invoice split it
    (a gateway's fee: domain/gateway_fees.py), never derived again from the total. `field`
    names the counter account in a refusal."""
    table, company_id = command.table, command.company_id
    counter = chart.active_account_named_by(table, company_id, fields["chartOfAccountId"], field)
    if counter["id"] == account["chartOfAccountId"]:
        raise ValidationFailed.for_field(field, "must differ from the bank's own ledger account")
    control_accounts.refuse_control_accounts(table, company_id, [(field, counter["id"])])
    amount, date = _positive(fields["amount"]), fields["transactionDate"]
    base = _in_company_currency(command, account, amount, date, fields)
    money_in = DIRECTION[fields["type"]] == MONEY_IN
    tx_id = next_transaction_id(table, company_id)
    if tax is not None:
        tax = _in_company_currency(command, account, tax, date, fields) if tax else ZERO
    else:
        tax = base - (base / (1 + tax_rate)).quantize(CENT, rounding=ROUND_HALF_UP) if tax_rate else ZERO
    movements = [Movement("bank", DEBIT if money_in else CREDIT, base, account_id=account["chartOfAccountId"]),
                 Movement("bank", CREDIT if money_in else DEBIT, base - tax, account_id=counter["id"])]
    if tax:
        movements.append(Movement("tax_sales", CREDIT, tax) if money_in else Movement("tax_purchases", DEBIT, tax))
    entry = writes.automatic_entry(
        table, load_rules(table, company_id) if tax else [], source=Source("bank_transaction", tx_id), date=date,
        description=description or with_reference(
            book_text("bank_deposit" if money_in else "bank_withdrawal", account=account["name"]),
            fields.get("reference")),
        movements=movements)
    return add_transaction(transaction, company_id, account, tx_id=tx_id, tx_type=fields["type"], amount=amount,
                           date=date, reference=fields.get("reference"), journal_entry_id=entry["id"],
                           statement_line_id=statement_line_id)


def reverse_into(command: Command, transaction: Transaction, writes: JournalWrites, items: list[dict[str, Any]],
                 date: str, reference: str | None) -> list[dict[str, Any]]:
    """Bank transactions undone on `date`: each one's opposite (a reversal transaction, on its
    account even when inactive) and their journal entry reversed once (a transfer's two sides
    share one); each reversal names its original (`reverses`), in the order of `items`. The
    caller marks each original (mark_reversed) in its one update of it, where it also conditions
    it still unreconciled and its version of the match unchanged (it knows which line held them)."""
    table, company_id = command.table, command.company_id
    reversed_entries: dict[int, int] = {}
    reversals = []
    for item in items:
        entry_id = item.get("journalEntryId")
        if entry_id is not None and int(entry_id) not in reversed_entries:
            reversal = writes.reverse(table, get_entry(table, company_id, int(entry_id)), date)
            reversed_entries[int(entry_id)] = reversal["id"]
        account = get_bank_account(table, company_id, int(item["bankAccountId"]))
        reversals.append(add_transaction(
            transaction, company_id, account, tx_id=next_transaction_id(table, company_id),
            tx_type=REVERSED_TYPE[item["type"]], amount=Decimal(item["amount"]), date=date, reference=reference,
            direction=MONEY_OUT if item["direction"] == MONEY_IN else MONEY_IN,
            journal_entry_id=reversed_entries.get(int(entry_id)) if entry_id is not None else None,
            require_active=False, reverses=int(item["id"])))
    return reversals


def transaction_key(company_id: int, item: Mapping[str, Any]) -> keys.Key:
    return keys.bank_transaction(company_id, int(item["bankAccountId"]), item["transactionDate"], int(item["id"]))


def is_reversal_pair(item: Mapping[str, Any]) -> bool:
    """A transaction reversed, or a reversal: the bank saw neither (the two cancel out). Marked
    since issue 42; a cancelled payment's older ones are known by the payment's status."""
    return item.get("reversedBy") is not None or item.get("reverses") is not None


def mark_reversed(transaction: Transaction, company_id: int, item: Mapping[str, Any], reversal_id: int, *,
                  freed_line: int | None, unreconciled: bool, on_fail: ApiError | None) -> None:
    """The original names its reversal (`reversedBy`: no line is matched to it again, no
    reconciliation clears it alone), in the command's one update of it: freed of the statement
    line `freed_line` (which must still hold it), else held by none; `unreconciled`: still not
    reconciled."""
    bank_transaction_store.mark_reversed(transaction, transaction_key(company_id, item), reversal_id,
                                         freed_line=freed_line, unreconciled=unreconciled, on_fail=on_fail)


def _in_company_currency(command: Command, account: dict[str, Any], amount: Decimal, date: str,
                         fields: dict[str, Any]) -> Decimal:
    """A bank account in a foreign currency holds that currency; its ledger account, in the
    books, moves by the amount at the day's rate (`exchangeRate` when sent, by the caller)."""
    table = command.table
    company = exchange_rates.company_of(table, command.company_id)
    own = exchange_rates.company_currency(company)
    rate = exchange_rates.rate_for(table, company, account.get("currency"), date, fields.get("exchangeRate"),
                                   sender=command.principal)
    held = Money(amount, account.get("currency") or own)
    return converted(held, rate, own, "exchangeRate").amount


def transfer(command: Command, fields: dict[str, Any]) -> dict[str, Any]:
    """Both sides (transfer_out, transfer_in) and one entry: the receiving account's ledger
    account debited, the sending one's credited."""
    _positive(fields["amount"])
    if fields["fromAccountId"] == fields["toAccountId"]:
        raise ValidationFailed.for_field("toAccountId", "must differ from the source account")
    transaction, writes = command.transaction(), JournalWrites(command.company_id)
    built = transfer_into(command, transaction, writes, fields)
    writes.apply(transaction)
    return command.commit(transaction, built)


def transfer_into(command: Command, transaction: Transaction, writes: JournalWrites, fields: dict[str, Any], *,
                  from_field: str = "fromAccountId", to_field: str = "toAccountId",
                  lines: Mapping[int, int] | None = None, description: str | None = None) -> dict[str, Any]:
    """A transfer built into the caller's transaction and journal writes; `lines`: the statement
    line matched to a side, by its account (the other side stays unmatched); `description`: the
    entry's, when it is more than a transfer (a gateway's payout)."""
    table, company_id = command.table, command.company_id
    source = _active_account(table, company_id, fields["fromAccountId"], from_field)
    target = _active_account(table, company_id, fields["toAccountId"], to_field)
    if source.get("currency") != target.get("currency"):
        raise ValidationFailed.for_field(to_field, "both accounts must have the same currency")
    amount, date, reference = _positive(fields["amount"]), fields["transactionDate"], fields.get("reference")
    base = _in_company_currency(command, source, amount, date, fields)
    outgoing_id, incoming_id = next_transaction_id(table, company_id), next_transaction_id(table, company_id)
    entry = writes.automatic_entry(
        table, [], source=Source("bank_transfer", outgoing_id), date=date,
        description=description or with_reference(book_text("bank_transfer", source=source["name"],
                                                             target=target["name"]), reference),
        movements=[Movement("bank", DEBIT, base, account_id=target["chartOfAccountId"]),
                   Movement("bank", CREDIT, base, account_id=source["chartOfAccountId"])])
    lines = lines or {}
    outgoing = add_transaction(transaction, company_id, source, tx_id=outgoing_id, tx_type="transfer_out",
                               amount=amount, date=date, reference=reference, journal_entry_id=entry["id"],
                               statement_line_id=lines.get(source["id"]))
    incoming = add_transaction(transaction, company_id, target, tx_id=incoming_id, tx_type="transfer_in",
                               amount=amount, date=date, reference=reference, journal_entry_id=entry["id"],
                               statement_line_id=lines.get(target["id"]))
    return {"journalEntryId": entry["id"], "outgoing": outgoing, "incoming": incoming}
