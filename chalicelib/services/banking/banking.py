"""Bank accounts and their transactions. Every transaction moves the account's balance and posts
its journal entry in the same transaction; a transfer writes both sides and one entry. The
account also keeps its reconciled balance (see services/banking/reconciliations.py)."""
from __future__ import annotations

from collections.abc import Mapping
from decimal import ROUND_HALF_UP, Decimal
from typing import Any

from chalicelib import clock
from chalicelib.domain.accounting import ASSET, CREDIT, DEBIT, ZERO, Movement
from chalicelib.domain.currency import converted
from chalicelib.errors import ApiError, ValidationFailed
from chalicelib.messages.books import book_text, with_reference
from chalicelib.services import document_names, records
from chalicelib.services.accounting import chart, control_accounts
from chalicelib.services.accounting.posting import JournalWrites, Source, get_entry, load_rules
from chalicelib.services.banking import exchange_rates
from chalicelib.services.commands import Command
from chalicelib.store import keys
from chalicelib.store.listing import Page
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


def account_key(company_id: int, account_id: int) -> keys.Key:
    return keys.small_record(company_id, keys.BANK_ACCOUNT, account_id)


def list_accounts(table: Table, company_id: int, page: int, limit: int) -> Page:
    return records.small_page(records.small_records(table, company_id, keys.BANK_ACCOUNT), page, limit)


def get_account(table: Table, company_id: int, account_id: int) -> dict[str, Any]:
    return records.get_small_record(table, company_id, keys.BANK_ACCOUNT, account_id, "Bank account")


def _check_ledger_account(table: Table, company_id: int, ledger_id: int) -> dict[str, Any]:
    """An active asset account no subledger stands behind yet, with no postings."""
    try:
        ledger = chart.get_account(table, company_id, ledger_id)
    except ApiError:
        raise ValidationFailed.for_field("chartOfAccountId", "no such account") from None
    if ledger["type"] != ASSET or not ledger.get("isActive", True):
        raise ValidationFailed.for_field("chartOfAccountId", "must be an active asset account")
    control_accounts.check_bank_ledger(table, company_id, ledger)
    return ledger


def create_account(command: Command, fields: dict[str, Any]) -> dict[str, Any]:
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
    rate = exchange_rates.rate_for(table, exchange_rates.company_of(table, company_id), fields.get("currency"),
                                   fields["openingBalanceDate"], None, sender=None)
    base = converted(abs(amount), rate, "openingBalance")
    money_in = amount > 0

    def post(bank_id: int) -> dict[str, Any]:
        return writes.automatic_entry(
            table, rules, source=Source("bank_account", bank_id), date=fields["openingBalanceDate"],
            description=book_text("opening_balance_reference", reference=fields["name"]),
            movements=[Movement("bank", DEBIT if money_in else CREDIT, base, account_id=fields["chartOfAccountId"]),
                       Movement("opening_balance_equity", CREDIT if money_in else DEBIT, base)])
    return writes, post


def _has_transactions(account: dict[str, Any]) -> bool:
    return int(account.get("transactionCount", 0)) > 0


def update_account(command: Command, account_id: int, changes: dict[str, Any],
                   expected_version: int | None) -> dict[str, Any]:
    table, company_id = command.table, command.company_id
    current = get_account(table, company_id, account_id)
    fixed = [name for name in ("chartOfAccountId", "openingBalance", "openingBalanceDate", "currency")
             if name in changes and changes[name] != current.get(name)]
    if fixed and _has_transactions(current):
        raise BankRuleBroken(f"{fixed[0]} cannot change once the account has transactions.", code="BANK_ACCOUNT_IN_USE",
                             details=[{"field": fixed[0], "message": "the account has transactions"}])
    if "openingBalance" in changes:
        # no transactions, so nothing reconciled either: both balances are the opening balance
        changes = {**changes, "balance": changes["openingBalance"], "reconciledBalance": changes["openingBalance"]}
    new_ledger = changes.get("chartOfAccountId")
    moves = new_ledger is not None and new_ledger != current["chartOfAccountId"]
    if moves:
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
        if moves:
            chart.add_reference(transaction, company_id, new_ledger, 1, "chartOfAccountId", unposted=True,
                                postings=1 if opening is not None else 0)
            chart.add_reference(transaction, company_id, current["chartOfAccountId"], -1, "chartOfAccountId")
        writes.apply(transaction)

    # no transaction may slip in between: the guard re-checks the count the decision used
    return records.update_item(command, account_key(company_id, account_id), current, changes, expected_version,
                               relink, guard=("transactionCount = :seen", {}, {":seen": int(current.get("transactionCount", 0))}))


def _in_use() -> BankRuleBroken:
    return BankRuleBroken("The account has transactions or reconciliations; deactivate it instead.",
                          code="BANK_ACCOUNT_IN_USE")


def delete_account(command: Command, account_id: int) -> dict[str, Any]:
    """Web app only, and only an account without transactions or reconciliations."""
    current = get_account(command.table, command.company_id, account_id)
    if _has_transactions(current) or int(current.get("reconciliationCount", 0)) > 0:
        raise _in_use()
    transaction = command.transaction()
    transaction.delete(account_key(command.company_id, account_id),
                       condition="transactionCount = :zero AND (attribute_not_exists(reconciliationCount) "
                                 "OR reconciliationCount = :zero)",
                       values={":zero": 0}, on_fail=_in_use())
    chart.add_reference(transaction, command.company_id, current["chartOfAccountId"], -1, "chartOfAccountId")
    if current.get("openingJournalEntryId") is not None:
        # its opening balance leaves the ledger with it
        writes = JournalWrites(command.company_id)
        entry = get_entry(command.table, command.company_id, int(current["openingJournalEntryId"]))
        writes.reverse(command.table, entry, entry["date"])
        writes.apply(transaction)
    return command.commit(transaction, {"id": account_id, "deleted": True})


# --- transactions ----------------------------------------------------------------------------------

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
    values: dict[str, Any] = {}
    condition = "attribute_exists(PK)"
    if require_active:
        condition, values[":yes"] = condition + " AND isActive = :yes", True
    # several transactions of one command (a line paying several documents) move the account once
    transaction.accumulate(account_key(company_id, account["id"]),
                           {"balance": amount if direction == MONEY_IN else -amount, "transactionCount": 1},
                           condition=condition, values=values,
                           on_fail=ValidationFailed.for_field("bankAccountId", "the bank account is inactive"))
    return {name: value for name, value in item.items() if value is not None}


def list_transactions(table: Table, company_id: int, account_id: int, page: int, limit: int) -> Page:
    """Newest first; `total` is the account's own count."""
    account = get_account(table, company_id, account_id)
    skip = (page - 1) * limit
    items, _ = table.query(partition=("PK", keys.bank_transactions_partition(company_id, account_id)), forward=False,
                           limit=skip + limit, consistent=True)
    return Page(items=document_names.completed(table, company_id, items[skip:skip + limit]),
                total=int(account.get("transactionCount", 0)), page=page,
                limit=limit, next_cursor=None)


def _positive(amount: Decimal) -> Decimal:
    if amount <= 0:
        raise ValidationFailed.for_field("amount", "must be greater than 0")
    return amount


def _active_account(table: Table, company_id: int, account_id: int, field: str) -> dict[str, Any]:
    account = get_account(table, company_id, account_id)
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
                description: str | None = None, statement_line_id: int | None = None) -> dict[str, Any]:
    """The manual transaction and its entry, built into the caller's transaction and journal
    writes (a statement line matched by creating one). With `tax_rate` the amount includes the
    tax: the counter account takes the base, the tax goes to the account the determination rules
    give for tax on purchases (money out: input tax, a debit) or on sales (money in: output tax,
    a credit). `field` names the counter account in a refusal."""
    table, company_id = command.table, command.company_id
    try:
        counter = chart.get_account(table, company_id, fields["chartOfAccountId"])
    except ApiError:
        raise ValidationFailed.for_field(field, "no such account") from None
    if not counter.get("isActive", True):
        raise ValidationFailed.for_field(field, "the account is inactive")
    if counter["id"] == account["chartOfAccountId"]:
        raise ValidationFailed.for_field(field, "must differ from the bank's own ledger account")
    control_accounts.refuse_control_accounts(table, company_id, [(field, counter["id"])])
    amount, date = _positive(fields["amount"]), fields["transactionDate"]
    base = _in_company_currency(command, account, amount, date, fields)
    money_in = DIRECTION[fields["type"]] == MONEY_IN
    tx_id = next_transaction_id(table, company_id)
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
        account = get_account(table, company_id, int(item["bankAccountId"]))
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
    update, values = "SET reversedBy = :reversal", {":reversal": reversal_id}
    if freed_line is None:
        condition = "attribute_exists(PK) AND attribute_not_exists(statementLineId)"
    else:
        update, condition, values[":line"] = update + " REMOVE statementLineId", "statementLineId = :line", freed_line
    if unreconciled:
        condition, values[":no"] = condition + " AND reconciled = :no", False
    transaction.update(transaction_key(company_id, item), update, condition=condition, values=values, on_fail=on_fail)


def _in_company_currency(command: Command, account: dict[str, Any], amount: Decimal, date: str,
                         fields: dict[str, Any]) -> Decimal:
    """A bank account in a foreign currency holds that currency; its ledger account, in the
    books, moves by the amount at the day's rate (`exchangeRate` when sent, by the caller)."""
    table = command.table
    rate = exchange_rates.rate_for(table, exchange_rates.company_of(table, command.company_id), account.get("currency"),
                                   date, fields.get("exchangeRate"), sender=command.principal)
    return converted(amount, rate, "exchangeRate")


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
                  lines: Mapping[int, int] | None = None) -> dict[str, Any]:
    """A transfer built into the caller's transaction and journal writes; `lines`: the statement
    line matched to a side, by its account (the other side stays unmatched)."""
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
        description=with_reference(book_text("bank_transfer", source=source["name"], target=target["name"]), reference),
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
