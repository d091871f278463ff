"""What each kind of statement-line match writes into the command's transaction, and what undoing
it writes (services/statements/matching.py runs them beside the line's own change):
- transaction: the bank transaction takes the line's id (a pending payment's is confirmed with it);
- documents: one payment per document, into the line's bank account (payments/payment_records.py
  builds each; the account, the partners and the ledger are moved once, by their sums);
- create: a deposit or withdrawal with its entry (bank_transactions.manual_into), the tax split off;
- transfer: a transfer between own accounts, this account's side matched, the other's left for
  that account's line; when the other account's line booked it already, its side waiting here is
  matched instead (`existingTransfer`: an unmatch frees that side only).
Each returns the match as the line stores it (services/statements/__init__.py)."""
from __future__ import annotations

from datetime import date as Date
from datetime import timedelta
from decimal import Decimal
from typing import Any

from chalicelib.domain import documents as document_rules
from chalicelib.domain import taxes
from chalicelib.errors import ApiError, NotFound, ValidationFailed
from chalicelib.messages.books import book_text
from chalicelib.messages.phrases import Phrase
from chalicelib.services import records
from chalicelib.services.accounting.posting import JournalWrites
from chalicelib.services.banking import bank_transactions, banking
from chalicelib.services.commands import Command
from chalicelib.services.identity import accounts
from chalicelib.services.integrations import gateway_payouts
from chalicelib.services.payments import payments
from chalicelib.services.payments.payment_records import CANCELLED, PENDING, active_method, method_payment, payable_kind
from chalicelib.services.sales_purchases.documents import get_document
from chalicelib.store import keys
from chalicelib.store.repositories import bank_transactions as bank_transaction_store
from chalicelib.store.table import Table
from chalicelib.store.transaction import Transaction


class MatchRefused(ApiError):
    """A refusal of this use case: each raise names its code."""


def already_matched() -> MatchRefused:
    return MatchRefused("The bank transaction is already matched to a statement line.",
                        code="BANK_TRANSACTION_ALREADY_MATCHED")


def _other_side_matched() -> MatchRefused:
    return MatchRefused("The transfer's other side is matched to a line of the other account: unmatch it there "
                        "first.", code="BANK_TRANSACTION_ALREADY_MATCHED")


def _reconciled() -> MatchRefused:
    return MatchRefused("A bank transaction of the match is reconciled: the line cannot be unmatched.",
                        code="STATEMENT_LINE_RECONCILED")


MISMATCH = "MATCH_AMOUNT_MISMATCH"


def _reversed() -> ValidationFailed:
    """A transaction reversed, or a reversal (a cancelled payment's included): in the books the
    two cancel out, so neither stands for a line of the bank's."""
    return ValidationFailed.for_field("transactionId", "the transaction was reversed, or reverses another: the two "
                                                       "cancel out in the books")


def get_transaction(table: Table, company_id: int, account_id: int, tx_id: int) -> dict[str, Any]:
    """A bank transaction of this account by its id (its pointer gives its date)."""
    pointer = table.get(keys.bank_transaction_pointer(company_id, account_id, tx_id))
    item = table.get(keys.bank_transaction(company_id, account_id, pointer["transactionDate"], tx_id)) \
        if pointer is not None else None
    if item is None:
        raise NotFound("Bank transaction not found.")
    return item


def _transaction_key(company_id: int, item: dict[str, Any]) -> keys.Key:
    return bank_transactions.transaction_key(company_id, item)


def _line_amount(line: dict[str, Any]) -> Decimal:
    amount = Decimal(line["amount"])
    if amount == 0:
        raise ValidationFailed.for_field("amount", "the line moves no money: ignore it instead", code=MISMATCH)
    return amount


# --- match ------------------------------------------------------------------------------------------

def to_transaction(command: Command, transaction: Transaction, account: dict[str, Any], line: dict[str, Any],
                   tx_id: int) -> dict[str, Any]:
    """An existing transaction of this account, not matched yet, the line's direction and amount
    to the cent. A pending payment's transaction: the bank's line confirms the payment (and an
    unmatch leaves it confirmed: the money did move)."""
    table, company_id = command.table, command.company_id
    item = get_transaction(table, company_id, account["id"], tx_id)
    if item.get("statementLineId") is not None:
        raise already_matched()
    if bank_transactions.is_reversal_pair(item):
        raise _reversed()
    amount = _line_amount(line)
    if bank_transactions.signed(item) != amount:
        raise ValidationFailed.for_field("transactionId", Phrase("the transaction moves {}, the line {}",
                                                                 bank_transactions.signed(item), amount),
                                         code=MISMATCH)
    match: dict[str, Any] = {"kind": "transaction", "transactionIds": [tx_id]}
    if item.get("paymentId") is not None and item.get("documentId") is not None:
        payment = payments.get_payment(table, company_id, int(item["documentId"]), int(item["paymentId"]))
        if payment["status"] == CANCELLED:   # cancelled before reversals were marked
            raise _reversed()
        if payment["status"] == PENDING and payment.get("bankTransactionId") == tx_id:
            payments.confirm_into(transaction, company_id, payment)
            match["confirmedPaymentId"] = payment["id"]
    # a reversal meanwhile marks it: the loser is told it is taken (its line is then freed again)
    bank_transaction_store.match_to_line(transaction, _transaction_key(company_id, item), line["id"], already_matched())
    return match


def _method_for(table: Table, company_id: int, account: dict[str, Any], method_id: int | None) -> dict[str, Any]:
    """The payment method given (it must move this account), else the company's active one that does."""
    if method_id is not None:
        method = active_method(table, company_id, {"paymentMethodId": method_id})
        if method.get("bankAccountId") != account["id"]:
            raise ValidationFailed.for_field("paymentMethodId", "its money does not move through this bank account")
        return method
    for method in records.small_records(table, company_id, keys.PAYMENT_METHOD):
        if method.get("isActive", True) and method.get("bankAccountId") == account["id"]:
            return method
    raise ValidationFailed.for_field("paymentMethodId", "no active payment method moves money through this bank "
                                                        "account: create one or name one")


def to_documents(command: Command, transaction: Transaction, writes: JournalWrites, account: dict[str, Any],
                 line: dict[str, Any], wanted: list[dict[str, Any]], method_id: int | None) -> dict[str, Any]:
    """One payment per document, on the line's date, adding up to the line to the cent: all sales
    (money in) or all purchases (money out), as the line's sign says, in the account's currency."""
    table, company_id = command.table, command.company_id
    amount = _line_amount(line)
    total = sum((Decimal(str(part["amount"])) for part in wanted), Decimal(0))
    if total != abs(amount):
        raise ValidationFailed.for_field("documents", Phrase("the documents' amounts add up to {}, the line to {}",
                                                             total, abs(amount)), code=MISMATCH)
    first_seen: dict[int, int] = {}
    for index, part in enumerate(wanted):
        if part["documentId"] in first_seen:
            raise ValidationFailed.for_field(f"documents[{index}].documentId",
                                             Phrase("already named in documents[{}]", first_seen[part['documentId']]))
        first_seen[part["documentId"]] = index
    method = _method_for(table, company_id, account, method_id)
    money_in = amount > 0
    made = []
    for index, part in enumerate(wanted):
        field = f"documents[{index}]"
        try:
            document = get_document(table, company_id, int(part["documentId"]))
        except NotFound:
            raise ValidationFailed.for_field(f"{field}.documentId", "no such document") from None
        if document["type"] in document_rules.ADVANCE_OPERATION:
            raise ValidationFailed.for_field(f"{field}.documentId", "an advance is registered as a payment of its "
                                                                    "order, not matched to a line")
        kind = payable_kind(document)
        if document_rules.money_comes_in(kind) != money_in:
            raise ValidationFailed.for_field(f"{field}.documentId", "money in pays sales documents, money out "
                                                                    "purchase documents: the line goes the other way")
        if document.get("currency") != account.get("currency"):
            raise ValidationFailed.for_field(f"{field}.documentId",
                    Phrase("it is in {}, the bank account in {}", document.get('currency'), account.get('currency')))
        if line["date"] < document["date"]:
            raise ValidationFailed.for_field(f"{field}.documentId",
                    Phrase("dated {}, after the line", document['date']))
        payment = method_payment(command, transaction, writes, document, kind, method,
                                 {"paymentMethodId": method["id"], "amount": Decimal(str(part["amount"])),
                                  "paymentDate": line["date"], "reference": line.get("reference")},
                                 field=f"{field}.amount", statement_line_id=line["id"])
        made.append(payment)
    return {"kind": "documents", "transactionIds": [payment["bankTransactionId"] for payment in made],
            "paymentIds": [payment["id"] for payment in made],
            "documents": [{"documentId": payment["documentId"], "amount": payment["amount"], "paymentId": payment["id"]}
                          for payment in made]}


def to_new_transaction(command: Command, transaction: Transaction, writes: JournalWrites, account: dict[str, Any],
                       line: dict[str, Any], create: dict[str, Any]) -> dict[str, Any]:
    """A deposit (money in) or withdrawal (money out) of the line's amount against the account
    given; with a tax rate the amount includes the tax (bank_transactions.manual_into splits it off)."""
    table, company_id = command.table, command.company_id
    amount = _line_amount(line)
    partner_id = create.get("businessPartnerId")
    if partner_id is not None and table.get(keys.entity(company_id, keys.PARTNER, int(partner_id))) is None:
        raise ValidationFailed.for_field("create.businessPartnerId", "no such business partner")
    rate = create.get("taxRate")
    if rate is not None:
        taxes.check_rate_for_country(accounts.company_country(table, company_id), Decimal(str(rate)), "create.taxRate")
    item = bank_transactions.manual_into(
        command, transaction, writes, account,
        {"type": "deposit" if amount > 0 else "withdrawal", "amount": abs(amount), "transactionDate": line["date"],
         "reference": line.get("reference"), "chartOfAccountId": create["chartOfAccountId"]},
        field="create.chartOfAccountId", tax_rate=Decimal(str(rate)) if rate is not None else None,
        description=create["description"], statement_line_id=line["id"])
    match = {"kind": "create", "transactionIds": [item["id"]], "journalEntryId": item["journalEntryId"]}
    if partner_id is not None:
        match["businessPartnerId"] = int(partner_id)
    return match


def to_transfer(command: Command, transaction: Transaction, writes: JournalWrites, account: dict[str, Any],
                line: dict[str, Any], other_id: int) -> dict[str, Any]:
    """Money out of this account went to the other one (money in came from it): the transfer
    both ways and its one entry; this account's side carries the line, the other side waits for
    the other account's line to match it by its id. The other account a card gateway's
    clearing account (a payout arriving): the transfer booked when the payout was entered is
    looked for within CLEARING_WINDOW_DAYS, and a new one never takes more than clearing holds
    (gateway_payouts.hold_clearing_balance, as an entered payout)."""
    table, company_id = command.table, command.company_id
    amount = _line_amount(line)
    if other_id == account["id"]:
        raise ValidationFailed.for_field("transferToAccountId", "must be another bank account")
    try:
        other = banking.get_bank_account(table, company_id, other_id)
    except NotFound:
        raise ValidationFailed.for_field("transferToAccountId", "no such bank account") from None
    outgoing = amount < 0
    clearing = gateway_payouts.clearing_gateway(table, company_id, other_id) is not None
    waiting = _waiting_transfer(table, company_id, account["id"], other_id, line,
                                CLEARING_WINDOW_DAYS if clearing else TRANSFER_WINDOW_DAYS)
    if waiting is not None:
        this_side, other_side = waiting
        bank_transaction_store.match_to_line(transaction, _transaction_key(command.company_id, this_side), line["id"],
                                             already_matched())
        return {"kind": "transfer", "transactionIds": [int(this_side["id"])], "transferToAccountId": other_id,
                "otherTransactionId": int(other_side["id"]), "journalEntryId": int(this_side["journalEntryId"]),
                "existingTransfer": True}
    if clearing and not outgoing:   # money out of the clearing account: a payout
        gateway_payouts.hold_clearing_balance(transaction, company_id, other, abs(amount), "transferToAccountId")
    mine, theirs = ("fromAccountId", "toAccountId") if outgoing else ("toAccountId", "fromAccountId")
    built = bank_transactions.transfer_into(
        command, transaction, writes,
        {mine: account["id"], theirs: other_id, "amount": abs(amount), "transactionDate": line["date"],
         "reference": line.get("reference")},
        from_field="bankAccountId" if outgoing else "transferToAccountId",
        to_field="transferToAccountId" if outgoing else "bankAccountId", lines={account["id"]: line["id"]})
    this_side, other_side = (built["outgoing"], built["incoming"]) if outgoing else (built["incoming"], built["outgoing"])
    return {"kind": "transfer", "transactionIds": [this_side["id"]], "transferToAccountId": other_id,
            "otherTransactionId": other_side["id"], "journalEntryId": built["journalEntryId"]}


TRANSFER_WINDOW_DAYS = 7
# a payout entered by hand (POST /payments/gateways/{id}/payouts) whose bank line comes later than
# a week: the providers pay out on their own schedule (issue 43)
CLEARING_WINDOW_DAYS = 30


def _waiting_transfer(table: Table, company_id: int, account_id: int, other_id: int,
                      line: dict[str, Any], window: int) -> tuple[dict[str, Any], dict[str, Any]] | None:
    """The transfer already booked (the other account's line matched with `transferToAccountId`,
    or a gateway's payout entered): this account's side matched to no line, neither reversed
    nor a reversal, the line's direction and amount, dated within `window` days of it, whose
    other side (the same entry) is on `other_id`. The closest in date; (this side, the other
    side), or None."""
    amount = Decimal(line["amount"])
    wanted_type = "transfer_in" if amount > 0 else "transfer_out"
    low, high = _day(line["date"], -window), _day(line["date"], window)
    mine = bank_transaction_store.dated_between(table, company_id, account_id, low, high)
    candidates = sorted((item for item in mine if item.get("type") == wanted_type and bank_transactions.signed(item) == amount
                         and item.get("statementLineId") is None and not bank_transactions.is_reversal_pair(item)
                         and item.get("journalEntryId") is not None),
                        key=lambda item: (abs(_days_between(item["transactionDate"], line["date"])), int(item["id"])))
    for item in candidates:
        theirs = bank_transaction_store.dated_between(table, company_id, other_id, item["transactionDate"],
                                                      item["transactionDate"])
        for other in theirs:
            if other.get("journalEntryId") == item["journalEntryId"] and other.get("type") == banking.REVERSED_TYPE[
                    wanted_type] and not bank_transactions.is_reversal_pair(other):
                return item, other
    return None


def _day(date: str, shift: int) -> str:
    return (Date.fromisoformat(date[:10]) + timedelta(days=shift)).isoformat()


def _days_between(first: str, second: str) -> int:
    return (Date.fromisoformat(first[:10]) - Date.fromisoformat(second[:10])).days


# --- unmatch ----------------------------------------------------------------------------------------

def undo(command: Command, transaction: Transaction, writes: JournalWrites, line: dict[str, Any], date: str) -> None:
    """What the line's match wrote, undone on `date`: each of its transactions freed of the line
    (none may be reconciled: a completion meanwhile makes this fail), then what the match made
    cancelled or reversed, each original naming its reversal in that same update (one operation
    per item: bank_transactions.mark_reversed)."""
    table, company_id, match = command.table, command.company_id, line["match"]
    mine = [get_transaction(table, company_id, int(line["bankAccountId"]), int(tx_id))
            for tx_id in match["transactionIds"]]
    if any(item.get("reconciled") for item in mine):
        raise _reconciled()
    reason = book_text("statement_line_unmatched", line=line["id"])
    reversed_by: dict[int, int] = {}   # an original of `mine` -> its reversal
    freed_by_payment: set[int] = set()
    if match["kind"] == "documents":
        for part in match["documents"]:
            payment = payments.get_payment(table, company_id, int(part["documentId"]), int(part["paymentId"]))
            if payment["status"] == CANCELLED:  # cancelled by hand meanwhile: nothing left of it to undo
                continue
            payments.cancel_into(command, transaction, writes, payment, reason, date, freed_line=line["id"],
                                 on_fail=_reconciled())
            if (bank_tx_id := payment.get("bankTransactionId")) is not None:  # a matched payment moved the bank
                freed_by_payment.add(bank_tx_id)
    elif match["kind"] == "create":
        reversals = bank_transactions.reverse_into(command, transaction, writes, mine, date, reason)
        reversed_by = {int(item["id"]): reversal["id"] for item, reversal in zip(mine, reversals, strict=True)}
    elif match["kind"] == "transfer" and not match.get("existingTransfer"):
        other = get_transaction(table, company_id, int(match["transferToAccountId"]), int(match["otherTransactionId"]))
        taken = _other_side_matched()
        if other.get("statementLineId") is not None:
            raise taken
        if other.get("reconciled"):
            raise _reconciled()
        *reversals, other_reversal = bank_transactions.reverse_into(command, transaction, writes, [*mine, other], date, reason)
        reversed_by = {int(item["id"]): reversal["id"] for item, reversal in zip(mine, reversals, strict=True)}
        bank_transactions.mark_reversed(transaction, company_id, other, other_reversal["id"], freed_line=None, unreconciled=True,
                              on_fail=taken)
    for item in mine:
        if int(item["id"]) in freed_by_payment:
            continue
        if int(item["id"]) in reversed_by:
            bank_transactions.mark_reversed(transaction, company_id, item, reversed_by[int(item["id"])], freed_line=line["id"],
                                  unreconciled=True, on_fail=_reconciled())
        else:
            bank_transaction_store.free_of_line(transaction, _transaction_key(company_id, item), line["id"],
                                                _reconciled())
